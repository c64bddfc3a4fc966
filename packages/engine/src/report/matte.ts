import type { QualityCheck } from '@hookreel/contracts';
import sharp from 'sharp';
import { checkMatte } from '../cutout/matte-check.ts';

/**
 * "Product matte clean": the alpha of the cut-out the render actually composited, measured as the cut-out check
 * measures it (cutout/matte-check.ts): no stray islands or specks outside the product, no bars along the photo's
 * edges, no holes inside it. A cut-out the user accepted as it is may still run into its photo's edge: a warning.
 */
export async function productMatteCheck(cutoutPath: string): Promise<QualityCheck> {
  const { data, info } = await sharp(cutoutPath).ensureAlpha().extractChannel(3).raw().toBuffer({
    resolveWithObject: true,
  });
  const m = checkMatte(data, info.width, info.height).check.before;
  const problems = [
    m.strayIslands ? `${m.strayIslands} stray patch${m.strayIslands === 1 ? '' : 'es'} outside the product` : '',
    m.edgeBars ? `${m.edgeBars} bar${m.edgeBars === 1 ? '' : 's'} along the photo's edge` : '',
    m.holes ? `${m.holes} hole${m.holes === 1 ? '' : 's'} inside the product` : '',
  ].filter(Boolean);
  const label = 'Product matte clean';
  if (m.productShare === 0) return { id: 'product-matte', label, level: 'fail', detail: 'the cut-out is empty' };
  if (problems.length) return { id: 'product-matte', label, level: 'fail', detail: problems.join('; ') };
  if (m.borderTouch > 0.15)
    return {
      id: 'product-matte',
      label,
      level: 'warn',
      detail: `the product runs into its photo's edge (${Math.round(m.borderTouch * 100)}% of an edge)`,
    };
  return { id: 'product-matte', label, level: 'pass', detail: 'one product, no stray pixels, no holes' };
}
