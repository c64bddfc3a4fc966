/**
 * `npm run credits -- grant <email> <amount> "<reason>"` (or `take`): an administrator's credit adjustment from
 * the shell, against the database the server uses (DATABASE_URL, else SQLite in DATA_DIR). It writes a ledger
 * row like the admin screen does; balances are never edited directly.
 */
import { AdminCreditAdjustment } from '@hookreel/contracts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { HttpError } from '../errors.ts';
import { adjustCredits } from '../services/billing/index.ts';
import { auditAdmin, cliActor } from '../services/account/index.ts';

const USAGE = 'Usage: npm run credits -- grant|take <email> <amount> "<reason>"';

async function main(argv: string[]): Promise<number> {
  const [action, email, amount, ...reasonWords] = argv;
  const parsed = AdminCreditAdjustment.safeParse({
    action,
    email,
    amount: Number(amount),
    reason: reasonWords.join(' '),
  });
  if (!parsed.success) {
    console.error(
      `${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('\n')}\n${USAGE}`,
    );
    return 2;
  }
  const config = loadConfig();
  const db = openDatabase(config.databaseUrl, { poolSize: 1 });
  try {
    await migrate(db);
    const by = `cli:${process.env.USER ?? 'unknown'}`;
    const out = await adjustCredits({ db }, by, parsed.data);
    await auditAdmin({ db }, cliActor(by), `credits.${parsed.data.action}`, {
      target: `email:${out.email}`,
      amount: parsed.data.amount,
    });
    const verb = parsed.data.action === 'grant' ? 'Granted' : 'Took';
    console.log(
      `${verb} ${parsed.data.amount.toFixed(2)} credits (${out.email}); balance now ${out.credits.toFixed(2)}`,
    );
    return 0;
  } catch (err) {
    if (err instanceof HttpError) {
      console.error(err.detail);
      return 1;
    }
    throw err;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
