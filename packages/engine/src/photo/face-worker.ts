import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { abortError } from '../util/process.ts';

const CHILD = fileURLToPath(new URL('./face-child.mjs', import.meta.url));

/** One face as the detector sees it, in the picture's pixels (angles in radians, as the model gives them). */
export interface RawFace {
  score: number;
  /** Detector box [x, y, width, height]. */
  box: [number, number, number, number];
  /** 478 points [x, y, z]: 468 mesh points then 10 iris points. */
  mesh: [number, number, number][];
  angle: { yaw: number; pitch: number; roll: number } | null;
  /** 1024-long face descriptor (the face-description model), when asked for. */
  descriptor: number[] | null;
}

export interface RawImage {
  width: number;
  height: number;
  faces: RawFace[];
}

/** Raw RGB24 frames stored back to back in one file, and what to find on them (see detectFrames). */
export interface FramesInput {
  path: string;
  width: number;
  height: number;
  count: number;
  describe: number[];
  iris?: boolean;
  track?: boolean;
  only?: number[];
}

type Request = { op: 'image'; path: string } | ({ op: 'frames' } & FramesInput) | { op: 'ping' };

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/** The child is let go after this long without work, so an idle server does not hold the model's memory. */
const IDLE_MS = Number(process.env.HOOKREEL_FACE_IDLE_MS ?? 120_000);

/**
 * The face detector's process (face-child.mjs), started on first use and reused while work keeps coming: loading
 * the models costs ~0.3 s and the first face ~0.6 s more, a warm one ~0.05 s. A crash rejects what was asked and
 * the next request starts a new child.
 */
class FaceWorker {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;

  private start(): ChildProcess {
    if (this.child) return this.child;
    const child = spawn(process.execPath, [CHILD], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.on('message', (m: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(`face detection failed: ${m.error ?? 'unknown error'}`));
      this.armIdle();
    });
    const gone = (why: string) => {
      if (this.child !== child) return;
      this.child = null;
      for (const p of this.pending.values()) p.reject(new Error(`face detector stopped: ${why}`));
      this.pending.clear();
    };
    child.on('exit', (code, sig) => gone(`exit ${code ?? sig}`));
    child.on('error', (e) => gone(e.message));
    // An idle child must not keep the process that owns it alive.
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    this.child = child;
    return child;
  }

  private armIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.pending.size > 0) return;
    this.idle = setTimeout(() => void this.stop(), IDLE_MS);
    this.idle.unref();
  }

  request<T>(req: Request, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<T> {
    if (opts.signal?.aborted) return Promise.reject(abortError(opts.signal));
    if (this.idle) clearTimeout(this.idle);
    const child = this.start();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | null = null;
      const onAbort = () => fail(abortError(opts.signal));
      const done = () => {
        if (timer) clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      };
      const fail = (e: Error) => {
        if (!this.pending.delete(id)) return;
        done();
        reject(e);
        this.armIdle();
      };
      this.pending.set(id, {
        resolve: (v) => {
          done();
          resolve(v as T);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      timer = setTimeout(() => {
        // A stuck model: end the child so the next request starts clean.
        fail(new Error('face detection timed out'));
        void this.stop();
      }, opts.timeoutMs ?? 60_000);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      child.send({ id, ...req });
    });
  }

  /** The running child's process id (for the bench's memory figure), or null. */
  pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Ends the child (its pending requests fail); the next request starts a new one. */
  stop(): Promise<void> {
    const child = this.child;
    if (!child) return Promise.resolve();
    this.child = null;
    for (const p of this.pending.values()) p.reject(new Error('face detector stopped'));
    this.pending.clear();
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    // Held by the event loop until it has exited, so a caller awaiting that is not left with nothing to wait on.
    child.ref();
    child.kill('SIGKILL');
    return exited;
  }
}

const worker = new FaceWorker();

/** Detects the faces in an image file (EXIF orientation applied), with a descriptor for each. */
export function detectImage(path: string, opts?: { signal?: AbortSignal }): Promise<RawImage> {
  return worker.request<RawImage>({ op: 'image', path }, { timeoutMs: 60_000, ...opts });
}

/**
 * Detects the faces on raw RGB24 frames stored back to back in one file; `describe` frames get a descriptor.
 * Without `iris`, the iris model is skipped and each face has the 468 mesh points only. With `track` (frames of
 * one video), the face detector runs only on some frames and the mesh follows the face found on the others
 * (face-child.mjs): a frame then holds the tracked face only. With `only`, just those frames are detected (each
 * in full), and the answer holds them in that order.
 */
export function detectFrames(input: FramesInput, opts?: { signal?: AbortSignal }): Promise<RawFace[][]> {
  return worker.request<RawFace[][]>({ op: 'frames', ...input }, { timeoutMs: 60_000 + input.count * 2_000, ...opts });
}

/** Starts the detector ahead of the first photo (e.g. when a server boots), so an upload does not wait for it. */
export function warmFaceDetector(): Promise<void> {
  return worker.request<unknown>({ op: 'ping' }, { timeoutMs: 60_000 }).then(() => undefined);
}

/** Ends the detector's process now (tests, shutdown). */
export function stopFaceDetector(): void {
  void worker.stop();
}

/**
 * Ends the detector's process and resolves once it has exited and been reaped, so its CPU time has reached this
 * process's children's (the render bench counts it).
 */
export function endFaceDetector(): Promise<void> {
  return worker.stop();
}

/** The detector's process id while it runs (the bench reads its peak memory), else null. */
export function faceDetectorPid(): number | null {
  return worker.pid();
}
