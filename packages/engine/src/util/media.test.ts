import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { concatFileLine, FFMPEG, mediaDurationSec, parseWavDuration, wavDurationSec } from './media.ts';
import { runProcess } from './process.ts';
import { tempDirForTests } from './temp-dir.fixture.ts';

describe('WAV length from the header', () => {
  const tmp = tempDirForTests('hookreel-wav-');

  it.each([
    ['48 kHz mono, as the voices are stored', ['-ac', '1', '-ar', '48000'], 2.345],
    ['48 kHz stereo 16-bit, as the sound track is', ['-ac', '2', '-ar', '48000', '-c:a', 'pcm_s16le'], 7.5],
    [
      '16 kHz mono with metadata (a LIST chunk before the data)',
      ['-ac', '1', '-ar', '16000', '-metadata', 'title=x'],
      1.01,
    ],
  ])('%s: the same as ffprobe', async (_name, args, seconds) => {
    const file = path.join(tmp.path, `${seconds}.wav`);
    await runProcess(FFMPEG, ['-y', '-v', 'error', '-f', 'lavfi', '-i', `sine=f=440:d=${seconds}`, ...args, file]);
    const fromHeader = await wavDurationSec(file);
    expect(fromHeader).toBeCloseTo(seconds, 3);
    expect(fromHeader).toBeCloseTo(await mediaDurationSec(file), 3);
  });

  it('refuses what is not a PCM WAV with sizes (and wavDurationSec then asks ffprobe)', async () => {
    expect(parseWavDuration(Buffer.from('ID3\x03 not a wav at all'), 20)).toBeNull();
    const streamed = Buffer.alloc(44);
    streamed.write('RIFF', 0, 'ascii');
    streamed.write('WAVE', 8, 'ascii');
    streamed.write('fmt ', 12, 'ascii');
    streamed.writeUInt32LE(16, 16);
    streamed.writeUInt16LE(1, 20);
    streamed.writeUInt32LE(96000, 28);
    streamed.write('data', 36, 'ascii');
    streamed.writeUInt32LE(0xffffffff, 40);
    expect(parseWavDuration(streamed, 44)).toBeNull();
    const aac = path.join(tmp.path, 'tone.m4a');
    await runProcess(FFMPEG, ['-y', '-v', 'error', '-f', 'lavfi', '-i', 'sine=f=440:d=1.5', '-c:a', 'aac', aac]);
    expect(await wavDurationSec(aac)).toBeCloseTo(1.5, 1);
  });
});

describe('concat list lines', () => {
  it('name files whose path holds a quote so that ffmpeg reads them', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-concat-'));
    try {
      const own = path.join(dir, "it's here");
      await mkdir(own);
      const frames = [0, 200].map((grey) =>
        Buffer.concat([
          Buffer.from('YUV4MPEG2 W16 H16 F30:1 Ip A1:1 C420jpeg\nFRAME\n'),
          Buffer.alloc(16 * 16, grey),
          Buffer.alloc(2 * 8 * 8, 128),
        ]),
      );
      const files = frames.map((_, i) => path.join(own, `pose '${i}'.y4m`));
      await Promise.all(files.map((f, i) => writeFile(f, frames[i]!)));
      const list = path.join(dir, 'list.txt');
      await writeFile(list, files.map((f) => `${concatFileLine(f)}\n`).join(''));
      const out = path.join(dir, 'out.yuv');
      await runProcess(FFMPEG, [
        ...['-v', 'error', '-f', 'concat', '-safe', '0', '-i', list],
        ...['-f', 'rawvideo', '-pix_fmt', 'yuv420p', out],
      ]);
      // Both frames, in order, as they were: luma 0 in the first, 200 in the second.
      const pixels = await readFile(out);
      const frameBytes = (16 * 16 * 3) / 2;
      expect(pixels.length).toBe(2 * frameBytes);
      expect(pixels[0]).toBe(0);
      expect(pixels[frameBytes]).toBe(200);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
