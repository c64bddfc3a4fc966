import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VoiceList, type HookPack, type Project } from '@hookreel/contracts';
import { piperTestConfig, piperTestModel } from '@hookreel/engine/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { serverOnlyForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, postJson, registerUser, type TestUser } from './helpers/factories.ts';

/** GET /api/voices and the samples, with an operator's Piper voice (a generated model) and a refused file. */
describe('voices', () => {
  let server: TestServer;
  let voicesDir: string;
  const warned: string[] = [];
  const said: string[] = [];
  let renders = 0;

  beforeAll(async () => {
    voicesDir = await mkdtemp(path.join(tmpdir(), 'hookreel-voices-'));
    await mkdir(voicesDir, { recursive: true });
    await writeFile(path.join(voicesDir, 'en_US-lessac-medium.onnx'), piperTestModel({ durations: true }));
    await writeFile(path.join(voicesDir, 'en_US-lessac-medium.onnx.json'), JSON.stringify(piperTestConfig()));
    await writeFile(path.join(voicesDir, 'en_US-ryan-high.onnx'), 'not a model');
    await writeFile(path.join(voicesDir, 'en_US-ryan-high.onnx.json'), JSON.stringify(piperTestConfig()));
    vi.spyOn(console, 'warn').mockImplementation((line: string) => void warned.push(line));
    vi.spyOn(console, 'log').mockImplementation((line: string) => void said.push(line));
    server = await startTestServer({ env: { VOICES_DIR: voicesDir } });
    vi.restoreAllMocks();
    const render = server.ctx.media.renderVoiceSample;
    server.ctx.media = {
      ...server.ctx.media,
      renderVoiceSample: (...args) => {
        renders++;
        return render(...args);
      },
    };
  });
  afterAll(async () => {
    await server?.close();
    await rm(voicesDir, { recursive: true, force: true });
  });

  it('says at start-up which voice files were loaded and which refused, and why', () => {
    expect(said).toContainEqual(
      expect.stringMatching(/^\[voices\] piper:en_US-lessac-medium loaded .*phoneme durations/),
    );
    expect(warned).toEqual([
      expect.stringMatching(
        /^\[voices\] refused .*en_US-ryan-high\.onnx: onnxruntime cannot open the model \(corrupt or not ONNX\)/,
      ),
    ]);
  });

  it('lists what this server can speak: the added voice first, a default per language, accent and gender', async () => {
    const res = await fetch(`${server.url}/api/voices`);
    expect(res.status).toBe(200);
    const { voices } = VoiceList.parse(await res.json());
    expect(voices[0]).toMatchObject({
      id: 'piper:en_US-lessac-medium',
      engine: 'piper',
      language: 'english',
      gender: 'female',
      default: true,
      sample_url: '/api/voices/piper%3Aen_US-lessac-medium/sample',
    });
    const byId = new Map(voices.map((v) => [v.id, v]));
    expect(byId.get('flite:rms')).toMatchObject({ gender: 'male', accent: 'american', default: true });
    expect(byId.get('festival:kal_diphone')).toMatchObject({ default: false });
    expect(byId.has('piper:en_US-ryan-high')).toBe(false);
    for (const language of ['english', 'spanish', 'french', 'german', 'portuguese', 'dutch'])
      for (const gender of ['male', 'female'])
        expect(voices.some((v) => v.language === language && v.gender === gender && v.default)).toBe(true);
  });

  it('plays a voice’s sample, rendered once and kept', async () => {
    const first = await fetch(`${server.url}/api/voices/${encodeURIComponent('flite:rms')}/sample`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await first.arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.length).toBeGreaterThan(16000);
    const again = await fetch(`${server.url}/api/voices/${encodeURIComponent('flite:rms')}/sample`);
    expect(Buffer.from(await again.arrayBuffer()).equals(wav)).toBe(true);
    expect(renders).toBe(1);
    const piper = await fetch(`${server.url}/api/voices/${encodeURIComponent('piper:en_US-lessac-medium')}/sample`);
    expect(piper.status).toBe(200);
    expect(renders).toBe(2);
  });

  it('answers 404 for a voice this server does not have, rendering nothing', async () => {
    expect((await fetch(`${server.url}/api/voices/${encodeURIComponent('piper:gone')}/sample`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/voices/nonsense/sample`)).status).toBe(404);
    expect(renders).toBe(2);
  });
});

/** A project picks a voice by its id; it is kept on both databases and handed to the render. */
describe.each(TEST_DIALECTS)('a project’s voice (%s)', (dialect) => {
  const t = serverOnlyForBlock(dialect);

  /** Changes the user's project `id` with a JSON PUT, and reads its voice back. */
  const projectVoice = (user: TestUser, id: number) => ({
    patch: (body: unknown) =>
      fetch(`${t.server.url}/api/projects/${id}`, {
        method: 'PUT',
        headers: { ...user.authHeader, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    voiceOf: async () =>
      ((await (await fetch(`${t.server.url}/api/projects/${id}`, { headers: user.authHeader })).json()) as Project)
        .voice_id,
  });

  it('stores the chosen voice, clears it with null, and refuses what is not a voice id', async () => {
    const user = await registerUser(t.server);
    const id = await createProjectOverHttp(t.server, user, 'Voice pick');
    const { patch, voiceOf } = projectVoice(user, id);
    expect(await voiceOf()).toBeNull();
    expect((await patch({ voice_id: 'flite:awb' })).status).toBe(200);
    expect(await voiceOf()).toBe('flite:awb');
    expect((await patch({ voice_id: 'not a voice' })).status).toBe(422);
    expect(await voiceOf()).toBe('flite:awb');
    expect((await patch({ voice_id: null })).status).toBe(200);
    expect(await voiceOf()).toBeNull();
  });

  it('refuses a voice this t.server lacks or that speaks another language, and drops a voice the new language lacks', async () => {
    const user = await registerUser(t.server);
    const id = await createProjectOverHttp(t.server, user, 'Voice rules');
    const { patch, voiceOf } = projectVoice(user, id);
    await expectRefusal(patch({ voice_id: 'piper:not-installed' }), /no voice "piper:not-installed"/);
    await expectRefusal(patch({ voice_id: 'espeak:es+f3' }), /does not speak English/);
    expect(await voiceOf()).toBeNull();
    // A voice and its language change together.
    expect((await patch({ language: 'spanish', voice_id: 'espeak:es+f3' })).status).toBe(200);
    expect(await voiceOf()).toBe('espeak:es+f3');
    // Back to English: the Spanish voice gives way to the best English one.
    expect((await patch({ language: 'english' })).status).toBe(200);
    expect(await voiceOf()).toBeNull();
  });

  it('gives a hook pack a voice by the same rules, owner only', async () => {
    const user = await registerUser(t.server);
    const other = await registerUser(t.server);
    const created = await postJson(t.server, '/api/hooks/', { language: 'english' }, user.authHeader);
    const { id } = (await created.json()) as HookPack;
    const patch = (body: unknown, headers = user.authHeader) =>
      fetch(`${t.server.url}/api/hooks/${id}`, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await patch({ voice_id: 'flite:awb' })).status).toBe(200);
    const pack = (await (
      await fetch(`${t.server.url}/api/hooks/${id}`, { headers: user.authHeader })
    ).json()) as HookPack;
    expect(pack.voice_id).toBe('flite:awb');
    await expectRefusal(patch({ voice_id: 'festival:nobody' }), /no voice/);
    expect((await patch({ voice_id: null }, other.authHeader)).status).toBe(404);
    expect((await patch({ language: 'french' })).status).toBe(200);
    const after = (await (
      await fetch(`${t.server.url}/api/hooks/${id}`, { headers: user.authHeader })
    ).json()) as HookPack;
    expect(after.voice_id).toBeNull();
  });
});

async function expectRefusal(response: Promise<Response>, detail: RegExp): Promise<void> {
  const res = await response;
  expect(res.status).toBe(422);
  expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
}
