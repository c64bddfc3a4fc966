import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Capabilities, Job } from '@hookreel/contracts';
import {
  elevenLabsHandler,
  falQueueHandler,
  startFakeServer,
  type FakeReply,
  type FakeServer,
} from '@hookreel/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatarsRepository } from '../src/db/repositories/avatars.ts';
import { resetEngineConfig } from '../src/media/engine.ts';
import { ledgerBalances } from '../src/services/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { TEST_SCRIPT, insertProject, insertUser } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Realistic stages against local fakes of ElevenLabs and fal (their documented wire formats): GET /api/capabilities,
 * a project video whose voice and talking actor come from the providers with the cost recorded on the job, and a
 * provider refusal that fails the job with a readable line, releases its credits and never shows a key.
 */
const EL_KEY = 'sk_eleven_SECRET_0123456789';
const FAL_KEY = 'fal-id:fal-SECRET-abcdef0123';
const AVATAR_MODEL = 'fal-ai/bytedance/omnihuman';

let dir: string;
let mp3: Buffer;
let clip: Buffer;
let elevenFail: FakeReply | undefined;
let eleven: FakeServer;
let cdn: FakeServer;
let fal: FakeServer;
const savedEnv = { ...process.env };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookreel-realistic-'));
  const ff = (args: string[], out: string) =>
    promisify(execFile)('ffmpeg', ['-y', '-v', 'error', ...args, out]).then(() => readFile(out));
  mp3 = await ff(['-f', 'lavfi', '-i', 'sine=frequency=200:duration=2.5', '-ar', '44100'], path.join(dir, 'v.mp3'));
  clip = await ff(
    [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=288x512:rate=25:duration=2.5',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
    ],
    path.join(dir, 'avatar.mp4'),
  );
  eleven = await startFakeServer((req) => elevenLabsHandler({ audio: mp3, fail: elevenFail })(req));
  // fal serves results from its CDN, another origin: the key must not travel there.
  cdn = await startFakeServer(() => ({ headers: { 'content-type': 'video/mp4' }, body: clip }));
  fal = await startFakeServer(falQueueHandler({ videoUrl: `${cdn.url}/files/out.mp4`, duration: 2.5 }));
  Object.assign(process.env, {
    ELEVENLABS_API_KEY: EL_KEY,
    ELEVENLABS_BASE_URL: eleven.url,
    FAL_KEY,
    FAL_BASE_URL: fal.url,
    FAL_AVATAR_MODEL: AVATAR_MODEL,
  });
  resetEngineConfig();
});
afterAll(async () => {
  for (const k of ['ELEVENLABS_API_KEY', 'ELEVENLABS_BASE_URL', 'FAL_KEY', 'FAL_BASE_URL', 'FAL_AVATAR_MODEL']) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  resetEngineConfig();
  await Promise.all([eleven, cdn, fal].map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

for (const dialect of TEST_DIALECTS) {
  describe(`realistic providers (${dialect})`, () => {
    let server: TestServer;
    const api = (p: string) => `${server.url}/api${p}`;

    beforeAll(async () => {
      server = await startTestServer({ dialect });
      server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50, retryBaseMs: 100 };
      await server.ctx.jobs.start();
    });
    afterAll(() => server.close());

    /**
     * A project with the script and an uploaded photo actor (a still; catalogue actors are drawn by the engine
     * and keep the local lip-flap), so the talking-actor provider is used.
     */
    async function projectWithActor(userId: number, headers: Record<string, string>) {
      const projectId = await insertProject(server, userId, 'Realistic promo');
      const db = server.ctx.db.kysely;
      const catalogue = await db
        .selectFrom('avatars')
        .select('image_key')
        .where('catalogue_actor_id', '=', '1')
        .executeTakeFirstOrThrow();
      const at = new Date().toISOString();
      const actor = await avatarsRepository.insert(db, {
        owner_user_id: userId,
        created_by_user_id: userId,
        image_key: catalogue.image_key,
        prompt: null,
        name: 'Uploaded actor',
        catalogue_actor_id: null,
        gender: 'female',
        race: null,
        background: null,
        x: null,
        y: null,
        width: null,
        height: null,
        rotation: 0,
        corners: null,
        consent_confirmed_at: at,
        consent_by_user_id: userId,
      });
      const sel = await fetch(api(`/projects/${projectId}/selected-characters`), {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ character_ids: [actor.id] }),
      });
      expect(sel.status).toBe(200);
      return projectId;
    }

    async function runJob(credits: number) {
      const u = await insertUser(server, { credits });
      const projectId = await projectWithActor(u.id, u.headers);
      const res = await fetch(api(`/jobs/${projectId}/queue`), { method: 'POST', headers: u.headers });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: number };
      const job = await waitFor(async () => {
        const r = await fetch(api(`/jobs/${id}`), { headers: u.headers });
        const j = Job.parse(await r.json());
        return j.status === 'completed' || j.status === 'failed' ? j : null;
      }, 90_000);
      const raw = await (await fetch(api(`/jobs/${id}`), { headers: u.headers })).text();
      const list = await (await fetch(api('/jobs/'), { headers: u.headers })).text();
      return { u, job, raw: raw + list };
    }

    it('tells the browser which stages are remote and why Realistic is not available, with no secret', async () => {
      const res = await fetch(api('/capabilities'));
      expect(res.status).toBe(200);
      const text = await res.text();
      const caps = Capabilities.parse(JSON.parse(text));
      expect(caps.stages.voice).toEqual({ remote: true, provider: 'ElevenLabs', word_timings: 'exact' });
      expect(caps.stages.talking_actor).toEqual({ remote: true, provider: 'fal' });
      expect(caps.stages.product_in_hand).toEqual({ remote: false, provider: null });
      expect(caps.realistic.videos).toEqual({
        available: false,
        missing: ['Product in hand: set OPENAI_EDIT_MODEL or GEMINI_API_KEY'],
      });
      expect(caps.voice_speed).toEqual({ min: 0.8, max: 1.2 });
      for (const secret of ['SECRET', eleven.url, fal.url]) expect(text).not.toContain(secret);
    });

    it('renders with the provider voice and talking actor, and records their cost on the job', async () => {
      elevenFail = undefined;
      const before = fal.requests.length;
      const { job, raw } = await runJob(3);
      expect(job.status).toBe('completed');
      expect(job.cost).toEqual({ images: 0, characters: TEST_SCRIPT.length, seconds: 2.5, calls: 2 });
      expect(job.logs).toEqual(
        expect.arrayContaining([
          `Provider cost: elevenlabs voice (eleven_multilingual_v2) ${TEST_SCRIPT.length} characters, request el-${eleven.requests.at(-1)!.at}`,
          expect.stringMatching(
            /^Provider cost: fal avatar \(fal-ai\/bytedance\/omnihuman\) 2\.5 s, request fake-\d+$/,
          ),
        ]),
      );
      // The actor still and the provider voice went to the avatar model inline.
      const submit = fal.requests.slice(before).find((r) => r.method === 'POST')!;
      expect(submit.path).toBe(`/${AVATAR_MODEL}`);
      expect(submit.headers.authorization).toBe(`Key ${FAL_KEY}`);
      const body = submit.json<{ image_url: string; audio_url: string }>();
      expect(body.image_url).toMatch(/^data:image\/png;base64,/);
      expect(body.audio_url).toMatch(/^data:audio\/wav;base64,/);
      expect(raw).not.toContain('SECRET');
    });

    it('fails a refused provider call at once with a plain line, releases the credits and hides the key', async () => {
      elevenFail = {
        status: 401,
        json: { detail: { status: 'invalid_api_key', message: `Invalid API key: ${EL_KEY}` } },
      };
      const { u, job, raw } = await runJob(3);
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(
        /^Provider error \(ElevenLabs\): ElevenLabs error 401 on POST .*: Invalid API key: \*\*\*$/,
      );
      expect(job.logs.at(-1)).toBe(`Failed: ${job.error}`);
      // A refusal is not retried: one attempt, no "Retrying" line.
      expect(job.logs.some((l) => /Retrying|Attempt 1 failed/.test(l))).toBe(false);
      expect(job.cost).toBeNull();
      expect(raw).not.toContain('SECRET');
      const b = await ledgerBalances(server.ctx.db.kysely, u.id);
      expect(b).toMatchObject({ held: 0, consumed: 0, available: 300 });
      elevenFail = undefined;
    });
  });
}
