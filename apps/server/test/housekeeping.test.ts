import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits, toHundredths } from '../src/services/billing/credits.ts';
import { IDEMPOTENCY_KEY_TTL_MS, runHousekeeping } from '../src/services/platform/housekeeping.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, postJson, registerUser, signIn, type TestUser } from './helpers/factories.ts';

const HOUR = 60 * 60 * 1000;

describe.each(TEST_DIALECTS)('housekeeping (%s)', (dialect) => {
  let server: TestServer;
  let user: TestUser;
  let projectId: number;

  beforeAll(async () => {
    server = await startTestServer({ dialect }); // the runner is not started: queued jobs stay queued
    user = await registerUser(server);
    await grantCredits(server.ctx.db.kysely, user.id, toHundredths(10), 'test');
    projectId = await createProjectOverHttp(server, user, 'Housekeeping');
  });
  afterAll(() => server?.close());

  const queueWithKey = async (key: string) => {
    const res = await fetch(`${server.url}/api/jobs/${projectId}/queue`, {
      method: 'POST',
      headers: { ...user.authHeader, 'Idempotency-Key': key },
    });
    expect(res.status).toBe(201);
    return { id: ((await res.json()) as { id: number }).id, replayed: res.headers.get('idempotent-replayed') };
  };

  it('forgets Idempotency-Keys older than a day and refresh tokens past expiry, and keeps the rest', async () => {
    const db = server.ctx.db.kysely;
    const old = await queueWithKey('key-from-yesterday');
    const fresh = await queueWithKey('key-from-now');
    const at = new Date();
    await db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(at.getTime() - IDEMPOTENCY_KEY_TTL_MS - HOUR).toISOString() })
      .where('user_id', '=', user.id)
      .where('key', '=', 'key-from-yesterday')
      .execute();
    // A second session whose refresh token has expired; the first stays valid.
    const stale = await signIn(server, user.email);
    await db
      .updateTable('refresh_tokens')
      .set({ expires_at: new Date(at.getTime() - HOUR).toISOString() })
      .where('user_id', '=', user.id)
      .where('id', '=', (eb) => eb.selectFrom('refresh_tokens').select((e) => e.fn.max('id').as('id')))
      .execute();

    expect(await runHousekeeping(server.ctx, at)).toEqual({ idempotencyKeys: 1, refreshTokens: 1, oneTimeCodes: 0 });
    expect(await runHousekeeping(server.ctx, at)).toEqual({ idempotencyKeys: 0, refreshTokens: 0, oneTimeCodes: 0 });

    // The kept key still replays its first answer; the forgotten one is a new request now.
    expect(await queueWithKey('key-from-now')).toEqual({ id: fresh.id, replayed: 'true' });
    const again = await queueWithKey('key-from-yesterday');
    expect(again.id).not.toBe(old.id);
    expect(again.replayed).toBeNull();

    // The live session renews; the expired one cannot.
    expect((await postJson(server, '/api/auth/refresh', { refresh_token: user.refreshToken })).status).toBe(200);
    expect((await postJson(server, '/api/auth/refresh', { refresh_token: stale.refreshToken })).status).toBe(401);
  });
});
