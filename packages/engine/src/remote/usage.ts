/**
 * What a provider call consumed, in the units providers bill by: images made, characters of text spoken, seconds of
 * video generated. Adapters return one record per billable call; the server adds them into the job's `cost` and
 * logs one line each, so an operator can compare the price charged with what the providers charged. Money is not
 * computed here: list prices change, the units do not (docs/providers.md lists the prices). The type lives in the
 * contracts, since the job's cost is part of the API.
 */
import type { ProviderUsage } from '@hookreel/contracts';

export type { ProviderUsage, UsageStage } from '@hookreel/contracts';

/** One log line per call, e.g. "Provider cost: fal avatar (fal-ai/bytedance/omnihuman) 8.4 s, request 1a2b". */
export function formatUsage(u: ProviderUsage): string {
  const parts: string[] = [];
  if (u.images) parts.push(`${u.images} image${u.images === 1 ? '' : 's'}`);
  if (u.characters) parts.push(`${u.characters} characters`);
  if (u.seconds) parts.push(`${Math.round(u.seconds * 10) / 10} s`);
  const amount = parts.length > 0 ? parts.join(', ') : 'nothing billable';
  return `Provider cost: ${u.provider} ${u.stage} (${u.model}) ${amount}${u.requestId ? `, request ${u.requestId}` : ''}`;
}
