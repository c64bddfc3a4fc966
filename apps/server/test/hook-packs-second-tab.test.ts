import { LIMITS, MESSAGES } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { availableCredits, call, uploadProductPhoto, waitFor } from './hook-helpers.ts';

/**
 * A second browser tab repeats a hook-pack wizard spend with its own Idempotency-Key — the Character Type step's
 * Continue, the Previews step's automatic previews, a Regenerate — while the first is still waiting or running, or
 * after it is done: the server refuses it (409, a message people understand) instead of charging the step twice.
 * A deliberate Regenerate of a finished preview is a new order and is charged, once.
 */
for (const dialect of TEST_DIALECTS) {
  describe(`hook pack wizard from two tabs (${dialect})`, () => {
    let server: TestServer;
    let alice: TestUser;
    let packId: number;

    const spend = async (path: string, key: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: {
          ...alice.authHeader,
          'idempotency-key': key,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields it asserts
      return { status: res.status, json: (await res.json()) as any };
    };
    const generateCharacters = (typeId: number, key: string) =>
      spend(
        `/api/hooks/generate-characters?hook_pack_id=${packId}&count=${LIMITS.charactersPerType}&character_type_id=${typeId}`,
        key,
      );
    const previewsOf = async (): Promise<Array<{ id: number; url: string | null; errors: string | null }>> =>
      (await call(server, alice, 'GET', `/api/hooks/${packId}`)).json.preview_characters;

    beforeAll(async () => {
      // The runner is not started yet: the first tab's characters stay queued while the second tab tries again.
      server = await startTestServer({ dialect, env: { JOB_POLL_MS: '100' } });
      alice = await registerUser(server);
      packId = (
        await call(server, alice, 'POST', '/api/hooks', { name: 'Two tabs', language: 'english', accent: 'american' })
      ).json.id;
      await uploadProductPhoto(server, alice, packId);
    }, 120_000);
    afterAll(async () => {
      await server?.close();
    });

    it('generates a character type once: simultaneous and later repeats are 409 and charge nothing', async () => {
      const types = await call(server, alice, 'POST', `/api/hooks/character-types/batch?hook_pack_id=${packId}`, [
        { description: 'young woman runner', order_index: 0 },
      ]);
      const typeId = types.json[0].id as number;
      const before = await availableCredits(server, alice.id);

      const both = await Promise.all([
        generateCharacters(typeId, 'tab-1-types'),
        generateCharacters(typeId, 'tab-2-types'),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = both.findIndex((r) => r.status === 200);
      const first = both[winner]!;
      expect(both.find((r) => r.status === 409)!.json.detail).toBe(MESSAGES.server.charactersInProgress);
      // Credits are counted in hundredths: 4 characters at 0.05, held once.
      expect(await availableCredits(server, alice.id)).toBe(before - 20);

      // Still queued: a third tab is refused; the first tab's retry with its own key is a replay.
      expect((await generateCharacters(typeId, 'tab-3-types')).status).toBe(409);
      // Either tab may win the race (PostgreSQL runs both at once): the winner's key replays its answer.
      expect(await generateCharacters(typeId, winner === 0 ? 'tab-1-types' : 'tab-2-types')).toEqual(first);

      await server.ctx.jobs.start();
      await waitFor(
        async () => {
          const list = (await call(server, alice, 'GET', `/api/hooks/characters/${packId}`)).json as Array<{
            url: string;
          }>;
          return list.length === 4 && list.every((c) => c.url) ? true : null;
        },
        90_000,
        'the portraits',
      );
      // Done: the step's Continue from another tab (the types saved again, so a new type id) is still refused.
      const again = await call(server, alice, 'POST', `/api/hooks/character-types/batch?hook_pack_id=${packId}`, [
        { description: ' Young  woman runner', order_index: 0 },
      ]);
      const later = await generateCharacters(again.json[0].id, 'tab-2-types-later');
      expect(later.status).toBe(409);
      expect(later.json.detail).toBe(MESSAGES.server.charactersInProgress);
      expect(await availableCredits(server, alice.id)).toBe(before - 20);
      // 'Generate More' is a new order every time.
      const more = await spend(
        `/api/hooks/generate-characters?hook_pack_id=${packId}&count=${LIMITS.generateMoreCount}&description=older+man`,
        'more-1',
      );
      expect(more.status).toBe(200);
    }, 200_000);

    it('makes a preview once; a Regenerate of the finished preview is a new order, charged once', async () => {
      const characters = (await call(server, alice, 'GET', `/api/hooks/characters/${packId}`)).json as Array<{
        id: number;
        url: string;
      }>;
      const character = characters.find((c) => c.url)!;
      const before = await availableCredits(server, alice.id);
      const body = { hook_pack_id: packId, character_ids: [character.id] };

      const both = await Promise.all([
        spend('/api/hooks/generate-preview', 'tab-1-preview', body),
        spend('/api/hooks/generate-preview', 'tab-2-preview', body),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(both.find((r) => r.status === 409)!.json.detail).toBe(MESSAGES.server.previewInProgress);
      expect(await availableCredits(server, alice.id)).toBe(before - 10);

      const ready = await waitFor(
        async () => {
          const p = (await previewsOf())[0];
          if (p?.errors) expect.fail(`preview failed: ${p.errors}`);
          return p?.url ? p : null;
        },
        90_000,
        'the preview',
      );
      // Made: the Previews step opened in another tab asks again, and is refused.
      const later = await spend('/api/hooks/generate-preview', 'tab-3-preview', body);
      expect(later.status).toBe(409);
      expect(later.json.detail).toBe(MESSAGES.server.previewInProgress);
      expect(await availableCredits(server, alice.id)).toBe(before - 10);

      // A deliberate Regenerate, pressed in two tabs at once: one new preview, one charge.
      const regen = await Promise.all([
        spend(`/api/hooks/preview/${ready.id}/regenerate?reason=product`, 'regen-1'),
        spend(`/api/hooks/preview/${ready.id}/regenerate?reason=product`, 'regen-2'),
      ]);
      expect(regen.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(regen.find((r) => r.status === 409)!.json.detail).toBe(MESSAGES.server.previewInProgress);
      expect(await availableCredits(server, alice.id)).toBe(before - 20);
      await waitFor(async () => ((await previewsOf())[0]?.url ? true : null), 90_000, 'the regenerated preview');
      // The regenerate's own retry is a replay; a later Regenerate is another new order, charged once more.
      const winner = regen.find((r) => r.status === 200)!;
      const replay = await spend(
        `/api/hooks/preview/${ready.id}/regenerate?reason=product`,
        regen[0] === winner ? 'regen-1' : 'regen-2',
      );
      expect(replay.status).toBe(200);
      expect(replay.json.id).toBe(winner.json.id);
      expect(await availableCredits(server, alice.id)).toBe(before - 20);
      const next = await spend(`/api/hooks/preview/${ready.id}/regenerate?reason=person`, 'regen-3');
      expect(next.status).toBe(200);
      expect(await availableCredits(server, alice.id)).toBe(before - 30);
    }, 200_000);
  });
}
