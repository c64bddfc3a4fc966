import { writeFile } from 'node:fs/promises';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { dependencyFailure } from '../src/errors.ts';
import { startHttpFaultProxy } from './helpers/fault-proxy-http.ts';
import { freePort, startTcpProxy } from './helpers/tcp-proxy.ts';
import { PG_ADMIN_URL } from './helpers/database.ts';

/**
 * The errors that real dependency faults raise, as the clients raise them, sorted by the error handler into
 * "try again" (503 with Retry-After) or "storage full" (503 with its own message); bugs stay 500s.
 */
const failure = async (work: () => Promise<unknown>): Promise<unknown> => {
  try {
    await work();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
};

describe('dependency failures are told apart from bugs', () => {
  it('a write to a full device (ENOSPC from /dev/full) is "storage full"', async () => {
    const err = await failure(() => writeFile('/dev/full', Buffer.alloc(4096)));
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(dependencyFailure(err)).toBe('storage-full');
  });

  it('PostgreSQL refused, reset mid-query, or gone silent is "unavailable"', async () => {
    const refused = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/test` });
    expect(dependencyFailure(await failure(() => refused.connect()))).toBe('unavailable');

    const target = new URL(PG_ADMIN_URL);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(PG_ADMIN_URL);
    url.port = String(proxy.port);
    try {
      const reset = new pg.Client({ connectionString: url.toString() });
      reset.on('error', () => undefined);
      await reset.connect();
      const query = failure(() => reset.query('SELECT pg_sleep(5)'));
      proxy.cut();
      expect(dependencyFailure(await query)).toBe('unavailable');
      proxy.restore();

      url.searchParams.set('query_timeout', '300');
      const silent = new pg.Client({ connectionString: url.toString() });
      silent.on('error', () => undefined);
      await silent.connect();
      proxy.stall();
      expect(dependencyFailure(await failure(() => silent.query('SELECT 1')))).toBe('unavailable');
      proxy.restore();
      await silent.end().catch(() => undefined);
    } finally {
      await proxy.close();
    }
  });

  it('Redis down is "unavailable"', async () => {
    const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    try {
      expect(dependencyFailure(await failure(() => redis.ping()))).toBe('unavailable');
    } finally {
      redis.disconnect();
    }
  });

  it('S3 500s after the SDK retries are "unavailable"; a missing object or a refused key is not', async () => {
    const proxy = await startHttpFaultProxy(`http://127.0.0.1:${await freePort()}`, { kind: 'down' });
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: proxy.url,
      forcePathStyle: true,
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      maxAttempts: 2,
    });
    try {
      const err = await failure(() => client.send(new HeadObjectCommand({ Bucket: 'b', Key: 'k' })));
      expect(proxy.stats.injected).toBe(2); // the SDK did retry
      expect(dependencyFailure(err)).toBe('unavailable');
    } finally {
      client.destroy();
      await proxy.close();
    }
    const notFound = Object.assign(new Error('NotFound'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } });
    const denied = Object.assign(new Error('AccessDenied'), { $fault: 'client', $metadata: { httpStatusCode: 403 } });
    expect(dependencyFailure(notFound)).toBeNull();
    expect(dependencyFailure(denied)).toBeNull();
  });

  it('a programming error is not a dependency failure', () => {
    expect(dependencyFailure(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull();
    expect(dependencyFailure(new Error('unsafe storage key: ../x'))).toBeNull();
    expect(dependencyFailure(null)).toBeNull();
  });
});
