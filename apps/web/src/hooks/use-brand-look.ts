import { TIMINGS } from '@hookreel/contracts';
import { useEffect, useRef, useState } from 'react';
import type { BrandStyle } from '@/components/brand-style-fields';
import { useDebouncedEffect } from './use-debounced-callback';

const FIELDS = ['caption_font', 'primary_colour', 'secondary_colour', 'outro'] as const;

/** The fields of `next` that differ from `stored`. */
export function brandChanges(stored: BrandStyle, next: BrandStyle): Partial<BrandStyle> {
  const patch: Partial<BrandStyle> = {};
  for (const k of FIELDS) if (next[k] !== stored[k]) Object.assign(patch, { [k]: next[k] });
  return patch;
}

export interface BrandLook {
  brand: BrandStyle;
  change: (patch: Partial<BrandStyle>) => void;
  /** Saves what is shown but not yet stored (a drag still inside the debounce); resolves at once when nothing is. */
  flush: () => Promise<unknown>;
}

/**
 * A project's or pack's brand look as its fields show it: every change is shown at once and saved once the look
 * has been still for `TIMINGS.brandLookSaveMs`, so dragging a colour picker (an input event per step) is one
 * PUT, not dozens. A failed save puts the stored look back and reports the error.
 */
export function useBrandLook(
  stored: BrandStyle,
  save: (patch: Partial<BrandStyle>) => Promise<unknown>,
  onError: (e: unknown) => void,
): BrandLook {
  const [brand, setBrand] = useState<BrandStyle>(stored);
  // The debounced save reads the latest values, not the ones of the render that scheduled it.
  const latest = useRef({ stored, brand, save, onError });
  useEffect(() => {
    latest.current = { stored, brand, save, onError };
  });

  const flush = () => {
    const { stored: s, brand: b, save: put } = latest.current;
    const patch = brandChanges(s, b);
    if (Object.keys(patch).length === 0) return Promise.resolve();
    return put(patch);
  };
  useDebouncedEffect(JSON.stringify(brand), TIMINGS.brandLookSaveMs, () => {
    flush().catch((e: unknown) => {
      setBrand(latest.current.stored);
      latest.current.onError(e);
    });
  });
  return { brand, change: (patch) => setBrand((b) => ({ ...b, ...patch })), flush };
}
