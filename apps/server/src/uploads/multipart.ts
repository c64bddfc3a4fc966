import type { MultipartFile } from '@fastify/multipart';
import { LIMITS, MESSAGES } from '@hookreel/contracts';
import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest, payloadTooLarge, unprocessable } from '../errors.ts';
import { fileTooLarge } from './images.ts';

/** One uploaded file, fully read into memory (at most LIMITS.uploadMaxBytes) with its untrusted name. */
export interface UploadedFile {
  fieldname: string;
  filename: string;
  buffer: Buffer;
}

/**
 * Reads a file part to the end. Busboy stops at the configured fileSize and either throws or marks the stream
 * truncated; both mean the file was too large, and neither leaves anything behind.
 */
export async function readFilePart(part: MultipartFile): Promise<Buffer> {
  let buffer: Buffer;
  try {
    buffer = await part.toBuffer();
  } catch (err) {
    throw mapMultipartError(err);
  }
  if (part.file.truncated) throw fileTooLarge();
  return buffer;
}

/**
 * Walks a multipart request, calling `onFile` for each file part as it arrives (so only one file is in memory
 * at a time) and collecting text fields. Non-multipart bodies become 415; every limit — one file's size, the
 * whole request's (LIMITS.uploadMaxTotalBytes, checked on the declared length before reading and on the bytes as
 * they come), more than `maxFiles` files, too many or too long fields — becomes 413 {detail}.
 */
export async function walkMultipart(
  request: FastifyRequest,
  onFile: (file: UploadedFile) => Promise<void>,
  /**
   * maxFiles: at most this many files. fileSize: a per-route file size cap instead of the image upload limit
   * (music beds may be 20 MB), answered by tooLarge.
   */
  opts: { maxFiles?: number; fileSize?: number; tooLarge?: () => unknown } = {},
): Promise<Record<string, string>> {
  if (!request.isMultipart()) throw new HttpError(415, 'Expected a multipart/form-data body');
  const maxFiles = opts.maxFiles ?? 1;
  const declared = Number(request.headers['content-length']);
  // A route with a larger file cap (music) may take that file whole.
  const totalCap = Math.max(LIMITS.uploadMaxTotalBytes, (opts.fileSize ?? 0) + 64 * 1024);
  const tooLarge = () => (opts.tooLarge ? opts.tooLarge() : payloadTooLarge(MESSAGES.server.uploadTooLarge));
  // Boundaries and part headers add a little to the files and fields themselves.
  if (declared > totalCap + 64 * 1024) throw tooLarge();
  const fields: Record<string, string> = {};
  let files = 0;
  let total = 0;
  const count = (bytes: number) => {
    total += bytes;
    if (total > totalCap) throw tooLarge();
  };
  try {
    const parts = opts.fileSize ? request.parts({ limits: { fileSize: opts.fileSize } }) : request.parts();
    for await (const part of parts) {
      if (part.type === 'file') {
        if (++files > maxFiles) throw payloadTooLarge(MESSAGES.server.tooManyFiles);
        const buffer = await readFilePart(part);
        count(buffer.length);
        await onFile({ fieldname: part.fieldname, filename: part.filename, buffer });
      } else if (typeof part.value === 'string') {
        if (part.valueTruncated) throw payloadTooLarge(`Field ${part.fieldname} is too long`);
        count(Buffer.byteLength(part.value));
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const mapped = mapMultipartError(err);
    throw opts.tooLarge && isTooLarge(mapped) ? opts.tooLarge() : mapped;
  }
  return fields;
}

function mapMultipartError(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  const code = (err as { code?: string }).code ?? '';
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge();
  // @fastify/multipart's busboy limits (FST_FILES_LIMIT, FST_PARTS_LIMIT, FST_FIELDS_LIMIT) all carry 413.
  if (code.startsWith('FST_FILES_LIMIT')) return payloadTooLarge(MESSAGES.server.tooManyFiles);
  if (code.startsWith('FST_PARTS_LIMIT') || code.startsWith('FST_FIELDS_LIMIT')) {
    return payloadTooLarge('Too many form fields');
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new HttpError(415, 'Expected a multipart/form-data body');
  // A body that stops before its closing boundary ends the part stream early; busboy refuses boundaries over 256
  // bytes as a "needle" too long for its search. Both are the client's malformed upload, not our failure.
  if (
    code.startsWith('FST_') ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    /multipart|boundary|needle|unexpected end of form/i.test(String((err as Error).message))
  ) {
    return badRequest('Malformed upload');
  }
  return err;
}

const isTooLarge = (err: unknown) => err instanceof HttpError && err.statusCode === 413;

/**
 * The one file a multipart body sends in `field`, or null when it sends none: a file in another field, or a second
 * one, is 422 `wrongPart`. `size` caps the file while it is read, as in walkMultipart.
 */
export async function singleFilePart(
  request: FastifyRequest,
  field: string,
  wrongPart: string,
  size: { fileSize?: number; tooLarge?: () => unknown } = {},
): Promise<UploadedFile | null> {
  let file: UploadedFile | null = null;
  await walkMultipart(
    request,
    async (f) => {
      if (f.fieldname !== field || file) throw unprocessable(wrongPart);
      file = f;
    },
    size,
  );
  return file;
}
