/**
 * Measures a product cut-out's matte (its alpha) and cleans what can be cleaned without guessing: the photo's
 * edge bars a gradient backdrop leaves, specks, islands far from the product, and holes enclosed by the
 * product (light print a colour mask takes for background). What cannot be cleaned safely is reported as a
 * reason to look before anything is spent (docs/decisions/214).
 */

export type MatteVerdict = 'clean' | 'cleaned' | 'needs-review';

export type MatteFixKind = 'edge-bars' | 'specks' | 'islands' | 'holes';

export interface MatteMeasures {
  /** Opaque islands apart from the product (the largest object and the objects near it). */
  strayIslands: number;
  /** Islands of at most SPECK_AREA pixels (part of strayIslands). */
  specks: number;
  /** Thin opaque bars lying along the photo's border. */
  edgeBars: number;
  /** Transparent regions enclosed by the product. */
  holes: number;
  /** The largest hole's area as a share of the product's area. */
  largestHoleShare: number;
  /** The product's border contact as a share of the longest edge it touches. */
  borderTouch: number;
  /** The product's opaque area as a share of the photo. */
  productShare: number;
}

export interface MatteCheck {
  verdict: MatteVerdict;
  /** What cleaning fixed, e.g. "removed 2 bars along the photo's edges". */
  fixed: string[];
  /** Why a person should look before it is used; empty unless the verdict is needs-review. */
  reasons: string[];
  /** Measured on the matte as it came (before cleaning). */
  before: MatteMeasures;
  /** Measured on the cleaned matte. */
  after: MatteMeasures;
}

/** Opaque means alpha at least this; softer pixels are edges and follow the object they touch. */
const OPAQUE = 128;
/** A bar along the border is at most this share of the photo across it… */
const BAR_THICKNESS = 0.08;
/** …and at least this share of the edge it lies along. */
const BAR_LENGTH = 0.25;
/** An island within this share of the photo's diagonal of the product's box is part of it (a cap, a dropper). */
const NEAR = 0.04;
/** Smaller islands near the product are dust, not parts of it. */
const PART_SHARE = 0.002;
/** A hole up to this share of the product is print or a label the backdrop colour took (filled); a larger one
 * is more likely see-through glass or an outline-only cut-out. A mug handle's loop is filled too: the price. */
const HOLE_FILL_MAX = 0.4;
/** A product touching the border along this share of an edge is cropped by the photo. */
const BORDER_TOUCH_MAX = 0.15;
/** A dropped island this share of the product or more might be a second product (or the product itself). */
const BIG_ISLAND = 0.1;

const speckArea = (w: number, h: number) => Math.max(9, Math.round(w * h * 0.0002));

interface Component {
  label: number;
  area: number;
  left: number;
  top: number;
  right: number;
  bottom: number;
  touchesBorder: boolean;
}

/**
 * Labels the 8-connected regions where `inside(p)` holds (4-connected for background, so a diagonal gap in an
 * outline does not open a hole). Returns the label per pixel (0 = outside) and the regions, labels from 1.
 */
function label(
  width: number,
  height: number,
  inside: (p: number) => boolean,
  diagonal: boolean,
): { labels: Int32Array; comps: Component[] } {
  const labels = new Int32Array(width * height);
  const comps: Component[] = [];
  const stack = new Int32Array(width * height);
  for (let start = 0; start < labels.length; start++) {
    if (labels[start] !== 0 || !inside(start)) continue;
    const c: Component = {
      label: comps.length + 1,
      area: 0,
      left: width,
      top: height,
      right: -1,
      bottom: -1,
      touchesBorder: false,
    };
    comps.push(c);
    let sp = 0;
    stack[sp++] = start;
    labels[start] = c.label;
    while (sp > 0) {
      const p = stack[--sp]!;
      const x = p % width;
      const y = (p - x) / width;
      c.area++;
      if (x < c.left) c.left = x;
      if (x > c.right) c.right = x;
      if (y < c.top) c.top = y;
      if (y > c.bottom) c.bottom = y;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) c.touchesBorder = true;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          if ((dx === 0 && dy === 0) || (!diagonal && dx !== 0 && dy !== 0)) continue;
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (labels[q] === 0 && inside(q)) {
            labels[q] = c.label;
            stack[sp++] = q;
          }
        }
      }
    }
  }
  return { labels, comps };
}

