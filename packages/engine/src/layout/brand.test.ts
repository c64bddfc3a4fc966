import { CAPTION_FONTS } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import type { WordTiming } from '../types.ts';
import { actorBoxesInVideo, frameToVideo, rotatedBox } from './actor-boxes.ts';
import { layoutToAss } from './ass.ts';
import { boldMetrics, layoutFontFor, textWidth } from './font.ts';
import { checkLayout, computeLayout, contains, END_CARD_SEC, OUTRO_SEC, type LayoutInput } from './index.ts';

const speak = (text: string, step = 0.32): WordTiming[] =>
  text.split(/\s+/).map((word, i) => ({ word, startSec: 0.2 + i * step, endSec: 0.2 + i * step + step * 0.85 }));

function layoutWith(extra: Partial<LayoutInput>) {
  const words = speak('Stop scrolling if your skin feels dry and honestly it changed my mornings. Try it today.');
  const speechEnd = words[words.length - 1]!.endSec + 0.4;
  return computeLayout({
    width: 720,
    height: 1280,
    actor: actorBoxesInVideo(),
    product: frameToVideo(rotatedBox(370, 700, 110, 190, -6)),
    camera: { maxZoom: 1.06, driftPx: 20 },
    words,
    durationSec: speechEnd + END_CARD_SEC + (extra.outro ? OUTRO_SEC : 0),
    hookText: 'Stop scrolling if your skin feels dry',
    captionStyle: 'highlight',
    watermark: null,
    cta: 'Get 20% off today',
    ...extra,
  });
}

describe('brand kit in the layout', () => {
  it('offers only fonts that are installed and measure differently from one another', () => {
    const widths = CAPTION_FONTS.map((f) => {
      const font = layoutFontFor(f, 'Honestly this changed everything');
      return Math.round(textWidth('Honestly this changed everything', 54, font.metrics));
    });
    // A font that is missing falls back to DejaVu Sans and would measure the same as it.
    expect(new Set(widths).size).toBe(CAPTION_FONTS.length);
  });

  it('falls back to DejaVu Sans for text the chosen font cannot draw', () => {
    expect(layoutFontFor('lato', 'Hello there').family).toBe('Lato');
    const hebrew = layoutFontFor('lato', 'תפסיקו לגלול עכשיו');
    expect(hebrew.family).toBe('DejaVu Sans');
    expect(hebrew.metrics).toBe(boldMetrics());
  });

  it('puts the outro card after the CTA card with the logo inside the safe zone, and checks it', () => {
    for (const logoAspect of [4, 1, 0.3]) {
      const layout = layoutWith({ outro: { logoAspect }, font: layoutFontFor('open_sans', '').metrics });
      const outro = layout.outro!;
      expect(outro).not.toBeNull();
      expect(layout.endCard!.endSec).toBeCloseTo(outro.startSec, 2);
      expect(outro.endSec - outro.startSec).toBeCloseTo(OUTRO_SEC, 2);
      expect(contains(layout.safe, outro.logo)).toBe(true);
      expect(outro.logo.w / outro.logo.h).toBeCloseTo(logoAspect, 1);
      const v = checkLayout(layout);
      expect(v.outsideSafe).toEqual([]);
      expect(v.overlaps).toEqual([]);
      // Captions end before the CTA card, which ends before the outro.
      for (const c of layout.captions) expect(c.endSec).toBeLessThanOrEqual(layout.endCard!.startSec + 1e-6);
    }
    // A logo pushed outside the safe zone is reported.
    const layout = layoutWith({ outro: { logoAspect: 1 } });
    layout.outro!.logo = { ...layout.outro!.logo, y: 10 };
    expect(checkLayout(layout).outsideSafe.map((o) => o.name)).toEqual(['outro logo']);
  });

  it('without a CTA the outro follows the speech and the scene ends at it', () => {
    const layout = layoutWith({ cta: null, outro: { logoAspect: 2 } });
    expect(layout.endCard).toBeNull();
    for (const c of layout.captions) expect(c.endSec).toBeLessThanOrEqual(layout.outro!.startSec + 1e-6);
  });

  it('writes the font and colours into the subtitles', () => {
    const font = layoutFontFor('dejavu_serif', '');
    const layout = layoutWith({ outro: { logoAspect: 2 }, font: font.metrics });
    const ass = layoutToAss(layout, {
      family: font.family,
      metrics: font.metrics,
      primary: '#E63946',
      secondary: '#1D3557',
    });
    expect(ass).toMatch(/^Style: Caption,DejaVu Serif,/m);
    expect(ass).toMatch(/^Style: Sticker,DejaVu Serif,/m);
    // Spoken word in the primary colour (&HBBGGRR&), the CTA button in it, the outro card in the secondary one.
    expect(ass).toContain('\\c&H4639E6&');
    expect(ass).toMatch(/Dialogue: 21,.*\\c&H4639E6&/);
    expect(ass).toMatch(/Dialogue: 30,.*\\c&H57351D&/);
    // A dark primary colour gets a white outline on the spoken word so it stays readable.
    const dark = layoutToAss(layout, { ...font, primary: '#1D3557', secondary: '#111111' });
    expect(dark).toContain('\\c&H57351D&\\3c&HFFFFFF&');
  });
});
