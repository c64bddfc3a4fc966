import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';

/** The machine's Redis (CI and this box run one on 6379); tests keep to their own key prefix in it. */
export const SHARED_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Starts the shared Redis if nothing answers there (scripts/ensure-services.sh does the same before `npm test`). */
export async function ensureSharedRedis(): Promise<void> {
  const probe = new Redis(SHARED_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
  } catch {
    const { port } = new URL(SHARED_REDIS_URL);
    execFileSync('redis-server', [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '--port',
      port || '6379',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    probe.disconnect();
  }
}
