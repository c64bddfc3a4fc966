import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ASPECT_SIZES, PRICES, type HookPack, type Job, type Project, type QualityReport } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, registerUser, type TestUser } from './helpers/factories.ts';
import {
  availableCredits,
  call,
  fakeApprovedPreview,
  packWithCharacters,
  waitFor,
  zipEntry,
  zipEntryNames,
} from './hook-helpers.ts';

/**
 * Every frame shape of one job (docs/video-design.md#aspects): projects and packs choose 4:5 and 1:1 beside the
 * 9:16 that is always made, the choice is checked and owned, a pack video renders every shape in one job at no
 * extra credit (decision 136), each shape downloads under the job's name plus its tag, and the zip groups the
 * files by shape with the manifest's aspect column filled per file.
 */
describe.each(TEST_DIALECTS)('frame shapes (%s)', (dialect) => {
  let server: TestServer;
  let user: TestUser;
  let scratch: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50 };
    user = await registerUser(server);
    scratch = mkdtempSync(path.join(tmpdir(), 'hookreel-aspects-api-'));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('keeps the shapes a project exports, 9:16 always, refusing unknown shapes and other users', async () => {
    const id = await createProjectOverHttp(server, user, 'Shapes project');
    const fresh = (await call(server, user, 'GET', `/api/projects/${id}`)).json as Project;
    expect(fresh.aspects).toEqual(['9:16']);
    const put = await call(server, user, 'PUT', `/api/projects/${id}`, { aspects: ['1:1', '4:5', '1:1'] });
    expect(put.status).toBe(200);
    // Stored in one order whatever was sent, 9:16 added: it is the master every other shape is cut from.
    expect((put.json as Project).aspects).toEqual(['9:16', '4:5', '1:1']);
    expect((await call(server, user, 'PUT', `/api/projects/${id}`, { aspects: [] })).json.aspects).toEqual(['9:16']);
    for (const bad of [['16:9'], '4:5', ['4:5', '1:1', '9:16', '4:5']]) {
      expect((await call(server, user, 'PUT', `/api/projects/${id}`, { aspects: bad })).status).toBe(422);
    }
    const stranger = await registerUser(server);
    expect((await call(server, stranger, 'PUT', `/api/projects/${id}`, { aspects: ['4:5'] })).status).toBe(404);
    expect(((await call(server, user, 'GET', `/api/projects/${id}`)).json as Project).aspects).toEqual(['9:16']);
  });

  it('keeps the shapes a hook pack exports, for its owner only', async () => {
    const pack = (await call(server, user, 'POST', '/api/hooks', { name: 'Shapes pack' })).json as HookPack;
    expect(pack.aspects).toEqual(['9:16']);
    const put = await call(server, user, 'PUT', `/api/hooks/${pack.id}`, { aspects: ['4:5'] });
    expect(put.status).toBe(200);
    expect((put.json as HookPack).aspects).toEqual(['9:16', '4:5']);
    expect((await call(server, user, 'PUT', `/api/hooks/${pack.id}`, { aspects: ['2:3'] })).status).toBe(422);
    const stranger = await registerUser(server);
    expect((await call(server, stranger, 'PUT', `/api/hooks/${pack.id}`, { aspects: ['1:1'] })).status).toBe(404);
    expect(((await call(server, user, 'GET', `/api/hooks/${pack.id}`)).json as HookPack).aspects).toEqual([
      '9:16',
      '4:5',
    ]);
  });

  it(
    'renders a matrix video in 9:16, 4:5 and 1:1 in one job, at the price of one video, downloads and zips each',
    { timeout: 240_000 },
    async () => {
      await server.ctx.jobs.start();
      const owner = await registerUser(server);
      await server.ctx.db.kysely.transaction().execute((trx) => grantCredits(trx, owner.id, 1000, 'test top-up'));
      const { id, characters } = await packWithCharacters(server, owner, { name: 'Every placement', count: 1 });
      await server.ctx.db.kysely.updateTable('hook_packs').set({ product_key: null }).where('id', '=', id).execute();
      await fakeApprovedPreview(server, id, characters[0]!);
      expect((await call(server, owner, 'PUT', `/api/hooks/${id}`, { aspects: ['1:1', '4:5'] })).status).toBe(200);
      const before = await availableCredits(server, owner.id);
      const matrix = { hooks: ['Glow all day'], character_ids: [characters[0]], ctas: ['Shop now'] };
      const queued = await call(server, owner, 'POST', `/api/jobs/hook-pack/${id}/queue-videos`, { matrix });
      expect(queued.status).toBe(200);
      // Extra shapes are re-compositions of the same render: the hold is one video's price.
      expect(before - (await availableCredits(server, owner.id))).toBe(Math.round(PRICES.video * 100));

      // The job as it stands when the wait gives up, so a stuck or failed render says why.
      let last: Job[] = [];
      const [job] = (await waitFor(
        async () => {
          last = (await call(server, owner, 'GET', `/api/jobs/hook-pack/${id}/jobs`)).json as Job[];
          return last.length > 0 && last.every((j) => j.status === 'completed' || j.status === 'failed') ? last : null;
        },
        200_000,
        'the video in three shapes',
      ).catch((err: unknown) => {
        throw new Error(`${String(err)}: ${JSON.stringify(last.map((j) => [j.status, j.progress, j.logs, j.error]))}`);
      })) as Job[];
      expect([job!.status, job!.error]).toEqual(['completed', null]);
      expect(job!.aspects.map((a) => a.aspect)).toEqual(['9:16', '4:5', '1:1']);
      const master = job!.aspects[0]!;
      expect(master.video_url).toBe(job!.video_url);
      expect(master.download_url).toBe(job!.download_url);
      const masterName = job!.download_url!.split('?download=')[1]!;
      for (const a of job!.aspects) {
        expect([a.width, a.height]).toEqual([ASPECT_SIZES[a.aspect].width, ASPECT_SIZES[a.aspect].height]);
        const tag = a.aspect.replace(':', 'x');
        const name = a.aspect === '9:16' ? masterName : masterName.replace(/\.mp4$/, `-${tag}.mp4`);
        expect(a.download_url).toBe(`${a.video_url}?download=${name}`);
        const file = await fetch(`${server.url}/api/${a.download_url}`);
        expect(file.status).toBe(200);
        expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
        const local = path.join(scratch, `${dialect}-${tag}.mp4`);
        writeFileSync(local, Buffer.from(await file.arrayBuffer()));
        const probed = execFileSync('ffprobe', [
          ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height'],
          ...['-of', 'csv=p=0', local],
        ])
          .toString()
          .trim();
        expect(probed).toBe(`${ASPECT_SIZES[a.aspect].width},${ASPECT_SIZES[a.aspect].height}`);
        // Each shape has its own quality report, measured on its own file.
        expect(a.quality).not.toBe('fail');
        const report = (await (await fetch(`${server.url}/api/${a.report_url}`)).json()) as QualityReport;
        expect([report.width, report.height]).toEqual([ASPECT_SIZES[a.aspect].width, ASPECT_SIZES[a.aspect].height]);
        expect(report.overlaps).toEqual([]);
        expect(a.contact_sheet_url).toMatch(/^static\//);
        expect(a.poster_url).toMatch(/^static\//);
      }

      const zip = await call(server, owner, 'GET', `/api/hooks/${id}/download`);
      expect(zip.status).toBe(200);
      const bytes = Buffer.from(await zip.res.arrayBuffer());
      const names = zipEntryNames(bytes);
      const extra = masterName.replace(/\.mp4$/, '');
      expect(names).toEqual(
        expect.arrayContaining([
          `9x16/${masterName}`,
          `9x16/${extra}.srt`,
          `4x5/${extra}-4x5.mp4`,
          `4x5/${extra}-4x5.vtt`,
          `1x1/${extra}-1x1.mp4`,
          `1x1/${extra}-1x1.srt`,
          'manifest.csv',
        ]),
      );
      expect(names.filter((n) => n.endsWith('.mp4') && !n.includes('/'))).toEqual([]);
      const rows = zipEntry(bytes, 'manifest.csv').toString('utf8').trim().split('\r\n');
      const cols = rows[0]!.split(',');
      const lines = rows.slice(1).map((r) => r.split(','));
      expect(
        lines.map((l) => [l[cols.indexOf('variant_id')], l[cols.indexOf('aspect')], l[cols.indexOf('file')]]),
      ).toEqual([
        ['H1-A1-C1', '9:16', `9x16/${masterName}`],
        ['H1-A1-C1', '4:5', `4x5/${extra}-4x5.mp4`],
        ['H1-A1-C1', '1:1', `1x1/${extra}-1x1.mp4`],
      ]);

      // The job's files are its owner's: another user's listing of the pack's jobs is refused.
      const stranger = await registerUser(server);
      expect((await call(server, stranger, 'GET', `/api/jobs/hook-pack/${id}/jobs`)).status).toBe(404);
      expect((await call(server, stranger, 'GET', `/api/hooks/${id}/download`)).status).toBe(404);
    },
  );
});
