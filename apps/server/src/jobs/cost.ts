import { JobCost, type ProviderUsage } from '@hookreel/contracts';

/** The stored cost column (JSON) as a JobCost; null when absent or unreadable. */
export function parseCost(text: string | null): JobCost | null {
  if (!text) return null;
  try {
    const parsed = JobCost.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** One more billable provider call added to a job's running total. */
export function addUsage(cost: JobCost | null, u: ProviderUsage): JobCost {
  const c = cost ?? { images: 0, characters: 0, seconds: 0, calls: 0 };
  return {
    images: c.images + Math.max(0, Math.round(u.images ?? 0)),
    characters: c.characters + Math.max(0, Math.round(u.characters ?? 0)),
    seconds: Math.round((c.seconds + Math.max(0, u.seconds ?? 0)) * 100) / 100,
    calls: c.calls + 1,
  };
}

/** One log line per call, e.g. "Provider cost: fal avatar (fal-ai/bytedance/omnihuman) 8.4 s, request 1a2b". */
export function formatUsage(u: ProviderUsage): string {
  const parts: string[] = [];
  if (u.images) parts.push(`${u.images} image${u.images === 1 ? '' : 's'}`);
  if (u.characters) parts.push(`${u.characters} characters`);
  if (u.seconds) parts.push(`${Math.round(u.seconds * 10) / 10} s`);
  const amount = parts.length > 0 ? parts.join(', ') : 'nothing billable';
  return `Provider cost: ${u.provider} ${u.stage} (${u.model}) ${amount}${u.requestId ? `, request ${u.requestId}` : ''}`;
}
