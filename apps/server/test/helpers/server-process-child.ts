import { startTestServer } from './app.ts';
import { collectRoutes } from './route-inventory.ts';

/** The child side of server-process.ts: a test server that reports its memory over IPC. */
const send = (message: unknown) => process.send?.(message);

async function main(): Promise<void> {
  const env = JSON.parse(process.env.SERVER_PROCESS_ENV ?? '{}') as Record<string, string>;
  const { result: server, routes } = await collectRoutes(() => startTestServer({ env }));
  // Without an IPC channel there is nobody to serve; and when the parent goes away, so do we.
  process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
  process.on('message', (message: { type: string }) => {
    if (message.type === 'memory') {
      // Several passes: the first frees objects whose finalizers release more.
      const gc = (globalThis as { gc?: () => void }).gc;
      for (let i = 0; i < 3; i++) gc?.();
      send({ type: 'memory', usage: process.memoryUsage() });
    } else if (message.type === 'close') {
      void server.close().finally(() => process.exit(0));
    }
  });
  send({
    type: 'ready',
    url: server.url,
    outboxDir: server.ctx.config.outboxDir,
    routes: routes.map((r) => ({ method: r.method, url: r.url })),
  });
}

main().catch((err: unknown) => {
  send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
