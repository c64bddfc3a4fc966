import { JobCost } from '@hookreel/contracts';
import type { ProviderUsage } from '../media/port.ts';

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
