import { describe, expect, it, onTestFailed } from 'vitest';
import { expectedHoldEntries, runWorkerKills, summarize } from './kill-loop.ts';

const KILLS = 20;

/**
 * Issue #6, crash evidence: 20 times, a BullMQ worker in the middle of a real render is SIGKILLed at a random
 * moment and replaced. Afterwards no job is stuck, every hold was captured or released exactly once, each
 * completed job has exactly one video in the bucket and nothing stray, and every ledger balances.
 * `npm run bench:crash` runs the same loop with 100 kills and prints the figures.
 */
describe('worker kills: SIGKILL of rendering workers, repeatedly (scale mode)', () => {
  it(`${KILLS} kills mid-render: every job completed or failed, charged once, one output, ledgers balanced`, async () => {
    const run = await runWorkerKills({
      kills: KILLS,
      workers: 3,
      users: 3,
      settleTimeoutMs: 120_000,
    });
    onTestFailed(() => console.error(`seed ${run.seed}\n${run.logs}`));
    const summary = summarize(run);
    console.log(`worker kills: ${JSON.stringify(summary)} in ${run.seconds.toFixed(0)} s (seed ${run.seed})`);

    // Every kill hit a worker that held a job's lease, i.e. in the middle of a render.
    expect(run.kills).toHaveLength(KILLS);
    for (const k of run.kills) expect(k.jobIds.length).toBeGreaterThan(0);
    // One job per accepted queue call, although each call was sent twice with its Idempotency-Key.
    expect(run.jobs).toHaveLength(run.accepted);

    expect(run.settled).toBe(true);
    for (const job of run.jobs) {
      expect(['completed', 'failed'], `job ${job.id}`).toContain(job.status);
      expect(job.holdEntries, `ledger entries of job ${job.id}'s hold`).toEqual(expectedHoldEntries(job.status));
      expect(job.holdState).toBe(job.status === 'completed' ? 'captured' : 'released');
      if (job.status === 'completed') {
        const videos = job.objects.filter((k) => k.endsWith('.mp4'));
        expect(videos, `videos of job ${job.id}`).toEqual([job.videoKey]);
      } else {
        expect(job.objects, `files of failed job ${job.id}`).toEqual([]);
      }
    }
    expect(run.strayObjects).toEqual([]);
    for (const u of run.users) {
      const b = u.balances;
      expect(b.granted, `user ${u.id}`).toBe(b.available + b.held + b.consumed);
      expect(b).toMatchObject({ held: 0, heldByHolds: 0, consumed: u.completed * 100 });
    }

    // The kills were survived, not just suffered: jobs that lost a worker were taken over and finished.
    const killed = new Set(run.kills.flatMap((k) => k.jobIds));
    const recovered = run.jobs.filter((j) => killed.has(j.id) && j.status === 'completed' && j.attempts > 1);
    expect(recovered.length).toBeGreaterThan(0);
    expect(summary).toMatchObject({ lost: 0, doubleCharges: 0, badSettlements: 0, outputProblems: 0 });
    expect(summary.ledgerBalanced).toBe(true);
    // Each kill costs a worker boot (several seconds of CPU): allow for a heavily loaded machine.
  }, 600_000);
});
