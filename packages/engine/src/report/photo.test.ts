import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PhotoFace, QualityCheck } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzePortrait } from '../photo/analyze.ts';
import { stopFaceDetector } from '../photo/face-worker.ts';
import { portraitFixture } from '../photo/fixtures.ts';
import { PHOTO_VIDEO_SEC, PHOTO_VIDEO_WORDS, photoActorVideo, type PhotoVideoKind } from '../photo/video-fixtures.ts';
import {
  bestLagInTime,
  findBlinks,
  pearson,
  PHOTO_CHECKS,
  photoActorChecks,
  RING_SCALE_DEADBAND,
  ringScales,
} from './photo.ts';

describe('photo check measures', () => {
  it('correlates, finds the best lag and leaves out frames without a face', () => {
    expect(pearson([1, 2, 3, 4], [2, 4, 6, 8])).toBeCloseTo(1);
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNull();
    // A voice whose loudness rises and falls 4 times a second; the mouth, sampled 10 times a second, opens with it
    // 0.08 s ahead (it follows the sound 0.08 s later); one frame had no face.
    const voiceAt = (times: readonly number[]) => times.map((t) => Math.sin(2 * Math.PI * 4 * t));
    const times = Array.from({ length: 40 }, (_, i) => i / 10);
    const mouth: (number | null)[] = times.map((t, i) => (i === 7 ? null : Math.sin(2 * Math.PI * 4 * (t + 0.08))));
    const best = bestLagInTime(mouth, times, voiceAt, 0.16, 0.04);
    expect(best.lag).toBeCloseTo(0.08);
    expect(best.r).toBeCloseTo(1);
    // Searched only within ±0.04 s, the best is the nearest lag, with a lower correlation.
    const near = bestLagInTime(mouth, times, voiceAt, 0.04, 0.04);
    expect(near.lag).toBeCloseTo(0.04);
    expect(near.r!).toBeLessThan(0.9);
  });

  it('grows the seam rings with the face through a push-in, and holds them on a still camera', () => {
    // Eye spans read off frames: a still camera's jitter, then a push-in to 1.2 and a cut back.
    const spans = [100, 101, 99, 102, 100, 104, 108, 112, 116, 120, 120, 120, 100, 100, 99];
    const k = ringScales(spans);
    expect(k.slice(0, 5)).toEqual([1, 1, 1, 1, 1]);
    expect(k[10]).toBeCloseTo(1.2, 2);
    expect(k[k.length - 1]).toBe(1);
    expect(Math.abs(ringScales([100, 100 * (1 + RING_SCALE_DEADBAND / 2), 100])[1]! - 1)).toBe(0);
    // Frames without a face keep the scale of those around them.
    expect(ringScales([100, null, 120, 120, 120, null, 120])[5]).toBeCloseTo(1.2, 2);
  });

  it('finds blinks as dips below a share of the median openness', () => {
    const open = Array.from({ length: 50 }, (_, i) => (i === 10 || i === 11 || i === 40 ? 5 : 20));
    expect(findBlinks(open, 10, 0.55)).toEqual([1, 4]);
    expect(findBlinks(Array<number>(30).fill(20), 10, 0.55)).toEqual([]);
  });
});

/** The report's photo checks on synthetic videos of the astronaut portrait (photo/video-fixtures.ts). */
describe('photo actor checks on the finished video', () => {
  let dir: string;
  let face: PhotoFace;
  const levels = new Map<PhotoVideoKind, Record<string, QualityCheck['level']>>();
  const run = async (kind: PhotoVideoKind) => {
    const video = path.join(dir, `${kind}.mp4`);
    await photoActorVideo(video, kind);
    const r = await photoActorChecks({
      videoPath: video,
      face,
      words: PHOTO_VIDEO_WORDS,
      sceneEndSec: PHOTO_VIDEO_SEC,
    });
    levels.set(kind, Object.fromEntries(r.checks.map((c) => [c.id, c.level])));
    return r;
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-photo-checks-'));
    const photo = path.join(dir, 'portrait.png');
    await writeFile(photo, await portraitFixture('portrait'));
    const a = await analyzePortrait(photo);
    if (!a.ok) throw new Error(`portrait refused: ${a.reason}`);
    face = a.face;
  }, 60_000);
  afterAll(async () => {
    stopFaceDetector();
    await rm(dir, { recursive: true, force: true });
  });

  it('passes a mouth that opens with the voice, blinks, the same person and a smooth warp', async () => {
    const { checks, measures } = await run('talking');
    expect(checks.map((c) => `${c.id}: ${c.level} (${c.detail})`)).toEqual(
      checks.map((c) => `${c.id}: pass (${c.detail})`),
    );
    expect(checks.map((c) => c.id)).toEqual(['face-found', 'lip-sync', 'identity', 'blinks', 'seam']);
    expect(measures.faceFound).toBe(1);
    expect(measures.lipSync).toBeGreaterThan(0.6);
    expect(measures.blinks.length).toBeGreaterThanOrEqual(2);
  }, 480_000);

  it('fails lip sync and blinks on a still photo, and keeps identity and seam', async () => {
    const { measures } = await run('still');
    expect(levels.get('still')).toMatchObject({
      'face-found': 'pass',
      'lip-sync': 'fail',
      identity: 'pass',
      blinks: 'fail',
      seam: 'pass',
    });
    expect(measures.seam).toBe(0);
  }, 480_000);

  it('fails lip sync when the mouth moves 0.4 s after the voice', async () => {
    await run('talking-late');
    expect(levels.get('talking-late')?.['lip-sync']).toBe('fail');
  }, 480_000);

  it('keeps lip sync and the seam through a camera push-in, a held close shot and a cut back', async () => {
    const { measures } = await run('talking-push');
    expect(levels.get('talking-push')).toMatchObject({ 'lip-sync': 'pass', seam: 'pass', identity: 'pass' });
    expect(measures.seam).toBeLessThan(PHOTO_CHECKS.maxSeam);
  }, 480_000);

  it('fails the seam check on a hard-edged warp filmed through the same push-in', async () => {
    const { measures } = await run('talking-seam-push');
    expect(levels.get('talking-seam-push')).toMatchObject({ seam: 'fail' });
    expect(measures.seam).toBeGreaterThan(15);
  }, 480_000);

  it('fails the seam check when the warped region moves without fading at its edge', async () => {
    const { measures } = await run('talking-seam');
    expect(levels.get('talking-seam')).toMatchObject({ 'lip-sync': 'pass', seam: 'fail' });
    expect(measures.seam).toBeGreaterThan(15);
  }, 480_000);
});
