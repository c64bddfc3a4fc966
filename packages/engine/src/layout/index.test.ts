import { CAPTION_STYLES, type CaptionStyle } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { actorFromDescription } from '../actors/index.ts';
import { REST_POSE, rigBoxes } from '../actors/rig.ts';
import { beatsOf, boxAtTime, cameraShots } from '../motion/timeline.ts';
import type { WordTiming } from '../types.ts';
import { actorBoxesInVideo, frameToVideo, rotatedBox } from './actor-boxes.ts';
import { layoutToAss } from './ass.ts';
import { textWidth } from './font.ts';
import {
  CAPTION_STYLE_SPECS,
  HOOK_STYLE,
  checkLayout,
  computeLayout,
  contains,
  fitText,
  freeRects,
  hookWordCount,
  intersection,
  isRtl,
  safeZone,
  type Box,
  type LayoutInput,
  type VideoLayout,
} from './index.ts';

const speak = (text: string, from = 0.2, step = 0.32): WordTiming[] =>
  text
    .split(/\s+/)
    .filter(Boolean)
    .map((word, i) => ({ word, startSec: from + i * step, endSec: from + i * step + step * 0.85 }));

const HOOKS: Record<string, string> = {
  short: 'Wait for it',
  medium: 'Stop scrolling if your skin feels dry all winter',
  long: 'I tried every moisturiser on the shelf for three years and nothing worked until my dermatologist told me about this one tiny change',
  // The longest hook the contract allows is 500 characters.
  veryLong:
    `${'This is the serum that finally fixed my skin after years of trying everything else out there '.repeat(5)}`.slice(
      0,
      500,
    ),
  accented: 'Crème brûlée pour la peau sèche : ça change tout, garanti à 100 % !',
  german: 'Größte Überraschung für trockene Haut — ehrlich gesagt unglaublich',
  hebrew: 'תפסיקו לגלול אם העור שלכם יבש כל החורף',
  arabic: 'توقف عن التمرير إذا كانت بشرتك جافة طوال الشتاء',
  oneHugeWord: 'Supercalifragilisticexpialidocious'.repeat(4),
};

/** Product boxes in the 576x1024 frame: in the hand, high by the face, low, large, left, and none. */
const PLACEMENTS: Record<string, Box | null> = {
  hand: rotatedBox(370, 700, 110, 190, -6),
  byFace: rotatedBox(460, 330, 120, 200, 10),
  low: rotatedBox(300, 900, 160, 180, 0),
  large: rotatedBox(300, 660, 300, 420, 0),
  left: rotatedBox(130, 640, 120, 220, 8),
  none: null,
};

function layoutFor(
  hook: string,
  placement: Box | null,
  style: CaptionStyle,
  extra: Partial<LayoutInput> = {},
): VideoLayout {
  const words = speak(`${hook} and honestly it changed my mornings for good. Try it today.`);
  const end = words[words.length - 1]!.endSec + 0.4;
  return computeLayout({
    width: 720,
    height: 1280,
    actor: actorBoxesInVideo(),
    product: placement ? frameToVideo(placement) : null,
    camera: { maxZoom: 1.06, driftPx: 20 },
    words,
    durationSec: end + 1.5,
    hookText: hook,
    captionStyle: style,
    watermark: 'Hookreel · Free trial',
    cta: 'Try it free today',
    ...extra,
  });
}

/** No line of a block is wider than its box (less padding) at the block's size. */
function assertNoOverflow(layout: VideoLayout) {
  const blocks = [...layout.hook, ...layout.captions, ...(layout.watermark ? [layout.watermark] : [])];
  if (layout.endCard) blocks.push(layout.endCard.cta);
  for (const b of blocks) {
    for (const line of b.lines) expect(textWidth(line, b.fontSize)).toBeLessThanOrEqual(b.box.w);
    expect(b.lines.length * b.lineHeight).toBeLessThanOrEqual(b.box.h);
  }
}

