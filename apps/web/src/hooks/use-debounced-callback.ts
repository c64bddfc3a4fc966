import { useEffect, useRef } from 'react';

/**
 * Runs `effect` once `value` has stopped changing for `delayMs` (compare by value: pass a string or number).
 * Skips runs while `enabled` is false. The latest `effect` is always the one called.
 */
export function useDebouncedEffect<T>(value: T, delayMs: number, effect: (value: T) => void, enabled = true): void {
  const effectRef = useRef(effect);
  useEffect(() => {
    effectRef.current = effect;
  });
  useEffect(() => {
    if (!enabled) return undefined;
    const t = window.setTimeout(() => effectRef.current(value), delayMs);
    return () => window.clearTimeout(t);
  }, [value, delayMs, enabled]);
}
