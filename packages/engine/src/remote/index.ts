/**
 * Which stages run remotely, decided from the environment — one switch per stage, local when it is absent:
 *
 * | stage   | remote when            | provider                                   |
 * |---------|------------------------|--------------------------------------------|
 * | voice   | OPENAI_API_KEY or OPENAI_TTS_MODEL | OpenAI-compatible /audio/speech |
 * | images  | OPENAI_IMAGE_MODEL     | OpenAI-compatible /images/generations      |
 * | vision  | OPENAI_VISION_MODEL    | OpenAI-compatible /chat/completions        |
 * | hooks   | OPENAI_TEXT_MODEL      | OpenAI-compatible /chat/completions        |
 * | lipsync | FAL_KEY                | fal.ai queue API                           |
 *
 * OPENAI_TTS_MODEL alone is enough for keyless local servers; OPENAI_BASE_URL points every OpenAI stage elsewhere.
 */
import { localVoice, type VoiceSynthesizer } from '../voice/index.ts';
import { FalLipSync, falConfigFromEnv, type LipSyncProvider } from './fal.ts';
import type { FetchFn } from './http.ts';
import { OpenAIHookWriter, type HookWriter } from './hook-writer.ts';
import {
  OpenAIImages,
  OpenAIVision,
  OpenAIVoice,
  nonEmpty,
  openAIConfigFromEnv,
  type ImageGenerator,
  type ProductAnalyzer,
} from './openai.ts';

export type Env = Record<string, string | undefined>;
export type RemoteStage = 'voice' | 'images' | 'vision' | 'hooks' | 'lipsync';

export interface RemoteStages {
  voice: boolean;
  images: boolean;
  vision: boolean;
  hooks: boolean;
  lipsync: boolean;
}

export interface EngineConfig {
  remote: RemoteStages;
  /** Always usable: the OpenAI-compatible voice when configured, otherwise the local festival/eSpeak voice. */
  voice: VoiceSynthesizer;
  /** Characters from a description; null → the local illustrated rig (`actorFromDescription`). */
  images: ImageGenerator | null;
  /** Product shape/category; null → the heuristic result `cutoutProduct` already returns. */
  vision: ProductAnalyzer | null;
  /** Hook variations for a pack; null → the local rule-based writer (contracts writeHookVariants). */
  hooks: HookWriter | null;
  /** Talking actor; null → local lip-flap render. */
  lipsync: LipSyncProvider | null;
  /** One line per stage for startup logs, e.g. "voice: remote (OpenAI-compatible https://api.openai.com/v1, gpt-4o-mini-tts)". Never contains keys. */
  summary: string[];
}

/** Which stages are remote, from the env alone (no instances, nothing validated). */
export function remoteStagesFromEnv(env: Env = process.env): RemoteStages {
  return {
    voice: Boolean(nonEmpty(env.OPENAI_API_KEY) ?? nonEmpty(env.OPENAI_TTS_MODEL)),
    images: Boolean(nonEmpty(env.OPENAI_IMAGE_MODEL)),
    vision: Boolean(nonEmpty(env.OPENAI_VISION_MODEL)),
    hooks: Boolean(nonEmpty(env.OPENAI_TEXT_MODEL)),
    lipsync: Boolean(nonEmpty(env.FAL_KEY)),
  };
}

/**
 * Builds the stage instances. Throws at startup on a malformed OPENAI_BASE_URL / FAL_BASE_URL rather than at the
 * first job. `options.fetch` replaces global fetch (tests).
 */
export function createEngineConfig(env: Env = process.env, options: { fetch?: FetchFn } = {}): EngineConfig {
  const remote = remoteStagesFromEnv(env);
  const anyOpenAI = remote.voice || remote.images || remote.vision || remote.hooks;
  const openai = anyOpenAI ? { ...openAIConfigFromEnv(env), fetch: options.fetch } : null;
  const fal = remote.lipsync ? falConfigFromEnv(env) : null;
  const at = openai ? `OpenAI-compatible ${openai.baseUrl}` : '';
  return {
    remote,
    voice: openai && remote.voice ? new OpenAIVoice(openai) : localVoice,
    images: openai && remote.images ? new OpenAIImages(openai) : null,
    vision: openai && remote.vision ? new OpenAIVision(openai) : null,
    hooks: openai?.textModel && remote.hooks ? new OpenAIHookWriter({ ...openai, textModel: openai.textModel }) : null,
    lipsync: fal ? new FalLipSync({ ...fal, fetch: options.fetch }) : null,
    summary: [
      `voice: ${remote.voice ? `remote (${at}, ${openai!.ttsModel}${openai!.ttsVoice ? `, voice ${openai!.ttsVoice}` : ''})` : 'local (festival / eSpeak-NG)'}`,
      `images: ${remote.images ? `remote (${at}, ${openai!.imageModel})` : 'local (illustrated character rig)'}`,
      `vision: ${remote.vision ? `remote (${at}, ${openai!.visionModel})` : 'local (mask geometry + colour)'}`,
      `hooks: ${remote.hooks ? `remote (${at}, ${openai!.textModel})` : 'local (rule-based variations)'}`,
      `lipsync: ${fal ? `remote (fal ${fal.baseUrl}, ${fal.model})` : 'local (lip-flap)'}`,
    ],
  };
}

export {
  DEFAULT_FAL_BASE_URL,
  DEFAULT_FAL_LIPSYNC_MODEL,
  FalLipSync,
  MAX_INLINE_BYTES,
  falConfigFromEnv,
  fileAsDataUri,
  type FalConfig,
  type LipSyncProvider,
  type LipSyncRequest,
  type LipSyncResult,
} from './fal.ts';
export {
  DEFAULT_RETRY,
  ProviderError,
  providerMessage,
  requestWithRetry,
  retryAfterMs,
  type FetchFn,
  type HttpRequest,
  type RetryPolicy,
} from './http.ts';
export {
  DEFAULT_IMAGE_SIZE,
  DEFAULT_OPENAI_BASE_URL,
  DEFAULT_TTS_MODEL,
  OpenAIImages,
  OpenAIVision,
  OpenAIVoice,
  PRODUCT_CATEGORIES,
  PRODUCT_SHAPES,
  characterPrompt,
  estimateWordTimings,
  openAIConfigFromEnv,
  parseProductAnalysis,
  type ImageGenerationRequest,
  type ImageGenerationResult,
  type ImageGenerator,
  type OpenAIConfig,
  type ProductAnalysis,
  type ProductAnalyzer,
} from './openai.ts';
export { OpenAIHookWriter, hookWriterPrompt, parseHookLines, type HookWriter } from './hook-writer.ts';
