import { UI } from '@hookreel/contracts';
import { useSyncExternalStore } from 'react';

const QUERY = `(max-width: ${UI.mobileBreakpointPx - 1}px)`;

function subscribe(cb: () => void) {
  if (typeof window.matchMedia !== 'function') return () => {};
  const mql = window.matchMedia(QUERY);
  mql.addEventListener('change', cb);
  return () => mql.removeEventListener('change', cb);
}

const getSnapshot = () =>
  typeof window.matchMedia === 'function'
    ? window.matchMedia(QUERY).matches
    : window.innerWidth < UI.mobileBreakpointPx;

/** True below 768 px width (the mobile breakpoint, docs/product.md#shell). */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}
