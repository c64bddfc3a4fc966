import { LIMITS, isTerminalJobStatus } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookPacksRepository } from '../src/db/repositories/hook-packs.ts';
import type { MediaPort } from '../src/media/port.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { availableCredits, call, packWithCharacters, waitFor } from './hook-helpers.ts';

type Step = 'pass' | 'hold' | 'fail';

/**
 * A preview job stores each picture as it goes and is marked done only after the last one. A preview whose picture
 * is stored may be regenerated at once, even while its job still works on the pack's other previews (the Redo
 * button is shown as soon as the picture is); and that older job, or its retry, never writes over the new preview.
 */
for (const dialect of TEST_DIALECTS) {
  describe(`regenerating a preview while its job still runs (${dialect})`, () => {
    let server: TestServer;
    let alice: TestUser;
    let packId: number;
    let characterIds: number[];
    // The test decides each composite: by the preview's id, how many times that preview was composited, and how
    // many composites ran since the plan was set (a job composites its previews in id order).
    let plan: (previewId: number, nth: number, call: number) => Step = () => 'pass';
    let calls = 0;
    const setPlan = (next: typeof plan) => {
      plan = next;
      calls = 0;
    };
    const seen = new Map<number, number>();
    // Held composites by `<preview id>:<nth>`: calling one lets it go on.
    const gates = new Map<string, () => void>();
    const release = (key: string) => {
      gates.get(key)!();
      gates.delete(key);
    };

    const previewOf = async (id: number) => {
      const p = (await call(server, alice, 'GET', `/api/hooks/${packId}`)).json.preview_characters.find(
        (x: { id: number }) => x.id === id,
      ) as { url: string | null };
      // Which job owns the preview is not in the API; it is read from the row.
      const row = await hookPacksRepository.findPreview(server.ctx.db.kysely, id);
      return { url: p.url, jobId: row!.job_id };
    };
    const jobStatus = async (id: number): Promise<string> =>
      (await call(server, alice, 'GET', `/api/jobs/${id}`)).json.status;
    const regenerate = (id: number, key: string) =>
      fetch(`${server.url}/api/hooks/preview/${id}/regenerate?reason=product`, {
        method: 'POST',
        headers: { ...alice.authHeader, 'idempotency-key': key },
      });

    beforeAll(async () => {
      server = await startTestServer({ dialect, env: { JOB_POLL_MS: '100', JOB_RETRY_BASE_MS: '100' } });
      const real = server.ctx.media;
      const compositeProduct: MediaPort['compositeProduct'] = async (input) => {
        const previewId = Number(/preview-(\d+)\.png$/.exec(input.outPath)?.[1]);
        const nth = (seen.get(previewId) ?? 0) + 1;
        seen.set(previewId, nth);
        const step = plan(previewId, nth, ++calls);
        if (step === 'fail') throw new Error('A passing glitch');
        if (step === 'hold') await new Promise<void>((resolve) => gates.set(`${previewId}:${nth}`, resolve));
        await real.compositeProduct(input);
      };
      server.ctx.media = { ...real, compositeProduct };
      alice = await registerUser(server);
      // The runner starts once the pack's four characters are queued; they are rendered before the tests.
      packId = (await packWithCharacters(server, alice, { name: 'Redo', count: LIMITS.charactersPerType })).id;
      await server.ctx.jobs.start();
      characterIds = await waitFor(
        async () => {
          const list = (await call(server, alice, 'GET', `/api/hooks/characters/${packId}`)).json as Array<{
            id: number;
            url: string | null;
          }>;
          return list.length === 4 && list.every((c) => c.url) ? list.map((c) => c.id) : null;
        },
        90_000,
        'the portraits',
      );
    }, 150_000);
    afterAll(async () => {
      for (const release of gates.values()) release();
      await server?.close();
    });

    const queuePreviews = async (ids: number[]) => {
      const res = await call(server, alice, 'POST', '/api/hooks/generate-preview', {
        hook_pack_id: packId,
        character_ids: ids,
      });
      expect(res.status).toBe(200);
      const rows = res.json as Array<{ id: number }>;
      return Promise.all(rows.map(async (r) => ({ id: r.id, job_id: (await previewOf(r.id)).jobId! })));
    };

    it('regenerates a preview whose picture is stored while its job still renders the next one', async () => {
      const before = await availableCredits(server, alice.id);
      setPlan((_id, _nth, call) => (call === 2 ? 'hold' : 'pass'));
      const [first, second] = await queuePreviews(characterIds.slice(0, 2));
      await waitFor(async () => gates.has(`${second!.id}:1`), 60_000, 'the second preview to start');
      expect((await previewOf(first!.id)).url).toBeTruthy();
      expect(await jobStatus(first!.job_id)).toBe('in_progress');

      const res = await regenerate(first!.id, 'redo-first');
      expect(res.status).toBe(200);
      const redone = (await previewOf(first!.id)).jobId!;
      expect(redone).not.toBe(first!.job_id);
      expect(await availableCredits(server, alice.id)).toBe(before - 30);

      release(`${second!.id}:1`);
      await waitFor(
        async () => isTerminalJobStatus(await jobStatus(redone)) && (await previewOf(first!.id)).url,
        60_000,
        'the regenerated preview',
      );
      expect(await jobStatus(first!.job_id)).toBe('completed');
      expect((await previewOf(second!.id)).url).toBeTruthy();
    }, 120_000);

    it("does not let the old job's retry store its picture over the regenerated preview", async () => {
      // Attempt 1 stores the third picture and fails on the fourth; attempt 2 is held while compositing the third,
      // and so is the regenerated job's composite (the third's third), so what the old job leaves can be read.
      let thirdId = 0;
      setPlan((id, nth, call) => {
        if (call === 1) thirdId = id;
        if (call === 2) return 'fail';
        return id === thirdId && nth >= 2 ? 'hold' : 'pass';
      });
      const [third] = await queuePreviews(characterIds.slice(2, 4));
      expect(thirdId === 0 || thirdId === third!.id).toBe(true);
      await waitFor(async () => gates.has(`${third!.id}:2`), 60_000, 'the retry to composite the third preview');
      expect((await previewOf(third!.id)).url).toBeTruthy();

      const res = await regenerate(third!.id, 'redo-third');
      expect(res.status).toBe(200);
      const redone = (await previewOf(third!.id)).jobId!;
      release(`${third!.id}:2`);
      await waitFor(async () => (await jobStatus(third!.job_id)) === 'completed', 60_000, 'the old job');
      expect(await previewOf(third!.id)).toEqual({ url: null, jobId: redone });

      await waitFor(async () => gates.has(`${third!.id}:3`), 60_000, 'the new job to composite');
      release(`${third!.id}:3`);
      await waitFor(async () => (await previewOf(third!.id)).url, 60_000, 'the regenerated picture');
      expect(await jobStatus(redone)).toBe('completed');
    }, 120_000);
  });
}
