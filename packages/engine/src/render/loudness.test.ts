import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEbur128 } from '../report/ebur128.ts';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { pcmWav } from '../util/wav.ts';
import { integratedLoudness, readPcmWav } from './loudness.ts';
import { tempDirForTests } from '../util/temp-dir.fixture.ts';

/** A 16-bit mono WAV of `samples` at `rate`. */
const wav = (rate: number, samples: Float32Array): Buffer =>
  pcmWav(
    Int16Array.from(samples, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32767)))),
    rate,
  );

/** Speech-like test signal: bursts of mixed tones with pauses, so both gates have work to do. */
function bursts(rate: number, seconds: number): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) {
    const t = i / rate;
    const on = Math.floor(t / 0.7) % 3 !== 2 ? 1 : 0.01;
    const level = 0.05 + 0.25 * Math.abs(Math.sin(t * 1.3));
    out[i] = on * level * (Math.sin(2 * Math.PI * 220 * t) + 0.5 * Math.sin(2 * Math.PI * 1800 * t)) * 0.6;
  }
  return out;
}

/** ffmpeg's meter on the WAV heard as our videos have it (stereo at 48 kHz, 0.4 s of silence after). */
async function ffmpegLoudness(file: string): Promise<number | null> {
  const { stderr } = await runProcess(FFMPEG, [
    ...['-hide_banner', '-nostats', '-i', file, '-filter_complex'],
    '[0:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,apad=pad_dur=0.4,ebur128',
    ...['-f', 'null', '-'],
  ]);
  return parseEbur128(stderr).integrated;
}

describe('integratedLoudness', () => {
  const tmp = tempDirForTests('hookreel-loudness-');

  it.each([16000, 22050, 32000, 48000])('agrees with ffmpeg’s meter within 0.2 LU at %i Hz', async (rate) => {
    const file = path.join(tmp.path, `bursts-${rate}.wav`);
    await writeFile(file, wav(rate, bursts(rate, 6)));
    const pcm = await readPcmWav(file);
    expect(pcm?.sampleRate).toBe(rate);
    const mine = integratedLoudness(pcm!, { padSec: 0.4 });
    const theirs = await ffmpegLoudness(file);
    expect(mine).not.toBeNull();
    expect(Math.abs(mine! - theirs!)).toBeLessThanOrEqual(0.2);
  });

  it('gives null for silence and refuses what is not 16-bit PCM', async () => {
    const silent = path.join(tmp.path, 'silent.wav');
    await writeFile(silent, wav(16000, new Float32Array(16000)));
    expect(integratedLoudness((await readPcmWav(silent))!)).toBeNull();
    const mp3 = path.join(tmp.path, 'tone.mp3');
    await runProcess(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=d=0.5', mp3]);
    expect(await readPcmWav(mp3)).toBeNull();
  });
});
