import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { LIMITS, TokenPair, type AvatarWithStatus, type Avatar, type Job, type Project } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { grantCredits, ledgerBalances } from '../../src/services/billing/credits.ts';
import { TEST_PASSWORD, bearer, uniqueEmail } from '../helpers/factories.ts';
import { formData, projectForm } from '../helpers/images.ts';
import { openJobEvents } from '../helpers/job-events.ts';
import { verifyFromOutbox } from '../helpers/outbox.ts';
import { call, productForm, productPhoto, waitFor, zipEntryNames } from '../hook-helpers.ts';
import { startCluster, type Cluster } from './cluster.ts';

const run = promisify(execFile);

/**
 * Scale mode as deployed: 2 API processes and 3 BullMQ workers (separate `node` processes) over one PostgreSQL
 * database, Redis and an S3 bucket (s3rver). Everything goes over HTTP, alternating between the two APIs: a
 * whole hook pack (12 videos) and a product-in-hand batch run at the same time. Every video is then downloaded
 * through an API, found in the bucket and probed with ffprobe; every job must have run on a worker.
 */
describe('scale mode: 2 API processes and 3 workers over PostgreSQL, Redis and S3', () => {
  let cluster: Cluster;
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'hookreel-scale-'));
    cluster = await startCluster({ apis: 2, workers: 3, s3: true, workerConcurrency: 1 });
  }, 240_000);
  afterAll(async () => {
    await cluster?.stop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }, 60_000);

  /** Round-robin over the API processes: consecutive requests of a flow land on different processes. */
  let turn = 0;
  const nextApi = () => cluster.apis[turn++ % cluster.apis.length]!;

  it('runs a hook pack and a product-in-hand batch on the workers, with files only in the bucket', async () => {
    onTestFailed(() => console.error(`Cluster output:\n${cluster.logs()}`));
    const [api0, api1] = cluster.apis as [Cluster['apis'][0], Cluster['apis'][0]];

    // Sign up on one API, sign in and refresh on the other: sessions live in the database, tokens share a secret.
    const email = uniqueEmail('scale');
    const registered = await fetch(`${api0.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    });
    expect(registered.status).toBe(201);
    const first = TokenPair.parse(await registered.json());
    // The address is verified from the mail api0 wrote (credits can only be spent once it is).
    expect((await verifyFromOutbox(path.join(api0.dataDir, 'outbox'), email)).status).toBe(200);
    const login = await fetch(`${api1.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const refreshed = await fetch(`${api1.url}/api/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: first.refresh_token }),
    });
    expect(refreshed.status).toBe(200);
    const session = TokenPair.parse(await login.json());
    const user = { authHeader: bearer(session.access_token) };
    const me = await call(api0, user, 'GET', '/api/user/me');
    expect(me.status).toBe(200);
    const userId = me.json.id as number;
    expect((await call(api1, { authHeader: bearer(first.access_token) }, 'GET', '/api/user/me')).json.id).toBe(userId);
    // 12 hook videos, 2 merges and 2 project videos cost more than the free grant.
    await cluster.db.kysely.transaction().execute((trx) => grantCredits(trx, userId, 3000, 'scale test top-up'));

    const api = (method: string, p: string, body?: unknown) => call(nextApi(), user, method, p, body);

    // Job updates published by the workers reach an API's SSE stream over Redis.
    const stream = await openJobEvents(api1.url, session.access_token);
    const { events } = stream;

    const jobDone = (id: number) =>
      waitFor(
        async () => {
          const j = await api('GET', `/api/jobs/${id}`);
          if (j.json?.status === 'failed') expect.fail(`job ${id} failed: ${j.json.error}`);
          return j.json?.status === 'completed' ? j.json : null;
        },
        180_000,
        `job ${id}`,
      );

    /** The hook pack flow of hook-packs-lifecycle.test.ts, over alternating APIs. */
    const hookPack = async (): Promise<{ packId: number; videos: Job[] }> => {
      const created = await api('POST', '/api/hooks', { name: 'Glow Serum', language: 'english', accent: 'american' });
      expect(created.status).toBe(200);
      const id = created.json.id as number;
      const upload = await api('POST', '/api/hooks/upload-product', productForm(id, await productPhoto()));
      expect(upload.status).toBe(200);
      const step1 = await api('POST', `/api/hooks/process-step1?hook_pack_id=${id}`);
      expect(step1.status).toBe(200);
      await jobDone(step1.json.job_id);
      expect(
        (await api('PUT', `/api/hooks/${id}`, { message: 'Glow all day', product_details: 'Glow Serum, vitamin C' }))
          .status,
      ).toBe(200);
      const types = await api('POST', `/api/hooks/character-types/batch?hook_pack_id=${id}`, [
        { description: 'young woman runner', order_index: 0 },
      ]);
      expect(types.status).toBe(200);
      const gen = await api('POST', `/api/hooks/generate-characters?hook_pack_id=${id}&count=2`);
      expect(gen.status).toBe(200);
      await jobDone(gen.json.job_id);
      const characters = await waitFor(
        async () => {
          const list = (await api('GET', `/api/hooks/characters/${id}`)).json;
          return list.length > 0 && list.every((c: { url: string }) => c.url) ? list : null;
        },
        60_000,
        'character portraits',
      );
      for (const c of characters.slice(0, 2)) {
        expect((await api('POST', `/api/hooks/select-character/${c.id}?selected=true`)).json.selected).toBe(true);
      }
      const previews = await api('POST', '/api/hooks/generate-preview', {
        hook_pack_id: id,
        character_ids: characters.slice(0, 2).map((c: { id: number }) => c.id),
      });
      expect(previews.status).toBe(200);
      const ready = await waitFor(
        async () => {
          const pv = (await api('GET', `/api/hooks/${id}`)).json.preview_characters;
          if (pv.some((p: { errors: string | null }) => p.errors)) expect.fail(`preview failed: ${JSON.stringify(pv)}`);
          return pv.length === 2 && pv.every((p: { url: string | null }) => p.url) ? pv : null;
        },
        120_000,
        'previews',
      );
      for (const p of ready) {
        const approved = await api('PUT', `/api/hooks/preview/${p.id}`, { approved: true });
        expect(approved.json).toMatchObject({ approved: true, status: 'accepted' });
      }
      const queued = await api('POST', `/api/jobs/hook-pack/${id}/queue-videos`);
      expect(queued.json).toEqual({ hook_pack_id: id, total_jobs: LIMITS.videosPerHookPack });
      const videos = await waitFor(
        async () => {
          const list: Job[] = (await api('GET', `/api/jobs/hook-pack/${id}/jobs`)).json;
          const failed = list.find((j) => j.status === 'failed');
          if (failed) expect.fail(`hook video job ${failed.id} failed: ${failed.error}`);
          return list.length === LIMITS.videosPerHookPack && list.every((j) => j.status === 'completed') ? list : null;
        },
        360_000,
        'the 12 hook pack videos',
      );
      expect((await api('GET', `/api/hooks/${id}`)).json.status).toBe('videos_ready');
      return { packId: id, videos };
    };

    /** The product-in-hand flow of merge.test.ts: merge onto two actors, then one video per actor. */
    const productInHand = async (): Promise<Job[]> => {
      const created = await api(
        'POST',
        '/api/projects/',
        projectForm('Serum launch', await productPhoto(), 'serum.png'),
      );
      expect(created.status).toBe(200);
      const project = created.json as Project;
      const actors: Avatar[] = (await api('GET', `/api/avatars/?project_id=${project.id}`)).json;
      const chosen = actors.slice(0, 2).map((a) => a.id);
      expect(
        (await api('POST', `/api/projects/${project.id}/selected-characters`, { character_ids: chosen })).status,
      ).toBe(200);
      // One merge at a time: the second reuses the product cut-out the first stored in the bucket (the model run
      // is the costliest step of the flow).
      for (const avatarId of chosen) {
        const merged = await api(
          'POST',
          '/api/merge/single',
          formData([
            { name: 'project_id', value: String(project.id) },
            { name: 'character_id', value: String(avatarId) },
            { name: 'mask_data', value: JSON.stringify({ position_x: 300, position_y: 640, scale: 0.3, rotation: 0 }) },
          ]),
        );
        expect(merged.status).toBe(200);
        await waitFor(
          async () => {
            const s: AvatarWithStatus[] = (await api('GET', `/api/merge/avatars-with-status/${project.id}`)).json;
            const mine = s.find((x) => x.avatar_id === avatarId);
            return mine?.status === 'merged' || mine?.status === 'failed';
          },
          180_000,
          `the merge onto actor ${avatarId}`,
        );
      }
      const states: AvatarWithStatus[] = (await api('GET', `/api/merge/avatars-with-status/${project.id}`)).json;
      expect(states.map((x) => [x.avatar_id, x.status])).toEqual(chosen.map((id) => [id, 'merged']));
      expect(
        (await api('PUT', `/api/projects/${project.id}`, { script: 'This serum changed my mornings. Try it.' })).status,
      ).toBe(200);
      const queued = await api('POST', `/api/jobs/product-in-hand/${project.id}/queue-videos`);
      expect(queued.json).toEqual({ total_jobs: 2 });
      return waitFor(
        async () => {
          const jobs: Job[] = (await api('GET', '/api/jobs/')).json;
          const mine = jobs.filter((j) => j.project_id === project.id);
          const failed = mine.find((j) => j.status === 'failed');
          if (failed) expect.fail(`project video job ${failed.id} failed: ${failed.error}`);
          return mine.length === 2 && mine.every((j) => j.status === 'completed') ? mine : null;
        },
        360_000,
        'both product-in-hand videos',
      );
    };

    const [pack, projectVideos] = await Promise.all([hookPack(), productInHand()]);
    const videos = [...pack.videos, ...projectVideos];
    expect(videos).toHaveLength(LIMITS.videosPerHookPack + 2);

    // Every video: through an API (bytes from the bucket), present in the bucket, a real vertical H.264 MP4.
    for (const job of videos) {
      expect(job.video_url, `job ${job.id}`).toMatch(/^static\//);
      const key = job.video_url!.slice('static/'.length);
      const res = await fetch(`${nextApi().url}/api/${job.video_url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      const bytes = Buffer.from(await res.arrayBuffer());
      const object = await cluster.s3!.store.get(key);
      expect(object, `${key} in the bucket`).not.toBeNull();
      object!.body.destroy();
      expect(object!.size).toBe(bytes.length);
      const file = path.join(scratch, `job-${job.id}.mp4`);
      await writeFile(file, bytes);
      const probe = await ffprobe(file);
      expect(probe.video, `job ${job.id}`).toMatchObject({ codec_name: 'h264' });
      expect(probe.video!.height!).toBeGreaterThan(probe.video!.width!);
      expect(probe.audio, `job ${job.id} has audio`).toBeDefined();
      expect(probe.duration).toBeGreaterThan(1);
    }
    const zip = await call(nextApi(), user, 'GET', `/api/hooks/${pack.packId}/download`);
    expect(zip.status).toBe(200);
    const names = zipEntryNames(Buffer.from(await zip.res.arrayBuffer()));
    expect(names.filter((n) => n.endsWith('.mp4'))).toHaveLength(LIMITS.videosPerHookPack);

    // The workers' updates crossed Redis to the API holding the stream.
    await waitFor(
      async () =>
        videos.every((v) => events.some((e) => e.job.id === v.id && e.job.status === 'completed')) ? true : null,
      30_000,
      'completed events for every video on the SSE stream',
    );
    await stream.close();

    // Every job (analysis, characters, previews, merges, videos) was claimed by worker processes only.
    const jobs = await cluster.db.kysely
      .selectFrom('jobs')
      .select(['id', 'name', 'status'])
      .where('user_id', '=', userId)
      .execute();
    expect(jobs.length).toBeGreaterThanOrEqual(videos.length + 5);
    expect(jobs.filter((j) => j.status !== 'completed')).toEqual([]);
    const claims = await cluster.claims();
    for (const j of jobs) {
      const mine = claims.filter((c) => c.jobId === j.id);
      expect(mine.length, `job ${j.id} (${j.name}) was claimed`).toBeGreaterThan(0);
      for (const c of mine) expect(cluster.pids.workers.has(c.pid), `job ${j.id} ran on ${c.owner}`).toBe(true);
    }
    expect(claims.some((c) => cluster.pids.apis.has(c.pid))).toBe(false);
    // With concurrency 1 and 14 renders queued, every worker took a share.
    expect(new Set(claims.map((c) => c.pid)).size).toBe(cluster.workers.length);

    // No process wrote files to its own disk: uploads, actors, renders all went to the bucket.
    for (const p of [...cluster.apis, ...cluster.workers]) {
      expect(await filesUnder(path.join(p.dataDir, 'files')), `${p.role} ${p.index} DATA_DIR/files`).toEqual([]);
    }

    const b = await ledgerBalances(cluster.db.kysely, userId);
    expect(b.granted).toBe(b.available + b.held + b.consumed);
    expect(b.held).toBe(0);
    expect(b.consumed).toBeGreaterThan(0);
  }, 600_000);
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

interface ProbeStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
}

async function ffprobe(file: string): Promise<{ video?: ProbeStream; audio?: ProbeStream; duration: number }> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type,codec_name,width,height:format=duration',
    '-of',
    'json',
    file,
  ]);
  const out = JSON.parse(stdout) as { streams: ProbeStream[]; format: { duration: string } };
  return {
    video: out.streams.find((s) => s.codec_type === 'video'),
    audio: out.streams.find((s) => s.codec_type === 'audio'),
    duration: Number(out.format.duration),
  };
}
