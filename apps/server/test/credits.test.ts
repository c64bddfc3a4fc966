import { INSUFFICIENT_CREDITS } from '@hookreel/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors.ts';
import {
  captureHold,
  grantCredits,
  ledgerBalances,
  releaseHold,
  reserveCredits,
} from '../src/services/billing/credits.ts';

import { serverOnlyForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { insertProject, insertUser } from './helpers/factories.ts';

for (const dialect of TEST_DIALECTS) {
  describe(`credits under concurrency (${dialect})`, () => {
    const t = serverOnlyForBlock(dialect);

    const invariant = async (userId: number) => {
      const b = await ledgerBalances(t.server.ctx.db.kysely, userId);
      expect(b.granted).toBe(b.available + b.held + b.consumed);
      expect(b.held).toBe(b.heldByHolds);
      expect(b.available).toBeGreaterThanOrEqual(0);
      expect(b.held).toBeGreaterThanOrEqual(0);
      return b;
    };

    it('100 concurrent queue requests with credits for 10: exactly 10 accepted, 90 × 402, never negative', async () => {
      // No runner here: the jobs stay queued so every accepted request keeps its hold.
      const u = await insertUser(t.server, { credits: 10 });
      const projectId = await insertProject(t.server, u.id, 'Rush');
      const sampler = setInterval(() => {
        void t.server.ctx.db.kysely
          .selectFrom('users')
          .select(['credits_available', 'credits_held'])
          .where('id', '=', u.id)
          .executeTakeFirst()
          .then((r) => {
            if (r && (r.credits_available < 0 || r.credits_held < 0)) throw new Error('negative balance observed');
          });
      }, 5);
      // Every call carries its own Idempotency-Key, as the web client sends them.
      const rush = () =>
        Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            fetch(`${t.server.url}/api/jobs/${projectId}/queue`, {
              method: 'POST',
              headers: { ...u.headers, 'idempotency-key': `rush-${i}` },
            }),
          ),
        );
      const responses = await rush();
      clearInterval(sampler);
      const statuses = responses.map((r) => r.status);
      const bodies = (await Promise.all(responses.map((r) => r.json()))) as Array<{ id?: number; detail?: string }>;
      expect(statuses.filter((s) => s === 201 || s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 402)).toHaveLength(90);
      for (const [i, b] of bodies.entries()) {
        if (statuses[i] === 402) {
          expect(b).toEqual({ detail: INSUFFICIENT_CREDITS.videos, required: 1, available: 0, missing: 1 });
        }
      }
      expect(new Set(bodies.filter((b) => b.id).map((b) => b.id)).size).toBe(10);
      const jobs = await t.server.ctx.db.kysely.selectFrom('jobs').select('id').where('user_id', '=', u.id).execute();
      expect(jobs).toHaveLength(10);
      expect(await invariant(u.id)).toMatchObject({ available: 0, held: 1000, consumed: 0, granted: 1000 });

      // All 100 again with the same keys: the 10 winners are replayed with their ids, the rest are still short.
      const again = await rush();
      expect(again.map((r) => r.status)).toEqual(statuses);
      const againBodies = (await Promise.all(again.map((r) => r.json()))) as Array<{ id?: number; detail?: string }>;
      expect(againBodies).toEqual(bodies);
      expect(
        await t.server.ctx.db.kysely.selectFrom('jobs').select('id').where('user_id', '=', u.id).execute(),
      ).toHaveLength(10);
      expect(await invariant(u.id)).toMatchObject({ available: 0, held: 1000, consumed: 0, granted: 1000 });
    });

    it('keeps granted = available + held + consumed over any grant/reserve/capture/release/replay sequence', async () => {
      type Op =
        | { kind: 'grant'; amount: number }
        | { kind: 'reserve'; amount: number }
        | { kind: 'capture'; pick: number }
        | { kind: 'release'; pick: number }
        | { kind: 'replay'; pick: number; as: 'capture' | 'release' };
      const op: fc.Arbitrary<Op> = fc.oneof(
        fc.record({ kind: fc.constant('grant' as const), amount: fc.integer({ min: 1, max: 500 }) }),
        fc.record({ kind: fc.constant('reserve' as const), amount: fc.integer({ min: 1, max: 400 }) }),
        fc.record({ kind: fc.constant('capture' as const), pick: fc.nat() }),
        fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
        fc.record({
          kind: fc.constant('replay' as const),
          pick: fc.nat(),
          as: fc.constantFrom('capture' as const, 'release' as const),
        }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
          const u = await insertUser(t.server);
          const db = t.server.ctx.db.kysely;
          // The model: what the ledger must say after each step.
          let available = 0;
          let consumed = 0;
          let granted = 0;
          const holds: Array<{ id: number; amount: number; state: 'held' | 'captured' | 'released' }> = [];
          for (const o of ops) {
            if (o.kind === 'grant') {
              await grantCredits(db, u.id, o.amount, 'grant');
              available += o.amount;
              granted += o.amount;
            } else if (o.kind === 'reserve') {
              try {
                const id = await db.transaction().execute((trx) => reserveCredits(trx, u.id, o.amount, 'op', 'short'));
                expect(o.amount).toBeLessThanOrEqual(available);
                available -= o.amount;
                holds.push({ id, amount: o.amount, state: 'held' });
              } catch (err) {
                expect(err).toBeInstanceOf(HttpError);
                expect((err as HttpError).statusCode).toBe(402);
                expect(o.amount).toBeGreaterThan(available);
              }
            } else if (holds.length > 0) {
              const h = holds[o.pick % holds.length]!;
              const action = o.kind === 'replay' ? o.as : o.kind;
              const moved = await (action === 'capture' ? captureHold(db, h.id) : releaseHold(db, h.id));
              // A hold resolves once: only the first resolution moves anything, whatever it is.
              expect(moved).toBe(h.state === 'held');
              if (moved) {
                h.state = action === 'capture' ? 'captured' : 'released';
                if (action === 'capture') consumed += h.amount;
                else available += h.amount;
              }
            }
            const held = holds.filter((h) => h.state === 'held').reduce((s, h) => s + h.amount, 0);
            const b = await ledgerBalances(db, u.id);
            expect(b).toEqual({ available, held, heldByHolds: held, granted, consumed });
            expect(b.granted).toBe(b.available + b.held + b.consumed);
          }
        }),
        { numRuns: dialect === 'postgres' ? 15 : 40 },
      );
    });

    it('resolves a hold once even when capture and release race', async () => {
      const u = await insertUser(t.server, { credits: 5 });
      const db = t.server.ctx.db.kysely;
      const holdIds = await Promise.all(
        Array.from({ length: 5 }, () =>
          db.transaction().execute((trx) => reserveCredits(trx, u.id, 100, 'op', 'short')),
        ),
      );
      const results = await Promise.all(
        holdIds.flatMap((id) => [captureHold(db, id), releaseHold(db, id), captureHold(db, id), releaseHold(db, id)]),
      );
      expect(results.filter(Boolean)).toHaveLength(5);
      const b = await invariant(u.id);
      expect(b.held).toBe(0);
      expect(b.available + b.consumed).toBe(500);
    });
  });
}
