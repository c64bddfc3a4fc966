import { spawn, spawnSync, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';

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
  const [file, argv] = hasPdeathsig() ? ['setpriv', ['--pdeathsig', 'KILL', '--', cmd, ...args]] : [cmd, args];
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
 * The child is SIGKILLed on timeout or abort so a stuck ffmpeg/festival never outlives its job.
 */
export function runProcess(cmd: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(abortError(opts.signal));
      return;
    }
    const [file, argv] = hasPdeathsig() ? ['setpriv', ['--pdeathsig', 'KILL', '--', cmd, ...args]] : [cmd, args];
    const child = spawn(file, argv, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    track(child);
    let stdout = '';
    let stderr = '';
    let settled = false;
    let killedReason: Error | null = null;

    const kill = (reason: Error) => {
      if (killedReason) return;
      killedReason = reason;
      child.kill('SIGKILL');
    };
    const timer = opts.timeoutMs
      ? setTimeout(() => kill(new Error(`${cmd} timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs)
      : null;
    const onAbort = () => kill(abortError(opts.signal));
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c: string) => {
      stdout += c;
      opts.onStdout?.(c);
    });
    // Keep only the tail of stderr: ffmpeg can be chatty and we only need the error at the end.
    child.stderr.on('data', (c: string) => {
      stderr = (stderr + c).slice(-20_000);
    });
    const finish = (err: Error | null) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve({ stdout, stderr });
    };
    child.on('error', (e) => finish(e));
    child.on('close', (code) => {
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
    });
    child.stdin.on('error', () => {
      /* child may exit before reading stdin; the close handler reports the real outcome */
    });
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
  });
}

export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  const e = new Error('Aborted');
  e.name = 'AbortError';
  return e;
}
