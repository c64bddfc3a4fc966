/**
 * What a provider call consumed, in the units providers bill by: images made, characters of text spoken, seconds of
 * video generated. Adapters return one record per billable call; the job adds them up into its `cost` and writes
 * one log line each, so an operator can compare the price charged with what the providers charged us.
 * Money is not computed here: list prices change, the units do not (docs/providers.md lists the prices).
 */
export type UsageStage = 'voice' | 'images' | 'placement' | 'avatar' | 'lipsync' | 'vision' | 'hooks';

export interface ProviderUsage {
  /** e.g. "elevenlabs", "openai", "gemini", "fal". */
  provider: string;
  stage: UsageStage;
  /** Model or voice model that did the work. */
  model: string;
  images?: number;
  characters?: number;
  seconds?: number;
  /** The provider's id for the request, when it gives one (support tickets). */
  requestId?: string;
}

/** Totals over a job's provider calls. */
export interface UsageTotals {
  images: number;
  characters: number;
  seconds: number;
  calls: number;
}

export function sumUsage(list: readonly ProviderUsage[]): UsageTotals {
  const t: UsageTotals = { images: 0, characters: 0, seconds: 0, calls: 0 };
  for (const u of list) {
    t.images += u.images ?? 0;
    t.characters += u.characters ?? 0;
    t.seconds += u.seconds ?? 0;
    t.calls += 1;
  }
  t.seconds = Math.round(t.seconds * 100) / 100;
  return t;
}

/** One log line, e.g. "Provider cost: fal avatar (fal-ai/bytedance/omnihuman) 8.4 s, request 1a2b". */
export function formatUsage(u: ProviderUsage): string {
  const parts: string[] = [];
  if (u.images) parts.push(`${u.images} image${u.images === 1 ? '' : 's'}`);
  if (u.characters) parts.push(`${u.characters} characters`);
  if (u.seconds) parts.push(`${Math.round(u.seconds * 10) / 10} s`);
  const amount = parts.length > 0 ? parts.join(', ') : 'nothing billable';
  return `Provider cost: ${u.provider} ${u.stage} (${u.model}) ${amount}${u.requestId ? `, request ${u.requestId}` : ''}`;
}
