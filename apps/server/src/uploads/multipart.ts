import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest, payloadTooLarge } from '../errors.ts';
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
 * at a time) and collecting text fields. Non-multipart bodies and busboy limits become 4xx {detail}.
 */
export async function walkMultipart(
  request: FastifyRequest,
  onFile: (file: UploadedFile) => Promise<void>,
  /** A per-route file size cap instead of the image upload limit (music beds may be 20 MB). */
  opts: { fileSize?: number; tooLarge?: () => unknown } = {},
): Promise<Record<string, string>> {
  if (!request.isMultipart()) throw new HttpError(415, 'Expected a multipart/form-data body');
  const fields: Record<string, string> = {};
  try {
    const parts = opts.fileSize ? request.parts({ limits: { fileSize: opts.fileSize } }) : request.parts();
    for await (const part of parts) {
      if (part.type === 'file') {
        const buffer = await readFilePart(part);
        await onFile({ fieldname: part.fieldname, filename: part.filename, buffer });
      } else if (typeof part.value === 'string') {
        if (part.valueTruncated) throw payloadTooLarge(`Field ${part.fieldname} is too long`);
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
  if (code === 'FST_FILES_LIMIT_REACHED') return payloadTooLarge('Too many files in one upload');
  if (code === 'FST_PARTS_LIMIT_REACHED' || code === 'FST_FIELDS_LIMIT_REACHED') {
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
