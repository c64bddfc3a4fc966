import { LIMITS } from '@hookreel/contracts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'Nov 23': short enough for a card title, clear enough to tell this week's pack from last week's. */
export const shortDate = (d: Date) => `${MONTHS[d.getMonth()]} ${d.getDate()}`;

const titleCase = (s: string) => s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());

/** A file name a person chose ('glow-serum.png'), not one a camera or a screenshot tool made up ('IMG_2041'). */
function nameFromFile(fileName: string | null | undefined): string | null {
  if (!fileName) return null;
  const base = fileName
    .replace(/\.[^./\\]+$/, '')
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (base.length < 3) return null;
  if (/^(img|dsc|dscn|pxl|mvimg|photo|image|screenshot|screen shot|untitled|download)\b/i.test(base)) return null;
  const digits = base.replace(/\D/g, '').length;
  if (digits / base.replace(/\s/g, '').length > 0.4) return null;
  return titleCase(base);
}

/** The product's own words: the start of its description ('Glow Serum, a vitamin C serum…' → 'Glow Serum'). */
function nameFromDetails(details: string | null | undefined): string | null {
  const first = details?.split(/[,.;:\n(—–-]/)[0]?.trim();
  return first && first.length >= 2 && first.length <= 40 ? first : null;
}

export interface PackNameSource {
  productDetails?: string | null;
  fileName?: string | null;
  category?: string | null;
  shape?: string | null;
  date?: Date;
}

/**
 * The name the wizard suggests for a new pack: what the product is called (its description, else a meaningful
 * file name, else what the analysis saw, e.g. 'Skincare bottle') and the day, e.g. 'Glow Serum — Nov 23'.
 */
export function suggestPackName({ productDetails, fileName, category, shape, date = new Date() }: PackNameSource) {
  const analysed = [category, shape]
    .filter((s): s is string => Boolean(s && s !== 'other'))
    .join(' ')
    .trim();
  const what =
    nameFromDetails(productDetails) ??
    nameFromFile(fileName) ??
    (analysed ? titleCase(analysed.toLowerCase()) : 'Product');
  const suffix = ` — ${shortDate(date)}`;
  return `${what.slice(0, LIMITS.hookPackNameMax - suffix.length).trim()}${suffix}`;
}
