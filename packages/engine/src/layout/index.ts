import type { Box, CaptionStyle } from '@hookreel/contracts';
import type { WordTiming } from '../types.ts';
import { boldMetrics, textWidth, type FontMetrics } from './font.ts';

/**
 * The layout of one video: where every element goes and when, decided once from the actor's boxes, the product
 * placement and the text. The renderer draws only what this returns and the quality report checks it, so the
 * rules live here (docs/video-design.md#layout):
 * - no text over the face or the product (their boxes grown by the camera's motion and a margin);
 * - all text inside the platform safe zone (1080x1920: clear of top 130, bottom 350, right 164 px; scaled);
 * - the hook is a sticker at the top of the free space for its beat; captions start when it leaves, with the
 *   first word after the hook's own, so they never repeat it;
 * - the hand holding the product is part of how the product is shown: text avoids it like the product;
 * - the watermark sits where it covers neither face nor product;
 * - text wraps and shrinks to fit; what still does not fit is paged, never overflowed.
 * Pure: no I/O except the font metrics file read once.
 */

export type { Box };

export interface ActorBoxes {
  /** Eyes-to-chin region: no text may cover it. */
  face: Box;
  /** Where the mouth moves: the report measures lip motion here. */
  mouth: Box;
  body: Box;
}

/** Camera motion the renderer applies to the actor: boxes are grown to cover every position they take. */
export interface CameraMotion {
  /** Largest zoom about the frame centre (1 = none). */
  maxZoom: number;
  /** Largest pan in pixels, in any direction. */
  driftPx: number;
}

/** Where the actor and product are on screen at one time (output pixels, camera applied). */
export interface SceneView {
  face: Box;
  product: Box | null;
  mouth?: Box;
  /** The hand holding the product, when one is drawn. */
  hand?: Box | null;
}

export interface LayoutInput {
  width: number;
  height: number;
  /** Actor boxes in output pixels at zoom 1. */
  actor: ActorBoxes;
  /** The product's box in output pixels, or null when there is none. */
  product: Box | null;
  /** The hand holding the product (output pixels, zoom 1), or null/omitted when none is drawn. */
  hand?: Box | null;
  camera: CameraMotion;
  /**
   * Where the face and product are on screen at time t (output pixels, camera applied), for a camera that
   * zooms and cuts (the rig's shots). Text is then kept off them during its own time on screen; without it the
   * boxes grown by `camera` hold for the whole video.
   */
  view?: (t: number) => SceneView;
  /** Times of camera cuts: the hook leaves at the first cut after its first second, captions never span one. */
  cuts?: readonly number[];
  words: readonly WordTiming[];
  durationSec: number;
  hookText: string | null;
  captionStyle: CaptionStyle;
  watermark: string | null;
  /** The CTA line of the end card (shown for the last END_CARD_SEC), or null for none. */
  cta: string | null;
  /** Writing direction of the text; detected from the script when omitted. */
  rtl?: boolean;
  /** The face hook, captions and CTA are measured in (the brand kit's font); DejaVu Sans Bold by default. */
  font?: FontMetrics;
  /**
   * An outro card with the brand's logo for the last OUTRO_SEC, after the CTA card; `logoAspect` is the logo's
   * width over its height. The duration already includes it.
   */
  outro?: { logoAspect: number } | null;
  /** Where text may go; the 9:16 platform safe zone (`safeZone`) when omitted. Feed shapes pass their own. */
  safe?: Box;
}

export interface TextBlock {
  /** Outer box (including the sticker/box padding or outline) in output pixels. */
  box: Box;
  lines: string[];
  fontSize: number;
  lineHeight: number;
  align: 'center' | 'left';
  startSec: number;
  endSec: number;
  /**
   * Placed where the frame left no free place for it (a tall subject in a short frame): over the hand or the
   * product, never the face. The report shows it as a compromise to look at, not as a broken rule.
   */
  crowded?: boolean;
}

export interface CaptionCue extends TextBlock {
  /** The words of this cue, in order, with their timings (for highlight and pop). */
  words: WordTiming[];
  /** Index in `lines` of each word. */
  lineOfWord: number[];
}

export interface EndCard {
  startSec: number;
  endSec: number;
  product: Box | null;
  cta: TextBlock;
}

export interface OutroCard {
  startSec: number;
  endSec: number;
  /** Where the logo is drawn: centred in the safe zone. */
  logo: Box;
}

export interface VideoLayout {
  width: number;
  height: number;
  safe: Box;
  rtl: boolean;
  captionStyle: CaptionStyle;
  /** Face, mouth, body and product as they may appear on screen (grown by the camera motion). */
  face: Box;
  mouth: Box;
  body: Box;
  product: Box | null;
  /** The hand holding the product as it may appear on screen, or null. */
  hand: Box | null;
  /** Face and product on screen over time (every 1/15 s) when the camera moves; empty for a still camera. */
  views: ({ t: number } & SceneView)[];
  /**
   * How much of the eyes-to-mouth part of the face (`eyesToMouth`) is inside the frame over the scene (0–1,
   * every 1/15 s; one entry for a still camera). 1 is the whole face, 0 a shot without it (the product
   * close-up); anything between is a face cut through.
   */
  faceSeen: { t: number; inside: number }[];
  /** The watermark's text when the video must carry one (a trial video), else null. */
  watermarkText: string | null;
  /** The hook as given (the report checks that every letter of it is drawn). */
  hookText: string | null;
  /** The hook sticker, one block per page (long hooks are paged through their beat). */
  hook: TextBlock[];
  captions: CaptionCue[];
  /** Where every caption cue is placed (the region the style was fitted to). */
  captionRegion: Box | null;
  watermark: TextBlock | null;
  endCard: EndCard | null;
  outro: OutroCard | null;
}

export const END_CARD_SEC = 1.5;
/** How long the brand outro card (logo on the brand's colour) stays at the very end. */
export const OUTRO_SEC = 1.2;
/** The logo on the outro card: at most this share of the safe zone's width and height. */
const OUTRO_LOGO_MAX = { w: 0.7, h: 0.3 } as const;

/** When the scene (face, product, captions) ends: at the CTA card, else at the outro card, else never. */
export const sceneEndOf = (layout: Pick<VideoLayout, 'endCard' | 'outro'>): number =>
  layout.endCard?.startSec ?? layout.outro?.startSec ?? Infinity;
/** Space kept between text and the face or product. */
const GAP = 14;

