import { readFileSync } from 'node:fs';
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

export const FONT_DIR = process.env.HOOKREEL_FONT_DIR ?? '/usr/share/fonts/truetype/dejavu';
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
