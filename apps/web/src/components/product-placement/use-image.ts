import { useEffect, useState } from 'react';

export type ImageState =
  { status: 'idle' | 'loading' | 'error'; image: null } | { status: 'loaded'; image: HTMLImageElement };

/** Loads an image element for canvas drawing (crossOrigin anonymous, so same-origin/CORS images stay exportable). */
export function useImage(src: string | null | undefined): ImageState {
  const [loaded, setLoaded] = useState<{ src: string; image: HTMLImageElement | null } | null>(null);
  useEffect(() => {
    if (!src) return undefined;
    let live = true;
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => live && setLoaded({ src, image: img });
    img.onerror = () => live && setLoaded({ src, image: null });
    img.src = src;
    return () => {
      live = false;
    };
  }, [src]);
  if (!src) return { status: 'idle', image: null };
  if (!loaded || loaded.src !== src) return { status: 'loading', image: null };
  return loaded.image ? { status: 'loaded', image: loaded.image } : { status: 'error', image: null };
}
