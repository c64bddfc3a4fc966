import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  elevenLabsHandler,
  falQueueHandler,
  startFakeServer,
  type FakeReply,
  type FakeServer,
} from '@hookreel/engine/testing';
import sharp from 'sharp';
import { expect } from 'vitest';
import { resetEngineConfig } from '../../src/media/engine.ts';

/**
 * What the Realistic tests' provider fakes answer with, and the environment that points the engine at them: one
 * copy for every file that runs Realistic against local fakes.
 */

/**
 * A voice take (an MP3 sine) and a talking-actor clip (an H.264 test pattern, 288x512) `seconds` long, made with
 * ffmpeg in `dir`. `yuv420p: false` leaves the encoder's own pixel format.
 */
export async function fakeVoiceAndClip(
  dir: string,
  seconds: number,
  opts: { yuv420p?: boolean } = {},
): Promise<{ mp3: Buffer; clip: Buffer }> {
  const ff = (args: string[], out: string) =>
    promisify(execFile)('ffmpeg', ['-y', '-v', 'error', ...args, out]).then(() => readFile(out));
  const mp3 = await ff(
    ['-f', 'lavfi', '-i', `sine=frequency=200:duration=${seconds}`, '-ar', '44100'],
    path.join(dir, 'v.mp3'),
  );
  const clip = await ff(
    [
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=288x512:rate=25:duration=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      ...(opts.yuv420p === false ? [] : ['-pix_fmt', 'yuv420p']),
    ],
    path.join(dir, 'avatar.mp4'),
  );
  return { mp3, clip };
}

/** A plain-colour PNG, by default the 2:3 portrait gpt-image-1 answers (1024x1536). */
export const plainPng = (
  background: string | { r: number; g: number; b: number },
  width = 1024,
  height = 1536,
): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** Puts back the variables `names` as they were in `saved` (unset when they were) and rebuilds the engine config. */
export function restoreEnv(saved: NodeJS.ProcessEnv, names: readonly string[]): void {
  for (const k of names) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEngineConfig();
}

type FakeHandler = Parameters<typeof startFakeServer>[0];

/**
 * What the fakes are called with: the keys (each holds "SECRET", so a test can show that none reaches what a user
 * sees) and the talking-actor model.
 */
export const FAKE_PROVIDERS = {
  keys: {
    elevenLabs: 'sk_eleven_SECRET_0123456789',
    fal: 'fal-id:fal-SECRET-abcdef0123',
    openAI: 'sk-openai-SECRET-0123456789',
  },
  avatarModel: 'fal-ai/bytedance/omnihuman',
} as const;

/** Every variable the Realistic tests set; `close()` puts them back as they were before the fakes started. */
const PROVIDER_ENV_NAMES = [
  'ELEVENLABS_API_KEY',
  'ELEVENLABS_BASE_URL',
  'FAL_KEY',
  'FAL_BASE_URL',
  'FAL_STORAGE_URL',
  'FAL_AVATAR_MODEL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_EDIT_MODEL',
  'OPENAI_IMAGE_MODEL',
  'GEMINI_API_KEY',
  'GEMINI_BASE_URL',
] as const;

/** ElevenLabs, fal (whose results come from its CDN, another origin) and an OpenAI-compatible images provider. */
export interface ProviderFakes {
  eleven: FakeServer;
  cdn: FakeServer;
  fal: FakeServer;
  openai: FakeServer;
  /** Points the engine at the fakes again (after a test changed the environment). */
  pointEngineAt(): void;
  /** Stops the fakes and puts the provider variables back as they were. */
  close(): Promise<void>;
}

/**
 * Starts the fakes of every Realistic provider and points the engine at them: a voice take and a talking-actor
 * clip `seconds` long, the talking-actor model `FAKE_PROVIDERS.avatarModel`, the image edit through `gpt-image-1`, and the
 * characters through it too when `imageModel` is set.
 */
export async function startProviderFakes(opts: {
  seconds: number;
  /** What the images provider answers (`openAIImagesHandler` or `openAIEditsHandler`). */
  openai: FakeHandler;
  imageModel?: boolean;
  yuv420p?: boolean;
  /** Read at each ElevenLabs request: a reply that replaces the speech answer. */
  elevenFail?: () => FakeReply | undefined;
  /** Wraps fal's queue, to answer some requests otherwise. */
  fal?: (queue: FakeHandler) => FakeHandler;
}): Promise<ProviderFakes> {
  const saved = { ...process.env };
  const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-provider-fakes-'));
  const { mp3, clip } = await fakeVoiceAndClip(dir, opts.seconds, { yuv420p: opts.yuv420p });
  const eleven = await startFakeServer((req) => elevenLabsHandler({ audio: mp3, fail: opts.elevenFail?.() })(req));
  const cdn = await startFakeServer(() => ({ headers: { 'content-type': 'video/mp4' }, body: clip }));
  const queue = falQueueHandler({ videoUrl: `${cdn.url}/files/out.mp4`, duration: opts.seconds });
  const fal = await startFakeServer(opts.fal ? opts.fal(queue) : queue);
  const openai = await startFakeServer(opts.openai);
  const pointEngineAt = () => {
    Object.assign(process.env, {
      ELEVENLABS_API_KEY: FAKE_PROVIDERS.keys.elevenLabs,
      ELEVENLABS_BASE_URL: eleven.url,
      FAL_KEY: FAKE_PROVIDERS.keys.fal,
      FAL_BASE_URL: fal.url,
      FAL_STORAGE_URL: fal.url,
      FAL_AVATAR_MODEL: FAKE_PROVIDERS.avatarModel,
      OPENAI_API_KEY: FAKE_PROVIDERS.keys.openAI,
      OPENAI_BASE_URL: `${openai.url}/v1`,
      OPENAI_EDIT_MODEL: 'gpt-image-1',
      ...(opts.imageModel ? { OPENAI_IMAGE_MODEL: 'gpt-image-1' } : {}),
    });
    resetEngineConfig();
  };
  pointEngineAt();
  return {
    eleven,
    cdn,
    fal,
    openai,
    pointEngineAt,
    close: async () => {
      restoreEnv(saved, PROVIDER_ENV_NAMES);
      await Promise.all([eleven, cdn, fal, openai].map((s) => s.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The talking-actor model's submit among fal's requests from index `from`, checked to come after the still and the
 * voice went to fal's storage (the model gets their URLs, not the files).
 */
export function falSubmitAfterUploads(fal: FakeServer, from: number, model: string) {
  const requests = fal.requests.slice(from);
  expect(requests.slice(0, 5).map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
    'POST /storage/upload/initiate',
    expect.stringMatching(/^PUT \/__upload\//),
    'POST /storage/upload/initiate',
    expect.stringMatching(/^PUT \/__upload\//),
    `POST /${model}`,
  ]);
  return requests.find((r) => r.path === `/${model}`)!;
}