/** A thin region lying along one of the photo's edges (what a darker gradient edge leaves in a colour mask). */
function isEdgeBar(c: Component, width: number, height: number): boolean {
  if (!c.touchesBorder) return false;
  const w = c.right - c.left + 1;
  const h = c.bottom - c.top + 1;
  const alongTopOrBottom =
    (c.top === 0 || c.bottom === height - 1) && h <= height * BAR_THICKNESS && w >= width * BAR_LENGTH;
  const alongSide = (c.left === 0 || c.right === width - 1) && w <= width * BAR_THICKNESS && h >= height * BAR_LENGTH;
  return alongTopOrBottom || alongSide;
}

/** Gap in pixels between two boxes (0 when they overlap). */
function gap(a: Component, b: Component): number {
  const dx = Math.max(0, a.left - b.right, b.left - a.right);
  const dy = Math.max(0, a.top - b.bottom, b.top - a.bottom);
  return Math.hypot(dx, dy);
}

interface Analysis {
  measures: MatteMeasures;
  /** Per pixel: 1 where the kept product is (opaque), 2 where a fillable hole is. */
  keep: Uint8Array;
  dropped: { bars: number; specks: number; islands: number; bigIslands: number };
  filledHoles: number;
  bigHoles: number;
}

function analyse(alpha: Uint8Array, width: number, height: number): Analysis {
  const n = width * height;
  const opaque = label(width, height, (p) => alpha[p]! >= OPAQUE, true);
  const bars = opaque.comps.filter((c) => isEdgeBar(c, width, height));
  const candidates = opaque.comps.filter((c) => !isEdgeBar(c, width, height));
  const main = candidates.reduce<Component | null>((a, b) => (!a || b.area > a.area ? b : a), null);
  const keep = new Uint8Array(n);
  const speck = speckArea(width, height);
  const dropped = { bars: bars.length, specks: 0, islands: 0, bigIslands: 0 };
  const measures: MatteMeasures = {
    strayIslands: 0,
    specks: 0,
    edgeBars: bars.length,
    holes: 0,
    largestHoleShare: 0,
    borderTouch: 0,
    productShare: 0,
  };
  if (!main) return { measures, keep, dropped, filledHoles: 0, bigHoles: 0 };
  const near = Math.hypot(width, height) * NEAR;
  const kept = new Set<number>([main.label]);
  for (const c of candidates) {
    if (c === main) continue;
    if (c.area >= main.area * PART_SHARE && c.area > speck && gap(c, main) <= near) kept.add(c.label);
    else if (c.area <= speck) dropped.specks++;
    else {
      dropped.islands++;
      if (c.area >= main.area * BIG_ISLAND) dropped.bigIslands++;
    }
  }
  measures.strayIslands = dropped.specks + dropped.islands;
  measures.specks = dropped.specks;
  let area = 0;
  for (let p = 0; p < n; p++)
    if (kept.has(opaque.labels[p]!)) {
      keep[p] = 1;
      area++;
    }
  measures.productShare = area / n;

  // Border contact of the product along each edge; the longest counts.
  let top = 0;
  let bottom = 0;
  let left = 0;
  let right = 0;
  for (let x = 0; x < width; x++) {
    if (keep[x]) top++;
    if (keep[(height - 1) * width + x]) bottom++;
  }
  for (let y = 0; y < height; y++) {
    if (keep[y * width]) left++;
    if (keep[y * width + width - 1]) right++;
  }
  measures.borderTouch = Math.max(top / width, bottom / width, left / height, right / height);

  // Holes: regions outside the product that do not reach the photo's border (4-connected, so a gap only
  // a diagonal wide in an outline still encloses).
  const outside = label(width, height, (p) => keep[p] === 0, false);
  let filledHoles = 0;
  let bigHoles = 0;
  const fill = new Set<number>();
  for (const c of outside.comps) {
    if (c.touchesBorder) continue;
    measures.holes++;
    const share = c.area / Math.max(1, area);
    measures.largestHoleShare = Math.max(measures.largestHoleShare, share);
    if (share <= HOLE_FILL_MAX) {
      fill.add(c.label);
      filledHoles++;
    } else bigHoles++;
  }
  if (fill.size) for (let p = 0; p < n; p++) if (fill.has(outside.labels[p]!)) keep[p] = 2;
  return { measures, keep, dropped, filledHoles, bigHoles };
}