describe('layout rules hold for every text length, placement and caption style', () => {
  for (const [hookName, hook] of Object.entries(HOOKS))
    for (const [placeName, placement] of Object.entries(PLACEMENTS))
      for (const style of CAPTION_STYLES)
        it(`${hookName} hook, product ${placeName}, ${style} captions`, () => {
          const layout = layoutFor(hook, placement, style);
          const v = checkLayout(layout);
          expect(v.overlaps).toEqual([]);
          expect(v.outsideSafe).toEqual([]);
          expect(v.captionsDuringHook).toBe(0);
          assertNoOverflow(layout);
          // Every hook word is on the sticker, in order, across its pages (or shortened visibly when one
          // word cannot fit anywhere).
          const shown = layout.hook.flatMap((h) => h.lines.join(' ').split(' '));
          if (hookName !== 'oneHugeWord') expect(shown).toEqual(hook.trim().split(/\s+/));
          for (const h of layout.hook) {
            expect(h.fontSize).toBeGreaterThanOrEqual(HOOK_STYLE.minSize);
            expect(h.fontSize).toBeLessThanOrEqual(HOOK_STYLE.maxSize);
          }
          // Captions take over when the hook leaves, with the words spoken after it, in order.
          const hookEnd = Math.max(...layout.hook.map((h) => h.endSec));
          for (const c of layout.captions) expect(c.startSec).toBeGreaterThanOrEqual(hookEnd - 0.01);
          const captioned = layout.captions.flatMap((c) => c.words.map((w) => w.word));
          expect(captioned.length).toBeGreaterThan(0);
          expect(layout.captions.every((c) => c.words.length <= CAPTION_STYLE_SPECS[style].maxWords)).toBe(true);
          expect(layout.watermark).not.toBeNull();
          expect(layout.endCard?.cta.lines.join(' ')).toBe('Try it free today');
        });
});

describe('captions never show the hook again', () => {
  it('counts the spoken words that are the hook, on letters and digits only', () => {
    expect(hookWordCount('Glow all day', speak('Glow all day'))).toBe(3);
    expect(hookWordCount('Stop scrolling: 3 reasons!', speak('Stop scrolling 3 reasons. I switched for good.'))).toBe(
      4,
    );
    expect(hookWordCount('Crème brûlée, ça change tout', speak('Crème brûlée ça change tout. Vraiment.'))).toBe(5);
    expect(hookWordCount(HOOKS.hebrew!, speak(`${HOOKS.hebrew!} עכשיו`))).toBe(HOOKS.hebrew!.split(' ').length);
    // A script that does not open with the hook keeps every word for the captions.
    expect(hookWordCount('My skin before and after', speak('This serum changed my mornings.'))).toBe(0);
    expect(hookWordCount('Glow all day long', speak('Glow all'))).toBe(0);
    expect(hookWordCount('', speak('Glow all day'))).toBe(0);
  });

  it('a hook-pack video (the hook is the whole script): text on screen for the whole speech, in the chosen style', () => {
    const hook = 'Stop scrolling if you need to hear this: glow all day, every day, with one serum.';
    const words = speak(hook, 0.2, 0.3);
    const last = words[words.length - 1]!;
    for (const style of CAPTION_STYLES) {
      const layout = computeLayout({
        width: 720,
        height: 1280,
        actor: actorBoxesInVideo(),
        product: frameToVideo(PLACEMENTS.hand!),
        camera: { maxZoom: 1.06, driftPx: 20 },
        words,
        durationSec: last.endSec + 0.5,
        hookText: hook,
        captionStyle: style,
        watermark: 'Hookreel · Free trial',
        cta: null,
        cuts: [3.2, 3.9],
      });
      const hookEnd = Math.max(...layout.hook.map((h) => h.endSec));
      expect(hookEnd).toBeLessThanOrEqual(3.5);
      // The words spoken after the sticker leaves are captioned in the chosen style, none under the sticker.
      expect(layout.captionStyle).toBe(style);
      expect(layout.captions.flatMap((c) => c.words.map((w) => w.word))).toEqual(
        words.filter((w) => w.startSec >= hookEnd - 0.01).map((w) => w.word),
      );
      expect(checkLayout(layout).captionsDuringHook).toBe(0);
      // Every moment a word is spoken some text is up.
      for (const w of words)
        for (let t = w.startSec; t < w.endSec; t += 0.05) {
          const up = [...layout.hook, ...layout.captions].some((b) => t >= b.startSec - 0.001 && t < b.endSec);
          expect(up, `${w.word} at ${t.toFixed(2)} s (${style})`).toBe(true);
        }
    }
  });

  it('a product-in-hand script: captions start with the first word spoken after the sticker leaves', () => {
    const layout = layoutFor(HOOKS.medium!, PLACEMENTS.hand!, 'highlight', { cuts: [2.7, 3.4] });
    const captioned = layout.captions.flatMap((c) => c.words.map((w) => w.word));
    expect(captioned).toEqual('winter and honestly it changed my mornings for good. Try it today.'.split(' '));
  });
});

