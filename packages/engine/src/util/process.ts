import { spawn, spawnSync, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawner, type SpawnHandlers, type SpawnRequest } from './spawner.ts';

/**
 * Children must not outlive the process that runs their job, however it ends. A kernel parent-death signal does
 * that even for SIGKILL: util-linux's `setpriv --pdeathsig KILL` sets it and then execs the program (same pid).
 * Where setpriv is missing, an exit handler still kills them when this process exits on its own.
 */
let pdeathsig: boolean | undefined;
function hasPdeathsig(): boolean {
  pdeathsig ??= /--pdeathsig/.test(spawnSync('setpriv', ['--help'], { encoding: 'utf8' }).stdout ?? '');
  return pdeathsig;
}
/** The command line that starts `cmd` with the parent-death signal set, where setpriv can. */
const withPdeathsig = (cmd: string, args: string[]): [string, string[]] =>
  hasPdeathsig() ? ['setpriv', ['--pdeathsig', 'KILL', '--', cmd, ...args]] : [cmd, args];

const live = new Set<ChildProcess>();
let exitHook = false;
function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
}

/**
 * Starts a long-lived child (stdin, stdout and stderr piped) that dies with this process, as runProcess's do; the
 * caller owns its lifetime.
 */
export function spawnTracked(cmd: string, args: string[]): ChildProcessWithoutNullStreams {
  const [file, argv] = withPdeathsig(cmd, args);
  const child = spawn(file, argv, { env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  track(child);
  return child;
}

export interface RunOptions {
  cwd?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Written to the child's stdin, then stdin is closed. */
  input?: string | Buffer;
  /** Called with each stdout chunk as it arrives (e.g. ffmpeg -progress). */
  onStdout?: (chunk: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

export class ProcessError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly code: number | null,
  ) {
    super(message);
    this.name = 'ProcessError';
  }
}

/**
 * Runs a program without a shell (arguments are never interpreted), keeping heavy work off the event loop.
 * The child is SIGKILLed on timeout or abort so a stuck ffmpeg/festival never outlives its job. Programs are
 * started by the spawner helper (decision 166) unless HOOKREEL_DIRECT_SPAWN=1.
 */
export function runProcess(cmd: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(abortError(opts.signal));
      return;
    }
    const [file, argv] = withPdeathsig(cmd, args);
    let stdout = '';
    let stderr = '';
    let settled = false;
    let killedReason: Error | null = null;
    let killChild = (): void => undefined;

    const kill = (reason: Error) => {
      if (killedReason) return;
      killedReason = reason;
      killChild();
    };
    const timer = opts.timeoutMs
      ? setTimeout(() => kill(new Error(`${cmd} timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs)
      : null;
    const onAbort = () => kill(abortError(opts.signal));
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (err: Error | null) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve({ stdout, stderr });
    };
    const handlers: SpawnHandlers = {
      stdout: (c) => {
        stdout += c;
        opts.onStdout?.(c);
      },
      // Keep only the tail of stderr: ffmpeg can be chatty and we only need the error at the end.
      stderr: (c) => {
        stderr = (stderr + c).slice(-20_000);
      },
      error: (e) => finish(e),
      close: (code) => {
        if (killedReason) finish(killedReason);
        else if (code !== 0)
          finish(
            new ProcessError(
              `${cmd} exited with ${code}: ${stderr.trim().split('\n').slice(-4).join(' | ')}`,
              stderr,
              code,
            ),
          );
        else finish(null);
      },
    };
    const request = { file, argv, cwd: opts.cwd, env: opts.env ?? process.env, input: opts.input };
    killChild =
      process.env.HOOKREEL_DIRECT_SPAWN === '1'
        ? startDirect(request, handlers)
        : spawner(withPdeathsig, track).run({ ...request, stream: Boolean(opts.onStdout) }, handlers);
    // A kill asked for before the start returned (an abort listener running at once) is carried out now.
    if (killedReason) killChild();
  });
}

/** Starts a program from this process (what the spawner helper does for it); returns what kills it. */
function startDirect(req: Omit<SpawnRequest, 'stream'>, on: SpawnHandlers): () => void {
  const child = spawn(req.file, req.argv, { cwd: req.cwd, env: req.env, stdio: ['pipe', 'pipe', 'pipe'] });
  track(child);
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (c: string) => on.stdout(c));
  child.stderr.on('data', (c: string) => {
    stderr = (stderr + c).slice(-20_000);
  });
  child.on('error', (e) => on.error(e));
  child.on('close', (code) => {
    on.stderr(stderr);
    on.close(code);
  });
  child.stdin.on('error', () => {
    /* child may exit before reading stdin; the close handler reports the real outcome */
  });
  if (req.input !== undefined) child.stdin.end(req.input);
  else child.stdin.end();
  return () => child.kill('SIGKILL');
}

export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  const e = new Error('Aborted');
  e.name = 'AbortError';
  return e;
}
