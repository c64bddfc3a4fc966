import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './app.ts';
import { registerUser, startServerWithAdmin, type TestUser } from './factories.ts';

/**
 * For the describe block it is called in: a server of `dialect` with one registered user (and, with `withAdmin`,
 * an admin named in ADMIN_EMAILS), started before the block's tests and closed after them. The tests read
 * `.server`, `.user` and `.admin`, which are set by the time they run.
 */
export function serverForBlock(
  dialect: 'sqlite' | 'postgres',
  { withAdmin = false } = {},
): { server: TestServer; user: TestUser; admin: TestUser } {
  const block = {} as { server: TestServer; user: TestUser; admin: TestUser };
  beforeAll(async () => {
    if (withAdmin) Object.assign(block, await startServerWithAdmin(dialect));
    else {
      block.server = await startTestServer({ dialect });
      block.user = await registerUser(block.server);
    }
  });
  afterAll(() => block.server?.close());
  return block;
}

/** For the describe block it is called in: a server of `dialect`, started before the block's tests, closed after. */
export function serverOnlyForBlock(dialect: 'sqlite' | 'postgres'): { readonly server: TestServer } {
  const block = {} as { server: TestServer };
  beforeAll(async () => {
    block.server = await startTestServer({ dialect });
  });
  afterAll(() => block.server?.close());
  return block;
}
