/**
 * `npm run providers:check`: checks each configured provider with a free call (reading a model, the account, a
 * voice, or opening a storage upload), says exactly what is wrong, and prices one video with today's settings.
 * Nothing here makes or bills media.
 */
import { DEFAULT_ELEVENLABS_MODEL, ELEVENLABS_VOICES, elevenLabsConfigFromEnv } from './elevenlabs.ts';
import { DEFAULT_FAL_STORAGE_URL, falConfigFromEnv } from './fal.ts';
import { ProviderError, requestWithRetry, type FetchFn } from './http.ts';
import { defaultImageQuality, imageModelFamily } from './image-models.ts';
import { geminiConfigFromEnv, openAIEditSettingsFromEnv } from './image-edit.ts';
import { createEngineConfig, type Env } from './index.ts';
import { nonEmpty, openAIConfigFromEnv } from './openai.ts';

export interface CheckLine {
  provider: string;
  status: 'ok' | 'off' | 'error';
  detail: string;
}

export interface CheckReport {
  lines: CheckLine[];
  /** What one video costs at list prices with these settings, one line per stage. */
  cost: string[];
  /** False when any configured provider has a problem. */
  ok: boolean;
}

/** List prices (USD) as in docs/providers.md, November 2026. */
const FAL_PER_SECOND: Record<string, number> = {
  'fal-ai/bytedance/omnihuman': 0.14,
  'fal-ai/bytedance/omnihuman/v1.5': 0.16,
};
const GPT_IMAGE_1_PORTRAIT: Record<string, number> = { low: 0.016, medium: 0.063, high: 0.25 };
/** A 15-second video says about 200 characters. */
const VIDEO_SECONDS = 15;
const VIDEO_CHARACTERS = 200;