describe('one rule set for every frame shape (decision 215)', () => {
  it('pages a hook between sentences, then phrases, never inside one when a break is there', () => {
    const hook = 'My skin was so dry in winter. Then I found this serum, and it changed everything for me.';
    // A short frame with a big subject: a 1:1 cut, little room above the face.
    const layout = computeLayout({
      width: 720,
      height: 720,
      safe: { x: 43, y: 43, w: 634, h: 619 },
      actor: {
        face: { x: 200, y: 60, w: 320, h: 330 },
        mouth: { x: 320, y: 280, w: 90, h: 60 },
        body: { x: 100, y: 400, w: 520, h: 320 },
      },
      product: { x: 420, y: 330, w: 140, h: 330 },
      camera: { maxZoom: 1, driftPx: 0 },
      words: speak(hook),
      durationSec: 10,
      hookText: hook,
      captionStyle: 'highlight',
      watermark: 'Hookreel · Free trial',
      cta: null,
    });
    expect(layout.hook.length).toBeGreaterThan(1);
    const pages = layout.hook.map((h) => h.lines.join(' '));
    expect(pages.join(' ')).toBe(hook);
    for (const p of pages.slice(0, -1)) expect(p).toMatch(/[.,]$|\bI found this serum,$|winter\.$/u);
    for (const h of layout.hook) {
      expect(h.fontSize).toBeGreaterThanOrEqual(HOOK_STYLE.minSize);
      expect(h.lines.join(' ')).not.toContain('…');
    }
    expect(checkLayout(layout).overlaps).toEqual([]);
  });

  it('never cuts a word: one too wide for the free space is broken with hyphens, every letter kept', () => {
    const layout = layoutFor(HOOKS.oneHugeWord!, PLACEMENTS.hand!, 'highlight');
    const shown = layout.hook.flatMap((h) => h.lines).join('');
    expect(shown.replace(/-/g, '')).toBe(HOOKS.oneHugeWord);
  });

  it('caption cues never run from one sentence into the next', () => {
    const script = 'My skin was dry. Then I found this serum. Two weeks later it glows. Try it.';
    for (const style of CAPTION_STYLES) {
      const words = speak(`Dry skin? ${script}`);
      const durationSec = words[words.length - 1]!.endSec + 0.4 + 1.5;
      const layout = layoutFor('Dry skin?', PLACEMENTS.hand!, style, { words, durationSec });
      const hookEnd = Math.max(...layout.hook.map((h) => h.endSec));
      for (const c of layout.captions) {
        const inner = c.words.slice(0, -1).map((w) => w.word);
        expect(
          inner.some((w) => /[.!?]$/.test(w)),
          `${style}: ${c.lines.join(' ')}`,
        ).toBe(false);
      }
      // Every word spoken once the sticker has gone (those under it are on screen with it).
      expect(layout.captions.flatMap((c) => c.words.map((w) => w.word))).toEqual(
        words.filter((w) => w.startSec >= hookEnd - 0.01).map((w) => w.word),
      );
    }
  });

  it('captions every word even when the subject leaves no free rectangle for a cue', () => {
    const words = speak('This serum keeps my skin soft all day and all night long.');
    const layout = computeLayout({
      width: 720,
      height: 720,
      safe: { x: 43, y: 43, w: 634, h: 619 },
      // The face and a large product fill the frame from side to side.
      actor: {
        face: { x: 60, y: 40, w: 600, h: 420 },
        mouth: { x: 300, y: 330, w: 120, h: 70 },
        body: { x: 0, y: 400, w: 720, h: 320 },
      },
      product: { x: 40, y: 430, w: 640, h: 290 },
      camera: { maxZoom: 1, driftPx: 0 },
      words,
      durationSec: words[words.length - 1]!.endSec + 0.4,
      hookText: null,
      captionStyle: 'boxed',
      watermark: 'Hookreel · Free trial',
      cta: null,
    });
    expect(layout.captions.flatMap((c) => c.words.map((w) => w.word))).toEqual(words.map((w) => w.word));
    for (const c of layout.captions) {
      expect(intersection(c.box, layout.face)).toBeNull();
      expect(c.fontSize).toBeGreaterThanOrEqual(24);
    }
    // The watermark of a trial video is never dropped: smaller, over the product, still off the face.
    expect(layout.watermark).not.toBeNull();
    expect(intersection(layout.watermark!.box, layout.face)).toBeNull();
    expect(layout.watermark!.fontSize).toBeGreaterThanOrEqual(14);
  });

  it('records how much of the eyes and mouth the frame shows', () => {
    const base = layoutFor(HOOKS.short!, PLACEMENTS.hand!, 'highlight');
    expect(base.faceSeen.every((f) => f.inside === 1)).toBe(true);
    const cut = layoutFor(HOOKS.short!, PLACEMENTS.hand!, 'highlight', {
      actor: {
        ...actorBoxesInVideo(),
        face: { x: 200, y: -150, w: 320, h: 400 },
        mouth: { x: 300, y: 160, w: 100, h: 60 },
      },
    });
    expect(cut.faceSeen[0]!.inside).toBeGreaterThan(0);
    expect(cut.faceSeen[0]!.inside).toBeLessThan(1);
  });
});

