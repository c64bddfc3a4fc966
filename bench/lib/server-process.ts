/**
 * The real server entry (apps/server/src/main.ts) in a child process, so the load generator in the bench
 * process and the server never share an event loop or a CPU's worth of JIT.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Settings the caller's shell may carry that would change which mode the bench measures. */
const INHERITED_SETTINGS = ['DATABASE_URL', 'REDIS_URL', 'RUN_JOBS', 'PORT', 'HOST', 'PUBLIC_URL', 'DATA_DIR'];

export interface ServerProcess {
  url: string;
  pid: number;
  /** Resident memory of the server process, from /proc. */
  rssMb(): Promise<number>;
  /** What the server printed (the last 64 KB of stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const key of INHERITED_SETTINGS) delete childEnv[key];
  Object.assign(childEnv, { HOST: '127.0.0.1', PORT: String(port), ...env });
  // node --import tsx rather than the tsx CLI: the pid is then the server itself (its RSS is what we report).
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-64 * 1024);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited: number | null = null;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      exited = code ?? -1;
      resolve();
    }),
  );

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited !== null) throw new Error(`server exited with ${exited} before it was ready:\n${log}`);
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within 90 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  const pid = child.pid;
  if (pid === undefined) throw new Error('server process has no pid');
  return {
    url,
    pid,
    async rssMb() {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN);
      return kb / 1024;
    },
    output: () => log,
    async stop() {
      if (exited !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