export async function checkProviders(env: Env, options: { fetch?: FetchFn } = {}): Promise<CheckReport> {
  const lines: CheckLine[] = [];
  const cost: string[] = [];
  try {
    createEngineConfig(env);
  } catch (e) {
    // A setting the model refuses (size, quality, fidelity, a malformed fal input): the server would not start.
    return { lines: [{ provider: 'config', status: 'error', detail: (e as Error).message }], cost, ok: false };
  }
  const probe = async (
    provider: string,
    what: string,
    req: Parameters<typeof requestWithRetry>[0],
    explain: (e: ProviderError) => string,
  ): Promise<boolean> => {
    try {
      await requestWithRetry({ timeoutMs: 20_000, retry: { maxAttempts: 1 }, fetch: options.fetch, ...req });
      lines.push({ provider, status: 'ok', detail: what });
      return true;
    } catch (e) {
      const detail = e instanceof ProviderError ? explain(e) : (e as Error).message;
      lines.push({ provider, status: 'error', detail: `${what}: ${detail}` });
      return false;
    }
  };
  const keyOr = (e: ProviderError, other: string) =>
    e.status === 401 || e.status === 403 ? `the key is refused (${e.status}): check it` : other;

  // OpenAI-compatible: every model the server is configured to call.
  const openai = openAIConfigFromEnv(env);
  const edit = openAIEditSettingsFromEnv(env);
  const models: [string, string][] = [];
  if (openai.imageModel) models.push(['characters (OPENAI_IMAGE_MODEL)', openai.imageModel]);
  if (edit) models.push(['product in hand (OPENAI_EDIT_MODEL)', edit.model]);
  if (openai.visionModel) models.push(['product analysis (OPENAI_VISION_MODEL)', openai.visionModel]);
  if (openai.textModel) models.push(['hook lines (OPENAI_TEXT_MODEL)', openai.textModel]);
  const eleven = elevenLabsConfigFromEnv(env);
  if (!eleven && (openai.apiKey || nonEmpty(env.OPENAI_TTS_MODEL)))
    models.push(['voice (OPENAI_TTS_MODEL)', openai.ttsModel]);
  if (models.length === 0) lines.push({ provider: 'OpenAI', status: 'off', detail: 'no OpenAI model is set' });
  for (const [stage, model] of models) {
    if (imageModelFamily(model).startsWith('dall-e') && openai.baseUrl.includes('api.openai.com')) {
      lines.push({
        provider: 'OpenAI',
        status: 'error',
        detail: `${stage}: ${model} was retired on 2026-05-12; use gpt-image-1`,
      });
      continue;
    }
    await probe(
      'OpenAI',
      `${stage}: ${model}`,
      {
        provider: 'OpenAI-compatible',
        url: `${openai.baseUrl}/models/${encodeURIComponent(model)}`,
        headers: openai.apiKey ? { authorization: `Bearer ${openai.apiKey}` } : {},
        secrets: [openai.apiKey],
      },
      (e) => keyOr(e, e.status === 404 ? `unknown model '${model}' (or this key cannot use it)` : e.message),
    );
  }

  // ElevenLabs: the key (account), the model, and every voice an actor can get.
  if (!eleven) {
    lines.push({ provider: 'ElevenLabs', status: 'off', detail: 'ELEVENLABS_API_KEY is not set' });
  } else {
    const common = { provider: 'ElevenLabs', headers: { 'xi-api-key': eleven.apiKey }, secrets: [eleven.apiKey] };
    const keyOk = await probe('ElevenLabs', 'key', { ...common, url: `${eleven.baseUrl}/v1/user` }, (e) =>
      keyOr(e, e.message),
    );
    if (keyOk) {
      try {
        const res = await requestWithRetry({
          ...common,
          url: `${eleven.baseUrl}/v1/models`,
          fetch: options.fetch,
          retry: { maxAttempts: 1 },
        });
        const ids = res.json<{ model_id: string }[]>().map((m) => m.model_id);
        lines.push(
          ids.includes(eleven.model)
            ? { provider: 'ElevenLabs', status: 'ok', detail: `model ${eleven.model}` }
            : {
                provider: 'ElevenLabs',
                status: 'error',
                detail: `unknown model '${eleven.model}' (ELEVENLABS_MODEL); known: ${ids.join(', ')}`,
              },
        );
      } catch (e) {
        lines.push({ provider: 'ElevenLabs', status: 'error', detail: `models: ${(e as Error).message}` });
      }
      const voices = new Set(
        [eleven.voiceId, eleven.voiceFemale, eleven.voiceMale].filter((v): v is string => Boolean(v)),
      );
      if (!eleven.voiceId) {
        for (const [gender, table] of Object.entries(ELEVENLABS_VOICES)) {
          if ((gender === 'female' ? eleven.voiceFemale : eleven.voiceMale) === undefined) {
            for (const id of Object.values(table)) if (id) voices.add(id);
          }
        }
      }
      for (const id of voices) {
        await probe(
          'ElevenLabs',
          `voice ${id}`,
          { ...common, url: `${eleven.baseUrl}/v1/voices/${encodeURIComponent(id)}` },
          (e) =>
            keyOr(
              e,
              e.status === 404
                ? 'not in this account\u2019s voices (retired or never added): pick a current voice'
                : e.message,
            ),
        );
      }
    }
  }

  // Gemini: reading the model checks key and model at once.
  const gemini = edit ? null : geminiConfigFromEnv(env);
  if (!gemini) {
    lines.push({
      provider: 'Gemini',
      status: 'off',
      detail: edit ? 'OPENAI_EDIT_MODEL is used instead' : 'GEMINI_API_KEY is not set',
    });
  } else {
    await probe(
      'Gemini',
      `model ${gemini.model}`,
      {
        provider: 'Gemini',
        url: `${gemini.baseUrl}/models/${encodeURIComponent(gemini.model)}`,
        headers: { 'x-goog-api-key': gemini.apiKey },
        secrets: [gemini.apiKey],
      },
      (e) =>
        e.status === 400 || e.status === 403
          ? `the key is refused (${e.status}): check it`
          : e.status === 404
            ? `unknown model '${gemini.model}' (GEMINI_IMAGE_MODEL)`
            : e.message,
    );
  }

  // fal: opening a storage upload checks the key and costs nothing (no file is sent).
  const fal = falConfigFromEnv(env);
  if (!fal) {
    lines.push({ provider: 'fal', status: 'off', detail: 'FAL_KEY is not set' });
  } else {
    await probe(
      'fal',
      `key (storage upload at ${fal.storageUrl ?? DEFAULT_FAL_STORAGE_URL})`,
      {
        provider: 'fal',
        method: 'POST',
        url: `${fal.storageUrl ?? DEFAULT_FAL_STORAGE_URL}/storage/upload/initiate?storage_type=fal-cdn-v3`,
        json: { content_type: 'text/plain', file_name: 'hookreel-providers-check.txt' },
        headers: { authorization: `Key ${fal.key}` },
        secrets: [fal.key],
      },
      (e) => keyOr(e, e.message),
    );
    lines.push({
      provider: 'fal',
      status: 'ok',
      detail:
        fal.maxAudioSec != null
          ? `stills: ${fal.model}, speech up to ${fal.maxAudioSec} s (longer Realistic scripts are refused before paying)`
          : `stills: ${fal.model}, no known audio limit (set FAL_AVATAR_MAX_AUDIO_SEC from the model's page)`,
    });
  }

  // Cost of one 15-second Realistic video with these settings.
  const engine = createEngineConfig(env);
  if (fal) {
    const perSec = FAL_PER_SECOND[fal.model] ?? fabricPerSecond(fal.model, fal.input);
    cost.push(
      perSec != null
        ? `talking actor: ${VIDEO_SECONDS} s x $${perSec}/s = $${(VIDEO_SECONDS * perSec).toFixed(2)}`
        : `talking actor: ${fal.model}: price not known here, see its fal.ai page`,
    );
  }
  if (eleven) {
    const per1000 = /flash|turbo/.test(eleven.model) ? 0.055 : 0.11;
    cost.push(
      `voice: ${VIDEO_CHARACTERS} characters x $${per1000}/1000 = $${((VIDEO_CHARACTERS * per1000) / 1000).toFixed(3)} (${eleven.model ?? DEFAULT_ELEVENLABS_MODEL})`,
    );
  }
  if (edit) cost.push(`product in hand: ${imagePrice(edit.model, edit.quality)}`);
  else if (gemini) cost.push(`product in hand: ${gemini.model} about $0.039 per image`);
  if (openai.imageModel && engine.images) {
    cost.push(
      `character (hook packs; catalogue actors once per user): ${imagePrice(openai.imageModel, openai.imageQuality)}`,
    );
  }
  return { lines, cost, ok: !lines.some((l) => l.status === 'error') };
}

