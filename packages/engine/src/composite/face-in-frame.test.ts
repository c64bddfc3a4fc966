import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PhotoFace } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzePortrait, stopFaceDetector } from '../photo/index.ts';
import { portraitFixture } from '../photo/fixtures.ts';
import { faceInFrame, frameOf } from './index.ts';

/** A Draft merge's still is the photo framed by `frameOf`: the stored points, carried over, land on its face. */
describe('face points in the merged frame', () => {
  let dir: string;
  let photo: string;
  let face: PhotoFace;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'face-in-frame-'));
    photo = path.join(dir, 'portrait.png');
    await writeFile(photo, await portraitFixture('portrait'));
    const a = await analyzePortrait(photo);
    if (!a.ok) throw new Error(a.reason);
    face = a.face;
  }, 60_000);
  afterAll(async () => {
    await stopFaceDetector();
    await rm(dir, { recursive: true, force: true });
  });

  it('maps the photo points through the cover scale and the crop, where detection on the frame finds them', async () => {
    const framed = path.join(dir, 'framed.png');
    await frameOf(photo).png().toFile(framed);
    const mapped = await faceInFrame(photo, face);
    expect(mapped?.imageSize).toEqual({ width: 576, height: 1024 });
    const found = await analyzePortrait(framed);
    if (!found.ok) throw new Error(found.reason);
    // The 800 px square photo is scaled to 1024 and cropped across: the face moves, the points must follow.
    const moved = Math.abs(mapped!.points[1]![0] - face.points[1]![0]);
    expect(moved).toBeGreaterThan(20);
    const err =
      mapped!.points.reduce(
        (a, p, i) => a + Math.hypot(p[0] - found.face.points[i]![0], p[1] - found.face.points[i]![1]),
        0,
      ) / mapped!.points.length;
    // Two detections of one face differ by a pixel or two (the face is ~330 px tall here).
    expect(err).toBeLessThan(3);
    expect(Math.abs(mapped!.faceBox.x - found.face.faceBox.x)).toBeLessThan(6);
    expect(mapped!.descriptor).toEqual(face.descriptor);
  }, 60_000);

  it('refuses points found on another picture', async () => {
    expect(await faceInFrame(photo, { ...face, imageSize: { width: 640, height: 800 } })).toBeNull();
  });
});
