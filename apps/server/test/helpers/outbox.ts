import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { TestServer } from './app.ts';

export interface OutboxMail {
  file: string;
  subject: string;
  text: string;
}

/** A server in this process, or the outbox folder of one in another process. */
export type MailSource = Pick<TestServer, 'ctx'> | string;
const outboxOf = (source: MailSource) => (typeof source === 'string' ? source : source.ctx.config.outboxDir);

/**
 * The messages the server wrote to its outbox for an address, oldest first: how tests read sign-in and
 * verification mail like a person would.
 */
export async function mailsTo(source: MailSource, email: string): Promise<OutboxMail[]> {
  const dir = outboxOf(source);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  const wanted = email.trim().toLowerCase();
  const out: OutboxMail[] = [];
  for (const name of names) {
    const raw = await readFile(path.join(dir, name));
    // Cheap header check first; only the matches are parsed.
    if (!raw.toString('latin1').toLowerCase().includes(wanted)) continue;
    const mail = await simpleParser(raw);
    const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(',') : (mail.to?.text ?? '');
    if (!to.toLowerCase().includes(wanted)) continue;
    out.push({ file: name, subject: mail.subject ?? '', text: mail.text ?? '' });
  }
  return out;
}

/** The newest mail to the address; throws when there is none. */
export async function lastMailTo(source: MailSource, email: string): Promise<OutboxMail> {
  const mails = await mailsTo(source, email);
  const last = mails.at(-1);
  if (!last) throw new Error(`no mail to ${email} in the outbox`);
  return last;
}

/** The first link in a mail's text that starts with `prefix` (e.g. `${server.url}/api/auth/verify-email`). */
export function linkIn(mail: OutboxMail, prefix: string): URL {
  const found = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!found) throw new Error(`no link starting with ${prefix} in "${mail.subject}"`);
  return new URL(found);
}

/** The 6-digit sign-in code of a sign-in mail. */
export function codeIn(mail: OutboxMail): string {
  const found = /code[^0-9]*(\d{6})/i.exec(mail.text);
  if (!found?.[1]) throw new Error(`no 6-digit code in "${mail.subject}"`);
  return found[1];
}

/** Opens the verification link of the newest mail to the address, as a person clicking it would. */
export async function verifyByMail(server: Pick<TestServer, 'ctx' | 'url'>, email: string): Promise<Response> {
  return verifyFromOutbox(server.ctx.config.outboxDir, email);
}

/** The same for a server in another process: its outbox folder; the link carries the server's own URL. */
export async function verifyFromOutbox(outboxDir: string, email: string): Promise<Response> {
  const mail = await lastMailTo(outboxDir, email);
  const link = mail.text.split(/\s+/).find((word) => /^https?:\/\/\S+\/api\/auth\/verify-email\?token=/.test(word));
  if (!link) throw new Error(`no verification link in "${mail.subject}"`);
  return fetch(link);
}
