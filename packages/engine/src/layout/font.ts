import { existsSync, readFileSync } from 'node:fs';
import type { CaptionFont } from '@hookreel/contracts';
import path from 'node:path';

/**
 * Horizontal metrics of a TrueType font, read straight from its tables (cmap, hmtx, hhea, head), so the layout
 * can measure text exactly as libass will draw it without rendering anything. Only what measuring needs.
 */
export interface FontMetrics {
  unitsPerEm: number;
  /** hhea ascender − descender in font units: libass sizes a font so this span equals the ASS font size. */
  realHeight: number;
  advance(codePoint: number): number;
  /** Whether the font has a glyph for the code point (else libass would fall back to another font). */
  has(codePoint: number): boolean;
}

export function parseFontMetrics(buf: Buffer): FontMetrics {
  const tables = new Map<string, number>();
  const numTables = buf.readUInt16BE(4);
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + i * 16;
    tables.set(buf.toString('latin1', rec, rec + 4), buf.readUInt32BE(rec + 8));
  }
  const table = (tag: string) => {
    const off = tables.get(tag);
    if (off === undefined) throw new Error(`Font has no ${tag} table`);
    return off;
  };
  const head = table('head');
  const unitsPerEm = buf.readUInt16BE(head + 18);
  const hhea = table('hhea');
  const ascender = buf.readInt16BE(hhea + 4);
  const descender = buf.readInt16BE(hhea + 6);
  const numberOfHMetrics = buf.readUInt16BE(hhea + 34);
  const hmtx = table('hmtx');
  const advanceOfGlyph = (g: number) => buf.readUInt16BE(hmtx + 4 * Math.min(g, numberOfHMetrics - 1));

  // cmap: prefer a format 12 (full Unicode) subtable, else format 4 (BMP).
  const cmap = table('cmap');
  let f4 = -1;
  let f12 = -1;
  for (let i = 0; i < buf.readUInt16BE(cmap + 2); i++) {
    const rec = cmap + 4 + i * 8;
    const platform = buf.readUInt16BE(rec);
    const sub = cmap + buf.readUInt32BE(rec + 4);
    const format = buf.readUInt16BE(sub);
    if (platform === 3 || platform === 0) {
      if (format === 12) f12 = sub;
      if (format === 4 && f4 < 0) f4 = sub;
    }
  }
  const glyphOf = (cp: number): number => {
    if (f12 >= 0) {
      const groups = buf.readUInt32BE(f12 + 12);
      for (let i = 0; i < groups; i++) {
        const g = f12 + 16 + i * 12;
        const start = buf.readUInt32BE(g);
        const end = buf.readUInt32BE(g + 4);
        if (cp >= start && cp <= end) return buf.readUInt32BE(g + 8) + (cp - start);
      }
      return 0;
    }
    if (f4 < 0 || cp > 0xffff) return 0;
    const segX2 = buf.readUInt16BE(f4 + 6);
    const ends = f4 + 14;
    const starts = ends + segX2 + 2;
    const deltas = starts + segX2;
    const offsets = deltas + segX2;
    for (let i = 0; i < segX2 / 2; i++) {
      if (cp > buf.readUInt16BE(ends + 2 * i)) continue;
      const start = buf.readUInt16BE(starts + 2 * i);
      if (cp < start) return 0;
      const delta = buf.readInt16BE(deltas + 2 * i);
      const ro = buf.readUInt16BE(offsets + 2 * i);
      if (ro === 0) return (cp + delta) & 0xffff;
      const gi = buf.readUInt16BE(offsets + 2 * i + ro + 2 * (cp - start));
      return gi === 0 ? 0 : (gi + delta) & 0xffff;
    }
    return 0;
  };
  const cache = new Map<number, number>();
  return {
    unitsPerEm,
    realHeight: ascender - descender,
    has: (cp) => glyphOf(cp) !== 0,
    advance(cp) {
      let a = cache.get(cp);
      if (a === undefined) {
        a = advanceOfGlyph(glyphOf(cp));
        cache.set(cp, a);
      }
      return a;
    },
  };
}

const FONT_ROOT = '/usr/share/fonts/truetype';
export const FONT_DIR = process.env.HOOKREEL_FONT_DIR ?? path.join(FONT_ROOT, 'dejavu');
/** The one typeface of every video: DejaVu Sans Bold (Latin, Greek, Cyrillic, Hebrew and Arabic in one file). */
export const FONT_FILE = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');
export const FONT_NAME = 'DejaVu Sans';

let bold: FontMetrics | null = null;
export const boldMetrics = (): FontMetrics => (bold ??= parseFontMetrics(readFileSync(FONT_FILE)));

/** Width in pixels of `text` set at ASS font size `size` in the bold face (no kerning: libass adds little). */
export function textWidth(text: string, size: number, metrics: FontMetrics = boldMetrics()): number {
  let units = 0;
  for (const ch of text) units += metrics.advance(ch.codePointAt(0)!);
  return (units / metrics.realHeight) * size;
}

/**
 * The brand kit's caption fonts (bold weights) from Debian packages (scripts/ensure-system.sh); licences in
 * docs/video-design.md#asset-licences. DejaVu stays the fallback for text a chosen font cannot draw.
 */
export const CAPTION_FONT_FILES: Record<CaptionFont, { dir: string; file: string; family: string }> = {
  dejavu_sans: { dir: FONT_DIR, file: FONT_FILE, family: FONT_NAME },
  dejavu_serif: { dir: FONT_DIR, file: path.join(FONT_DIR, 'DejaVuSerif-Bold.ttf'), family: 'DejaVu Serif' },
  lato: { dir: path.join(FONT_ROOT, 'lato'), file: path.join(FONT_ROOT, 'lato', 'Lato-Bold.ttf'), family: 'Lato' },
  open_sans: {
    dir: path.join(FONT_ROOT, 'open-sans'),
    file: path.join(FONT_ROOT, 'open-sans', 'OpenSans-Bold.ttf'),
    family: 'Open Sans',
  },
};

/** A typeface as the layout measures it and libass draws it. */
export interface LayoutFont {
  family: string;
  dir: string;
  metrics: FontMetrics;
}

const loaded = new Map<CaptionFont, FontMetrics>();
export const DEFAULT_LAYOUT_FONT = (): LayoutFont => ({ family: FONT_NAME, dir: FONT_DIR, metrics: boldMetrics() });

/**
 * The chosen caption font for a video's text, or DejaVu Sans when that font lacks a glyph the text needs (Lato
 * and Open Sans have no Hebrew or Arabic, say): a fallback glyph would be drawn in another face than the one
 * measured, and lines would overflow their boxes.
 */
export function layoutFontFor(font: CaptionFont | null | undefined, text: string): LayoutFont {
  if (!font || font === 'dejavu_sans') return DEFAULT_LAYOUT_FONT();
  const f = CAPTION_FONT_FILES[font];
  let metrics = loaded.get(font);
  if (!metrics) {
    if (!existsSync(f.file)) return DEFAULT_LAYOUT_FONT();
    metrics = parseFontMetrics(readFileSync(f.file));
    loaded.set(font, metrics);
  }
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp > 0x20 && !metrics.has(cp)) return DEFAULT_LAYOUT_FONT();
  }
  return { family: f.family, dir: f.dir, metrics };
}