describe('layout details', () => {
  it('scales the 1080x1920 safe zone to the output size', () => {
    expect(safeZone(1080, 1920)).toEqual({ x: 60, y: 130, w: 1080 - 60 - 164, h: 1920 - 130 - 350 });
    expect(safeZone(720, 1280)).toEqual({ x: 40, y: 87, w: 720 - 40 - 109, h: 1280 - 87 - 233 });
  });

  it('puts the hook sticker at the top of the safe zone, above the face, for its beat', () => {
    const layout = layoutFor(HOOKS.medium!, PLACEMENTS.hand!, 'highlight', { camera: { maxZoom: 1, driftPx: 0 } });
    expect(layout.hook).toHaveLength(1);
    const h = layout.hook[0]!;
    expect(h.box.y).toBe(layout.safe.y);
    expect(h.box.y + h.box.h).toBeLessThanOrEqual(layout.face.y);
    expect(h.lines.length).toBeGreaterThanOrEqual(2);
    expect(h.startSec).toBe(0);
    expect(h.endSec).toBeGreaterThanOrEqual(1.6);
    expect(h.endSec).toBeLessThanOrEqual(3.5);
    // When the camera's motion leaves too little room above the face, the sticker goes below the chin instead.
    const moving = layoutFor(HOOKS.medium!, PLACEMENTS.hand!, 'highlight', { camera: { maxZoom: 1.1, driftPx: 30 } });
    expect(moving.hook).toHaveLength(1);
    expect(moving.hook[0]!.box.y).toBeGreaterThanOrEqual(moving.face.y + moving.face.h);
  });

  it('wraps long hooks into balanced lines, shrinks them, and pages what still does not fit', () => {
    const medium = layoutFor(HOOKS.medium!, null, 'highlight').hook[0]!;
    const widths = medium.lines.map((l) => textWidth(l, medium.fontSize));
    expect(Math.min(...widths) / Math.max(...widths)).toBeGreaterThan(0.6);
    const veryLong = layoutFor(HOOKS.veryLong!, PLACEMENTS.hand!, 'highlight');
    expect(veryLong.hook.length).toBeGreaterThan(1);
    for (let i = 1; i < veryLong.hook.length; i++)
      expect(veryLong.hook[i]!.startSec).toBeCloseTo(veryLong.hook[i - 1]!.endSec, 1);
  });

  it('detects right-to-left text and aligns lower-third captions to the right for it', () => {
    expect(isRtl(HOOKS.hebrew!)).toBe(true);
    expect(isRtl(HOOKS.arabic!)).toBe(true);
    expect(isRtl(HOOKS.accented!)).toBe(false);
    const layout = layoutFor(HOOKS.hebrew!, PLACEMENTS.left!, 'lower_third', {
      words: speak('שלום לכולם זה הסרום הכי טוב שניסיתי אי פעם באמת'),
    });
    expect(layout.rtl).toBe(true);
    const ass = layoutToAss(layout);
    expect(ass).toContain('\\an9');
  });

  it('keeps the watermark off the face and the product even when the corners are taken', () => {
    const layout = layoutFor(HOOKS.short!, rotatedBox(110, 900, 150, 200, 0), 'lower_third');
    const w = layout.watermark!;
    expect(intersection(w.box, layout.face)).toBeNull();
    expect(intersection(w.box, layout.product!)).toBeNull();
    expect(contains(layout.safe, w.box)).toBe(true);
  });

  it('grows the face and product by the camera motion', () => {
    const still = layoutFor(HOOKS.short!, PLACEMENTS.hand!, 'highlight', { camera: { maxZoom: 1, driftPx: 0 } });
    const moving = layoutFor(HOOKS.short!, PLACEMENTS.hand!, 'highlight', { camera: { maxZoom: 1.1, driftPx: 30 } });
    expect(contains(moving.face, still.face)).toBe(true);
    expect(moving.face.w).toBeGreaterThan(still.face.w + 60);
  });

  it('shows no end card without a CTA and no captions while the end card is up', () => {
    expect(layoutFor(HOOKS.short!, null, 'highlight', { cta: null }).endCard).toBeNull();
    const layout = layoutFor(HOOKS.short!, PLACEMENTS.hand!, 'pop');
    const card = layout.endCard!;
    expect(card.product).not.toBeNull();
    expect(intersection(card.product!, card.cta.box)).toBeNull();
    for (const c of layout.captions) expect(c.endSec).toBeLessThanOrEqual(card.startSec + 0.001);
  });

  it('finds the free rectangles around obstacles', () => {
    const safe = { x: 0, y: 0, w: 100, h: 100 };
    const rects = freeRects(safe, [{ x: 40, y: 40, w: 20, h: 20 }]);
    expect(rects).toContainEqual({ x: 0, y: 0, w: 100, h: 40 });
    expect(rects).toContainEqual({ x: 0, y: 60, w: 100, h: 40 });
    expect(rects).toContainEqual({ x: 0, y: 0, w: 40, h: 100 });
    expect(rects).toContainEqual({ x: 60, y: 0, w: 40, h: 100 });
  });

  it('fits text by shrinking, and refuses when it cannot', () => {
    const style = { maxSize: 40, minSize: 20, maxLines: 1, padX: 0, padY: 0, leading: 1.2 };
    const wide = fitText('Hello world', 1000, 100, style)!;
    const narrow = fitText('Hello world', 150, 100, style)!;
    expect(wide.fontSize).toBe(40);
    expect(narrow.fontSize).toBeLessThan(40);
    expect(fitText('Hello world', 40, 100, style)).toBeNull();
  });
});

