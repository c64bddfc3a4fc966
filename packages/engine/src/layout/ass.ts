import { contrastRatio, DEFAULT_BRAND_COLOURS, textColourOn, type Box } from '@hookreel/contracts';
import { boldMetrics, FONT_NAME, textWidth as textWidthOf, type FontMetrics } from './font.ts';
import type { CaptionCue, TextBlock, VideoLayout } from './index.ts';

/**
 * The layout as an ASS subtitle file for libass: every line is positioned explicitly (\pos, no automatic
 * wrapping), so what is drawn is exactly what the layout decided. Sticker and box backgrounds are ASS vector
 * drawings of rounded rectangles.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
export function assTime(sec: number): string {
  const cs = Math.max(0, Math.round(sec * 100));
  return `${Math.floor(cs / 360000)}:${pad(Math.floor(cs / 6000) % 60)}:${pad(Math.floor(cs / 100) % 60)}.${pad(cs % 100)}`;
}

/**
 * Text inside an ASS event: braces open override blocks and a backslash starts a tag (\N, \h…). libass has no
 * escape for either, so braces are dropped and a backslash becomes the look-alike U+2216.
 */
export const escapeAss = (s: string): string => s.replace(/\\/g, '\u2216').replace(/[{}]/g, '').replace(/\n/g, ' ');

/** ASS colour &HAABBGGRR from #RRGGBB and an opacity 0..1. */
function colour(hex: string, opacity = 1): string {
  const r = hex.slice(1, 3);
  const g = hex.slice(3, 5);
  const b = hex.slice(5, 7);
  const a = Math.round((1 - opacity) * 255)
    .toString(16)
    .padStart(2, '0');
  return `&H${a}${b}${g}${r}`.toUpperCase();
}
const col = (hex: string) => `&H${hex.slice(5, 7)}${hex.slice(3, 5)}${hex.slice(1, 3)}&`.toUpperCase();
const alpha = (opacity: number) =>
  `&H${Math.round((1 - opacity) * 255)
    .toString(16)
    .padStart(2, '0')
    .toUpperCase()}&`;

const INK = '#111111';
const WHITE = '#FFFFFF';

/**
 * The brand look of a video's text (the brand kit): the face hook, captions and CTA are set in, the primary
 * colour (the spoken word, the CTA button) and the secondary colour (caption boxes, the outro card). The metrics
 * must be the ones the layout measured with. Text on a brand colour is near-black or white, whichever reads.
 */
export interface AssLook {
  family: string;
  metrics: FontMetrics;
  primary: string;
  secondary: string;
}
export const defaultLook = (): AssLook => ({
  family: FONT_NAME,
  metrics: boldMetrics(),
  primary: DEFAULT_BRAND_COLOURS.primary,
  secondary: DEFAULT_BRAND_COLOURS.secondary,
});

/** A rounded rectangle as an ASS drawing command list, relative to its \pos. */
function roundedRect(w: number, h: number, r: number): string {
  const k = r * 0.45;
  const W = Math.round(w);
  const H = Math.round(h);
  const R = Math.round(Math.min(r, W / 2, H / 2));
  const K = Math.round(k);
  return [
    `m ${R} 0`,
    `l ${W - R} 0`,
    `b ${W - K} 0 ${W} ${K} ${W} ${R}`,
    `l ${W} ${H - R}`,
    `b ${W} ${H - K} ${W - K} ${H} ${W - R} ${H}`,
    `l ${R} ${H}`,
    `b ${K} ${H} 0 ${H - K} 0 ${H - R}`,
    `l 0 ${R}`,
    `b 0 ${K} ${K} 0 ${R} 0`,
  ].join(' ');
}

function drawBox(b: Box, fill: string, opacity: number, radius: number, extra = ''): string {
  return `{\\an7\\pos(${Math.round(b.x)},${Math.round(b.y)})\\p1\\bord0\\shad0\\c${col(fill)}\\1a${alpha(opacity)}${extra}}${roundedRect(b.w, b.h, radius)}{\\p0}`;
}

const ev = (layer: number, start: number, end: number, style: string, text: string) =>
  `Dialogue: ${layer},${assTime(start)},${assTime(end)},${style},,0,0,0,,${text}`;

/** Top-centre (or top-left/right) anchor of line i of a block, for \an8 / \an7 / \an9. */
function lineAnchor(
  b: TextBlock,
  i: number,
  padX: number,
  padY: number,
  rtl: boolean,
): { an: number; x: number; y: number } {
  const y = Math.round(b.box.y + padY + i * b.lineHeight + (b.lineHeight - b.fontSize) / 2);
  if (b.align === 'left')
    return rtl ? { an: 9, x: Math.round(b.box.x + b.box.w - padX), y } : { an: 7, x: Math.round(b.box.x + padX), y };
  return { an: 8, x: Math.round(b.box.x + b.box.w / 2), y };
}

