import { MESSAGES, RemoteImageResponse } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDebouncedEffect } from '@/hooks/use-debounced-callback';
import { api, errorDetail } from '@/lib/api-client';
import { staticUrl } from '@/lib/urls';

/** POST /api/generate/remote-image: the server fetches a pasted address (SSRF-guarded) and stores the image. */
export const fetchRemoteImage = async (url: string, signal?: AbortSignal): Promise<RemoteImageResponse> =>
  RemoteImageResponse.parse(await api.post('/generate/remote-image', { url }, { signal }));

/** An address this page can show as it is: our own origin, or an image made in the browser. */
function isOwnImage(url: string): boolean {
  if (url.startsWith('blob:') || url.startsWith('data:image/')) return true;
  if (url.startsWith('/') && !url.startsWith('//')) return true;
  try {
    return new URL(url).origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * The image to show for a pasted address. The page's security policy loads images from our origin only, so any
 * other address is fetched by the server once typing pauses, and shown from our origin. `error` is the server's
 * reason when it refuses (a private address, not an image, too large…).
 */
export function useRemoteImage(raw: string): { src: string | null; error: string | null; fetching: boolean } {
  const [url, setUrl] = useState('');
  useDebouncedEffect(raw.trim(), 500, setUrl);
  const own = url !== '' && isOwnImage(url);
  const query = useQuery({
    queryKey: ['generate', 'remote-image', url],
    queryFn: ({ signal }) => fetchRemoteImage(url, signal),
    enabled: url !== '' && !own,
    staleTime: Infinity,
    retry: false,
  });
  if (!raw.trim()) return { src: null, error: null, fetching: false };
  if (own) return { src: url, error: null, fetching: false };
  return {
    src: query.data ? (staticUrl(query.data.file_path) ?? null) : null,
    error: query.error ? errorDetail(query.error, MESSAGES.masks.imageLoadFailed) : null,
    fetching: query.isFetching || url !== raw.trim(),
  };
}
