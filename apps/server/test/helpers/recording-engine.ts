import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { engineMedia } from '../../src/media/engine.ts';
import { startTestServer, type TestServer } from './app.ts';
import { aspectTag } from '@hookreel/contracts';
import type { AspectRender, MediaPort, RenderProjectVideoInput } from '../../src/media/port.ts';

/**
 * A media port whose project render is a fast stand-in, for tests of the job machinery (runner, queue, faults):
 * it reports progress, writes a small file as "the video" and records what it did, and the test can hold a
 * render mid-way, fail an attempt or run its own step inside each attempt. Set it as `ctx.media`; the other
 * media work stays the real engine's.
 */

export interface RecordingEngineOptions {
  /** Progress each attempt reports first (percent, log line). */
  progress?: [number, string];
  /** The bytes of "the video" (read at render time); default `video of job <id>`. */
  content?: (input: RenderProjectVideoInput) => string | Buffer;
  /** Also write and return a poster JPEG. */
  poster?: boolean;
}

export interface RecordingEngine extends MediaPort {
  /** Job ids of the renders that wrote their video, in order: a job rendered twice is here twice. */
  readonly renders: number[];
  /** What the latest render of each job wrote as its video. */
  readonly outputs: Map<number, string | Buffer>;
  /** What the latest render of each job was given. */
  readonly inputs: Map<number, RenderProjectVideoInput>;
  /** Renders held by holdNext and not yet let go, by job id: calling one lets that render go on. */
  readonly gates: Map<number, () => void>;
  /** The test's own step in every attempt, after the progress report (a throw fails the attempt). */
  during: ((input: RenderProjectVideoInput, attempt: number) => Promise<void>) | null;
  /** The next render to start while none is held waits on a gate (see gates). */
  holdNext(): void;
  /** The next render attempt throws, before any progress: a passing failure the runner retries. */
  failNext(message?: string): void;
  /** Lets every held render go (for afterAll, so no render outlives its test). */
  releaseAll(): void;
}

export function recordingEngine(opts: RecordingEngineOptions = {}): RecordingEngine {
  const [percent, logLine] = opts.progress ?? [50, 'Rendering'];
  const content = opts.content ?? ((input) => `video of job ${input.jobId}`);
  const attempts = new Map<number, number>();
  let hold = false;
  let failure: string | null = null;

  const engine: RecordingEngine = {
    ...engineMedia,
    renders: [],
    outputs: new Map(),
    inputs: new Map(),
    gates: new Map(),
    during: null,
    holdNext: () => {
      hold = true;
    },
    failNext: (message = 'A passing glitch') => {
      failure = message;
    },
    releaseAll: () => {
      for (const release of [...engine.gates.values()]) release();
    },
    async renderProjectVideo(input) {
      const attempt = (attempts.get(input.jobId) ?? 0) + 1;
      attempts.set(input.jobId, attempt);
      if (failure !== null) {
        const message = failure;
        failure = null;
        throw new Error(message);
      }
      await input.onProgress(percent, logLine);
      if (hold && engine.gates.size === 0) {
        hold = false;
        await new Promise<void>((resolve) =>
          engine.gates.set(input.jobId, () => {
            engine.gates.delete(input.jobId);
            resolve();
          }),
        );
      }
      await engine.during?.(input, attempt);
      const bytes = content(input);
      const videoPath = path.join(input.workDir, 'v.mp4');
      await writeFile(videoPath, bytes);
      engine.outputs.set(input.jobId, bytes);
      engine.inputs.set(input.jobId, input);
      engine.renders.push(input.jobId);
      // Each extra frame shape asked for gets its own stand-in file, as the real engine exports one per shape.
      const aspects: AspectRender[] = [];
      for (const aspect of input.style?.aspects ?? []) {
        const aspectPath = path.join(input.workDir, `v-${aspectTag(aspect)}.mp4`);
        await writeFile(aspectPath, `${String(bytes)} in ${aspect}`);
        aspects.push({ aspect, videoPath: aspectPath, posterPath: null, contactSheetPath: null, report: null });
      }
      if (!opts.poster) return { videoPath, aspects };
      const posterPath = path.join(input.workDir, 'poster.jpg');
      await writeFile(posterPath, 'jpeg');
      return { videoPath, posterPath, aspects };
    },
  };
  return engine;
}

/** A test server whose renders go to `engine` (a recording engine), its job runner started and polling every 50 ms. */
export async function startServerRecordingRenders(
  dialect: 'sqlite' | 'postgres',
  engine: MediaPort,
): Promise<TestServer> {
  const server = await startTestServer({ dialect });
  server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50 };
  server.ctx.media = engine;
  await server.ctx.jobs.start();
  return server;
}
