/**
 * Crash evidence at bench scale: 100 SIGKILLs of BullMQ workers in the middle of real renders (scale mode:
 * 1 API, 3 workers, PostgreSQL, Redis, an S3 bucket), each worker replaced, then every job, hold, output and
 * ledger read back. The same loop as apps/server/test/scale/worker-kills.test.ts, with more kills.
 * Needs the local PostgreSQL and Redis (bash scripts/ensure-services.sh). BENCH_KILLS and BENCH_SEED override.
 * Prints: crash: 100 kills, N jobs, N completed, N failed, 0 lost, 0 double charges, ledger balanced (X s)
 */
import { outputProblemJobs, runWorkerKills, summarize } from '../apps/server/test/scale/kill-loop.ts';

const KILLS = Number(process.env.BENCH_KILLS ?? 100);
const SEED = process.env.BENCH_SEED === undefined ? undefined : Number(process.env.BENCH_SEED);

async function main(): Promise<void> {
  const run = await runWorkerKills({
    kills: KILLS,
    workers: 3,
    users: 4,
    // Longer pauses than the test's let many renders finish between kills, so the run ends with both outcomes.
    pauseMs: [500, 8000],
    settleTimeoutMs: 300_000,
    ...(SEED === undefined ? {} : { seed: SEED }),
    log: (line) => console.log(line),
  });
  const s = summarize(run);
  const midRender = run.kills.filter((k) => k.jobIds.length > 0).length;
  const retried = run.jobs.filter((j) => j.attempts > 1 && j.status === 'completed').length;
  console.log(`seed ${run.seed}; ${midRender} of ${s.kills} kills mid-render; ${retried} jobs completed after a retry`);
  console.log(
    `outputs: ${s.outputProblems} problems (completed jobs with one video each, no files from failed jobs, ` +
      `${run.strayObjects.length} stray objects); hold settlements off: ${s.badSettlements}`,
  );
  for (const j of outputProblemJobs(run)) console.log(`output problem: ${JSON.stringify(j)}`);
  if (run.strayObjects.length > 0) console.log(`stray objects: ${run.strayObjects.join(', ')}`);
  console.log(
    `crash: ${s.kills} kills, ${s.jobs} jobs, ${s.completed} completed, ${s.failed} failed, ${s.lost} lost, ` +
      `${s.doubleCharges} double charges, ledger ${s.ledgerBalanced ? 'balanced' : 'NOT balanced'} ` +
      `(${run.seconds.toFixed(0)} s)`,
  );
  const ok = run.settled && s.lost === 0 && s.doubleCharges === 0 && s.badSettlements === 0 && s.outputProblems === 0;
  if (!ok || !s.ledgerBalanced) {
    console.error(run.logs);
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
