import { LIMITS, VALIDATION, type RemoteImageResponse } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { HttpError, payloadTooLarge, unprocessable } from '../../errors.ts';
import { safeFetch, SafeFetchError, type SafeFetchOptions } from '../../net/safe-fetch.ts';
import { storeUploadedImage } from '../../uploads/index.ts';

/** Time for the whole fetch of a pasted image, redirects included. */
export const REMOTE_IMAGE_TIMEOUT_MS = 10_000;

/**
 * Test-only switches for the guarded fetch (a local fake image server's origin). Nothing sets them in the running
 * server; see net/safe-fetch.ts.
 */
export type RemoteImageFetchOptions = Pick<SafeFetchOptions, 'testOnlyAllowedOrigins' | 'resolver'>;

/**
 * POST /generate/remote-image: the content generator's pasted image address, fetched by the server through the
 * SSRF guard (http/https only, public addresses only after DNS, pinned connection, redirects re-checked, 10 MB and
 * 10 s caps), then cleaned like any upload (PNG, JPEG or WEBP by their bytes, metadata dropped) and stored under
 * the user's files, so the page shows it from our own origin: its security policy allows no other.
 */
export async function fetchRemoteImage(
  ctx: Pick<AppContext, 'files'>,
  userId: number,
  url: string,
  options: RemoteImageFetchOptions = {},
): Promise<RemoteImageResponse> {
  let body: Buffer;
  try {
    const res = await safeFetch(url, {
      headers: { accept: 'image/png,image/jpeg,image/webp;q=0.9,*/*;q=0.1', 'user-agent': 'Hookreel image fetch' },
      maxBytes: LIMITS.uploadMaxBytes,
      timeoutMs: REMOTE_IMAGE_TIMEOUT_MS,
      ...options,
    });
    if (res.status !== 200) throw unprocessable(`The image address answered HTTP ${res.status}, not an image.`);
    body = res.body;
  } catch (err) {
    if (!(err instanceof SafeFetchError)) throw err;
    if (err.code === 'too_large') throw payloadTooLarge(VALIDATION.fileTooLarge);
    throw new HttpError(422, err.message);
  }
  const stored = await storeUploadedImage(ctx, { userId, area: 'remote-images', buffer: body });
  return { file_path: stored.key, width: stored.width, height: stored.height };
}
