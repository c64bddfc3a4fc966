import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_MESSAGES, PhotoFace } from '@hookreel/contracts';
import { analyzePortrait, descriptorSimilarity, judgePortrait } from './analyze.ts';
import { detectImage, stopFaceDetector, type RawImage } from './face-worker.ts';
import { portraitFixture, type PortraitFixture } from './fixtures.ts';

let dir: string;
const write = async (kind: PortraitFixture): Promise<string> => {
  const file = path.join(dir, `${kind}.${kind === 'dim' ? 'jpg' : 'png'}`);
  await writeFile(file, await portraitFixture(kind));
  return file;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookreel-face-'));
});
afterAll(async () => {
  stopFaceDetector();
  await rm(dir, { recursive: true, force: true });
});

describe('analyzePortrait on the astronaut portrait and photos derived from it', () => {
  it('finds 478 points, the pose, open eyes and the boxes of a usable portrait', async () => {
    const r = await analyzePortrait(await write('portrait'));
    if (!r.ok) throw new Error(`refused: ${r.reason} ${r.detail}`);
    const f = PhotoFace.parse(r.face);
    expect(f.points).toHaveLength(478);
    expect(f.imageSize).toEqual({ width: 800, height: 800 });
    expect(Math.abs(f.pose.yaw)).toBeLessThan(10);
    expect(f.eyesOpen.left).toBeGreaterThan(0.25);
    expect(f.eyesOpen.right).toBeGreaterThan(0.25);
    // The mouth sits in the lower half of the face box, the eyes' iris points in its upper half.
    expect(f.mouthBox.y).toBeGreaterThan(f.faceBox.y + f.faceBox.height / 2);
    expect(f.points[468]![1]).toBeLessThan(f.faceBox.y + f.faceBox.height / 2);
    expect(f.faceBox.height).toBeGreaterThan(200);
  }, 60_000);

  it.each(['mirrored', 'dim'] as const)(
    'accepts the %s portrait',
    async (kind) => {
      const r = await analyzePortrait(await write(kind));
      expect(r.ok ? 'ok' : `${r.reason}: ${r.detail}`).toBe('ok');
    },
    60_000,
  );

  it.each([
    ['too-small', 'too-small'],
    ['no-face', 'no-face'],
    ['many-faces', 'many-faces'],
    ['tilted', 'turned'],
    ['eyes-closed', 'eyes-closed'],
    ['mouth-covered', 'mouth-covered'],
    ['mouth-covered-hand', 'mouth-covered'],
  ] as const)(
    'refuses the %s photo as %s, with the message the uploader reads',
    async (kind, reason) => {
      const r = await analyzePortrait(await write(kind));
      expect(r.ok ? 'ok' : r.reason).toBe(reason);
      if (!r.ok) expect(r.message).toBe(FACE_MESSAGES[reason]);
    },
    60_000,
  );

  it('refuses a head turned past 25° and keeps one turned 20° (the pose limit on a real detection)', async () => {
    const file = await write('portrait');
    const raw = await detectImage(file);
    const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const img = { data, width: info.width, height: info.height };
    const turned = (yawDeg: number): RawImage => ({
      ...raw,
      faces: raw.faces.map((f) => ({ ...f, angle: { yaw: (yawDeg * Math.PI) / 180, pitch: 0, roll: 0 } })),
    });
    expect(judgePortrait(turned(20), img).ok).toBe(true);
    const r = judgePortrait(turned(30), img);
    expect(r.ok ? 'ok' : r.reason).toBe('turned');
  }, 60_000);

  it('a detector process that dies fails its request, and the next request starts a new one', async () => {
    const file = await write('portrait');
    const asked = detectImage(file);
    stopFaceDetector();
    await expect(asked).rejects.toThrow(/face detector stopped/);
    const again = await detectImage(file);
    expect(again.faces).toHaveLength(1);
    expect(again.faces[0]!.mesh).toHaveLength(478);
  }, 60_000);

  it('gives the same face a near-identical descriptor in the mirrored photo', async () => {
    const a = await analyzePortrait(await write('portrait'));
    const b = await analyzePortrait(await write('mirrored'));
    if (!a.ok || !b.ok) throw new Error('portrait refused');
    expect(descriptorSimilarity(a.face.descriptor, b.face.descriptor)).toBeGreaterThan(0.8);
  }, 60_000);
});
