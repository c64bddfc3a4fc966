import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { z } from 'zod';
import type { JobSettings } from './settings.ts';

/** What a job-changed message carries (ids only), checked when it arrives from Redis. */
const JobChanged = z.object({ userId: z.number().int(), jobId: z.number().int() });
export type JobChanged = z.infer<typeof JobChanged>;

/**
 * Job update and cancel notifications. Messages carry ids only; listeners reload the row (the source of truth).
 * In-process in embedded mode; Redis pub/sub in scale mode so API processes hear about workers' progress.
 */
export interface JobEventBus {
  publish(event: JobChanged): void;
  /** Returns an unsubscribe function. */
  subscribe(userId: number, listener: (jobId: number) => void): () => void;
  /** Asks whichever process runs the job to abort it (the job was deleted). */
  publishCancel(jobId: number): void;
  onCancel(listener: (jobId: number) => void): () => void;
  close(): Promise<void>;
}

function localDispatch() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emitter,
    dispatchChanged: (e: JobChanged) => emitter.emit(`user:${e.userId}`, e.jobId),
    dispatchCancel: (jobId: number) => emitter.emit('cancel', jobId),
    subscribe(userId: number, listener: (jobId: number) => void) {
      emitter.on(`user:${userId}`, listener);
      return () => void emitter.off(`user:${userId}`, listener);
    },
    onCancel(listener: (jobId: number) => void) {
      emitter.on('cancel', listener);
      return () => void emitter.off('cancel', listener);
    },
  };
}

export function createLocalJobEvents(): JobEventBus {
  const d = localDispatch();
  return {
    publish: d.dispatchChanged,
    subscribe: d.subscribe,
    publishCancel: d.dispatchCancel,
    onCancel: d.onCancel,
    async close() {
      d.emitter.removeAllListeners();
    },
  };
}

/** Redis pub/sub; connections open lazily on first use and read the channel prefix from the settings then. */
export function createRedisJobEvents(redisUrl: string, settings: () => JobSettings): JobEventBus {
  const d = localDispatch();
  let pub: Redis | null = null;
  let sub: Redis | null = null;
  let closed = false;
  const channels = () => {
    const p = settings().redisPrefix;
    return { changed: `${p}:job-changed`, cancel: `${p}:job-cancel` };
  };
  const publisher = () => {
    if (!pub) {
      pub = new Redis(redisUrl, { maxRetriesPerRequest: 3, lazyConnect: false });
      pub.on('error', () => undefined);
    }
    return pub;
  };
  const ensureSubscribed = () => {
    if (sub || closed) return;
    const c = channels();
    sub = new Redis(redisUrl, { maxRetriesPerRequest: null });
    sub.on('error', () => undefined);
    sub.on('message', (channel: string, message: string) => {
      try {
        if (channel === c.changed) d.dispatchChanged(JobChanged.parse(JSON.parse(message)));
        else if (channel === c.cancel) d.dispatchCancel(Number(message));
      } catch {
        // a malformed message is ignored; the row stays the source of truth
      }
    });
    void sub.subscribe(c.changed, c.cancel).catch(() => undefined);
  };
  return {
    publish(e) {
      if (closed) return;
      void publisher()
        .publish(channels().changed, JSON.stringify(e))
        .catch(() => undefined);
    },
    subscribe(userId, listener) {
      ensureSubscribed();
      return d.subscribe(userId, listener);
    },
    publishCancel(jobId) {
      if (closed) return;
      void publisher()
        .publish(channels().cancel, String(jobId))
        .catch(() => undefined);
    },
    onCancel(listener) {
      ensureSubscribed();
      return d.onCancel(listener);
    },
    async close() {
      closed = true;
      d.emitter.removeAllListeners();
      await Promise.all([pub?.quit().catch(() => undefined), sub?.quit().catch(() => undefined)]);
    },
  };
}
