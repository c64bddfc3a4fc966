import { SIZES, type SizeClass } from '@hookreel/contracts';

export const ALL_SIZES: readonly SizeClass[] = SIZES;

/** Toggles one size class; the last selected one always stays (docs/product.md#product-in-hand). */
export function toggleSize(current: readonly SizeClass[], size: SizeClass): SizeClass[] {
  if (current.includes(size)) {
    return current.length <= 1 ? [...current] : current.filter((s) => s !== size);
  }
  return ALL_SIZES.filter((s) => s === size || current.includes(s));
}

export function toggleId(current: readonly number[], id: number): number[] {
  return current.includes(id) ? current.filter((x) => x !== id) : [...current, id];
}

export type MergeState = 'not_merged' | 'applying' | 'merged' | 'failed';

/** 'Generate Videos' needs every actor merged and a non-empty script (docs/product.md#product-in-hand). */
export function canGenerate(
  actorIds: readonly number[],
  states: ReadonlyMap<number, MergeState>,
  script: string,
): boolean {
  return actorIds.length > 0 && script.trim().length > 0 && actorIds.every((id) => states.get(id) === 'merged');
}

/** Shown progress while applying: the server's figure, else the ~15 s estimate capped at 95%. */
export function mergeProgress(
  serverProgress: number,
  startedAt: number | undefined,
  now: number,
  durationMs: number,
): number {
  if (serverProgress > 0) return Math.min(100, Math.round(serverProgress));
  if (!startedAt) return 0;
  return Math.min(95, Math.floor(((now - startedAt) / durationMs) * 100));
}
