import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Programs started through a small helper process (`spawner-child.mjs`, decision 166). Node starts a program by
 * forking the process that asks, and the cost grows with that process's memory: a render worker holding a few
 * hundred megabytes paid ~5 ms of CPU a start and its event loop stood still ~10 ms, while the other render's
 * JavaScript waited. The helper stays small, so a start there costs a fraction of that.
 */

const CHILD = fileURLToPath(new URL('./spawner-child.mjs', import.meta.url));

type Wrap = (cmd: string, args: string[]) => [string, string[]];

export interface SpawnRequest {
  file: string;
  argv: string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  input?: string | Buffer;
  /** Send stdout as it comes (a progress pipe); otherwise all of it when the program ends. */
  stream: boolean;
}

export interface SpawnHandlers {
  stdout(chunk: string): void;
  /** The last 20,000 characters of stderr, once, before `close`. */
  stderr(tail: string): void;
  /** The program could not be started, or the helper ended under it. */
  error(e: Error): void;
  close(code: number | null): void;
}

type FromHelper =
  | { t: 'out'; id: number; chunk: string }
  | {
      t: 'done';
      id: number;
      code?: number | null;
      stdout?: string;
      stderr?: string;
      error?: { message: string; code: string | null };
    };

class Spawner {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, SpawnHandlers>();
  private nextId = 1;
  private exited = false;
  private readonly ended: Promise<void>;

  constructor(wrap: Wrap, started: (helper: ChildProcess) => void) {
    const [file, argv] = wrap(process.execPath, [CHILD]);
    this.child = spawn(file, argv, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'json' });
    started(this.child);
    this.child.on('message', (m: FromHelper) => this.onMessage(m));
    this.ended = new Promise((resolve) => {
      const gone = () => {
        if (this.exited) return;
        this.exited = true;
        if (current === this) current = null;
        const lost = [...this.pending.values()];
        this.pending.clear();
        for (const h of lost) h.error(new Error('the process starting programs ended'));
        resolve();
      };
      this.child.once('exit', gone);
      this.child.once('error', gone);
    });
    this.hold(false);
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Starts a program; returns what kills it (SIGKILL) while it runs. */
  run(req: SpawnRequest, handlers: SpawnHandlers): () => void {
    const id = this.nextId++;
    this.pending.set(id, handlers);
    this.hold(true);
    const binary = Buffer.isBuffer(req.input);
    const message = {
      t: 'run',
      id,
      file: req.file,
      argv: req.argv,
      cwd: req.cwd,
      env: req.env,
      input: binary ? (req.input as Buffer).toString('base64') : req.input,
      inputBase64: binary,
      stream: req.stream,
    };
    this.send(message, () => this.fail(id, new Error('could not reach the process starting programs')));
    return () => {
      if (this.pending.has(id)) this.send({ t: 'kill', id }, () => undefined);
    };
  }

  /** Ends the helper (its programs are killed) and waits until it is reaped. */
  async close(): Promise<void> {
    if (!this.exited) {
      // Held while it ends, or nothing would keep this process waiting for the exit.
      this.child.ref();
      if (this.child.connected) this.child.disconnect();
    }
    await this.ended;
  }

  private send(message: object, failed: () => void): void {
    try {
      this.child.send(message, (err) => {
        if (err) failed();
      });
    } catch {
      failed();
    }
  }

  private fail(id: number, e: Error): void {
    const h = this.pending.get(id);
    if (!h) return;
    this.pending.delete(id);
    if (!this.pending.size) this.hold(false);
    h.error(e);
  }

  private onMessage(m: FromHelper): void {
    const h = this.pending.get(m.id);
    if (!h) return;
    if (m.t === 'out') {
      h.stdout(m.chunk);
      return;
    }
    this.pending.delete(m.id);
    if (!this.pending.size) this.hold(false);
    if (m.error) {
      h.error(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
      return;
    }
    if (m.stdout) h.stdout(m.stdout);
    if (m.stderr) h.stderr(m.stderr);
    h.close(m.code ?? null);
  }

  /** An idle helper must not keep a finished program running; one with programs running must. */
  private hold(on: boolean): void {
    // ChildProcess.channel has ref/unref (Node's IPC pipe); @types/node's Control type says so only for newer Nodes.
    const channel = this.child.channel as unknown as { ref(): void; unref(): void } | null | undefined;
    if (on) {
      this.child.ref();
      channel?.ref();
    } else {
      this.child.unref();
      channel?.unref();
    }
  }
}

let current: Spawner | null = null;

/**
 * The running helper, started on first use: `wrap` gives the command line a program is started with (the
 * parent-death wrapper), `started` is told of a new helper's process (to kill it when this process exits).
 */
export function spawner(wrap: Wrap, started: (helper: ChildProcess) => void): Spawner {
  if (!current?.alive) current = new Spawner(wrap, started);
  return current;
}

/**
 * Ends the helper and waits for it to be reaped, so the CPU time of the programs it started is counted in this
 * process's children's time (the render benchmarks read it). The next program starts a new one.
 */
export async function closeSpawner(): Promise<void> {
  const s = current;
  current = null;
  await s?.close();
}
