import type { AdminCreditAdjustment } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { usersRepository } from '../../db/repositories/users.ts';
import { notFound } from '../../errors.ts';
import { fromHundredths, grantCredits, takeCredits, toHundredths } from './credits.ts';

export const ADMIN_CREDIT_MESSAGES = { noSuchUser: 'No account has this e-mail address' } as const;

/**
 * An administrator grants or takes credits with a reason (the UI and `npm run credits`): always a ledger row,
 * never an edit of the balance; a take never goes below zero. `by` is who did it, kept on the row.
 */
export async function adjustCredits(
  ctx: Pick<AppContext, 'db'>,
  by: string,
  input: AdminCreditAdjustment,
): Promise<{ email: string; credits: number }> {
  const email = input.email.trim().toLowerCase();
  const user = await usersRepository.findByEmail(ctx.db.kysely, email);
  if (!user) throw notFound(ADMIN_CREDIT_MESSAGES.noSuchUser);
  const amount = toHundredths(input.amount);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    if (input.action === 'grant') await grantCredits(trx, user.id, amount, input.reason.trim(), { ref: by });
    else await takeCredits(trx, user.id, amount, input.reason.trim(), by);
  });
  const after = await usersRepository.findById(ctx.db.kysely, user.id);
  return { email: user.email, credits: fromHundredths(after?.credits_available ?? 0) };
}
