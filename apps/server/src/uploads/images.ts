import { LIMITS, VALIDATION } from '@hookreel/contracts';
import sharp, { type Metadata } from 'sharp';
import { HttpError, payloadTooLarge, unprocessable } from '../errors.ts';

/** The only image types we accept, decided by their first bytes, never by the name or the client's MIME type. */
export type ImageType = 'png' | 'jpeg' | 'webp';

export const IMAGE_MIME: Record<ImageType, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };
export const IMAGE_EXT: Record<ImageType, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG, JPEG or WEBP from the magic bytes; null for anything else (SVG, GIF, HTML, text, truncated headers). */
export function sniffImageType(buf: Uint8Array): ImageType | null {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_MAGIC)) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** A wrong or unreadable file: the documented message (docs/product.md#rules), with 415 when the type is wrong and 422 when it is broken. */
export const notAnImage = (status: 415 | 422 = 415) => new HttpError(status, VALIDATION.imageRequired);
export const fileTooLarge = () => payloadTooLarge(VALIDATION.fileTooLarge);
export const imageTooLarge = () => unprocessable(VALIDATION.imageTooLarge);

export interface CleanImage {
  data: Buffer;
  type: ImageType;
  mime: string;
  ext: string;
  width: number;
  height: number;
}

/**
 * Turns untrusted bytes into a clean image: type by magic bytes, size and pixel caps checked before any
 * decoding, EXIF orientation applied, every metadata block (EXIF, GPS, XMP, ICC, comments) dropped, and the
 * pixels re-encoded in the same format (PNG keeps its transparency). Throws HttpError 4xx for anything else.
 */
export async function sanitizeImage(input: Buffer): Promise<CleanImage> {
  if (input.length > LIMITS.uploadMaxBytes) throw fileTooLarge();
  if (input.length === 0) throw notAnImage(422);
  const type = sniffImageType(input);
  if (!type) throw notAnImage(415);

  const open = () =>
    sharp(input, {
      limitInputPixels: LIMITS.uploadMaxPixels,
      failOn: 'warning',
      sequentialRead: true,
      pages: 1,
    });

  let meta: Metadata;
  try {
    meta = await open().metadata();
  } catch (err) {
    throw classifySharpError(err);
  }
  if (meta.format !== sharpFormatOf(type)) throw notAnImage(415);
  if (!meta.width || !meta.height) throw notAnImage(422);
  if (meta.width * meta.height > LIMITS.uploadMaxPixels) throw imageTooLarge();

  try {
    // Stored at most LIMITS.uploadStoredMaxSide on the long side: every use is a 576x1024 frame, and encoding
    // fewer pixels bounds the CPU an upload costs (JPEG even decodes at the smaller size).
    let pipeline = open().rotate().resize({
      width: LIMITS.uploadStoredMaxSide,
      height: LIMITS.uploadStoredMaxSide,
      fit: 'inside',
      withoutEnlargement: true,
    });
    pipeline =
      type === 'png'
        ? pipeline.png({ compressionLevel: 6, adaptiveFiltering: true })
        : type === 'jpeg'
          ? pipeline.jpeg({ quality: 90, mozjpeg: false })
          : pipeline.webp({ quality: 90 });
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { data, type, mime: IMAGE_MIME[type], ext: IMAGE_EXT[type], width: info.width, height: info.height };
  } catch (err) {
    throw classifySharpError(err);
  }
}

function sharpFormatOf(type: ImageType): string {
  return type === 'jpeg' ? 'jpeg' : type;
}

/** sharp/libvips failures are about the input, never about us: they become 422s the person can act on. */
function classifySharpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  const message = String((err as Error | undefined)?.message ?? err);
  if (/pixel limit|exceeds|too large|dimensions/i.test(message)) return imageTooLarge();
  return notAnImage(422);
}

/**
 * A display name from an untrusted file name: no directories, no control characters (NUL included), no
 * extension, at most 100 characters; null when nothing is left. Never used for storage keys.
 */
export function cleanDisplayName(filename: string | undefined | null): string | null {
  if (!filename) return null;
  const base = filename.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex -- stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 100)
    .trim();
  return cleaned || null;
}
