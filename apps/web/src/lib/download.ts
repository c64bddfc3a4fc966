import { ApiError, refreshSession } from '@/lib/api-client';
import { session } from '@/lib/session';

const fileNameFrom = (disposition: string | null): string | null => {
  if (!disposition) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? null;
};

const fetchWithToken = (url: string, token: string | null, signal?: AbortSignal) =>
  fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'include', signal });

/**
 * An authenticated GET of a file (a zip) as a Blob, named by the server's Content-Disposition. The bearer token is
 * attached and renewed once on a 401, like every other call of the api client; a refusal becomes an ApiError.
 */
export async function downloadBlob(
  url: string,
  fallbackName: string,
  signal?: AbortSignal,
): Promise<{ blob: Blob; fileName: string }> {
  let res = await fetchWithToken(url, session.getAccessToken(), signal);
  if (res.status === 401) {
    const token = await refreshSession();
    if (token) res = await fetchWithToken(url, token, signal);
  }
  if (!res.ok) {
    let detail: string | undefined;
    try {
      const body: unknown = await res.json();
      if (body && typeof body === 'object' && 'detail' in body && typeof body.detail === 'string') detail = body.detail;
    } catch {
      detail = undefined;
    }
    throw new ApiError(res.status, detail, undefined);
  }
  const blob = await res.blob();
  return { blob, fileName: fileNameFrom(res.headers.get('content-disposition')) ?? fallbackName };
}

/** Saves a blob through a temporary object URL and an anchor with the download attribute. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(href), 1000);
}