function fabricPerSecond(model: string, input: Record<string, unknown> | undefined): number | null {
  if (model !== 'veed/fabric-1.0') return null;
  return input?.resolution === '720p' ? 0.15 : 0.08;
}

function imagePrice(model: string, quality: string | undefined): string {
  const q = quality ?? defaultImageQuality(model) ?? 'provider default';
  const price = /^gpt-image-1$/.test(model) ? GPT_IMAGE_1_PORTRAIT[q] : undefined;
  return price != null
    ? `${model} ${q} about $${price} per 1024x1536 image, plus input tokens`
    : `${model} ${q}: see the provider's price list`;
}

/** The report as text for the terminal. */
export function formatReport(report: CheckReport): string {
  const mark = { ok: 'ok   ', off: 'off  ', error: 'ERROR' } as const;
  const out = report.lines.map((l) => `${mark[l.status]} ${l.provider.padEnd(10)} ${l.detail}`);
  if (report.cost.length) {
    out.push('', `One ${VIDEO_SECONDS}-second Realistic video at list prices:`, ...report.cost.map((c) => `  ${c}`));
  }
  const allOff = report.lines.every((l) => l.status === 'off');
  out.push(
    '',
    allOff
      ? 'No provider is configured: Realistic is off here (Draft needs none).'
      : report.ok
        ? 'All configured providers answered.'
        : 'Fix the ERROR lines before offering Realistic.',
  );
  return out.join('\n');
}
