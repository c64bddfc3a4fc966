import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFromDescription } from '../actors/index.ts';
import { REST_POSE, VISEMES } from '../actors/rig.ts';
import { renderTalkingVideo } from '../pipeline.ts';
import { measureMouthMotion } from './check.ts';
import { prepareProduct, renderRigFrame } from './frames.ts';
import { boxAtTime } from './timeline.ts';

/** A product cut-out as the cut-out stage leaves it: RGBA, the photo's size, transparent margins. */
async function cutout(file: string): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600">
    <rect x="130" y="150" width="140" height="380" rx="30" fill="#2d6bd6"/>
    <rect x="165" y="80" width="70" height="80" rx="8" fill="#333333"/>
    <rect x="150" y="270" width="100" height="90" fill="#f5e6c8"/></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(file);
}

/** Number of 4-connected regions of pixels with alpha above `min`. */
function regions(alpha: Buffer, width: number, height: number, min = 8): number {
  const seen = new Uint8Array(width * height);
  let count = 0;
  const stack: number[] = [];
  for (let i = 0; i < alpha.length; i++) {
    if (seen[i] || alpha[i]! <= min) continue;
    count++;
    stack.push(i);
    seen[i] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % width;
      const next = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width];
      for (const q of next) {
        if (q < 0 || q >= alpha.length || seen[q] || alpha[q]! <= min) continue;
        seen[q] = 1;
        stack.push(q);
      }
    }
  }
  return count;
}

describe('character rig', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-rig-'));
    await cutout(path.join(dir, 'cutout.png'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('draws one figure without seams: head, body, arms, hands and the held product are one connected shape', async () => {
    const product = await prepareProduct(path.join(dir, 'cutout.png'), {
      position_x: 380,
      position_y: 700,
      scale: 0.45,
      rotation: -8,
    });
    const descriptions = [
      'elderly grandmother with grey hair and glasses',
      'bearded man in a green hoodie',
      'young woman with a ponytail in a tee',
    ];
    for (const d of descriptions) {
      for (const pose of [REST_POSE, { ...REST_POSE, lift: true, tilt: 1.5, breath: 3, viseme: 'open' as const }]) {
        for (const p of [product, null]) {
          const frame = await renderRigFrame({
            spec: actorFromDescription(d, 0),
            pose,
            product: p,
            width: 576,
            height: 1024,
            transparent: true,
          });
          const { data, info } = await frame.extractChannel(3).raw().toBuffer({ resolveWithObject: true });
          expect(regions(data, info.width, info.height), `${d} ${JSON.stringify(pose)} product=${Boolean(p)}`).toBe(1);
        }
      }
    }
  });

  it('puts the fingers over the product and gives the cut-out a soft shadow', async () => {
    const spec = actorFromDescription('woman in a blue blazer', 0);
    const product = await prepareProduct(path.join(dir, 'cutout.png'), {
      position_x: 380,
      position_y: 700,
      scale: 0.45,
      rotation: 0,
    });
    const held = product.held;
    const png = await (
      await renderRigFrame({ spec, pose: REST_POSE, product, width: 576, height: 1024 })
    )
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number): [number, number, number] => {
      const i = (Math.round(y) * png.info.width + Math.round(x)) * png.info.channels;
      return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    };
    // Where the hand wraps the product (its bottom part, arm side) the pixel is skin, not the product's blue.
    const grip = at(held.cx + held.width * 0.35, held.cy + held.height * 0.32);
    expect(grip[2]).toBeLessThan(grip[0]);
    // The middle, where a label sits, stays the product's own colour on the arm side too.
    const middle = at(held.cx + held.width * 0.35, held.cy + held.height * 0.05);
    expect(middle[2]).toBeGreaterThan(150);
    // The product's own colour shows above the hand.
    const body = at(held.cx, held.cy - held.height * 0.2);
    expect(body[2]).toBeGreaterThan(150);
    expect(body[0]).toBeLessThan(100);
    // Its shadow darkens what is behind it, just outside its lower-right edge.
    const plain = await (
      await renderRigFrame({ spec, pose: REST_POSE, product: null, width: 576, height: 1024 })
    )
      .raw()
      .toBuffer({ resolveWithObject: true });
    const x = Math.round(held.cx);
    const y = Math.round(held.cy + held.height / 2 + 6);
    const i = (y * 576 + x) * plain.info.channels;
    expect(png.data[i]! + png.data[i + 1]! + png.data[i + 2]!).toBeLessThan(
      plain.data[i]! + plain.data[i + 1]! + plain.data[i + 2]! - 15,
    );
  });

  it('renders every viseme differently in the mouth box only', async () => {
    const spec = actorFromDescription('man in his 30s', 0);
    const frames = await Promise.all(
      VISEMES.map(async (viseme) =>
        (await renderRigFrame({ spec, pose: { ...REST_POSE, viseme }, product: null, width: 576, height: 1024 }))
          .raw()
          .toBuffer(),
      ),
    );
    for (let a = 0; a < frames.length; a++) {
      for (let b = a + 1; b < frames.length; b++) expect(frames[a]!.equals(frames[b]!)).toBe(false);
    }
  });

  it('renders a talking, moving actor holding the product: the mouth moves in words and rests in silences', async () => {
    const out = await renderTalkingVideo({
      script: 'Stop scrolling. This serum fixed my skin. Try it today!',
      hookText: 'Stop scrolling.',
      language: 'english',
      accent: 'american',
      actor: { kind: 'procedural', spec: actorFromDescription('young woman in her 20s', 0) },
      product: {
        cutoutPath: path.join(dir, 'cutout.png'),
        placement: { position_x: 380, position_y: 700, scale: 0.45, rotation: -8 },
      },
      watermark: false,
      workDir: path.join(dir, 'video'),
    });
    expect(out.rig).not.toBeNull();
    const { boxes, shots } = out.rig!;
    const motion = await measureMouthMotion({
      videoPath: out.videoPath,
      words: out.words,
      durationSec: out.durationSec,
      mouthAt: (t) => boxAtTime(boxes.mouth, shots, t, 720, 1280),
    });
    expect(motion.samples.speech).toBeGreaterThan(10);
    expect(motion.samples.silence).toBeGreaterThan(2);
    expect(motion.speech).toBeGreaterThan(4);
    expect(motion.speech).toBeGreaterThan(motion.silence * 3);
  }, 120_000);
});