export function layoutToAss(layout: VideoLayout, look: AssLook = defaultLook()): string {
  const F = look.family;
  // The styles' Encoding: -1 makes libass take each line's direction from its text. With the usual 1 every line
  // is laid out left to right, so a Hebrew or Arabic line got its full stop on the wrong end and, once a colour
  // tag split it (the highlighted word), its words in reverse order.
  const E = layout.rtl ? -1 : 1;
  // Captions carry a 4 px outline and no drop shadow: behind the outline the shadow showed as a 2 px edge, and
  // libass draws it as a third picture blended on every frame, a quarter of what the captions cost the encode.
  // 'pop' sets its own shadow on its one word.
  const header = `[Script Info]
ScriptType: v4.00+
PlayResX: ${layout.width}
PlayResY: ${layout.height}
WrapStyle: 2
ScaledBorderAndShadow: yes

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Shape,${FONT_NAME},20,${colour(WHITE)},${colour(WHITE)},${colour(INK)},${colour(INK, 0)},0,0,0,0,100,100,0,0,1,0,0,7,0,0,0,${E}
Style: Sticker,${F},48,${colour(INK)},${colour(INK)},${colour(INK)},${colour(INK, 0)},-1,0,0,0,100,100,0,0,1,0,0,8,0,0,0,${E}
Style: Caption,${F},54,${colour(WHITE)},${colour(WHITE)},${colour(INK)},${colour(INK, 0.55)},-1,0,0,0,100,100,0,0,1,4,0,8,0,0,0,${E}
Style: Plain,${F},40,${colour(WHITE)},${colour(WHITE)},${colour(INK)},${colour(INK, 0)},-1,0,0,0,100,100,0,0,1,0,0,8,0,0,0,${E}
Style: Mark,${FONT_NAME},22,${colour(WHITE)},${colour(WHITE)},${colour(INK)},${colour(INK, 0)},-1,0,0,0,100,100,0,0,1,0,0,8,0,0,0,${E}

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
`;
  const events: string[] = [];
  const rtl = layout.rtl;

  // Hook sticker: a white card with a soft shadow, dark bold text; slides up 10 px and fades in.
  for (const h of layout.hook) {
    const fade = `\\fad(140,120)`;
    events.push(
      ev(1, h.startSec, h.endSec, 'Shape', drawBox({ ...h.box, x: h.box.x + 3, y: h.box.y + 5 }, INK, 0.22, 18, fade)),
    );
    events.push(ev(2, h.startSec, h.endSec, 'Shape', drawBox(h.box, WHITE, 1, 18, fade)));
    h.lines.forEach((line, i) => {
      const a = lineAnchor(h, i, 22, 12, rtl);
      events.push(
        ev(
          3,
          h.startSec,
          h.endSec,
          'Sticker',
          `{\\an${a.an}\\pos(${a.x},${a.y})\\fs${h.fontSize}${fade}}${escapeAss(line)}`,
        ),
      );
    });
  }

  for (const c of layout.captions) events.push(...captionEvents(c, layout, look));

  if (layout.watermark) {
    const w = layout.watermark;
    events.push(ev(1, w.startSec, w.endSec, 'Shape', drawBox(w.box, INK, 0.35, w.box.h / 2)));
    w.lines.forEach((line, i) => {
      const a = lineAnchor(w, i, 10, 6, false);
      events.push(
        ev(
          2,
          w.startSec,
          w.endSec,
          'Mark',
          `{\\an7\\pos(${a.x},${a.y})\\fs${w.fontSize}\\1a${alpha(0.85)}}${escapeAss(line)}`,
        ),
      );
    });
  }

  if (layout.endCard) {
    const e = layout.endCard;
    const full = { x: 0, y: 0, w: layout.width, h: layout.height };
    events.push(ev(20, e.startSec, e.endSec, 'Shape', drawBox(full, '#F4EFE8', 1, 0, '\\fad(200,0)')));
    const c = e.cta;
    events.push(
      ev(
        21,
        c.startSec,
        c.endSec,
        'Shape',
        drawBox(c.box, look.primary, 1, c.box.h / 2 > 40 ? 40 : c.box.h / 2, '\\fad(300,0)'),
      ),
    );
    c.lines.forEach((line, i) => {
      const a = lineAnchor(c, i, 30, 18, rtl);
      events.push(
        ev(
          22,
          c.startSec,
          c.endSec,
          'Plain',
          `{\\an${a.an}\\pos(${a.x},${a.y})\\fs${c.fontSize}\\c${col(textColourOn(look.primary))}\\fad(300,0)}${escapeAss(line)}`,
        ),
      );
    });
  }
  if (layout.outro) {
    // The outro card: the whole frame in the brand's secondary colour; the renderer puts the logo on it.
    const o = layout.outro;
    const full = { x: 0, y: 0, w: layout.width, h: layout.height };
    events.push(ev(30, o.startSec, o.endSec, 'Shape', drawBox(full, look.secondary, 1, 0, '\\fad(150,0)')));
  }
  return header + events.join('\n') + '\n';
}

