import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { loadConfig } from './config.ts';

/**
 * `npm run outbox [N]`: prints the newest N (default 3) messages of the embedded outbox, newest last, so a
 * person without a mail server can read their sign-in link and code in the terminal.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const count = Math.max(1, Number(process.argv[2] ?? 3) || 3);
  const names = await readdir(config.outboxDir).catch(() => [] as string[]);
  const files = await Promise.all(
    names
      .filter((n) => n.endsWith('.eml'))
      .map(async (n) => {
        const file = path.join(config.outboxDir, n);
        return { file, at: (await stat(file)).mtimeMs };
      }),
  );
  files.sort((a, b) => a.at - b.at);
  if (files.length === 0) {
    console.log(`No messages in ${config.outboxDir} yet.`);
    return;
  }
  for (const { file } of files.slice(-count)) {
    const mail = await simpleParser(await readFile(file));
    const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
    console.log(
      `── ${path.basename(file)}\nTo: ${to}\nSubject: ${mail.subject ?? ''}\n\n${(mail.text ?? '').trim()}\n`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
