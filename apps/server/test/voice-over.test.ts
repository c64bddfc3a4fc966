import { Job, type Project } from '@hookreel/contracts';
import { ffprobe } from '@hookreel/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers/app.ts';
import { wavTone } from './helpers/audio.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, insertProject, insertUser, registerUser, type TestUser } from './helpers/factories.ts';
import { formData, pngImage } from './helpers/images.ts';
import { recordingEngine, startServerRecordingRenders } from './helpers/recording-engine.ts';
import { requestApi } from './helpers/user-api.ts';
import { waitFor } from './helpers/wait.ts';

/** A project's own voice-over: upload, choose, remove, and the render that speaks with it (docs/product.md). */
describe.each(TEST_DIALECTS)('own voice-over (%s)', (dialect) => {
  let server: TestServer;
  let user: TestUser;
  /** What each render was handed as the voice-over: its job id and the recording's length on disk. */
  const handed = new Map<number, number | null>();
  const engine = recordingEngine();
  engine.during = async (input) => {
    const p = input.style?.voiceOverPath ?? null;
    handed.set(input.jobId, p ? Number((await ffprobe(p)).format.duration) : null);
  };
  beforeAll(async () => {
    server = await startServerRecordingRenders(dialect, engine);
    user = await registerUser(server);
  });
  afterAll(() => server?.close());

  const call = (method: string, path: string, body?: unknown, as: Pick<TestUser, 'authHeader'> = user) =>
    requestApi(server, as.authHeader, method, path, body);
  const recording = (file: Buffer, name = 'voice_over', filename = 'me.wav', type = 'audio/wav') =>
    formData([{ name, file, filename, type }]);
  const project = async (id: number, as: Pick<TestUser, 'authHeader'> = user) =>
    (await (await call('GET', `/projects/${id}`, undefined, as)).json()) as Project;

  it('takes a recording, makes it the voice, switches back and forth, and removes it', async () => {
    const id = await createProjectOverHttp(server, user, 'My own voice');
    expect(await project(id)).toMatchObject({ voice_source: 'generated', voice_over: null });
    const res = await call('PUT', `/projects/${id}/voice-over`, recording(wavTone(3)));
    expect(res.status).toBe(200);
    const uploaded = (await res.json()) as Project;
    expect(uploaded.voice_source).toBe('own');
    expect(uploaded.voice_over?.url).toMatch(/^static\/users\/\d+\/projects\/voice-over-[0-9a-f-]+\.m4a$/);
    expect(uploaded.voice_over!.duration_sec).toBeGreaterThan(2.9);
    expect(uploaded.voice_over!.duration_sec).toBeLessThan(3.2);
    const file = await fetch(`${server.url}/api/${uploaded.voice_over!.url}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).toString('latin1', 4, 8)).toBe('ftyp');

    // Back to the generated voice: the recording stays for later.
    const generated = (await (await call('PUT', `/projects/${id}`, { voice_source: 'generated' })).json()) as Project;
    expect(generated).toMatchObject({ voice_source: 'generated', voice_over: uploaded.voice_over });
    expect((await call('PUT', `/projects/${id}`, { voice_source: 'own' })).status).toBe(200);
    expect((await project(id)).voice_source).toBe('own');
    expect((await call('PUT', `/projects/${id}`, { voice_source: 'robot' })).status).toBe(422);

    const replaced = (await (await call('PUT', `/projects/${id}/voice-over`, recording(wavTone(2)))).json()) as Project;
    expect(replaced.voice_over!.url).not.toBe(uploaded.voice_over!.url);
    expect((await fetch(`${server.url}/api/${uploaded.voice_over!.url}`)).status).toBe(404);
    const cleared = (await (await call('DELETE', `/projects/${id}/voice-over`)).json()) as Project;
    expect(cleared).toMatchObject({ voice_source: 'generated', voice_over: null });
    expect((await fetch(`${server.url}/api/${replaced.voice_over!.url}`)).status).toBe(404);
  });

  it('refuses choosing one’s own recording before there is one', async () => {
    const id = await createProjectOverHttp(server, user, 'No recording yet');
    const res = await call('PUT', `/projects/${id}`, { voice_source: 'own' });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ detail: 'Upload your recording before choosing it as the voice' });
    expect((await project(id)).voice_source).toBe('generated');
  });

  it("refuses what is not audio, broken, too long, too short, too large, and other people's projects", async () => {
    const id = await createProjectOverHttp(server, user, 'Refusals');
    const png = await call('PUT', `/projects/${id}/voice-over`, recording(await pngImage(20, 20), undefined, 'a.mp3'));
    expect(png.status).toBe(415);
    expect(await png.json()).toEqual({ detail: 'The recording must be an MP3, WAV or M4A file' });
    const broken = Buffer.concat([wavTone(1).subarray(0, 12), Buffer.alloc(4000, 7)]);
    expect((await call('PUT', `/projects/${id}/voice-over`, recording(broken))).status).toBe(422);
    // The cap keeps videos short: two minutes, checked by ffprobe on the server whatever the client said.
    const long = await call('PUT', `/projects/${id}/voice-over`, recording(wavTone(121, 8000)));
    expect(long.status).toBe(422);
    expect(await long.json()).toEqual({ detail: 'The recording can be at most 2 minutes long' });
    const short = await call('PUT', `/projects/${id}/voice-over`, recording(wavTone(0.7)));
    expect(short.status).toBe(422);
    expect(await short.json()).toEqual({ detail: 'The recording must be at least 1 second long' });
    const huge = Buffer.concat([wavTone(1).subarray(0, 44), Buffer.alloc(20 * 1024 * 1024 + 10)]);
    const tooLarge = await call('PUT', `/projects/${id}/voice-over`, recording(huge));
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ detail: 'Recordings can be at most 20MB' });
    // The music field is not a voice-over.
    expect((await call('PUT', `/projects/${id}/voice-over`, recording(wavTone(2), 'music'))).status).toBe(422);
    const other = await registerUser(server);
    expect((await call('PUT', `/projects/${id}/voice-over`, recording(wavTone(2)), other)).status).toBe(404);
    expect((await call('DELETE', `/projects/${id}/voice-over`, undefined, other)).status).toBe(404);
    expect((await project(id)).voice_over).toBeNull();
    expect((await call('PUT', `/projects/${id}/voice-over`, recording(wavTone(2)))).status).toBe(200);
    expect((await call('DELETE', `/projects/${id}/voice-over`, undefined, other)).status).toBe(404);
    expect((await project(id)).voice_over).not.toBeNull();
  });

  it('renders with the recording while it is the voice, and with the generated voice otherwise', async () => {
    const u = await insertUser(server, { credits: 5 });
    const id = await insertProject(server, u.id, 'Rendered with my voice');
    const as = { authHeader: u.headers };
    expect((await call('PUT', `/projects/${id}/voice-over`, recording(wavTone(4)), as)).status).toBe(200);
    const render = async () => {
      const res = await fetch(`${server.url}/api/jobs/${id}/queue`, { method: 'POST', headers: u.headers });
      expect(res.status).toBe(201);
      const jobId = ((await res.json()) as { id: number }).id;
      await waitFor(async () => {
        const r = await fetch(`${server.url}/api/jobs/${jobId}`, { headers: u.headers });
        return r.status === 200 && Job.parse(await r.json()).status === 'completed';
      });
      return handed.get(jobId);
    };
    const seconds = await render();
    expect(seconds).toBeGreaterThan(3.9);
    expect(seconds).toBeLessThan(4.2);
    await call('PUT', `/projects/${id}`, { voice_source: 'generated' }, as);
    expect(await render()).toBeNull();
  });

  it('fails the render, never silently changing voice, when the recording has gone', async () => {
    const u = await insertUser(server, { credits: 5 });
    const id = await insertProject(server, u.id, 'Lost recording');
    const as = { authHeader: u.headers };
    const p = (await (await call('PUT', `/projects/${id}/voice-over`, recording(wavTone(2)), as)).json()) as Project;
    await server.ctx.files.delete(p.voice_over!.url.replace(/^static\//, ''));
    const res = await fetch(`${server.url}/api/jobs/${id}/queue`, { method: 'POST', headers: u.headers });
    const jobId = ((await res.json()) as { id: number }).id;
    const failed = await waitFor(async () => {
      const r = await fetch(`${server.url}/api/jobs/${jobId}`, { headers: u.headers });
      const j = r.status === 200 ? Job.parse(await r.json()) : null;
      return j?.status === 'failed' ? j : null;
    });
    expect(failed.error).toMatch(/voice-over recording is missing/);
    expect(handed.has(jobId)).toBe(false);
  });
});
