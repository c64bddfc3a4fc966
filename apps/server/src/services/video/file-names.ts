import { aspectTag, DEFAULT_ASPECT, type Aspect } from '@hookreel/contracts';

/**
 * File names people download: ASCII only (every OS, zip tool and Content-Disposition header reads them the
 * same), lower-case words joined by '-', accents folded ('Crème' → 'creme'), never empty.
 */
export function asciiSlug(text: string, max = 48): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
  return slug;
}

/** 'video-03': zero-padded so a folder of a pack's videos sorts in order. */
export const variantSlug = (index: number): string => `video-${String(index).padStart(2, '0')}`;

/**
 * `<pack-or-project>-<variant>-<cell>-<actor>.mp4`, e.g. 'glow-serum-nov-23-video-03-h2-a1-c1-character-1.mp4'
 * (the cell names hook, actor and call to action, for joining ad results back); a single project video has no
 * variant part ('spring-launch-ava.mp4').
 */
export function videoFileName(parts: {
  base: string;
  variantIndex?: number | null;
  variantId?: string | null;
  actor?: string | null;
}): string {
  const pieces = [
    asciiSlug(parts.base) || 'video',
    parts.variantIndex ? variantSlug(parts.variantIndex) : '',
    parts.variantId ? asciiSlug(parts.variantId, 24) : '',
    parts.actor ? asciiSlug(parts.actor, 32) : '',
  ].filter(Boolean);
  return `${pieces.join('-')}.mp4`;
}

/**
 * The file name of one frame shape of a video: the 9:16 master keeps the name it always had; 4:5 and 1:1 add the
 * shape's tag ('spring-launch-ava-4x5.mp4'), so files that leave their folder still say what shape they are.
 */
export function aspectFileName(name: string, aspect: Aspect): string {
  return aspect === DEFAULT_ASPECT ? name : name.replace(/\.mp4$/, `-${aspectTag(aspect)}.mp4`);
}

/** A name safe to put in a Content-Disposition header as is (what videoFileName and asciiSlug produce). */
export const isSafeFileName = (name: string): boolean => /^[a-z0-9][a-z0-9._-]{0,150}$/i.test(name);
