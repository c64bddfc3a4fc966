import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { parseEbur128 } from './ebur128.ts';
import { graphFilename, meterCommand, meterLoudness, staticFfprobe } from './meter.ts';

/**
 * An MP4 whose sound is quiet for `quietSec` and then a loud tone for 3 s, in AAC as our videos carry it: a meter
 * that stopped reading early would find it near silent.
 */
async function loudAtTheEnd(file: string, quietSec: number): Promise<void> {
  const tone = `aevalsrc='if(lt(t,${quietSec}),0.002,0.5)*sin(2*PI*440*t)|if(lt(t,${quietSec}),0.002,0.5)*sin(2*PI*660*t)':s=48000:d=${quietSec + 3}`;
  await runProcess(FFMPEG, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=black:s=64x64:r=30', '-f', 'lavfi', '-i', tone],
    ...['-shortest', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-b:a', '160k', file],
  ]);
}

/** Debian ffmpeg's meter on the same file, as the report ran it before the static ffprobe. */
async function ffmpegMeter(file: string) {
  const { cmd, args } = meterCommand(file, null);
  expect(cmd).toBe(FFMPEG);
  return parseEbur128((await runProcess(cmd, args)).stderr);
}

describe('the report’s loudness meter', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-meter-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('uses the static ffprobe on linux x64', () => {
    const probe = staticFfprobe();
    if (process.platform === 'linux' && process.arch === 'x64') expect(probe).toMatch(/ffprobe$/);
    else expect(probe).toBeNull();
  });

  it('reads the whole track, as ffmpeg’s run does, in a folder whose name needs escaping', async () => {
    const odd = path.join(dir, "it's [a], b; c:d \\ e");
    await mkdir(odd);
    const file = path.join(odd, 'video.mp4');
    await loudAtTheEnd(file, 6);
    const mine = await meterLoudness(file);
    const theirs = await ffmpegMeter(file);
    // The loud last 3 s set both figures: a meter that read only the quiet start would give about -50 LUFS.
    expect(theirs.integrated).toBeGreaterThan(-12);
    expect(mine.integrated).not.toBeNull();
    expect(Math.abs(mine.integrated! - theirs.integrated!)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(mine.truePeak! - theirs.truePeak!)).toBeLessThanOrEqual(0.1);
  });

  it('escapes a path for both of FFmpeg’s quoting levels', () => {
    expect(graphFilename('/a/b.mp4')).toBe('/a/b.mp4');
    expect(graphFilename("/x:y/it's,[1];\\.mp4")).toBe("/x\\\\:y/it\\\\\\'s\\,\\[1\\]\\;\\\\\\\\.mp4");
  });
});
