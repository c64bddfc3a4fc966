import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ffprobe } from '../util/media.ts';
import { FalLipSync, MAX_INLINE_BYTES, falAppId, falConfigFromEnv, fileAsDataUri, type FalConfig } from './fal.ts';
import { rejectionOf, startFakeServer, type FakeReply, type FakeServer, type RecordedRequest } from './fake-server.ts';
import { generatedMedia } from './generated-media.ts';
import { ProviderError } from './http.ts';

const KEY = 'fal-key-id:fal-key-secret-123456';
const MODEL = 'fal-ai/sync-lipsync';

let dir: string;
let imagePath: string;
let audioPath: string;
let clipPath: string;
let mp4: Buffer;
const servers: FakeServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookreel-fal-'));
  imagePath = path.join(dir, 'actor.png');
  await sharp({ create: { width: 576, height: 1024, channels: 3, background: '#c8a27a' } })
    .png()
    .toFile(imagePath);
  audioPath = path.join(dir, 'voice.wav');
  await generatedMedia(audioPath, ['sine=frequency=300:duration=1'], ['-ar', '48000', '-ac', '1']);
  // The "lip-synced" result the provider serves: a small real H.264 MP4.
  clipPath = path.join(dir, 'result.mp4');
  mp4 = await generatedMedia(
    clipPath,
    ['testsrc=size=144x256:rate=25:duration=1', 'sine=duration=1'],
    ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-movflags', '+faststart'],
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Handler = (req: RecordedRequest, ctx: { url: string; cdn: string }) => FakeReply | Promise<FakeReply>;

/**
 * fal's storage as its client uses it: initiate (with the key) → a signed upload URL and the file's URL; PUT the
 * bytes there (no key).
 */
function storageHandler(uploads: Map<string, { type: string; body: Buffer }>) {
  let n = 0;
  return (req: RecordedRequest, s: { url: string }): FakeReply => {
    const route = req.path.split('?')[0]!;
    if (req.method === 'POST' && route === '/storage/upload/initiate') {
      if (req.headers.authorization !== `Key ${KEY}`) return { status: 401, json: { detail: 'Unauthorized' } };
      const { file_name, content_type } = req.json<{ file_name: string; content_type: string }>();
      const id = `u${++n}`;
      uploads.set(id, { type: content_type, body: Buffer.alloc(0) });
      return {
        json: { upload_url: `${s.url}/put/${id}?sig=abc`, file_url: `https://v3.fal.media/files/${id}/${file_name}` },
      };
    }
    const put = /^\/put\/([^/]+)$/.exec(route);
    if (req.method === 'PUT' && put && uploads.has(put[1]!)) {
      uploads.get(put[1]!)!.body = req.body;
      return { status: 200, body: '' };
    }
    return { status: 404, json: { detail: 'Not found' } };
  };
}

/**
 * A queue server, fal's storage, and on another origin a CDN serving the result (so the key must not travel
 * there).
 */
async function setup(queue: Handler, cdnReply: FakeReply = { headers: { 'content-type': 'video/mp4' }, body: mp4 }) {
  const cdn = await startFakeServer(() => cdnReply);
  const q = await startFakeServer((req, s) => queue(req, { url: s.url, cdn: cdn.url }));
  const uploads = new Map<string, { type: string; body: Buffer }>();
  const storage = await startFakeServer(storageHandler(uploads));
  servers.push(cdn, q, storage);
  const config: FalConfig = {
    key: KEY,
    baseUrl: q.url,
    storageUrl: storage.url,
    model: MODEL,
    pollIntervalMs: 10,
    retry: { baseDelayMs: 10 },
  };
  return { queue: q, cdn, config, storage, uploads };
}

/** The documented flow: submit → IN_QUEUE → IN_PROGRESS ×2 → COMPLETED → result. */
function happyQueue(statusOverride?: (n: number) => FakeReply | null): Handler {
  let polls = 0;
  return (req, { url, cdn }) => {
    const base = `${url}/${MODEL}/requests/req-123`;
    if (req.method === 'POST' && req.path === `/${MODEL}`) {
      return {
        json: { request_id: 'req-123', status_url: `${base}/status`, response_url: base, cancel_url: `${base}/cancel` },
      };
    }
    if (req.method === 'GET' && req.path === `/${MODEL}/requests/req-123/status`) {
      const n = polls++;
      const o = statusOverride?.(n);
      if (o) return o;
      const seq = [
        { status: 'IN_QUEUE', queue_position: 2, response_url: base },
        { status: 'IN_PROGRESS', response_url: base, logs: null },
        { status: 'IN_PROGRESS', response_url: base, logs: null },
      ];
      return { status: n < seq.length ? 202 : 200, json: seq[n] ?? { status: 'COMPLETED', response_url: base } };
    }
    if (req.method === 'GET' && req.path === `/${MODEL}/requests/req-123`) {
      return {
        json: { video: { url: `${cdn}/files/output/abc.mp4`, content_type: 'video/mp4', file_size: mp4.length } },
      };
    }
    if (req.method === 'PUT' && req.path === `/${MODEL}/requests/req-123/cancel`)
      return { status: 202, json: { status: 'CANCELLATION_REQUESTED' } };
    return { status: 404, json: { detail: `Not found: ${req.method} ${req.path}` } };
  };
}

describe('fal lip-sync', () => {
  it("uploads the inputs to fal's storage, submits their URLs, polls until COMPLETED, then downloads the result", async () => {
    const { queue, cdn, config, storage, uploads } = await setup(happyQueue());
    const progress: [number, string][] = [];
    const outPath = path.join(dir, 'out', 'talking.mp4');
    const res = await new FalLipSync(config).lipSync({
      imagePath,
      audioPath,
      outPath,
      onProgress: (f, m) => progress.push([f, m]),
    });
    // No duration in the result: the seconds billed are read from the video itself (1 s here).
    expect(res).toMatchObject({ videoPath: outPath, requestId: 'req-123' });
    expect(res.usage).toMatchObject({ provider: 'fal', stage: 'avatar', model: MODEL, requestId: 'req-123' });
    expect(res.usage.seconds).toBeGreaterThan(0.9);
    expect(res.usage.seconds).toBeLessThan(1.2);

    const calls = queue.requests.map((r) => `${r.method} ${r.path}`);
    expect(calls).toEqual([
      `POST /${MODEL}`,
      `GET /${MODEL}/requests/req-123/status`,
      `GET /${MODEL}/requests/req-123/status`,
      `GET /${MODEL}/requests/req-123/status`,
      `GET /${MODEL}/requests/req-123/status`,
      `GET /${MODEL}/requests/req-123`,
    ]);
    for (const r of queue.requests) expect(r.headers.authorization).toBe(`Key ${KEY}`);
    const submit = queue.requests[0]!;
    expect(submit.headers['content-type']).toBe('application/json');
    const body = submit.json();
    expect(Object.keys(body).sort()).toEqual(['audio_url', 'image_url']);
    expect(body.image_url).toBe('https://v3.fal.media/files/u1/actor.png');
    expect(body.audio_url).toBe('https://v3.fal.media/files/u2/voice.wav');
    expect(Buffer.compare(uploads.get('u1')!.body, await readFile(imagePath))).toBe(0);
    expect(Buffer.compare(uploads.get('u2')!.body, await readFile(audioPath))).toBe(0);
    expect(uploads.get('u2')!.type).toBe('audio/wav');
    // The key goes to the initiate call, not to the signed upload URL.
    const puts = storage.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(2);
    for (const r of puts) expect(r.headers.authorization).toBeUndefined();
    expect(puts[0]!.headers['content-type']).toBe('image/png');

    expect(cdn.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /files/output/abc.mp4']);
    expect(cdn.requests[0]!.headers.authorization).toBeUndefined();

    expect(Buffer.compare(await readFile(outPath), mp4)).toBe(0);
    const probe = await ffprobe(outPath);
    expect(probe.streams.find((s) => s.codec_type === 'video')?.codec_name).toBe('h264');

    expect(progress.some(([, m]) => /queue \(position 2\)/.test(m))).toBe(true);
    for (let i = 1; i < progress.length; i++) expect(progress[i]![0]).toBeGreaterThanOrEqual(progress[i - 1]![0]);
    expect(progress.at(-1)).toEqual([1, 'Lip-sync done']);
  });

  it('sends a clip as video_url', async () => {
    const { queue, config } = await setup(happyQueue());
    await new FalLipSync(config).lipSync({ imagePath: clipPath, audioPath, outPath: path.join(dir, 'from-clip.mp4') });
    const body = queue.requests[0]!.json();
    expect(Object.keys(body).sort()).toEqual(['audio_url', 'video_url']);
    expect(body.video_url).toBe('https://v3.fal.media/files/u1/result.mp4');
  });

  it('sends data URIs instead when the queue is self-hosted (inlineInputs)', async () => {
    const { queue, config, storage } = await setup(happyQueue());
    await new FalLipSync({ ...config, inlineInputs: true }).lipSync({
      imagePath,
      audioPath,
      outPath: path.join(dir, 'inline.mp4'),
    });
    const body = queue.requests[0]!.json();
    expect(body.image_url).toBe(`data:image/png;base64,${(await readFile(imagePath)).toString('base64')}`);
    expect(body.audio_url).toMatch(/^data:audio\/wav;base64,/);
    expect(storage.requests).toHaveLength(0);
  });

  it('refuses a voice longer than the avatar model takes before uploading or submitting anything', async () => {
    const { queue, config, storage } = await setup(happyQueue());
    const err = await rejectionOf(
      new FalLipSync({ ...config, maxAudioSec: 0.5 }).lipSync({
        imagePath,
        audioPath,
        outPath: path.join(dir, 'long.mp4'),
      }),
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('audio_too_long');
    expect(err.message).toMatch(/voice is 1\.0 s; .* takes at most 0\.5 s/);
    expect(queue.requests).toHaveLength(0);
    expect(storage.requests).toHaveLength(0);
  });

  it('retries a 500 on a status poll and a 429 with Retry-After on submit', async () => {
    let submits = 0;
    const inner = happyQueue((n) => (n === 1 ? { status: 500, body: 'Internal Server Error' } : null));
    const { queue, config } = await setup((req, ctx) => {
      if (req.method === 'POST' && submits++ === 0)
        return { status: 429, headers: { 'retry-after': '1' }, json: { detail: 'Too many requests' } };
      return inner(req, ctx);
    });
    const outPath = path.join(dir, 'retried.mp4');
    await new FalLipSync(config).lipSync({ imagePath, audioPath, outPath });
    const posts = queue.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(950);
    // IN_QUEUE, 500 (retried), IN_PROGRESS, COMPLETED.
    expect(queue.requests.filter((r) => r.path.endsWith('/status'))).toHaveLength(4);
    expect((await stat(outPath)).size).toBe(mp4.length);
  });

  it("surfaces the provider's validation error from the result", async () => {
    const inner = happyQueue();
    const { config } = await setup((req, ctx) =>
      req.method === 'GET' && req.path === `/${MODEL}/requests/req-123`
        ? {
            status: 422,
            json: { detail: [{ loc: ['body', 'audio_url'], msg: 'Audio is too long', type: 'value_error' }] },
          }
        : inner(req, ctx),
    );
    const err = await rejectionOf(
      new FalLipSync(config).lipSync({ imagePath, audioPath, outPath: path.join(dir, 'nope.mp4') }),
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toContain('422');
    expect(err.message).toContain('body.audio_url: Audio is too long');
    expect(err.message).not.toContain(KEY);
  });

  it('rejects a wrong key at once with the message and never leaks the key', async () => {
    const { queue, config } = await setup(() => ({ status: 401, json: { detail: `Invalid key ${KEY}` } }));
    const err = await rejectionOf(
      new FalLipSync(config).lipSync({ imagePath, audioPath, outPath: path.join(dir, 'nope.mp4') }),
    );
    expect(err.message).toMatch(/fal error 401 .*Invalid key \*\*\*/);
    expect(err.message).not.toContain('fal-key-secret');
    expect(queue.requests).toHaveLength(1);
  });

  it('gives up after 3 failed attempts', async () => {
    const { queue, config } = await setup(() => ({ status: 502, body: '<html>Bad gateway</html>' }));
    const err = await rejectionOf(
      new FalLipSync(config).lipSync({ imagePath, audioPath, outPath: path.join(dir, 'nope.mp4') }),
    );
    expect(err.message).toMatch(/502.*Bad gateway.*gave up after 3 attempts/);
    expect(queue.requests).toHaveLength(3);
  });

  it('refuses a result that is not a video and keeps no file', async () => {
    const { config } = await setup(happyQueue(), { body: 'not a video' });
    const outPath = path.join(dir, 'garbage.mp4');
    const err = await rejectionOf(new FalLipSync(config).lipSync({ imagePath, audioPath, outPath }));
    expect(err.message).toMatch(/not a playable video/);
    await expect(stat(outPath)).rejects.toThrow();
  });

  it('cancels the request when the caller aborts while polling', async () => {
    const ac = new AbortController();
    const inner = happyQueue(() => ({ status: 202, json: { status: 'IN_PROGRESS' } }));
    const { queue, config } = await setup((req, ctx) => {
      if (req.path.endsWith('/status') && queue.requests.filter((r) => r.path.endsWith('/status')).length === 2)
        ac.abort(new Error('Job cancelled'));
      return inner(req, ctx);
    });
    const err = await rejectionOf(
      new FalLipSync(config).lipSync({ imagePath, audioPath, outPath: path.join(dir, 'nope.mp4'), signal: ac.signal }),
    );
    expect(err.message).toBe('Job cancelled');
    await expect
      .poll(() => queue.requests.some((r) => r.method === 'PUT' && r.path === `/${MODEL}/requests/req-123/cancel`))
      .toBe(true);
    const cancel = queue.requests.find((r) => r.method === 'PUT')!;
    expect(cancel.headers.authorization).toBe(`Key ${KEY}`);
  });

  it('refuses inputs above the inline size limit with a clear message', async () => {
    const big = path.join(dir, 'big.wav');
    await writeFile(big, Buffer.alloc(2048));
    await expect(fileAsDataUri(big, 1024)).rejects.toThrow(
      /big\.wav is 2 KB; files sent inline to the lip-sync provider are limited to 1 KB/,
    );
    await expect(fileAsDataUri(path.join(dir, 'x.txt'))).rejects.toThrow(/unsupported file type/);
    expect(MAX_INLINE_BYTES).toBe(10 * 1024 * 1024);
    expect(await fileAsDataUri(big)).toMatch(/^data:audio\/wav;base64,/);
  });

  it('sends a still to the avatar model and polls under its app id (subpath models), with backoff', async () => {
    const AVATAR = 'fal-ai/bytedance/omnihuman';
    let polls = 0;
    const { queue, cdn, config } = await setup((req, { url, cdn: cdnUrl }) => {
      // The submit answer without URLs: the adapter must build them under the app id, not the subpath.
      if (req.method === 'POST' && req.path === `/${AVATAR}`) return { json: { request_id: 'av-1' } };
      if (req.path === '/fal-ai/bytedance/requests/av-1/status') {
        return polls++ < 3
          ? { status: 202, json: { status: 'IN_PROGRESS', response_url: `${url}/fal-ai/bytedance/requests/av-1` } }
          : { json: { status: 'COMPLETED' } };
      }
      if (req.path === '/fal-ai/bytedance/requests/av-1')
        return { json: { video: { url: `${cdnUrl}/files/av.mp4` }, duration: 7.48 } };
      return { status: 404, json: { detail: `Not found: ${req.method} ${req.path}` } };
    });
    const res = await new FalLipSync({
      ...config,
      model: AVATAR,
      videoModel: MODEL,
      pollIntervalMs: 40,
      maxPollIntervalMs: 100,
    }).lipSync({ imagePath, audioPath, outPath: path.join(dir, 'avatar.mp4') });
    expect(res.usage).toEqual({ provider: 'fal', stage: 'avatar', model: AVATAR, seconds: 7.48, requestId: 'av-1' });
    expect(queue.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /${AVATAR}`,
      'GET /fal-ai/bytedance/requests/av-1/status',
      'GET /fal-ai/bytedance/requests/av-1/status',
      'GET /fal-ai/bytedance/requests/av-1/status',
      'GET /fal-ai/bytedance/requests/av-1/status',
      'GET /fal-ai/bytedance/requests/av-1',
    ]);
    expect(cdn.requests).toHaveLength(1);
    // Waits grow: 40, 60, 90 ms (capped at 100): each gap at least the previous one's planned wait.
    const at = queue.requests.filter((r) => r.path.endsWith('/status')).map((r) => r.at);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(55);
    expect(at[3]! - at[2]!).toBeGreaterThanOrEqual(85);
  });

  it('sends a clip to the lip-sync model when an avatar model handles stills', async () => {
    const { queue, config } = await setup(happyQueue());
    const res = await new FalLipSync({ ...config, model: 'fal-ai/bytedance/omnihuman', videoModel: MODEL }).lipSync({
      imagePath: clipPath,
      audioPath,
      outPath: path.join(dir, 'clip-lipsync.mp4'),
    });
    expect(queue.requests[0]!.path).toBe(`/${MODEL}`);
    expect(res.usage.stage).toBe('lipsync');
  });

  it("sends a model's extra input beside the media, the still's and the clip's each to its own model", async () => {
    const { queue, config } = await setup(happyQueue());
    await new FalLipSync({ ...config, input: { resolution: '480p' }, videoInput: { sync_mode: 'cut_off' } }).lipSync({
      imagePath,
      audioPath,
      outPath: path.join(dir, 'extra-input.mp4'),
    });
    const body = queue.requests[0]!.json<Record<string, string>>();
    expect(Object.keys(body).sort()).toEqual(['audio_url', 'image_url', 'resolution']);
    expect(body.resolution).toBe('480p');
    expect(body.image_url).toMatch(/^https:\/\/v3\.fal\.media\/files\//);
  });

  it('maps a FAILED status (some self-hosted queues send it; fal itself reports failures on the result) to an error', async () => {
    const { queue, config } = await setup(
      happyQueue((n) => (n === 1 ? { json: { status: 'FAILED', error: 'Face not detected in image' } } : null)),
    );
    const err = await rejectionOf(
      new FalLipSync(config).lipSync({ imagePath, audioPath, outPath: path.join(dir, 'failed.mp4') }),
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe('fal: request req-123 failed: Face not detected in image');
    expect(queue.requests.some((r) => r.method === 'GET' && r.path === `/${MODEL}/requests/req-123`)).toBe(false);
  });

  it('does not resubmit after a submit timeout (the provider may already be running and billing it)', async () => {
    const { queue, config } = await setup((req) =>
      req.method === 'POST' ? { delayMs: 400, json: { request_id: 'late' } } : { status: 404, json: {} },
    );
    const err = await rejectionOf(
      new FalLipSync({ ...config, requestTimeoutMs: 100 }).lipSync({
        imagePath,
        audioPath,
        outPath: path.join(dir, 'timeout.mp4'),
      }),
    );
    expect(err.message).toMatch(/no response within 100 ms/);
    expect(queue.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('reads FAL_AVATAR_MODEL and FAL_LIPSYNC_MODEL, keeping old lip-sync-only setups working', () => {
    expect(falConfigFromEnv({})).toBeNull();
    expect(falConfigFromEnv({ FAL_KEY: 'k' })).toMatchObject({
      model: 'fal-ai/bytedance/omnihuman',
      videoModel: 'fal-ai/sync-lipsync',
    });
    expect(falConfigFromEnv({ FAL_KEY: 'k', FAL_LIPSYNC_MODEL: '/fal-ai/some-image-lipsync/' })).toMatchObject({
      model: 'fal-ai/some-image-lipsync',
      videoModel: 'fal-ai/some-image-lipsync',
    });
    expect(
      falConfigFromEnv({ FAL_KEY: 'k', FAL_AVATAR_MODEL: 'fal-ai/kling-video/v1/standard/ai-avatar' }),
    ).toMatchObject({ model: 'fal-ai/kling-video/v1/standard/ai-avatar', videoModel: 'fal-ai/sync-lipsync' });
    expect(falAppId('fal-ai/kling-video/v1/standard/ai-avatar')).toBe('fal-ai/kling-video');
    // A model that needs more than its media gets it from FAL_AVATAR_INPUT / FAL_LIPSYNC_INPUT.
    expect(
      falConfigFromEnv({
        FAL_KEY: 'k',
        FAL_AVATAR_MODEL: 'veed/fabric-1.0',
        FAL_AVATAR_INPUT: '{"resolution":"480p"}',
      }),
    ).toMatchObject({ model: 'veed/fabric-1.0', input: { resolution: '480p' } });
    expect(
      falConfigFromEnv({ FAL_KEY: 'k', FAL_LIPSYNC_MODEL: 'fal-ai/x', FAL_LIPSYNC_INPUT: '{"sync_mode":"cut_off"}' }),
    ).toMatchObject({ input: { sync_mode: 'cut_off' }, videoInput: { sync_mode: 'cut_off' } });
    expect(falConfigFromEnv({ FAL_KEY: 'k', FAL_LIPSYNC_INPUT: '{"sync_mode":"cut_off"}' })?.input).toBeUndefined();
    for (const bad of ['480p', '[1]', 'null', '{"image_url":"https://elsewhere.example/x.png"}']) {
      expect(() => falConfigFromEnv({ FAL_KEY: 'k', FAL_AVATAR_INPUT: bad })).toThrow(/FAL_AVATAR_INPUT/);
    }
    expect(falAppId('fal-ai/sync-lipsync')).toBe('fal-ai/sync-lipsync');
    // The status polls' first wait and longest backoff: unset keeps the adapter's 2 s and 15 s.
    expect(falConfigFromEnv({ FAL_KEY: 'k' })?.pollIntervalMs).toBeUndefined();
    expect(
      falConfigFromEnv({ FAL_KEY: 'k', FAL_POLL_INTERVAL_MS: '250', FAL_POLL_MAX_INTERVAL_MS: ' 500 ' }),
    ).toMatchObject({ pollIntervalMs: 250, maxPollIntervalMs: 500 });
    for (const bad of ['0', '-5', '1.5', '2s']) {
      expect(() => falConfigFromEnv({ FAL_KEY: 'k', FAL_POLL_INTERVAL_MS: bad })).toThrow(/FAL_POLL_INTERVAL_MS/);
    }
    expect(() => falConfigFromEnv({ FAL_KEY: 'k', FAL_POLL_INTERVAL_MS: '20000' })).toThrow(/more than/);
  });
});
