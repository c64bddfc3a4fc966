import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';

// mailparser ships no types and @types/mailparser is not installed: the small part read here.
interface ParsedMail {
  subject?: string;
  to?: { text: string } | Array<{ text: string }>;
  text?: string;
}
const mailparser = 'mailparser';
const { simpleParser } = (await import(mailparser)) as { simpleParser: (source: Buffer) => Promise<ParsedMail> };

/** The e2e server's outbox: playwright.config.ts sets E2E_DATA_DIR before the server and the workers start. */
export function outboxDir(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  return path.join(dataDir, 'outbox');
}

export interface Mail {
  file: string;
  subject: string;
  text: string;
}

async function newestMailTo(email: string, notIn: Set<string>): Promise<Mail | null> {
  const names = (await readdir(outboxDir()).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  for (const name of names.reverse()) {
    if (notIn.has(name)) continue;
    const raw = await readFile(path.join(outboxDir(), name));
    if (!raw.toString('latin1').toLowerCase().includes(email.toLowerCase())) continue;
    const mail = await simpleParser(raw);
    const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(',') : (mail.to?.text ?? '');
    if (to.toLowerCase().includes(email.toLowerCase()))
      return { file: name, subject: mail.subject ?? '', text: mail.text ?? '' };
  }
  return null;
}

/** Names of the messages already in the outbox, so a wait can ignore them. */
export async function outboxSnapshot(): Promise<Set<string>> {
  return new Set(await readdir(outboxDir()).catch(() => [] as string[]));
}

/** Waits for a new message to the address (one not in `before`) and returns it, as a person checks mail. */
export async function waitForMail(email: string, before: Set<string> = new Set()): Promise<Mail> {
  let found: Mail | null = null;
  await expect
    .poll(async () => (found = await newestMailTo(email, before)) !== null, {
      message: `a mail to ${email} in ${outboxDir()}`,
    })
    .toBe(true);
  return found as unknown as Mail;
}

/** The first link in the mail's text that contains `part`. */
export function linkIn(mail: Mail, part: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.startsWith('http') && word.includes(part));
  if (!link) throw new Error(`no link containing ${part} in "${mail.subject}"`);
  return link;
}
