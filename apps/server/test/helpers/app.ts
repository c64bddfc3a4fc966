import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DestinationStream } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { closeContext, createContext, type AppContext } from '../../src/context.ts';
import { buildApp } from '../../src/http/app.ts';
import type { App } from '../../src/http/types.ts';
import { createPgDatabase } from './database.ts';

export interface TestServer {
  app: App;
  ctx: AppContext;
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

/**
 * A real server on an ephemeral port with its own DATA_DIR and database (SQLite file or a fresh PostgreSQL
 * database). Tests talk to it over HTTP.
 */
export async function startTestServer(
  opts: { dialect?: 'sqlite' | 'postgres'; env?: Record<string, string>; logStream?: DestinationStream } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hookreel-test-'));
  const pgDb = opts.dialect === 'postgres' ? await createPgDatabase() : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    AUTH_RATE_LIMIT: '10000',
    REGISTER_RATE_LIMIT: '10000',
    SIGN_IN_MAIL_RATE_LIMIT: '10000',
    UPLOAD_RATE_LIMIT: '10000',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...opts.env,
  });
  const ctx = await createContext(config);
  const app = await buildApp(ctx, { logStream: opts.logStream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  ctx.config.publicUrl = url;
  return {
    app,
    ctx,
    url,
    async close() {
      const closing = app.close();
      // A response body a test left unread keeps its connection busy, and close would wait for it for minutes.
      app.server.closeAllConnections();
      await closing;
      await closeContext(ctx);
      await pgDb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
