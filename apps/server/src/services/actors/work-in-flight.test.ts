import { describe, expect, it } from 'vitest';
import { WorkInFlight } from './work-in-flight.ts';

const deferred = () => {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('WorkInFlight', () => {
  it('runs the work once for callers that arrive while it runs, and forgets it when done', async () => {
    const work = new WorkInFlight();
    const gate = deferred();
    let starts = 0;
    const start = () => {
      starts += 1;
      return gate.promise;
    };
    const a = work.join('k', start);
    const b = work.join('k', start);
    expect(work.size).toBe(1);
    gate.resolve();
    await Promise.all([a, b]);
    expect(starts).toBe(1);
    expect(work.size).toBe(0);
  });

  it('keeps different keys apart', async () => {
    const work = new WorkInFlight();
    const started: string[] = [];
    await Promise.all(['a', 'b'].map((key) => work.join(key, async () => void started.push(key))));
    expect(started.sort()).toEqual(['a', 'b']);
  });

  it('fails the starter with its own error, and a waiter starts the work again itself', async () => {
    const work = new WorkInFlight();
    const gate = deferred();
    let starts = 0;
    const starter = work.join('k', () => {
      starts += 1;
      return gate.promise;
    });
    const waiter = work.join('k', async () => {
      starts += 1;
    });
    gate.reject(new Error('cancelled'));
    await expect(starter).rejects.toThrow('cancelled');
    await expect(waiter).resolves.toBeUndefined();
    expect(starts).toBe(2);
    expect(work.size).toBe(0);
  });
});
