import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ASPECT_SIZES, ASPECTS, aspectTag, type Job } from '@hookreel/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { grantCredits } from '../../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from '../helpers/app.ts';
import { registerUser, type TestUser } from '../helpers/factories.ts';
import { call, packWithCharacters, waitFor, zipEntry, zipEntryNames } from '../hook-helpers.ts';

/**
 * The scale proof (`npm run proof:matrix36`, not part of `npm test`: it renders 12 real videos in 3 shapes): a
 * pack's 3 hooks x 2 approved actors x 2 CTAs in 9:16, 4:5 and 1:1 comes back as 36 files whose manifest joins
 * every cell and shape exactly once, each file the right size and each shape's quality report without a failure.
 */
const HOOKS = ['Glow all day', 'My skin finally looks rested', 'Stop scrolling, this serum works'];
const CTAS = ['Shop now', 'Link in bio'];

let server: TestServer;
let user: TestUser;
let scratch: string;
beforeAll(async () => {
  server = await startTestServer({ dialect: 'sqlite' });
  server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50 };
  await server.ctx.jobs.start();
  user = await registerUser(server);
  await server.ctx.db.kysely.transaction().execute((trx) => grantCredits(trx, user.id, 10_000, 'proof top-up'));
  scratch = mkdtempSync(path.join(tmpdir(), 'hookreel-matrix-36-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

it('renders 3 hooks x 2 actors x 2 CTAs x 3 shapes as 36 videos whose manifest joins back', async () => {
  const started = Date.now();
  const { id, characters } = await packWithCharacters(server, user, { name: 'Matrix 36', count: 2 });
  await waitFor(
    async () => {
      const list = (await call(server, user, 'GET', `/api/hooks/characters/${id}`)).json as Array<{ url: string }>;
      return list.length === 2 && list.every((c) => c.url) ? true : null;
    },
    120_000,
    'the two portraits',
  );
  const previews = await call(server, user, 'POST', '/api/hooks/generate-preview', {
    hook_pack_id: id,
    character_ids: characters,
  });
  expect(previews.status).toBe(200);
  const ready = await waitFor(
    async () => {
      const list = (await call(server, user, 'GET', `/api/hooks/${id}`)).json.preview_characters as Array<{
        id: number;
        url: string | null;
        errors: string | null;
      }>;
      if (list.some((p) => p.errors)) throw new Error(`a preview failed: ${JSON.stringify(list)}`);
      return list.length === 2 && list.every((p) => p.url) ? list : null;
    },
    120_000,
    'the two previews',
  );
  for (const p of ready)
    expect((await call(server, user, 'PUT', `/api/hooks/preview/${p.id}`, { approved: true })).status).toBe(200);
  expect((await call(server, user, 'PUT', `/api/hooks/${id}`, { aspects: ['4:5', '1:1'] })).status).toBe(200);

  const matrix = { hooks: HOOKS, character_ids: characters, ctas: CTAS };
  const queued = await call(server, user, 'POST', `/api/jobs/hook-pack/${id}/queue-videos`, { matrix });
  expect(queued.status).toBe(200);
  const jobs = (await waitFor(
    async () => {
      const list = (await call(server, user, 'GET', `/api/jobs/hook-pack/${id}/jobs`)).json as Job[];
      return list.length === 12 && list.every((j) => j.status === 'completed' || j.status === 'failed') ? list : null;
    },
    900_000,
    'the 12 matrix videos',
  )) as Job[];
  expect(jobs.filter((j) => j.status !== 'completed').map((j) => j.error)).toEqual([]);
  for (const job of jobs) {
    expect(job.aspects.map((a) => a.aspect)).toEqual([...ASPECTS]);
    for (const a of job.aspects) expect(a.quality, `${job.variant_label ?? job.id} ${a.aspect}`).not.toBe('fail');
  }

  const zip = await call(server, user, 'GET', `/api/hooks/${id}/download`);
  expect(zip.status).toBe(200);
  const bytes = Buffer.from(await zip.res.arrayBuffer());
  const videos = zipEntryNames(bytes).filter((n) => n.endsWith('.mp4'));
  expect(videos).toHaveLength(36);
  for (const aspect of ASPECTS) {
    const inFolder = videos.filter((n) => n.startsWith(`${aspectTag(aspect)}/`));
    expect(inFolder).toHaveLength(12);
    for (const name of inFolder) {
      const local = path.join(scratch, path.basename(name));
      writeFileSync(local, zipEntry(bytes, name));
      const size = execFileSync('ffprobe', [
        ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height'],
        ...['-of', 'csv=p=0', local],
      ])
        .toString()
        .trim();
      expect(size).toBe(`${ASPECT_SIZES[aspect].width},${ASPECT_SIZES[aspect].height}`);
    }
  }

  // The manifest joins back: every cell in every shape once, its hook, actor and CTA those of its id.
  const rows = zipEntry(bytes, 'manifest.csv').toString('utf8').trim().split('\r\n');
  const cols = rows[0]!.split(',');
  const at = (line: string[], col: string) => line[cols.indexOf(col)]!;
  const lines = rows.slice(1).map(splitCsvLine);
  expect(lines).toHaveLength(36);
  const seen = new Set<string>();
  for (const line of lines) {
    const match = /^H(\d)-A(\d)-C(\d)$/.exec(at(line, 'variant_id'));
    expect(match, at(line, 'variant_id')).not.toBeNull();
    const [h, a, c] = [Number(match![1]), Number(match![2]), Number(match![3])];
    expect(at(line, 'hook')).toBe(HOOKS[h - 1]);
    expect(at(line, 'cta')).toBe(CTAS[c - 1]);
    expect(a).toBeLessThanOrEqual(characters.length);
    expect(videos).toContain(at(line, 'file'));
    expect(at(line, 'file').startsWith(`${aspectTag(at(line, 'aspect') as (typeof ASPECTS)[number])}/`)).toBe(true);
    seen.add(`${at(line, 'variant_id')} ${at(line, 'aspect')}`);
  }
  expect(seen.size).toBe(36);
  console.log(
    `[proof] matrix 3 hooks x 2 actors x 2 CTAs x 3 shapes: ${videos.length} videos, ${lines.length} manifest ` +
      `lines joined back, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}, 1_200_000);

/** One manifest line (hooks may hold commas, so cells can be quoted). */
function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (ch === ',' && !quoted) {
      out.push(cell);
      cell = '';
    } else {
      cell += ch;
    }
  }
  out.push(cell);
  return out;
}
