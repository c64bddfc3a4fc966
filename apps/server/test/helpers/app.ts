import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DestinationStream } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { closeContext, createContext, type AppContext } from '../../src/context.ts';
import { buildApp } from '../../src/http/app.ts';
import type { App } from '../../src/http/types.ts';
import type { JobSettings } from '../../src/jobs/settings.ts';
import type { MediaPort } from '../../src/media/port.ts';
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

/** Job timings for tests with the runner on: quick polls, short leases and heartbeats, a short shutdown grace. */
const TEST_JOB_TIMINGS: Partial<JobSettings> = { pollMs: 100, leaseMs: 5000, heartbeatMs: 500, shutdownGraceMs: 300 };

/** Starts the server's job runner with the test timings (`timings` over them) and, when given, stand-in media. */
export async function startJobRunner(server: TestServer, timings: Partial<JobSettings>, media?: MediaPort) {
  server.ctx.jobSettings = { ...server.ctx.jobSettings, ...TEST_JOB_TIMINGS, ...timings };
  if (media) server.ctx.media = media;
  await server.ctx.jobs.start();
}
