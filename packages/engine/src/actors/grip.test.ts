import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { actorFromDescription } from './index.ts';
import { coloursOf, figureSvg, liftedProduct, REST_POSE, type HeldProduct, type RigPose } from './rig.ts';

const ACTOR = actorFromDescription('elderly grandmother with grey hair and glasses', 0);
const COLOURS = coloursOf(ACTOR.traits);

/** The poses a held product is drawn in: resting, lifted on the hook (the CTA close-up is a camera zoom of these). */
const POSES: Record<string, RigPose> = {
  resting: REST_POSE,
  breathing: { ...REST_POSE, breath: 3 },
  lifted: { ...REST_POSE, lift: true },
};

/** Placements as the user sets them: small, the docs' bottle, large, tilted both ways, on either side. */
const PRODUCTS: Record<string, HeldProduct> = {
  small: { cx: 372, cy: 716, width: 40, height: 90, rotation: 0 },
  bottle: { cx: 370, cy: 700, width: 49, height: 158, rotation: -6 },
  large: { cx: 360, cy: 680, width: 120, height: 300, rotation: 12 },
  left: { cx: 200, cy: 700, width: 60, height: 180, rotation: 8 },
};

/**
 * The lowest point (as a share of the product's height from its top, in the product's own rotated frame) reached
 * by a pixel of the front hand layer that lies over the product; 1 when the hand covers none of it.
 */
async function highestFingerOnProduct(product: HeldProduct, pose: RigPose): Promise<number> {
  const svg = figureSvg(ACTOR.traits, COLOURS, pose, product, 'front');
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const p = liftedProduct(product, pose);
  const r = (-p.rotation * Math.PI) / 180;
  let top = 1;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (data[(y * info.width + x) * 4 + 3]! < 32) continue;
      const dx = x + 0.5 - p.cx;
      const dy = y + 0.5 - p.cy;
      const lx = dx * Math.cos(r) - dy * Math.sin(r);
      const ly = dx * Math.sin(r) + dy * Math.cos(r);
      if (Math.abs(lx) > p.width / 2 || Math.abs(ly) > p.height / 2) continue;
      top = Math.min(top, (ly + p.height / 2) / p.height);
    }
  }
  return top;
}

describe('the hand holds the bottom of the product', () => {
  for (const [productName, product] of Object.entries(PRODUCTS)) {
    for (const [poseName, pose] of Object.entries(POSES)) {
      it(`${productName}, ${poseName}: the fingers cover at most the bottom 35% of the product`, async () => {
        const top = await highestFingerOnProduct(product, pose);
        // The hand is drawn over the product (it holds it) ...
        expect(top).toBeLessThan(1);
        // ... but never climbs onto the middle, where a label sits.
        expect(top).toBeGreaterThanOrEqual(0.65);
      });
    }
  }
});

describe('a resting arm leaves the frame mid-forearm', () => {
  // A sweater has long sleeves, so any skin in the bottom band is a hand the frame's edge cuts through.
  const sweater = actorFromDescription('man in his 30s in a red sweater', 2);
  const colours = coloursOf(sweater.traits);
  const skin = [1, 3, 5].map((i) => parseInt(colours.skin.slice(i, i + 2), 16));

  /** Pixels of the skin colour in the bottom `rows` of the figure drawn without a product, or holding `product`. */
  async function skinAtBottom(product: HeldProduct | null, rows: number): Promise<number> {
    const svg = figureSvg(sweater.traits, colours, REST_POSE, product);
    const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    let n = 0;
    for (let y = info.height - rows; y < info.height; y++) {
      for (let x = 0; x < info.width; x++) {
        const i = (y * info.width + x) * 4;
        if (data[i + 3]! > 200 && skin.every((v, k) => Math.abs(data[i + k]! - v) <= 3)) n += 1;
      }
    }
    return n;
  }

  it('draws no hand stump at the bottom edge, with both arms resting or one holding the product', async () => {
    expect(sweater.traits.garment).toBe('sweater');
    // Before, the resting hands sat at y 974–1036 of 1024: a 50-row sliver of two hands along the edge.
    expect(await skinAtBottom(null, 80)).toBe(0);
    expect(await skinAtBottom(PRODUCTS.bottle!, 80)).toBe(0);
  });
});