/**
 * The matte with only the product kept: opaque pixels of the kept objects, their soft edges (pixels within two
 * of them), and small enclosed holes filled opaque. Everything else becomes transparent.
 */
function cleanAlpha(alpha: Uint8Array, width: number, height: number, keep: Uint8Array): Buffer {
  const out = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (keep[p] === 2) out[p] = 255;
      else if (keep[p] === 1) out[p] = alpha[p]!;
      else if (alpha[p]! > 0) {
        // A soft edge pixel stays when it borders the kept product.
        let touches = false;
        for (let dy = -2; dy <= 2 && !touches; dy++)
          for (let dx = -2; dx <= 2 && !touches; dx++) {
            const nx = x + dx;
            const ny = y + dy;
            if (nx >= 0 && ny >= 0 && nx < width && ny < height && keep[ny * width + nx] === 1) touches = true;
          }
        out[p] = touches ? alpha[p]! : 0;
      }
    }
  }
  return out;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Checks and cleans an alpha matte (one byte per pixel). Returns the cleaned matte and the verdict. */
export function checkMatte(alpha: Uint8Array, width: number, height: number): { alpha: Buffer; check: MatteCheck } {
  const first = analyse(alpha, width, height);
  const cleaned = cleanAlpha(alpha, width, height, first.keep);
  const after = analyse(cleaned, width, height).measures;
  const fixed: string[] = [];
  const d = first.dropped;
  if (d.bars) fixed.push(`removed ${plural(d.bars, "bar along the photo's edge", "bars along the photo's edges")}`);
  if (d.specks) fixed.push(`removed ${plural(d.specks, 'speck', 'specks')}`);
  if (d.islands) fixed.push(`removed ${plural(d.islands, 'stray patch', 'stray patches')} away from the product`);
  if (first.filledHoles)
    fixed.push(`filled ${plural(first.filledHoles, 'hole', 'holes')} inside the product (light print or shine)`);

  const reasons: string[] = [];
  if (first.measures.productShare === 0) reasons.push('Nothing was cut out: no product was found in the photo.');
  else {
    if (after.productShare < 0.005) reasons.push('The cut-out is tiny: most of the product may have been removed.');
    if (after.productShare > 0.85) reasons.push('The background was not removed: the cut-out fills the photo.');
    if (after.borderTouch > BORDER_TOUCH_MAX)
      reasons.push(
        `The product runs into the photo's edge (${Math.round(after.borderTouch * 100)}% of an edge): it will show a straight cut.`,
      );
    if (d.bigIslands)
      reasons.push(
        `${plural(d.bigIslands, 'large separate part was', 'large separate parts were')} removed: check that nothing of the product is missing.`,
      );
    if (first.bigHoles)
      reasons.push(
        `${plural(first.bigHoles, 'large see-through hole is', 'large see-through holes are')} inside the product (${Math.round(first.measures.largestHoleShare * 100)}% of it): a see-through part, or print removed with the background.`,
      );
  }
  const verdict: MatteVerdict = reasons.length ? 'needs-review' : fixed.length ? 'cleaned' : 'clean';
  return { alpha: cleaned, check: { verdict, fixed, reasons, before: first.measures, after } };
}
