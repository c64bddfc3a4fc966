import { ASPECTS, CAPTION_STYLES } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import type { WordTiming } from '../types.ts';
import type { CameraShot } from '../motion/timeline.ts';
import {
  cropShots,
  cropYAt,
  cropYExpression,
  intoCut,
  safeZoneFor,
  scaleLayout,
  shotsForFrame,
  workingFrame,
} from './aspect.ts';
import { computeLayout, checkLayout, MIN_TEXT_SIZE } from './index.ts';

const speak = (text: string, from = 0.2, step = 0.32): WordTiming[] =>
  text.split(/\s+/).map((word, i) => ({ word, startSec: from + i * step, endSec: from + i * step + step * 0.85 }));

const face = { x: 230, y: 260, w: 260, h: 330 };
const product = { x: 420, y: 640, w: 160, h: 300 };

describe('frame shapes', () => {
  it('cut the master at full width with the shape’s proportions, scaled to the output', () => {
    expect(workingFrame('9:16')).toEqual({ width: 720, height: 1280, scale: 1 });
    expect(workingFrame('4:5')).toEqual({ width: 720, height: 900, scale: 1.2 });
    expect(workingFrame('1:1')).toEqual({ width: 720, height: 720, scale: 1.5 });
  });

  it('keep the platform safe zone on 9:16 and a margin on the feed shapes', () => {
    expect(safeZoneFor('9:16', 720, 1280)).toEqual({ x: 40, y: 87, w: 571, h: 960 });
    expect(safeZoneFor('1:1', 720, 720)).toEqual({ x: 43, y: 43, w: 634, h: 720 - 43 - 58 });
  });

  it('place the cut around face and product, per shot, and keep the product whole in its close-up', () => {
    const shots = cropShots({
      cropHeight: 720,
      durationSec: 6,
      cuts: [4],
      view: (t) =>
        t < 4
          ? { face, product }
          : // The close-up: the product fills the middle, the face is cut by the top of the master.
            { face: { x: 100, y: -200, w: 500, h: 500 }, product: { x: 250, y: 400, w: 250, h: 500 } },
      productShot: (t) => t >= 4,
    });
    expect(shots.map((s) => s.startSec)).toEqual([0, 4]);
    // Face top 260 to product bottom 940 fits in 720: centred.
    expect(shots[0]!.y).toBe(Math.round((260 + 940) / 2 - 360));
    // Face to product bottom 900 does not fit: the product leads, and the face the master cuts through is left
    // out whole (the cut starts under its chin, 300), the product still whole in it.
    expect(shots[1]!.y).toBe(302);
    expect(shots[1]!.y).toBeLessThanOrEqual(400);
    expect(shots[1]!.y + 720).toBeGreaterThanOrEqual(900);
    expect(cropYAt(shots, 3.9)).toBe(shots[0]!.y);
    expect(cropYAt(shots, 4)).toBe(shots[1]!.y);
    expect(cropYExpression(shots)).toBe(`if(lt(t,4.0000),${shots[0]!.y},${shots[1]!.y})`);
    // A big product under a whole face in a shot about the product: the eyes and the mouth stay in the cut.
    const mouth = { x: 320, y: 480, w: 80, h: 50 };
    const big = cropShots({
      cropHeight: 720,
      durationSec: 2,
      cuts: [],
      view: () => ({ face, mouth, product: { x: 200, y: 560, w: 320, h: 700 } }),
      productShot: () => true,
    });
    const eyes = mouth.y - (mouth.y - face.y) * 0.55;
    expect(big[0]!.y).toBeLessThanOrEqual(eyes);
    expect(big[0]!.y + 720).toBeGreaterThanOrEqual(mouth.y + mouth.h);
    // Without a product, the face sits a little above the middle.
    const head = cropShots({ cropHeight: 720, durationSec: 2, cuts: [], view: () => ({ face, product: null }) });
    expect(head[0]!.y).toBe(Math.round(260 + 330 / 2 - 720 * 0.42));
    expect(intoCut({ x: -10, y: 100, w: 50, h: 50 }, 120, 720, 720)).toEqual({ x: 0, y: 0, w: 40, h: 30 });
  });

  it('zoom the CTA close-up less for a shorter frame, never below 1, and leave the other shots', () => {
    const shots: CameraShot[] = [
      { startSec: 0, endSec: 2, zoomFrom: 1, zoomTo: 1.05, cx: 288, cy: 480 },
      { startSec: 2, endSec: 3, zoomFrom: 1.18, zoomTo: 1.18, cx: 288, cy: 560 },
      { startSec: 3, endSec: 5, zoomFrom: 2, zoomTo: 2, cx: 360, cy: 640 },
    ];
    const square = shotsForFrame(shots, 720);
    expect(square.slice(0, 2)).toEqual(shots.slice(0, 2));
    expect(square[2]!.zoomFrom).toBeCloseTo(2 * (720 / 1280));
    expect(shotsForFrame([{ ...shots[2]!, zoomFrom: 1.6, zoomTo: 1.6 }], 720)[0]!.zoomFrom).toBe(1);
  });

  it('lay text out for a 1:1 cut clear of face and product, and scale it to the output', () => {
    const layout = computeLayout({
      width: 720,
      height: 720,
      safe: safeZoneFor('1:1', 720, 720),
      actor: { face: { x: 230, y: 60, w: 260, h: 330 }, mouth: { x: 330, y: 300, w: 60, h: 44 }, body: face },
      product: { x: 430, y: 420, w: 160, h: 300 },
      camera: { maxZoom: 1, driftPx: 0 },
      words: [
        { word: 'Glow', startSec: 0.2, endSec: 0.5 },
        { word: 'all', startSec: 0.55, endSec: 0.8 },
        { word: 'day.', startSec: 0.85, endSec: 1.2 },
        { word: 'Honestly', startSec: 2.2, endSec: 2.6 },
        { word: 'the', startSec: 2.65, endSec: 2.8 },
        { word: 'best.', startSec: 2.85, endSec: 3.3 },
      ],
      durationSec: 5,
      hookText: 'Glow all day.',
      captionStyle: 'highlight',
      watermark: 'Hookreel · Free trial',
      cta: 'Shop now',
    });
    expect(checkLayout(layout)).toEqual({ overlaps: [], compromises: [], outsideSafe: [], captionsDuringHook: 0 });
    expect(layout.captions.flatMap((c) => c.words.map((w) => w.word))).toEqual(['Honestly', 'the', 'best.']);
    const out = scaleLayout(layout, 1.5);
    expect([out.width, out.height]).toEqual([1080, 1080]);
    expect(out.hook[0]!.fontSize).toBeCloseTo(layout.hook[0]!.fontSize * 1.5);
    expect(out.captions[0]!.box.y).toBeCloseTo(layout.captions[0]!.box.y * 1.5);
    expect(checkLayout(out)).toEqual({ overlaps: [], compromises: [], outsideSafe: [], captionsDuringHook: 0 });
  });
});