function captionEvents(c: CaptionCue, layout: VideoLayout, look: AssLook): string[] {
  const out: string[] = [];
  const rtl = layout.rtl;
  const words = c.words.map((w) => escapeAss(w.word));
  const lineWords = c.lines.map((_, li) => words.map((w, wi) => ({ w, wi })).filter((x) => c.lineOfWord[x.wi] === li));
  switch (layout.captionStyle) {
    case 'highlight': {
      // The whole cue stays; the spoken word takes the brand's primary colour (yellow by default), with a white
      // outline instead of the black one when the colour is too dark to read against black. One event per word
      // span keeps libass simple.
      const on =
        contrastRatio(look.primary, INK) >= 3
          ? `{\\c${col(look.primary)}}`
          : `{\\c${col(look.primary)}\\3c${col(WHITE)}}`;
      const off = `{\\c${col(WHITE)}\\3c${col(INK)}}`;
      c.words.forEach((word, wi) => {
        const start = wi === 0 ? c.startSec : word.startSec;
        const end = wi + 1 < c.words.length ? c.words[wi + 1]!.startSec : c.endSec;
        if (end - start < 0.01) return;
        lineWords.forEach((lw, li) => {
          const a = lineAnchor(c, li, 6, 6, rtl);
          const text = lw.map((x) => (x.wi === wi ? `${on}${x.w}${off}` : x.w)).join(' ');
          out.push(ev(4, start, end, 'Caption', `{\\an${a.an}\\pos(${a.x},${a.y})\\fs${c.fontSize}}${text}`));
        });
      });
      break;
    }
    case 'pop': {
      // One word, centred, scaling in from 72% over 90 ms.
      const a = { x: Math.round(c.box.x + c.box.w / 2), y: Math.round(c.box.y + c.box.h / 2) };
      out.push(
        ev(
          4,
          c.startSec,
          c.endSec,
          'Caption',
          `{\\an5\\pos(${a.x},${a.y})\\fs${c.fontSize}\\bord6\\shad3\\fscx72\\fscy72\\t(0,90,\\fscx100\\fscy100)}${words.join(' ')}`,
        ),
      );
      break;
    }
    case 'boxed': {
      // Each line on its own dark rounded box.
      c.lines.forEach((line, li) => {
        const a = lineAnchor(c, li, 14, 10, rtl);
        const w = textWidthOf(line, c.fontSize, look.metrics) + 28;
        const box = {
          x: a.x - w / 2,
          y: c.box.y + 10 + li * c.lineHeight - 10 + (c.lineHeight - c.fontSize) / 2,
          w,
          h: c.fontSize + 20,
        };
        out.push(ev(4, c.startSec, c.endSec, 'Shape', drawBox(box, look.secondary, 0.82, 12)));
        out.push(
          ev(
            5,
            c.startSec,
            c.endSec,
            'Plain',
            `{\\an${a.an}\\pos(${a.x},${a.y})\\fs${c.fontSize}\\c${col(textColourOn(look.secondary))}}${escapeAss(line)}`,
          ),
        );
      });
      break;
    }
    case 'lower_third': {
      // A dark secondary colour can stay half see-through under white text; a light one is made solid enough
      // for the dark text it then carries.
      const ink = textColourOn(look.secondary);
      out.push(ev(4, c.startSec, c.endSec, 'Shape', drawBox(c.box, look.secondary, ink === WHITE ? 0.5 : 0.85, 14)));
      c.lines.forEach((line, li) => {
        const a = lineAnchor(c, li, 16, 10, rtl);
        out.push(
          ev(
            5,
            c.startSec,
            c.endSec,
            'Plain',
            `{\\an${a.an}\\pos(${a.x},${a.y})\\fs${c.fontSize}\\c${col(ink)}}${escapeAss(line)}`,
          ),
        );
      });
      break;
    }
  }
  return out;
}
