import type { Job } from '@hookreel/contracts';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * A job's provider cost as one line: the units the providers bill by, then what they come to in US dollars and
 * at which prices (decision 177), e.g. "8.4 s · 200 characters · 1 image — $1.26 at list prices of 2026-11".
 * Null when no provider was called.
 */
export function providerCostLine(job: Pick<Job, 'cost' | 'cost_usd'>): string | null {
  const c = job.cost;
  if (!c) return null;
  const units = [
    c.seconds > 0 ? `${c.seconds} s` : null,
    c.characters > 0 ? plural(c.characters, 'character', 'characters') : null,
    c.images > 0 ? plural(c.images, 'image', 'images') : null,
    plural(c.calls, 'call', 'calls'),
  ].filter((u): u is string => u !== null);
  const money = job.cost_usd;
  if (!money) return units.join(' · ');
  const at = money.prices.source === 'list' ? 'list prices' : 'operator prices';
  return `${units.join(' · ')} — $${money.usd.toFixed(2)} at ${at} of ${money.prices.as_of}`;
}
