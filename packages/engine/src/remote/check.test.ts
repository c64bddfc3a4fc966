import { afterEach, describe, expect, it } from 'vitest';
import { checkProviders, formatReport } from './check.ts';
import { startFakeServer, type FakeServer } from './fake-server.ts';
import { elevenLabsHandler, falQueueHandler, geminiImageEditHandler, openAIImagesHandler } from './provider-fakes.ts';

const png = Buffer.from('89504e470d0a1a0a', 'hex');
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The strict fakes, and an environment that points every provider at them. */
async function fakes() {
  const [openai, eleven, fal, gemini] = await Promise.all([
    startFakeServer(openAIImagesHandler({ portrait: png, edited: png })),
    startFakeServer(elevenLabsHandler({ audio: png })),
    startFakeServer(falQueueHandler({ videoUrl: 'http://127.0.0.1:1/x.mp4' })),
    startFakeServer(geminiImageEditHandler({ image: png })),
  ]);
  servers.push(openai, eleven, fal, gemini);
  return {
    gemini,
    env: {
      OPENAI_API_KEY: 'sk-good',
      OPENAI_BASE_URL: `${openai.url}/v1`,
      OPENAI_IMAGE_MODEL: 'gpt-image-1',
      OPENAI_EDIT_MODEL: 'gpt-image-1',
      ELEVENLABS_API_KEY: 'el-good',
      ELEVENLABS_BASE_URL: eleven.url,
      FAL_KEY: 'fal-good',
      FAL_BASE_URL: fal.url,
      FAL_STORAGE_URL: fal.url,
    } as Record<string, string>,
  };
}

describe('providers:check', () => {
  it('without keys says every provider is off and passes', async () => {
    const report = await checkProviders({});
    expect(report.ok).toBe(true);
    expect(report.lines.map((l) => [l.provider, l.status])).toEqual([
      ['OpenAI', 'off'],
      ['ElevenLabs', 'off'],
      ['Gemini', 'off'],
      ['fal', 'off'],
    ]);
    expect(formatReport(report)).toContain('No provider is configured: Realistic is off here');
  });

  it('passes a good configuration and prices a video with its settings', async () => {
    const { env } = await fakes();
    const report = await checkProviders(env);
    expect(report.lines.filter((l) => l.status !== 'ok' && l.status !== 'off')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.cost).toEqual([
      'talking actor: 15 s x $0.14/s = $2.10',
      'voice: 200 characters x $0.11/1000 = $0.022 (eleven_multilingual_v2)',
      'product in hand: gpt-image-1 medium about $0.063 per 1024x1536 image, plus input tokens',
      'character (hook packs; catalogue actors once per user): gpt-image-1 medium about $0.063 per 1024x1536 image, plus input tokens',
    ]);
    expect(report.lines.find((l) => l.provider === 'fal' && /speech up to 29 s/.test(l.detail))).toBeDefined();
  });

  it('names a bad key, an unknown model and a retired voice', async () => {
    const { env } = await fakes();
    const report = await checkProviders({
      ...env,
      OPENAI_API_KEY: 'bad-key',
      ELEVENLABS_VOICE_FEMALE: '21m00Tcm4TlvDq8ikWAM',
      ELEVENLABS_MODEL: 'eleven_monolingual_v0',
      FAL_KEY: 'bad-key',
    });
    expect(report.ok).toBe(false);
    const errors = report.lines.filter((l) => l.status === 'error').map((l) => `${l.provider}: ${l.detail}`);
    expect(errors).toContain(
      'OpenAI: characters (OPENAI_IMAGE_MODEL): gpt-image-1: the key is refused (401): check it',
    );
    expect(errors).toContain(
      "ElevenLabs: unknown model 'eleven_monolingual_v0' (ELEVENLABS_MODEL); known: eleven_multilingual_v2, eleven_v3, eleven_flash_v2_5, eleven_turbo_v2_5",
    );
    expect(errors).toContain(
      'ElevenLabs: voice 21m00Tcm4TlvDq8ikWAM: not in this account\u2019s voices (retired or never added): pick a current voice',
    );
    expect(errors.some((e) => /^fal: key .*the key is refused \(401\)/.test(e))).toBe(true);
  });

  it('names an unknown OpenAI model and a Gemini model that does not exist', async () => {
    const { env, gemini } = await fakes();
    const report = await checkProviders({
      ...env,
      OPENAI_EDIT_MODEL: '',
      OPENAI_IMAGE_MODEL: 'gpt-image-9',
      GEMINI_API_KEY: 'g-good',
      GEMINI_BASE_URL: `${gemini.url}/v1beta`,
      GEMINI_IMAGE_MODEL: 'imagen-0',
    });
    const errors = report.lines.filter((l) => l.status === 'error').map((l) => l.detail);
    expect(errors).toContain(
      "characters (OPENAI_IMAGE_MODEL): gpt-image-9: unknown model 'gpt-image-9' (or this key cannot use it)",
    );
    expect(errors).toContain("model imagen-0: unknown model 'imagen-0' (GEMINI_IMAGE_MODEL)");
  });

  it('reports a size the model refuses as a configuration error, without calling anyone', async () => {
    const report = await checkProviders({ OPENAI_IMAGE_MODEL: 'gpt-image-1', OPENAI_IMAGE_SIZE: '1024x1792' });
    expect(report.ok).toBe(false);
    expect(report.lines).toEqual([
      {
        provider: 'config',
        status: 'error',
        detail: "OPENAI_IMAGE_SIZE: gpt-image-1 accepts sizes 1024x1024, 1536x1024, 1024x1536, auto, not '1024x1792'",
      },
    ]);
  });
});
