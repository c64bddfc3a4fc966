import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A test server in its own Node process (started with --expose-gc), so its memory can be measured apart from
 * the test runner's. It talks over IPC only: `ready` with its URL and routes, `memory` after a full GC.
 * The child side is server-process-child.ts.
 */
export interface ServerProcess {
  url: string;
  /** Where the server writes its mail (verification and sign-in links). */
  outboxDir: string;
  /** `METHOD /url` of every route the child's app registered. */
  routes: Array<{ method: string; url: string }>;
  /** RSS and heap of the server process, measured after forced garbage collections. */
  memory(): Promise<NodeJS.MemoryUsage>;
  close(): Promise<void>;
}

type ChildMessage =
  | { type: 'ready'; url: string; outboxDir: string; routes: Array<{ method: string; url: string }> }
  | { type: 'memory'; usage: NodeJS.MemoryUsage }
  | { type: 'error'; message: string };

const CHILD = fileURLToPath(new URL('./server-process-child.ts', import.meta.url));
/** tsx's loader by absolute URL, so the child starts the same whatever directory the tests run from. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = fork(CHILD, [], {
    execArgv: ['--expose-gc', '--import', TSX],
    env: { ...process.env, SERVER_PROCESS_ENV: JSON.stringify(env) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends ChildMessage['type']>(type: T, timeoutMs = 60_000) =>
    waitMessage(child, type, timeoutMs) as Promise<Extract<ChildMessage, { type: T }>>;
  const ready = await next('ready');
  return {
    url: ready.url,
    outboxDir: ready.outboxDir,
    routes: ready.routes,
    async memory() {
      child.send({ type: 'memory' });
      return (await next('memory')).usage;
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function waitMessage(child: ChildProcess, type: ChildMessage['type'], timeoutMs: number): Promise<ChildMessage> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (m: ChildMessage) => {
      if (m.type === 'error') {
        cleanup();
        reject(new Error(`server process: ${m.message}`));
      } else if (m.type === type) {
        cleanup();
        resolve(m);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`server process exited (${code}) while waiting for ${type}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`server process sent no ${type} within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}
