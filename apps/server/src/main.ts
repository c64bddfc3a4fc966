import { loadConfig } from './config.ts';
import { closeContext, createContext } from './context.ts';
import { buildApp } from './http/app.ts';
import { startHousekeeping } from './services/platform/index.ts';
import { onStopSignal } from './stop-signals.ts';

/** How to read mail when no SMTP server is configured: sign-in links and codes land in the outbox folder. */
function outboxHelp(outboxDir: string, localSignIn: boolean): string {
  const lines = [
    '',
    `  Mail goes to ${outboxDir} (no SMTP_URL is set), one .eml file per message.`,
    ...(localSignIn ? ['  To sign in, read your sign-in link and 6-digit code from the newest message:'] : []),
    '    npm run outbox     (prints the newest messages)',
    `    or open the newest .eml file there with any mail program (ls -t "${outboxDir}")`,
    '',
  ];
  return lines.join('\n');
}

/** The API (and, in embedded mode, the job runner) in one process. */
async function main(): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Hookreel is running at ${config.publicUrl} (data in ${config.dataDir})`);
  if (ctx.mailer.transport === 'outbox') {
    // Printed whatever LOG_LEVEL says: without it nobody can sign in to an embedded install.
    console.log(outboxHelp(config.outboxDir, !config.google));
  }
  // Embedded mode runs jobs here; in scale mode (REDIS_URL) `npm run worker` does unless RUN_JOBS=true.
  await ctx.jobs.start();
  const stopHousekeeping = startHousekeeping(ctx);

  onStopSignal(async (signal) => {
    app.log.info({ signal }, 'shutting down');
    stopHousekeeping();
    await app.close();
    // closeContext stops the job runner first: running jobs finish or are handed back to the queue.
    await closeContext(ctx);
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