/** Platform safe zone scaled from 1080x1920 (TikTok/Reels/Shorts interface), plus a left margin of 60 px. */
export function safeZone(width: number, height: number): Box {
  const s = width / 1080;
  const top = Math.round(130 * s);
  const bottom = Math.round(350 * s);
  const right = Math.round(164 * s);
  const left = Math.round(60 * s);
  return { x: left, y: top, w: width - left - right, h: height - top - bottom };
}

export const right = (b: Box): number => b.x + b.w;
export const bottom = (b: Box): number => b.y + b.h;

export function intersection(a: Box, b: Box): Box | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const w = Math.min(right(a), right(b)) - x;
  const h = Math.min(bottom(a), bottom(b)) - y;
  return w > 0 && h > 0 ? { x, y, w, h } : null;
}

export const overlapArea = (a: Box, b: Box): number => {
  const i = intersection(a, b);
  return i ? i.w * i.h : 0;
};

export const contains = (outer: Box, inner: Box): boolean =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  right(inner) <= right(outer) + 0.5 &&
  bottom(inner) <= bottom(outer) + 0.5;

/**
 * The part of the face a person must see: from the brows to under the mouth, ear to ear. The face box runs from
 * the hair (rig) or the brows (photos) to the chin and the mouth box holds every mouth shape; the eyes sit a
 * little over half-way from the face's top to the mouth, so the box starts just above that.
 */
export function eyesToMouth(face: Box, mouth?: Box): Box {
  if (!mouth) return { x: face.x, y: face.y + face.h * 0.25, w: face.w, h: face.h * 0.6 };
  const top = mouth.y - (mouth.y - face.y) * 0.55;
  return { x: face.x, y: top, w: face.w, h: mouth.y + mouth.h - top };
}

const grow = (b: Box, by: number): Box => ({ x: b.x - by, y: b.y - by, w: b.w + 2 * by, h: b.h + 2 * by });

const clampToFrame = (b: Box, width: number, height: number): Box => {
  const x = Math.max(0, b.x);
  const y = Math.max(0, b.y);
  return { x, y, w: Math.max(0, Math.min(width, right(b)) - x), h: Math.max(0, Math.min(height, bottom(b)) - y) };
};

/** Every place a box takes while the camera zooms about the frame centre up to maxZoom and pans by driftPx. */
export function cameraEnvelope(b: Box, camera: CameraMotion, width: number, height: number): Box {
  const cx = width / 2;
  const cy = height / 2;
  const z = Math.max(1, camera.maxZoom);
  const x0 = Math.min(b.x, cx + (b.x - cx) * z) - camera.driftPx;
  const y0 = Math.min(b.y, cy + (b.y - cy) * z) - camera.driftPx;
  const x1 = Math.max(right(b), cx + (right(b) - cx) * z) + camera.driftPx;
  const y1 = Math.max(bottom(b), cy + (bottom(b) - cy) * z) + camera.driftPx;
  return clampToFrame({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 }, width, height);
}

/** Hebrew, Arabic, Syriac, Thaana, NKo and their presentation forms. */
const RTL_CHARS = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;
export const isRtl = (text: string): boolean => {
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (!letters) return false;
  const rtl = [...letters].filter((c) => RTL_CHARS.test(c)).length;
  return rtl / [...letters].length > 0.3;
};

// ---------------------------------------------------------------------------------------------------------------
// Fitting text

export interface TextStyle {
  maxSize: number;
  minSize: number;
  maxLines: number;
  /** Padding between the text and the outer box (sticker padding or outline). */
  padX: number;
  padY: number;
  /** Line height as a multiple of the font size. */
  leading: number;
}

export interface FittedText {
  lines: string[];
  fontSize: number;
  lineHeight: number;
  w: number;
  h: number;
}

/** Greedy word wrap at a width; null when a single word is wider than the width. */
export function wrapWords(
  words: readonly string[],
  size: number,
  maxWidth: number,
  m: FontMetrics = boldMetrics(),
): string[] | null {
  const lines: string[] = [];
  let current = '';
  for (const w of words) {
    if (textWidth(w, size, m) > maxWidth) return null;
    const candidate = current ? `${current} ${w}` : w;
    if (!current || textWidth(candidate, size, m) <= maxWidth) current = candidate;
    else {
      lines.push(current);
      current = w;
    }
  }
  if (current) lines.push(current);
  return lines;
}

/**
 * The same number of lines as greedy wrapping, with line lengths as even as possible (no lone last word): the
 * narrowest width that still wraps into that many lines.
 */
function balance(words: readonly string[], size: number, greedy: string[], maxWidth: number, m: FontMetrics): string[] {
  if (greedy.length < 2) return greedy;
  let lo = Math.max(...words.map((w) => textWidth(w, size, m)));
  let hi = maxWidth;
  let best = greedy;
  while (hi - lo > 2) {
    const mid = (lo + hi) / 2;
    const lines = wrapWords(words, size, mid, m);
    if (lines && lines.length <= greedy.length) {
      best = lines;
      hi = mid;
    } else lo = mid;
  }
  return best;
}