describe('one rule set for every frame shape in the contracts (decision 215)', () => {
  const hooks = [
    'Wait for it',
    'I kept trying every serum for my dry skin until this one finally worked for me.',
    'Stop scrolling. Your skin deserves better, and this is how.',
  ];
  // Product boxes in the master (720x1280): held at the chest, large and high by the face, low, none.
  const products = [
    { x: 400, y: 620, w: 170, h: 320 },
    { x: 380, y: 300, w: 300, h: 620 },
    { x: 260, y: 900, w: 220, h: 260 },
    null,
  ];
  const actor = { face: { x: 200, y: 225, w: 350, h: 437 }, mouth: { x: 327, y: 397, w: 182, h: 100 } };
  for (const aspect of ASPECTS)
    for (const [pi, product] of products.entries())
      for (const [hi, hook] of hooks.entries())
        for (const style of CAPTION_STYLES)
          it(`${aspect}, product ${pi}, hook ${hi}, ${style}`, () => {
            const words = speak(`${hook} This serum changed my mornings for good. Try it today.`);
            const durationSec = words[words.length - 1]!.endSec + 0.4;
            const { width: W, height: H } = workingFrame(aspect);
            const [shot] = cropShots({
              cropHeight: H,
              durationSec,
              cuts: [],
              view: () => ({ face: actor.face, mouth: actor.mouth, product }),
            });
            const y = shot!.y;
            const shift = (b: { x: number; y: number; w: number; h: number }) => ({ ...b, y: b.y - y });
            const layout = computeLayout({
              width: W,
              height: H,
              safe: safeZoneFor(aspect, W, H),
              actor: { face: shift(actor.face), mouth: shift(actor.mouth), body: intoCut(actor.face, y, W, H) },
              product: product ? intoCut(product, y, W, H) : null,
              camera: { maxZoom: 1, driftPx: 0 },
              words,
              durationSec,
              hookText: hook,
              captionStyle: style,
              watermark: 'Hookreel · Free trial',
              cta: null,
            });
            // The face whole, never under text.
            expect(layout.faceSeen.every((f) => f.inside === 1)).toBe(true);
            const v = checkLayout(layout);
            expect(v.overlaps.filter((o) => o.covers === 'face')).toEqual([]);
            expect(v.outsideSafe).toEqual([]);
            // Every word of the hook drawn, none cut, at a legible size.
            expect(layout.hook.flatMap((h) => h.lines).join(' ')).toBe(hook);
            for (const h of layout.hook) expect(h.fontSize).toBeGreaterThanOrEqual(MIN_TEXT_SIZE.hook);
            // Few enough pages to read in the sticker's beat, and none of a lone word when there are several.
            expect(layout.hook.length).toBeLessThanOrEqual(3);
            if (layout.hook.length > 1) expect(hook.split(' ').length / layout.hook.length).toBeGreaterThanOrEqual(2);
            // Every word spoken after the sticker captioned, at a legible size.
            const hookEnd = Math.max(...layout.hook.map((h) => h.endSec));
            expect(layout.captions.flatMap((c) => c.words.map((w) => w.word))).toEqual(
              words.filter((w) => w.startSec >= hookEnd - 0.01).map((w) => w.word),
            );
            for (const c of layout.captions) {
              expect(c.fontSize).toBeGreaterThanOrEqual(MIN_TEXT_SIZE.caption);
              expect(c.lines.join(' ')).toBe(c.words.map((w) => w.word).join(' '));
            }
            // The trial watermark always there, readable, off the face.
            expect(layout.watermark).not.toBeNull();
            expect(layout.watermark!.fontSize).toBeGreaterThanOrEqual(MIN_TEXT_SIZE.watermark);
          });
});
