import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { actorFromDescription } from './index.ts';
import { coloursOf, figureSvg, REST_POSE } from './rig.ts';

/** Where the collar starts: hair below this line lies over the shoulders and chest. */
const SHOULDER_LINE = 640;

/** Pixels of the figure drawn in the hair's own colour below the shoulder line (figure alone, on transparency). */
async function hairPixelsBelowShoulders(description: string): Promise<number> {
  const { traits } = actorFromDescription(description, 0);
  const colours = coloursOf(traits);
  const svg = figureSvg(traits, colours, REST_POSE, null);
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const hair = [1, 3, 5].map((i) => parseInt(colours.hair.slice(i, i + 2), 16));
  let count = 0;
  for (let y = SHOULDER_LINE; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      const p = (y * info.width + x) * 4;
      if (data[p + 3]! > 200 && hair.every((v, k) => Math.abs(data[p + k]! - v) <= 3)) count++;
    }
  return count;
}

describe('hair length', () => {
  it('draws long hair falling over the shoulders, and shorter styles above them', async () => {
    const long = await hairPixelsBelowShoulders('young woman in her 20s with long brown hair');
    // Two strands of roughly 40 x 100 px below the collar.
    expect(long).toBeGreaterThan(4000);
    for (const d of ['young woman with a brown bob', 'young woman with short brown hair', 'young woman, brown bun'])
      // A few anti-aliased edges (skin against cloth) can blend to the hair's colour; strands would be thousands.
      expect(await hairPixelsBelowShoulders(d), d).toBeLessThan(400);
  });
});
