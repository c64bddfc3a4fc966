import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG, FFPROBE } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { mp4Facts } from './mp4.ts';

/** What ffprobe says of the same file, in Mp4Facts' terms: the reader must agree with it. */
async function probed(file: string) {
  const { stdout } = await runProcess(FFPROBE, ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]);
  const j = JSON.parse(stdout) as {
    streams: Array<Record<string, string | number | undefined>>;
    format: { duration: string };
  };
  const v = j.streams.find((s) => s.codec_type === 'video');
  const a = j.streams.find((s) => s.codec_type === 'audio');
  const end = (s: typeof v) => (s ? Number(s.start_time ?? 0) + Number(s.duration ?? 0) : null);
  return {
    width: v?.width,
    height: v?.height,
    sar: v?.sample_aspect_ratio ?? '1:1',
    duration: Number(j.format.duration),
    sampleRate: a ? Number(a.sample_rate) : null,
    channels: a ? Number(a.channels) : null,
    videoEnd: end(v),
    audioEnd: end(a),
  };
}

/** Encodes a test picture and tone the way a case asks (sizes, SAR, audio layout, a delayed start). */
async function encode(
  file: string,
  args: { video: string; audio?: string; channels?: number; filters?: string; extra?: string[] },
) {
  await runProcess(FFMPEG, [
    ...['-v', 'error', '-y', ...(args.extra ?? []), '-f', 'lavfi', '-i', args.video],
    ...(args.audio ? ['-f', 'lavfi', '-i', args.audio] : []),
    ...(args.filters ? ['-vf', args.filters] : []),
    ...(args.channels ? ['-ac', String(args.channels)] : []),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-movflags', '+faststart', file],
  ]);
}

describe('mp4Facts', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-mp4-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const cases: Array<[string, Parameters<typeof encode>[1]]> = [
    [
      'a render-like file: square pixels, 48 kHz stereo, audio longer than video',
      {
        video: 'testsrc=s=720x1280:d=2:r=30',
        audio: 'sine=d=2.5:r=48000',
        channels: 2,
        filters: 'setsar=1',
      },
    ],
    [
      'non-square pixels and 44.1 kHz mono',
      { video: 'testsrc=s=720x1280:d=2:r=30', audio: 'sine=d=1.5:r=44100', channels: 1, filters: 'setsar=4/3' },
    ],
    ['no audio, no SAR given', { video: 'testsrc=s=576x1024:d=1:r=25' }],
    [
      'a video that starts late (an empty edit)',
      { video: 'testsrc=s=320x240:d=1:r=30', audio: 'sine=d=2:r=48000', extra: ['-itsoffset', '0.5'] },
    ],
  ];

  it.each(cases)('agrees with ffprobe: %s', async (_name, args) => {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.mp4`);
    await encode(file, args);
    const [mine, theirs] = await Promise.all([mp4Facts(file), probed(file)]);
    expect(mine.width).toBe(theirs.width);
    expect(mine.height).toBe(theirs.height);
    expect(mine.sar).toBe(theirs.sar);
    expect(mine.duration).toBeCloseTo(theirs.duration, 3);
    expect(mine.sampleRate).toBe(theirs.sampleRate);
    expect(mine.channels).toBe(theirs.channels);
    expect(mine.video?.end ?? null).toBeCloseTo(theirs.videoEnd ?? 0, 3);
    if (theirs.audioEnd === null) expect(mine.audio).toBeNull();
    else expect(mine.audio?.end).toBeCloseTo(theirs.audioEnd, 3);
  });

  it('refuses a file that is not an MP4', async () => {
    const file = path.join(dir, 'not.mp4');
    await runProcess(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=d=0.2', file.replace('.mp4', '.wav')]);
    await expect(mp4Facts(file.replace('.mp4', '.wav'))).rejects.toThrow(/moov/);
  });
});
