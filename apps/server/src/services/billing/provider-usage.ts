import type { ProviderUsageByPlan } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { billingRepository } from '../../db/repositories/billing.ts';
import { jobsRepository } from '../../db/repositories/jobs.ts';
import { parseCost } from '../../jobs/cost.ts';
import { fromHundredths } from './credits.ts';
import { providerPrices, usdOf } from './provider-prices.ts';

type PlanRow = ProviderUsageByPlan['plans'][number];
const PLAN_ORDER: PlanRow['plan'][] = ['none', 'starter', 'growth', 'agency'];

/**
 * GET /api/admin/provider-usage: the provider units (images, characters, seconds, calls) of the jobs made in the
 * last `days`, per plan of their owners now, beside the credits those jobs captured, and the units in US dollars
 * at the server's provider prices (list prices of a stated date, or the operator's; decision 177).
 */
export async function providerUsageByPlan(
  ctx: Pick<AppContext, 'db' | 'config'>,
  days: number,
  at: Date = new Date(),
): Promise<ProviderUsageByPlan> {
  const since = new Date(at.getTime() - days * 86_400_000).toISOString();
  const rows = await jobsRepository.costedSince(ctx.db.kysely, since);
  const plans = await billingRepository.activePlans(ctx.db.kysely, [...new Set(rows.map((r) => r.user_id))]);
  const totals = new Map<PlanRow['plan'], Omit<PlanRow, 'usd'> & { hundredths: number }>();
  for (const r of rows) {
    const cost = parseCost(r.cost);
    if (!cost) continue;
    const stored = plans.get(r.user_id);
    const plan = PLAN_ORDER.find((p) => p === stored) ?? 'none';
    const t = totals.get(plan) ?? {
      plan,
      jobs: 0,
      failed_jobs: 0,
      credits_charged: 0,
      hundredths: 0,
      images: 0,
      characters: 0,
      seconds: 0,
      calls: 0,
    };
    t.jobs += 1;
    if (r.status === 'failed') t.failed_jobs += 1;
    t.hundredths += Number(r.captured ?? 0);
    t.images += cost.images;
    t.characters += cost.characters;
    t.seconds = Math.round((t.seconds + cost.seconds) * 100) / 100;
    t.calls += cost.calls;
    totals.set(plan, t);
  }
  const prices = providerPrices(ctx.config.providerPriceSettings);
  return {
    since,
    plans: PLAN_ORDER.flatMap((p) => {
      const t = totals.get(p);
      if (!t) return [];
      const { hundredths, ...row } = t;
      return [{ ...row, credits_charged: fromHundredths(hundredths), usd: usdOf(row, prices) }];
    }),
    prices,
  };
}