/** The largest size (in steps of 2) at which `text` fits `maxW` x `maxH` within the style; null if none. */
export function fitText(
  text: string,
  maxW: number,
  maxH: number,
  style: TextStyle,
  m: FontMetrics = boldMetrics(),
): FittedText | null {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  for (let size = style.maxSize; size >= style.minSize; size -= 2) {
    const greedy = wrapWords(words, size, maxW - 2 * style.padX, m);
    if (!greedy || greedy.length > style.maxLines) continue;
    const lines = balance(words, size, greedy, maxW - 2 * style.padX, m);
    const lineHeight = Math.round(size * style.leading);
    const h = lines.length * lineHeight + 2 * style.padY;
    if (h > maxH) continue;
    const w = Math.max(...lines.map((l) => textWidth(l, size, m))) + 2 * style.padX;
    return { lines, fontSize: size, lineHeight, w: Math.ceil(w), h };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Free space

/**
 * Maximal rectangles of the safe zone that touch no obstacle: every rectangle whose sides lie on the safe zone's
 * or an obstacle's edges, kept when it is clear and not inside a larger clear one. There are at most a handful of
 * obstacles, so trying every combination of edges is cheap.
 */
export function freeRects(safe: Box, obstacles: readonly Box[]): Box[] {
  const inside = obstacles.map((o) => intersection(o, safe)).filter((o): o is Box => o !== null);
  const xs = [...new Set([safe.x, right(safe), ...inside.flatMap((o) => [o.x, right(o)])])].sort((a, b) => a - b);
  const ys = [...new Set([safe.y, bottom(safe), ...inside.flatMap((o) => [o.y, bottom(o)])])].sort((a, b) => a - b);
  const clear: Box[] = [];
  for (let i = 0; i < xs.length; i++)
    for (let j = i + 1; j < xs.length; j++)
      for (let k = 0; k < ys.length; k++)
        for (let l = k + 1; l < ys.length; l++) {
          const r = { x: xs[i]!, y: ys[k]!, w: xs[j]! - xs[i]!, h: ys[l]! - ys[k]! };
          if (inside.every((o) => !intersection(o, r))) clear.push(r);
        }
  return clear.filter((r) => !clear.some((o) => o !== r && contains(o, r) && o.w * o.h > r.w * r.h));
}

interface Placed {
  fit: FittedText;
  box: Box;
}

/**
 * Places a text block in the free space: fitted to each free rectangle, positioned there by `position`, the
 * best by `score` (higher wins). Null when it fits nowhere.
 */
function placeText(
  text: string,
  rects: readonly Box[],
  style: TextStyle,
  position: (fit: FittedText, rect: Box) => { x: number; y: number },
  score: (p: Placed) => number,
  m: FontMetrics = boldMetrics(),
): Placed | null {
  let best: Placed | null = null;
  let bestScore = -Infinity;
  for (const rect of rects) {
    const fit = fitText(text, rect.w, rect.h, style, m);
    if (!fit) continue;
    const { x, y } = position(fit, rect);
    const p = { fit, box: { x, y, w: fit.w, h: fit.h } };
    const s = score(p);
    if (s > bestScore) {
      best = p;
      bestScore = s;
    }
  }
  return best;
}

const centredIn = (w: number, rect: Box, preferX: number): number =>
  Math.round(Math.max(rect.x, Math.min(right(rect) - w, preferX - w / 2)));

// ---------------------------------------------------------------------------------------------------------------
// Styles

/** The hook sticker: dark text on a white rounded card, the short-form "text sticker". */
export const HOOK_STYLE: TextStyle = { maxSize: 50, minSize: 30, maxLines: 3, padX: 22, padY: 12, leading: 1.16 };

export interface CaptionStyleSpec {
  text: TextStyle;
  /** Largest number of words on screen at once. */
  maxWords: number;
  /** Preferred vertical centre of the caption region, as a fraction of the height. */
  targetY: number;
  align: 'center' | 'left';
}

export const CAPTION_STYLE_SPECS: Record<CaptionStyle, CaptionStyleSpec> = {
  // Bold white words with a black outline; the spoken word takes the brand colour (yellow unless a kit sets one).
  highlight: {
    text: { maxSize: 54, minSize: 34, maxLines: 2, padX: 6, padY: 6, leading: 1.15 },
    maxWords: 4,
    targetY: 0.66,
    align: 'center',
  },
  // One big word at a time, scaling in.
  pop: {
    text: { maxSize: 76, minSize: 40, maxLines: 1, padX: 10, padY: 10, leading: 1.1 },
    maxWords: 1,
    targetY: 0.62,
    align: 'center',
  },
  // Short lines on dark boxes.
  boxed: {
    text: { maxSize: 44, minSize: 30, maxLines: 2, padX: 14, padY: 10, leading: 1.3 },
    maxWords: 5,
    targetY: 0.7,
    align: 'center',
  },
  // Small left-aligned text at the bottom of the safe zone, on a soft bar.
  lower_third: {
    text: { maxSize: 34, minSize: 26, maxLines: 2, padX: 16, padY: 10, leading: 1.25 },
    maxWords: 7,
    targetY: 0.8,
    align: 'left',
  },
};

/** The most hook pages a beat (at most 3.5 s) can show and still be read. */
const MAX_HOOK_PAGES = 3;

/**
 * The smallest text a person reads on a phone, in pixels of the 720 px wide working frame (times 1.5 on a
 * 1080 px wide output): the layout never goes under it on purpose and the report fails text that does.
 */
export const MIN_TEXT_SIZE = { hook: 28, caption: 24, watermark: 14, cta: 24 } as const;

const WATERMARK_STYLE: TextStyle = { maxSize: 22, minSize: 18, maxLines: 1, padX: 10, padY: 6, leading: 1.2 };
const CTA_STYLE: TextStyle = { maxSize: 52, minSize: 30, maxLines: 2, padX: 30, padY: 18, leading: 1.18 };

// ---------------------------------------------------------------------------------------------------------------
// Timing

/**
 * How long the hook sticker stays: long enough to read (about 0.3 s a word, at least 1.6 s), at most 3.5 s, and
 * ending on a word boundary so the first caption appears as the sticker leaves.
 */
export function hookBeat(hookText: string, words: readonly WordTiming[], speechEndSec: number): number {
  const count = hookText.split(/\s+/).filter(Boolean).length;
  const reading = Math.min(3.5, Math.max(1.6, 0.6 + 0.3 * count));
  const nominal = Math.min(reading, Math.max(1.6, speechEndSec));
  const next = words.find((w) => w.startSec >= nominal - 0.05);
  if (!next) return Math.max(nominal, speechEndSec);
  return next.startSec - nominal < 0.6 ? next.startSec : nominal;
}

/** Letters and digits only, lower case: how a hook's words and the voice's words are compared. */
const bare = (s: string): string =>
  s
    .normalize('NFC')
    .toLocaleLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * How many of the first spoken words are the hook itself (0 when the speech does not start with it). Those words
 * were on the sticker: captioning the ones spoken after it leaves (the hook's last word, on the punch-in) would
 * show a lone word already read, under the chin. Compared on letters and digits, so punctuation and the voice's
 * own word splits do not matter.
 */
export function hookWordCount(hookText: string, words: readonly WordTiming[]): number {
  const target = bare(hookText);
  if (!target) return 0;
  let said = '';
  for (let i = 0; i < words.length; i++) {
    said += bare(words[i]!.word);
    if (said === target) return i + 1;
    if (!target.startsWith(said)) return 0;
  }
  return 0;
}

/**
 * Caption cues: a cue never runs from one sentence into the next (nor across a pause). A sentence longer than the
 * style's size is cut at its phrases (a comma, a colon), phrases joined while they fit, and a phrase still too
 * long into chunks of about equal length, so no cue ends with a lone word it could have shared.
 */
function groupCues(words: readonly WordTiming[], maxWords: number): WordTiming[][] {
  const units: WordTiming[][] = [];
  let current: WordTiming[] = [];
  words.forEach((w, i) => {
    current.push(w);
    const next = words[i + 1];
    if (SENTENCE_END.test(w.word) || (next && next.startSec - w.endSec > 0.35) || !next) {
      units.push(current);
      current = [];
    }
  });
  const groups: WordTiming[][] = [];
  for (const sentence of units) {
    if (sentence.length <= maxWords) {
      groups.push(sentence);
      continue;
    }
    let run: WordTiming[] = [];
    for (const phrase of splitAfter(sentence, PHRASE_END)) {
      if (run.length && run.length + phrase.length <= maxWords) {
        run.push(...phrase);
        continue;
      }
      if (run.length) groups.push(run);
      run = [];
      if (phrase.length <= maxWords) run = [...phrase];
      else groups.push(...evenChunks(phrase, (c) => c.length <= maxWords));
    }
    if (run.length) groups.push(run);
  }
  return groups;
}

// ---------------------------------------------------------------------------------------------------------------
// The layout

/** Decides every box of the video. Throws only on impossible input (no room for any text at all). */
export function computeLayout(input: LayoutInput): VideoLayout {
  const { width: W, height: H } = input;
  const safe = input.safe ?? safeZone(W, H);
  const staticFace = cameraEnvelope(input.actor.face, input.camera, W, H);
  const mouth = cameraEnvelope(input.actor.mouth, input.camera, W, H);
  const body = cameraEnvelope(input.actor.body, input.camera, W, H);
  const staticProduct = input.product ? cameraEnvelope(input.product, input.camera, W, H) : null;
  const staticHand = input.hand ? cameraEnvelope(input.hand, input.camera, W, H) : null;
  const rtl = input.rtl ?? isRtl(`${input.hookText ?? ''} ${input.words.map((w) => w.word).join(' ')}`);

  const m = input.font ?? boldMetrics();
  const speechEnd = input.words.length ? input.words[input.words.length - 1]!.endSec : 0;
  const contentEnd = input.outro ? Math.max(0, input.durationSec - OUTRO_SEC) : input.durationSec;
  const endCardStart = input.cta ? Math.max(0, contentEnd - END_CARD_SEC) : contentEnd;
  const sceneEnd = endCardStart;

  // Where face and product are over time, and what text must avoid between two times.
  const views: VideoLayout['views'] = [];
  if (input.view) {
    for (let t = 0; t <= sceneEnd + 1e-6; t += 1 / 15) views.push({ t: round2(t), ...clampView(input.view(t), W, H) });
    views.push({ t: sceneEnd, ...clampView(input.view(Math.max(0, sceneEnd - 0.001)), W, H) });
  }
  // Shots change on cuts exactly: a text shown over [a, b) meets what the camera shows from a to just before b.
  type Seen = { face: Box; product: Box | null; hand: Box | null };
  const during = (a: number, b: number): Seen => {
    if (!input.view) return { face: staticFace, product: staticProduct, hand: staticHand };
    const ts = [a, ...views.map((v) => v.t).filter((t) => t > a && t < b), Math.max(a, b - 0.001)];
    const vs = ts.map((t) => clampView(input.view!(t), W, H));
    const some = (bs: (Box | null | undefined)[]) => {
      const present = bs.filter((p): p is Box => !!p && p.w > 0 && p.h > 0);
      return present.length ? unionAll(present) : null;
    };
    return {
      face: unionAll(vs.map((v) => v.face)),
      product: some(vs.map((v) => v.product)),
      hand: some(vs.map((v) => v.hand)),
    };
  };
  const obstaclesOf = (o: Seen) => [
    grow(o.face, GAP),
    ...(o.product ? [grow(o.product, GAP)] : []),
    ...(o.hand ? [grow(o.hand, GAP)] : []),
  ];
  const scene = during(0, sceneEnd);
  const face = scene.face;
  const product = scene.product;
  const obstacles = obstaclesOf(scene);
  const cuts = [...(input.cuts ?? [])].filter((c) => c > 0 && c < sceneEnd).sort((x, y) => x - y);

  // Hook sticker: topmost free place, centred on the frame's centre line where the free space allows. It leaves
  // at the first camera cut after its first second, so the cut changes the shot and the text together.
  const hook: TextBlock[] = [];
  let hookEnd = 0;
  if (input.hookText?.trim()) {
    hookEnd = Math.min(sceneEnd, hookBeat(input.hookText, input.words, speechEnd));
    const cut = cuts.find((c) => c >= 1);
    if (cut !== undefined && cut < hookEnd) hookEnd = cut;
    const seen = during(0, hookEnd);
    const rects = freeRects(safe, obstaclesOf(seen));
    // Where a word goes that fits nowhere else: anywhere off the face.
    const roomy = freeRects(safe, [grow(seen.face, GAP)]);
    const score = (p: Placed) => -p.box.y * 4 + p.fit.fontSize;
    const clearPages = pageText(input.hookText, rects, roomy, HOOK_STYLE, W, score, m);
    // More pages than a beat can be read in, or pages of single words (a narrow column beside a tall subject):
    // the hook goes where only the face is kept clear, in fewer pages, as a compromise the report shows.
    const perPage = clearPages.reduce((n, p) => n + p.words, 0) / clearPages.length;
    const roomyPages =
      clearPages.length > MAX_HOOK_PAGES || (clearPages.length > 1 && perPage < 2)
        ? pageText(input.hookText, roomy, roomy, HOOK_STYLE, W, score, m).map((p) => ({ ...p, crowded: true }))
        : null;
    const pages = roomyPages && roomyPages.length < clearPages.length ? roomyPages : clearPages;
    const totalWords = pages.reduce((n, p) => n + p.words, 0);
    let t = 0;
    for (const page of pages) {
      const share = (hookEnd * page.words) / totalWords;
      hook.push({
        box: page.placed.box,
        lines: page.placed.fit.lines,
        fontSize: page.placed.fit.fontSize,
        lineHeight: page.placed.fit.lineHeight,
        align: 'center',
        startSec: round2(t),
        endSec: round2(t + share),
        ...(page.crowded ? { crowded: true } : {}),
      });
      t += share;
    }
  }

  // Captions: per shot (between camera cuts), one region where the style's reference cue fits best near its
  // target height; each cue is fitted into its shot's region and never outlives the shot.
  const spec = CAPTION_STYLE_SPECS[input.captionStyle];
  // Words spoken while the sticker is up are on screen on it (or under it); every word spoken after it leaves is
  // captioned, the hook's own last words too: text is on screen for the whole speech (decision 215).
  // A word still being spoken well after the sticker leaves is captioned from that moment too.
  const spoken = input.words.filter(
    (w) => (w.startSec >= hookEnd - 0.01 || w.endSec > hookEnd + 0.15) && w.startSec < sceneEnd,
  );
  const captions: CaptionCue[] = [];
  let captionRegion: Box | null = null;
  const bounds = [hookEnd, ...cuts.filter((c) => c > hookEnd), sceneEnd];
  for (let s = 0; s + 1 < bounds.length; s++) {
    const from = bounds[s]!;
    const to = bounds[s + 1]!;
    // A word spoken across a cut belongs to the shot that has most of it (the first shot also takes a word
    // still being spoken when the sticker leaves).
    const mid = (w: WordTiming) => (w.startSec + w.endSec) / 2;
    const shotWords = spoken.filter(
      (w) => (s === 0 || mid(w) >= from) && (s + 2 === bounds.length ? w.startSec < to : mid(w) < to),
    );
    if (!shotWords.length) continue;
    // One rule for every frame shape: the region clear of face, product and hand; when the shot leaves none (a
    // tall subject in a short frame), clear of face and product over the hand; then clear of the face alone.
    // Over the product, the caption goes low (its base and the hand, not its label).
    const seen = during(from, to);
    const clear = captionRegionFor(freeRects(safe, obstaclesOf(seen)), spec, W, H, m);
    const low = { ...spec, targetY: bottom(safe) / H };
    const region =
      clear ??
      captionRegionFor(freeRects(safe, obstaclesOf({ ...seen, hand: null })), low, W, H, m) ??
      captionRegionFor(freeRects(safe, [grow(seen.face, GAP)]), low, W, H, m) ??
      lowestBand(safe, seen.face, spec);
    captionRegion ??= region;
    for (const group of groupCues(shotWords, spec.maxWords)) {
      for (const part of splitToFit(group, region, spec.text, m)) {
        const { fit, words } = part;
        const x =
          spec.align === 'left'
            ? rtl
              ? Math.round(right(region) - fit.w)
              : region.x
            : centredIn(fit.w, region, W / 2);
        const y =
          spec.align === 'left'
            ? Math.round(bottom(region) - fit.h)
            : Math.round(Math.max(region.y, Math.min(bottom(region) - fit.h, H * spec.targetY - fit.h / 2)));
        const start = Math.max(from, words[0]!.startSec);
        const next = shotWords[shotWords.indexOf(words[words.length - 1]!) + 1];
        const end = Math.min(to, next ? Math.max(words[words.length - 1]!.endSec, next.startSec) : to);
        captions.push({
          box: { x, y, w: fit.w, h: fit.h },
          lines: fit.lines,
          fontSize: fit.fontSize,
          lineHeight: fit.lineHeight,
          align: spec.align,
          startSec: round2(start),
          endSec: round2(Math.max(end, start + 0.05)),
          words,
          lineOfWord: lineIndexOfWords(fit.lines, words.length),
          ...(clear ? {} : { crowded: true }),
        });
      }
    }
  }

  // Watermark: the first corner of the safe zone clear of face, product, hook and caption region.
  let watermark: TextBlock | null = null;
  if (input.watermark) {
    const taken = [
      ...obstacles,
      ...hook.map((h) => grow(h.box, 6)),
      ...(captionRegion ? [grow(captionRegion, 6)] : []),
    ];
    // A label and the trial mark together may need two lines even across the whole safe zone.
    const fit =
      fitText(input.watermark, safe.w, safe.h, WATERMARK_STYLE) ??
      fitText(input.watermark, safe.w, safe.h, { ...WATERMARK_STYLE, maxLines: 2, minSize: MIN_TEXT_SIZE.watermark });
    if (fit) {
      const corners = [
        { x: safe.x, y: bottom(safe) - fit.h },
        { x: right(safe) - fit.w, y: bottom(safe) - fit.h },
        { x: safe.x, y: safe.y },
        { x: right(safe) - fit.w, y: safe.y },
      ];
      const free = (b: Box) => taken.every((t) => !intersection(t, b));
      const corner = corners.map((c) => ({ ...c, w: fit.w, h: fit.h })).find(free);
      // Else anywhere in the free space, bottom-most first; on two lines if one is too wide; at worst beside
      // the captions or hook rather than on the face or product.
      const anywhere = (avoid: Box[], style: TextStyle) =>
        placeText(
          input.watermark!,
          freeRects(safe, avoid),
          style,
          (f, r) => ({ x: r.x, y: bottom(r) - f.h }),
          (p) => p.box.y,
        );
      const twoLines = { ...WATERMARK_STYLE, maxLines: 2 };
      const small = { ...twoLines, minSize: MIN_TEXT_SIZE.watermark };
      // A trial video always carries it (decision 215): when face and product leave no room it gets smaller,
      // then goes over the hand, then over the product, never over the face; at the very worst into the corner
      // that covers the least of the face.
      const faceOnly = [grow(scene.face, GAP)];
      const productNoHand = obstaclesOf({ ...scene, hand: null });
      const clearSpot =
        (corner ? { fit, box: corner } : null) ??
        anywhere(taken, WATERMARK_STYLE) ??
        anywhere(taken, twoLines) ??
        anywhere(obstacles, WATERMARK_STYLE) ??
        anywhere(obstacles, twoLines) ??
        anywhere(obstacles, small);
      const spot: Placed =
        clearSpot ??
        anywhere(productNoHand, small) ??
        anywhere(faceOnly, small) ??
        leastCovering(fit, corners, scene.face);
      watermark = {
        box: { x: Math.round(spot.box.x), y: Math.round(spot.box.y), w: spot.fit.w, h: spot.fit.h },
        // On two lines the separator is the line break: a "·" left at a line's end or start is dropped.
        lines: spot.fit.lines.map((l) => l.replace(/\s*·$/, '').replace(/^·\s*/, '')),
        fontSize: spot.fit.fontSize,
        lineHeight: spot.fit.lineHeight,
        align: 'left',
        startSec: 0,
        endSec: round2(endCardStart),
        ...(clearSpot ? {} : { crowded: true }),
      };
    }
  }

  // End card: product image in the upper part of the safe zone, the CTA sticker under it.
  let endCard: EndCard | null = null;
  if (input.cta?.trim()) {
    const ctaFit =
      fitText(input.cta.trim(), safe.w, safe.h * 0.35, CTA_STYLE, m) ??
      fitText(input.cta.trim(), safe.w, safe.h, { ...CTA_STYLE, maxLines: 4, minSize: 24 }, m);
    if (ctaFit) {
      const productArea: Box = { x: safe.x + 40, y: safe.y + 40, w: safe.w - 80, h: safe.h - ctaFit.h - 120 };
      let productBox: Box | null = null;
      if (product && productArea.w > 0 && productArea.h > 0) {
        const s = Math.min(productArea.w / product.w, productArea.h / product.h);
        const w = Math.round(product.w * s);
        const h = Math.round(product.h * s);
        productBox = {
          x: Math.round(productArea.x + (productArea.w - w) / 2),
          y: productArea.y + Math.round((productArea.h - h) / 2),
          w,
          h,
        };
      }
      const ctaY = productBox ? bottom(productBox) + 50 : Math.round(safe.y + (safe.h - ctaFit.h) / 2);
      endCard = {
        startSec: round2(endCardStart),
        endSec: round2(contentEnd),
        product: productBox,
        cta: {
          box: { x: Math.round(safe.x + (safe.w - ctaFit.w) / 2), y: ctaY, w: ctaFit.w, h: ctaFit.h },
          lines: ctaFit.lines,
          fontSize: ctaFit.fontSize,
          lineHeight: ctaFit.lineHeight,
          align: 'center',
          startSec: round2(endCardStart),
          endSec: round2(contentEnd),
        },
      };
    }
  }

  // Outro card: the logo alone on the brand's colour, after the CTA card, as large as OUTRO_LOGO_MAX of the safe
  // zone allows and centred on the frame (the card has nothing else on it) while staying inside the safe zone.
  let outro: OutroCard | null = null;
  if (input.outro && input.outro.logoAspect > 0 && Number.isFinite(input.outro.logoAspect)) {
    const maxW = Math.min(safe.w * OUTRO_LOGO_MAX.w, 2 * Math.min(right(safe) - W / 2, W / 2 - safe.x));
    const maxH = Math.min(safe.h * OUTRO_LOGO_MAX.h, 2 * Math.min(bottom(safe) - H / 2, H / 2 - safe.y));
    const w = Math.floor(Math.min(maxW, maxH * input.outro.logoAspect));
    const h = Math.floor(w / input.outro.logoAspect);
    outro = {
      startSec: round2(contentEnd),
      endSec: round2(input.durationSec),
      logo: {
        x: Math.ceil(W / 2 - w / 2),
        y: Math.ceil(H / 2 - h / 2),
        w: Math.max(1, w),
        h: Math.max(1, h),
      },
    };
  }

  // How much of the eyes and mouth the frame shows, from the boxes before they are clamped to the frame.
  const insideOf = (f: Box, m?: Box) => {
    const e = eyesToMouth(f, m);
    return e.w * e.h > 0 ? round2(overlapArea(e, { x: 0, y: 0, w: W, h: H }) / (e.w * e.h)) : 0;
  };
  const faceSeen = input.view
    ? views.map((v) => {
        const raw = input.view!(Math.min(v.t, Math.max(0, sceneEnd - 0.001)));
        return { t: v.t, inside: insideOf(raw.face, raw.mouth) };
      })
    : [{ t: 0, inside: insideOf(input.actor.face, input.actor.mouth) }];

  return {
    width: W,
    height: H,
    safe,
    rtl,
    captionStyle: input.captionStyle,
    face,
    mouth,
    body,
    product,
    hand: scene.hand,
    views,
    faceSeen,
    watermarkText: input.watermark,
    hookText: input.hookText?.trim() || null,
    hook,
    captions,
    captionRegion,
    watermark,
    endCard,
    outro,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function unionAll(boxes: readonly Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return { x, y, w: Math.max(...boxes.map(right)) - x, h: Math.max(...boxes.map(bottom)) - y };
}

const clampView = (v: SceneView, W: number, H: number): SceneView => ({
  ...(v.mouth ? { mouth: clampToFrame(v.mouth, W, H) } : {}),
  face: clampToFrame(v.face, W, H),
  product: v.product ? clampToFrame(v.product, W, H) : null,
  ...(v.hand ? { hand: clampToFrame(v.hand, W, H) } : {}),
});

/**
 * The hook as one or more pages, each placed in the free space: one page when it fits, else pages that break
 * between sentences, then between phrases (a comma, a colon, a dash), and only inside a phrase that cannot fit
 * on a page of its own, in about equal word counts. Words are never cut: a word too wide for any free space
 * at the smallest size goes where only the face is kept clear (over the body or the product), and a word wider
 * than the whole safe zone (a 40-letter string) is broken across lines with a hyphen, every letter kept.
 */
function pageText(
  text: string,
  rects: readonly Box[],
  roomy: readonly Box[],
  style: TextStyle,
  W: number,
  score: (p: Placed) => number,
  m: FontMetrics,
): { placed: Placed; words: number; crowded: boolean }[] {
  const at = (rs: readonly Box[], t: string) =>
    placeText(t, rs, style, (fit, rect) => ({ x: centredIn(fit.w, rect, W / 2), y: rect.y }), score, m);
  const place = (t: string) => at(rects, t);
  // A word wider than any place off the face at the smallest size is broken with hyphens into pieces that fit
  // the widest: every letter is shown, over as many pages as it takes. A word that fits only off the free space
  // stays whole and goes there (a page of its own, over the body or the product).
  const widest = Math.max(0, ...roomy.map((r) => r.w)) - 2 * style.padX;
  const words = text
    .trim()
    .split(/\s+/)
    .flatMap((w) => (place(w) || at(roomy, w) ? [w] : hyphenate(w, style.minSize, widest, m)));
  // Units that may start a page: sentences, split into phrases, split into word chunks, as far as needed.
  const units: string[][] = [];
  for (const sentence of splitAfter(words, SENTENCE_END)) {
    if (place(sentence.join(' '))) {
      units.push(sentence);
      continue;
    }
    for (const phrase of splitAfter(sentence, PHRASE_END).flatMap((p) => splitBefore(p, CLAUSE_START))) {
      if (place(phrase.join(' '))) {
        units.push(phrase);
        continue;
      }
      units.push(...evenChunks(phrase, (chunk) => !!place(chunk.join(' '))));
    }
  }
  // Consecutive units share a page while they fit together.
  const out: { placed: Placed; words: number; crowded: boolean }[] = [];
  for (let i = 0; i < units.length;) {
    let page = units[i]!;
    let placed = place(page.join(' '));
    let j = i + 1;
    while (placed && j < units.length) {
      const wider = [...page, ...units[j]!];
      const p = place(wider.join(' '));
      if (!p) break;
      page = wider;
      placed = p;
      j++;
    }
    const crowded = !placed;
    placed ??= at(roomy, page.join(' ')) ?? placeBroken(page.join(' '), roomy, style, W, m);
    out.push({ placed, words: page.length, crowded });
    i = j;
  }
  return out;
}

const SENTENCE_END = /[.!?…。！？؟]["'”’)]*$/u;
const PHRASE_END = /([,;:،؛]["'”’)]*|\s[—–-])$/u;

/** Words that open a clause in English: a page may start before one when a sentence has no punctuation. */
const CLAUSE_START = /^(and|but|or|so|until|because|since|when|while|if|then|after|before|which|who|that)$/iu;

/** Words split into runs, each starting at a word (not the first) that matches `start`. */
function splitBefore(words: readonly string[], start: RegExp): string[][] {
  const runs: string[][] = [];
  for (const w of words) {
    if (!runs.length || (start.test(w) && runs[runs.length - 1]!.length >= 2)) runs.push([w]);
    else runs[runs.length - 1]!.push(w);
  }
  return runs;
}

/** Words split into runs, each ending at a word that matches `end` (or the last word). */
function splitAfter<T extends string | { word: string }>(words: readonly T[], end: RegExp): T[][] {
  const runs: T[][] = [];
  let current: T[] = [];
  for (const w of words) {
    current.push(w);
    if (end.test(typeof w === 'string' ? w : w.word)) {
      runs.push(current);
      current = [];
    }
  }
  if (current.length) runs.push(current);
  return runs;
}

/** A word in pieces no wider than maxW at this size, each but the last ending in a hyphen. */
function hyphenate(word: string, size: number, maxW: number, m: FontMetrics): string[] {
  const pieces: string[] = [];
  let rest = [...word];
  while (rest.length > 1 && textWidth(rest.join(''), size, m) > maxW) {
    let n = rest.length - 1;
    while (n > 1 && textWidth(`${rest.slice(0, n).join('')}-`, size, m) > maxW) n--;
    pieces.push(`${rest.slice(0, n).join('')}-`);
    rest = rest.slice(n);
  }
  if (rest.length) pieces.push(rest.join(''));
  return pieces;
}

/** The fewest chunks of about equal word counts that all pass `fits` (single words when nothing else does). */
function evenChunks<T>(words: readonly T[], fits: (chunk: T[]) => boolean): T[][] {
  for (let n = 1; n <= words.length; n++) {
    const per = Math.ceil(words.length / n);
    const chunks: T[][] = [];
    for (let i = 0; i < words.length; i += per) chunks.push(words.slice(i, i + per));
    if (chunks.every(fits)) return chunks;
  }
  return words.map((w) => [w]);
}

/**
 * Last resort for a word wider than any free space even at the smallest size: the text in the widest free
 * rectangle, its long words broken into pieces that fit, each piece but the last ending in a hyphen. Every
 * letter is shown; nothing is replaced by an ellipsis.
 */
function placeBroken(text: string, rects: readonly Box[], style: TextStyle, W: number, m: FontMetrics): Placed {
  const rect = [...rects].sort((a, b) => b.w - a.w)[0];
  if (!rect) throw new Error('No room for any text in this frame');
  const size = style.minSize;
  const maxW = rect.w - 2 * style.padX;
  const pieces = text.split(/\s+/).flatMap((w) => hyphenate(w, size, maxW, m));
  const lines = wrapWords(pieces, size, maxW, m) ?? pieces;
  const lineHeight = Math.round(size * style.leading);
  const w = Math.ceil(Math.max(...lines.map((l) => textWidth(l, size, m))) + 2 * style.padX);
  const h = lines.length * lineHeight + 2 * style.padY;
  const fit: FittedText = { lines, fontSize: size, lineHeight, w, h };
  return { fit, box: { x: centredIn(w, rect, W / 2), y: rect.y, w, h } };
}

/** The corner (of the given ones) whose box covers the least of the face. */
function leastCovering(fit: FittedText, corners: readonly { x: number; y: number }[], face: Box): Placed {
  const boxes = corners.map((c) => ({ x: c.x, y: c.y, w: fit.w, h: fit.h }));
  const box = boxes.reduce((a, b) => (overlapArea(b, face) < overlapArea(a, face) ? b : a));
  return { fit, box };
}

/** The caption region: the free rectangle where the style's reference cue fits largest, nearest its target. */
function captionRegionFor(
  rects: readonly Box[],
  spec: CaptionStyleSpec,
  W: number,
  H: number,
  m: FontMetrics,
): Box | null {
  const reference =
    spec.maxWords === 1
      ? 'Wonderful'
      : 'Honestly this changed everything for me'.split(' ').slice(0, spec.maxWords).join(' ');
  const targetY = H * spec.targetY;
  let best: Box | null = null;
  let bestScore = -Infinity;
  for (const r of rects) {
    const fit = fitText(reference, r.w, r.h, spec.text, m);
    if (!fit) continue;
    // Height of the region actually used: room for the style's lines at the fitted size.
    const h = Math.min(r.h, spec.text.maxLines * fit.lineHeight + 2 * spec.text.padY);
    const y = Math.round(Math.max(r.y, Math.min(bottom(r) - h, targetY - h / 2)));
    const centre = y + h / 2;
    const s = fit.fontSize * 6 + Math.min(r.w, W) * 0.05 - Math.abs(centre - targetY) * 0.25;
    if (s > bestScore) {
      bestScore = s;
      best = { x: r.x, y, w: r.w, h };
    }
  }
  if (best) return best;
  // Nowhere wide enough for the reference cue (a tight frame: a 1:1 cut, a close-up): the free rectangle that
  // holds the most of a long word at the smallest size, nearest the target; cues are then split word by word
  // rather than dropped.
  const word = { ...spec.text, maxSize: spec.text.minSize };
  for (const r of rects) {
    const fit = fitText('Wonderful', r.w, r.h, word, m);
    if (!fit) continue;
    const h = Math.min(r.h, spec.text.maxLines * fit.lineHeight + 2 * spec.text.padY);
    const y = Math.round(Math.max(r.y, Math.min(bottom(r) - h, targetY - h / 2)));
    const s = Math.min(r.w, W) * 0.05 - Math.abs(y + h / 2 - targetY) * 0.25;
    if (s > bestScore) {
      bestScore = s;
      best = { x: r.x, y, w: r.w, h };
    }
  }
  return best;
}

/** A cue's words fitted to the region; split into smaller cues (down to one word) when they do not fit. */
function splitToFit(
  words: WordTiming[],
  region: Box,
  style: TextStyle,
  m: FontMetrics,
): { fit: FittedText; words: WordTiming[] }[] {
  const fit = fitText(words.map((w) => w.word).join(' '), region.w, region.h, style, m);
  if (fit) return [{ fit, words }];
  if (words.length > 1) {
    const half = Math.ceil(words.length / 2);
    return [...splitToFit(words.slice(0, half), region, style, m), ...splitToFit(words.slice(half), region, style, m)];
  }
  // One word wider than the region even at the style's smallest size: smaller, down to the legible minimum,
  // then as large as the region allows (the report flags text under the minimum); a word is never cut.
  const word = words[0]!.word;
  const smaller = fitText(word, region.w, region.h, { ...style, minSize: MIN_TEXT_SIZE.caption, maxLines: 1 }, m);
  if (smaller) return [{ fit: smaller, words }];
  const size = Math.max(8, Math.floor(((region.w - 2 * style.padX) / textWidth(word, 100, m)) * 100));
  const lineHeight = Math.round(size * style.leading);
  const fitW = Math.ceil(textWidth(word, size, m) + 2 * style.padX);
  return [{ fit: { lines: [word], fontSize: size, lineHeight, w: fitW, h: lineHeight + 2 * style.padY }, words }];
}

/**
 * The last place for captions when no free rectangle takes even one word: the taller band of the safe zone
 * above or below the face, as wide as the safe zone.
 */
function lowestBand(safe: Box, face: Box, spec: CaptionStyleSpec): Box {
  const lineH = Math.round(spec.text.minSize * spec.text.leading) + 2 * spec.text.padY;
  const below = { x: safe.x, y: Math.min(bottom(safe), bottom(face) + GAP), w: safe.w, h: 0 };
  below.h = Math.max(0, bottom(safe) - below.y);
  const above = { x: safe.x, y: safe.y, w: safe.w, h: Math.max(0, face.y - GAP - safe.y) };
  const band = below.h >= above.h ? below : above;
  if (band.h >= lineH) return { ...band, h: Math.min(band.h, spec.text.maxLines * lineH) };
  return { x: safe.x, y: bottom(safe) - lineH, w: safe.w, h: lineH };
}

/** Which wrapped line each word landed on (wrapping keeps word order and splits only at spaces). */
function lineIndexOfWords(lines: readonly string[], count: number): number[] {
  const out: number[] = [];
  lines.forEach((l, i) => {
    for (const _ of l.split(' ')) out.push(i);
  });
  return out.slice(0, count);
}

// ---------------------------------------------------------------------------------------------------------------
// Checking a layout (the report's geometric half)

export interface LayoutViolations {
  overlaps: { text: string; covers: string; area: number }[];
  /** Text over the product or the hand where the frame left no free place for it (`TextBlock.crowded`). */
  compromises: { text: string; covers: string; area: number }[];
  outsideSafe: { name: string; box: Box }[];
  /** Caption cues on screen while a hook page is. */
  captionsDuringHook: number;
}

/** Every text element with its name and time span. */
export function textElements(
  layout: VideoLayout,
): { name: string; box: Box; startSec: number; endSec: number; crowded?: boolean }[] {
  return [
    ...layout.hook.map((h, i) => ({ name: `hook${layout.hook.length > 1 ? ` ${i + 1}` : ''}`, ...span(h) })),
    ...layout.captions.map((c, i) => ({ name: `caption ${i + 1}`, ...span(c) })),
    ...(layout.watermark ? [{ name: 'watermark', ...span(layout.watermark) }] : []),
    ...(layout.endCard ? [{ name: 'end card CTA', ...span(layout.endCard.cta) }] : []),
    ...(layout.outro
      ? [{ name: 'outro logo', box: layout.outro.logo, startSec: layout.outro.startSec, endSec: layout.outro.endSec }]
      : []),
  ];
}
const span = (b: TextBlock) => ({
  box: b.box,
  startSec: b.startSec,
  endSec: b.endSec,
  ...(b.crowded ? { crowded: true } : {}),
});

export function checkLayout(layout: VideoLayout): LayoutViolations {
  const sceneEnd = sceneEndOf(layout);
  const overlaps: LayoutViolations['overlaps'] = [];
  const compromises: LayoutViolations['compromises'] = [];
  const outsideSafe: LayoutViolations['outsideSafe'] = [];
  for (const t of textElements(layout)) {
    if (!contains(layout.safe, t.box)) outsideSafe.push({ name: t.name, box: t.box });
    // The face and the product are on screen until the end card covers the scene.
    if (t.startSec >= sceneEnd) {
      if (layout.endCard?.product && t.name === 'end card CTA') {
        const a = overlapArea(t.box, layout.endCard.product);
        if (a > 0) overlaps.push({ text: t.name, covers: 'end card product', area: Math.round(a) });
      }
      continue;
    }
    // With a moving camera, against where face and product are while the text is up; else their envelopes.
    const seen = layout.views.length
      ? layout.views.filter((v) => v.t >= t.startSec - 0.001 && v.t < t.endSec - 0.001)
      : [{ face: layout.face, product: layout.product, hand: layout.hand }];
    const fa = Math.max(0, ...seen.map((v) => overlapArea(t.box, v.face)));
    if (fa > 0) overlaps.push({ text: t.name, covers: 'face', area: Math.round(fa) });
    // Over the product where the frame left no room is a compromise, not a broken rule; over the face never.
    const into = t.crowded ? compromises : overlaps;
    const pa = Math.max(0, ...seen.map((v) => (v.product ? overlapArea(t.box, v.product) : 0)));
    if (pa > 0) into.push({ text: t.name, covers: 'product', area: Math.round(pa) });
    // The hand holding the product is part of the product on screen.
    const ha = Math.max(0, ...seen.map((v) => (v.hand ? overlapArea(t.box, v.hand) : 0)));
    if (ha > 0) into.push({ text: t.name, covers: 'hand', area: Math.round(ha) });
  }
  let captionsDuringHook = 0;
  for (const c of layout.captions)
    if (layout.hook.some((h) => c.startSec < h.endSec - 0.001 && c.endSec > h.startSec + 0.001)) captionsDuringHook++;
  return { overlaps, compromises, outsideSafe, captionsDuringHook };
}
