import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { LIMITS } from '@hookreel/contracts';
import type { AppContext } from '../context.ts';
import { fileTooLarge, sanitizeImage, type CleanImage } from './images.ts';

export {
  cleanDisplayName,
  fileTooLarge,
  IMAGE_MIME,
  imageTooLarge,
  notAnImage,
  sanitizeImage,
  sniffImageType,
  type CleanImage,
  type ImageType,
} from './images.ts';
export { readFilePart, singleFilePart, walkMultipart, type UploadedFile } from './multipart.ts';

/** Areas images are stored under: `users/<uid>/<area>/<uuid>.<ext>`. */
export type UploadArea =
  'projects' | 'avatars' | 'hook-packs' | 'characters' | 'masks' | 'remote-images' | 'brand' | 'creators';

export interface StoredImage {
  key: string;
  width: number;
  height: number;
  mime: string;
}

/**
 * The one way an uploaded image enters storage. The bytes are sanitised (see sanitizeImage) and only the
 * re-encoded result is written, under a key we generate; the original and its name are never stored.
 * Throws HttpError 4xx for anything that is not a safe PNG, JPEG or WEBP within the limits; nothing is
 * written in that case.
 */
export async function storeUploadedImage(
  ctx: Pick<AppContext, 'files'>,
  input: { userId: number; area: UploadArea; buffer?: Buffer; stream?: Readable },
): Promise<StoredImage> {
  const raw = input.buffer ?? (input.stream ? await readLimited(input.stream) : Buffer.alloc(0));
  return storeCleanImage(ctx, { ...input, clean: await sanitizeImage(raw) });
}

/** Stores an image that sanitizeImage already cleaned (a caller that looks at the clean picture first). */
export async function storeCleanImage(
  ctx: Pick<AppContext, 'files'>,
  input: { userId: number; area: UploadArea; clean: CleanImage },
): Promise<StoredImage> {
  const { clean } = input;
  if (!Number.isSafeInteger(input.userId) || input.userId <= 0) throw new Error('storeUploadedImage: bad userId');
  const key = `users/${input.userId}/${input.area}/${randomUUID()}.${clean.ext}`;
  await ctx.files.put(key, clean.data, clean.mime);
  return { key, width: clean.width, height: clean.height, mime: clean.mime };
}

/** Collects a stream, giving up (and draining nothing more) as soon as it passes the upload limit. */
export async function readLimited(stream: Readable, max: number = LIMITS.uploadMaxBytes): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += b.length;
    if (size > max) {
      stream.destroy();
      throw fileTooLarge();
    }
    chunks.push(b);
  }
  if ((stream as Readable & { truncated?: boolean }).truncated) throw fileTooLarge();
  return Buffer.concat(chunks);
}
