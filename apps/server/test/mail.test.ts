import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectsRepository } from '../src/db/repositories/projects.ts';
import { engineMedia } from '../src/media/engine.ts';
import type { MediaPort } from '../src/media/port.ts';
import { createJob, newBatchId, submitJobs } from '../src/services/jobs/index.ts';
import { queueProjectVideo } from '../src/services/projects/index.ts';
import { renderProjectVideoJob } from '../src/services/projects/jobs.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { insertProject, insertUser, TEST_SCRIPT } from './helpers/factories.ts';

// mailparser ships no types and @types/mailparser is not installed: a minimal local shape of what we read.
interface ParsedMail {
  subject?: string;
  to?: unknown;
  text?: string;
  html?: string | false;
}
const mailparser = 'mailparser';
const { simpleParser } = (await import(mailparser)) as {
  simpleParser: (source: Buffer | Readable) => Promise<ParsedMail>;
};

const engine = (fail: Set<string> = new Set()): MediaPort => ({
  ...engineMedia,
  async renderProjectVideo(input) {
    if (fail.has(input.project.name)) throw new Error('render failed');
    const videoPath = path.join(input.workDir, 'v.mp4');
    await writeFile(videoPath, 'mp4');
    return { videoPath };
  },
});

const fast = (server: TestServer) => {
  server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50, retryBaseMs: 50, heartbeatMs: 300 };
};

async function waitFor<T>(
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 15_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as T;
    if (Date.now() > until) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 40));
  }
}

describe('"videos ready" e-mail over SMTP', () => {
  let smtp: SMTPServer;
  const inbox: ParsedMail[] = [];
  let server: TestServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            inbox.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    fast(server);
    server.ctx.media = engine(new Set(['Broken']));
    await server.ctx.jobs.start();
  });
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends one e-mail with a link to the video when a single queued render completes', async () => {
    const u = await insertUser(server, { credits: 10, notify: true });
    const projectId = await insertProject(server, u.id, 'Solo');
    const { id } = await queueProjectVideo(server.ctx, u.id, projectId);
    const mail = await waitFor(() => inbox.find((m) => m.text?.includes(`/jobs/${id}`)));
    expect(server.ctx.mailer.transport).toBe('smtp');
    expect(mail.subject).toBe('Your video is ready');
    expect((mail.to as { text: string }).text).toBe(u.email);
    expect(mail.text).toContain(`Solo: ${server.url}/jobs/${id}`);
    expect(mail.html).toContain(`href="${server.url}/jobs/${id}"`);
  });

  it('sends exactly one e-mail per request once all of its videos are done, listing the completed ones', async () => {
    const u = await insertUser(server, { credits: 10, notify: true });
    const names = ['Pack A', 'Pack B', 'Broken'];
    const batchId = newBatchId();
    const { jobIds } = await submitJobs(server.ctx, u.id, async (trx) => {
      const ids: number[] = [];
      for (const [i, name] of names.entries()) {
        const { id: projectId } = await projectsRepository.insert(trx, { userId: u.id, name, fileKey: null });
        await projectsRepository.update(trx, u.id, projectId, { script: TEST_SCRIPT });
        ids.push(
          await createJob(trx, renderProjectVideoJob, {
            userId: u.id,
            payload: { projectId },
            projectName: name,
            projectId,
            variantIndex: i,
            price: 'video',
            batchId,
            maxAttempts: 1,
          }),
        );
      }
      return { jobIds: ids };
    });
    const mail = await waitFor(() => inbox.find((m) => (m.to as { text: string }).text === u.email));
    await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to (not) arrive
    expect(inbox.filter((m) => (m.to as { text: string }).text === u.email)).toHaveLength(1);
    expect(mail.subject).toBe('Your 2 videos are ready');
    expect(mail.text).toContain(`${server.url}/jobs/${jobIds[0]}`);
    expect(mail.text).toContain(`${server.url}/jobs/${jobIds[1]}`);
    expect(mail.text).not.toContain(`/jobs/${jobIds[2]}`);
    expect(mail.text).toContain('1 video could not be generated; the credits were returned.');
  });

  it('sends nothing when the user has notifications off', async () => {
    const u = await insertUser(server, { credits: 10, notify: false });
    const projectId = await insertProject(server, u.id, 'Quiet');
    const { id } = await queueProjectVideo(server.ctx, u.id, projectId);
    await waitFor(async () => {
      const r = await server.ctx.db.kysely
        .selectFrom('jobs')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return r.status === 'completed';
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(inbox.some((m) => (m.to as { text: string }).text === u.email)).toBe(false);
  });
});

describe('"videos ready" e-mail without SMTP: .eml files in DATA_DIR/outbox', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    fast(server);
    server.ctx.media = engine();
    await server.ctx.jobs.start();
  });
  afterAll(() => server.close());

  it('writes a parseable .eml with the link', async () => {
    expect(server.ctx.mailer.transport).toBe('outbox');
    const u = await insertUser(server, { credits: 10, notify: true });
    const projectId = await insertProject(server, u.id, 'Offline');
    const { id } = await queueProjectVideo(server.ctx, u.id, projectId);
    const outbox = server.ctx.config.outboxDir;
    const files = await waitFor(async () => {
      const list = existsSync(outbox) ? (await readdir(outbox)).filter((f) => f.endsWith('.eml')) : [];
      return list.length ? list : null;
    });
    expect(files).toHaveLength(1);
    const mail = await simpleParser(await readFile(path.join(outbox, files[0]!)));
    expect(mail.subject).toBe('Your video is ready');
    expect((mail.to as { text: string }).text).toBe(u.email);
    expect(mail.text).toContain(`Offline: ${server.url}/jobs/${id}`);
  });
});