describe('the hand holding the product is kept clear like the product', () => {
  // A rig actor holding the product low at the chest; the CTA close-up (zoom 2.2 on the product) brings the hand
  // and fingers under the product down to the bottom-left corner of the safe zone, the watermark's first choice.
  const spec = actorFromDescription('woman in her 30s', 1);
  const held = { cx: 300, cy: 868, width: 63, height: 203, rotation: 0 };
  const rig = rigBoxes(spec.traits, held, REST_POSE);
  const hook = 'Stop scrolling.';
  const words = speak(`${hook} This serum changed my mornings. Try it today!`, 0.2, 0.35);
  const total = words[words.length - 1]!.endSec + 0.4;
  const shots = cameraShots({
    totalSec: total,
    beats: beatsOf(words, hook),
    face: { cx: rig.face.x + rig.face.w / 2, cy: rig.face.y + rig.face.h / 2 },
    product: rig.product,
    faceBox: rig.face,
  });
  const closeUp = shots[shots.length - 1]!;
  const at = (b: Box, t: number) => boxAtTime(b, shots, t, 720, 1280);
  const input = (withHand: boolean, style: CaptionStyle = 'highlight'): LayoutInput => ({
    width: 720,
    height: 1280,
    actor: actorBoxesInVideo(rig),
    product: frameToVideo(rig.product!),
    ...(withHand ? { hand: frameToVideo(rig.hand) } : {}),
    camera: { maxZoom: 1, driftPx: 0 },
    view: (t) => ({
      face: at(rig.face, t),
      mouth: at(rig.mouth, t),
      product: at(rig.product!, t),
      ...(withHand ? { hand: at(rig.hand, t) } : {}),
    }),
    cuts: shots.slice(1).map((s) => s.startSec),
    words,
    durationSec: total,
    hookText: hook,
    captionStyle: style,
    watermark: 'Hookreel · Free trial',
    cta: null,
  });

  it('the close-up puts the hand under the watermark when the layout does not know it', () => {
    expect(closeUp.zoomFrom).toBeGreaterThan(1.6);
    const blind = computeLayout(input(false));
    const hand = at(rig.hand, (closeUp.startSec + closeUp.endSec) / 2);
    expect(intersection(blind.watermark!.box, hand)).not.toBeNull();
  });

  for (const style of CAPTION_STYLES)
    it(`no text over the hand in any shot, ${style} captions`, () => {
      const layout = computeLayout(input(true, style));
      expect(layout.hand).not.toBeNull();
      expect(checkLayout(layout)).toEqual({ overlaps: [], compromises: [], outsideSafe: [], captionsDuringHook: 0 });
      // Over the whole video, sampled every 1/15 s through the camera: the watermark and every caption.
      const w = layout.watermark!;
      // Kept clear of the hand it may wrap, never leaving its separator dangling.
      for (const line of w.lines) expect(line).not.toMatch(/^·|·$/);
      for (const v of layout.views) {
        expect(intersection(w.box, v.hand!)).toBeNull();
        for (const c of layout.captions)
          if (v.t >= c.startSec && v.t < c.endSec) expect(intersection(c.box, v.hand!)).toBeNull();
      }
      expect(layout.captions.length).toBeGreaterThan(0);
    });

  it('the report names the hand when text covers it', () => {
    const blind = computeLayout(input(false));
    const views = blind.views.map((v) => ({ ...v, hand: at(rig.hand, v.t) }));
    expect(checkLayout({ ...blind, views }).overlaps).toContainEqual(
      expect.objectContaining({ text: 'watermark', covers: 'hand' }),
    );
  });
});
