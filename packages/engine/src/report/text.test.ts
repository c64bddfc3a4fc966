import { describe, expect, it } from 'vitest';
import { actorBoxesInVideo } from '../layout/actor-boxes.ts';
import { computeLayout, type VideoLayout } from '../layout/index.ts';
import type { WordTiming } from '../types.ts';
import { inkShare, textChecks, type TextMeasures } from './text.ts';

/** The checks of what a person sees (decision 215), on layouts made to break each rule. */

const speak = (text: string, from = 0.2, step = 0.32): WordTiming[] =>
  text.split(/\s+/).map((word, i) => ({ word, startSec: from + i * step, endSec: from + i * step + step * 0.85 }));

function layout(): VideoLayout {
  const words = speak('Stop scrolling now. This serum keeps my skin soft all day long.');
  return computeLayout({
    width: 720,
    height: 1280,
    actor: actorBoxesInVideo(),
    product: null,
    camera: { maxZoom: 1, driftPx: 0 },
    words,
    durationSec: words[words.length - 1]!.endSec + 0.4,
    hookText: 'Stop scrolling now.',
    captionStyle: 'highlight',
    watermark: 'Hookreel · Free trial',
    cta: null,
  });
}

const level = (l: VideoLayout, id: string, m: TextMeasures | null = null) =>
  textChecks(l, m).find((c) => c.id === id)?.level;

describe('text and face checks', () => {
  it('pass on a layout that keeps every rule', () => {
    const l = layout();
    const seen: TextMeasures = { speech: { sampled: 8, bare: [] }, watermark: { sampled: 8, missing: [] } };
    for (const id of ['face-in-frame', 'text-legible', 'speech-text', 'watermark'])
      expect(level(l, id, seen)).toBe('pass');
  });

  it('fail a face cut by the frame and a video that does not open on the face', () => {
    const l = layout();
    expect(
      level(
        {
          ...l,
          faceSeen: [
            { t: 0, inside: 1 },
            { t: 2, inside: 0.6 },
          ],
        },
        'face-in-frame',
      ),
    ).toBe('fail');
    expect(level({ ...l, faceSeen: [{ t: 0, inside: 0 }] }, 'face-in-frame')).toBe('fail');
    // A product close-up without the face is no cut face.
    expect(
      level(
        {
          ...l,
          faceSeen: [
            { t: 0, inside: 1 },
            { t: 3, inside: 0 },
          ],
        },
        'face-in-frame',
      ),
    ).toBe('pass');
  });

  it('fail text cut short or under its minimum size', () => {
    const l = layout();
    const cut = { ...l, hook: l.hook.map((h) => ({ ...h, lines: ['Stop scro…'] })) };
    expect(level(cut, 'text-legible')).toBe('fail');
    const c = l.captions[0]!;
    const shortCaption = {
      ...l,
      captions: [{ ...c, lines: [c.lines.join(' ').slice(0, 4) + '…'] }, ...l.captions.slice(1)],
    };
    expect(level(shortCaption, 'text-legible')).toBe('fail');
    const tiny = { ...l, captions: l.captions.map((x) => ({ ...x, fontSize: 16 })) };
    expect(textChecks(tiny, null).find((x) => x.id === 'text-legible')?.detail).toMatch(/caption at 16 px/);
    // On a 1080 px wide output the same rule holds in proportion: 24 px of the working frame is 36 px.
    const wide = { ...l, width: 1080, captions: l.captions.map((x) => ({ ...x, fontSize: 30 })) };
    expect(level(wide, 'text-legible')).toBe('fail');
  });

  it('fail speech without text on the frames, and a trial video without its watermark', () => {
    const l = layout();
    const bare: TextMeasures = { speech: { sampled: 8, bare: [2.5, 3] }, watermark: { sampled: 8, missing: [1] } };
    expect(level(l, 'speech-text', bare)).toBe('fail');
    expect(level(l, 'watermark', bare)).toBe('fail');
    expect(level({ ...l, watermark: null }, 'watermark')).toBe('fail');
    // No watermark asked for: no watermark check.
    expect(level({ ...l, watermarkText: null, watermark: null }, 'watermark')).toBeUndefined();
  });

  it('sees text where the drawn frame differs from the bare one', () => {
    const l = layout();
    const size = 360 * 640;
    const bare = Buffer.alloc(size, 120);
    const drawn = Buffer.from(bare);
    const box = { x: 100, y: 200, w: 200, h: 60 };
    expect(inkShare(bare, drawn, 0, box, l)).toBe(0);
    // White strokes over a tenth of the box (output pixels are twice the grey picture's).
    for (let y = 100; y < 130; y++) for (let x = 50; x < 150; x += 10) drawn[y * 360 + x] = 250;
    expect(inkShare(bare, drawn, 0, box, l)).toBeGreaterThan(0.05);
  });
});
