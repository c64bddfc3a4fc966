import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { engineMedia } from './engine.ts';

const workDir = await mkdtemp(path.join(tmpdir(), 'hookreel-media-'));
afterAll(() => rm(workDir, { recursive: true, force: true }));

// A job deleted mid-render: the runner refuses every later progress update and aborts the signal. The render must
// stop through its signal; the refused updates must not surface as unhandled rejections (they once killed the
// server process, and Vitest fails this file if one escapes).
it('a render whose progress updates are refused stops on its abort signal without an unhandled rejection', async () => {
  const abort = new AbortController();
  let refused = 0;
  const render = engineMedia.renderProjectVideo({
    userId: 1,
    jobId: 1,
    project: {
      id: 1,
      name: 'Cancelled serum',
      script: 'This serum changed my mornings. Try it today.',
      language: 'english',
      accent: 'american',
      fileKey: null,
    },
    actor: null,
    watermark: false,
    workDir,
    signal: abort.signal,
    onProgress: () => {
      refused++;
      abort.abort(new Error('job aborted: cancelled'));
      return Promise.reject(new Error('job aborted: cancelled'));
    },
  });
  await expect(render).rejects.toThrow();
  expect(refused).toBeGreaterThan(0);
  // Give any stray rejection a turn to surface before the file ends.
  await new Promise((r) => setTimeout(r, 200));
}, 60_000);
