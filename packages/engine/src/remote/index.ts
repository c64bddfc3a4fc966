/**
 * Which stages run remotely, decided from the environment — one switch per stage, local when it is absent:
 *
 * | stage     | remote when                          | provider                                             |
 * |-----------|--------------------------------------|------------------------------------------------------|
 * | voice     | ELEVENLABS_API_KEY                   | ElevenLabs with-timestamps (exact word timings)      |
 * |           | else OPENAI_API_KEY or OPENAI_TTS_MODEL | OpenAI-compatible /audio/speech (estimated timings) |
 * | images    | OPENAI_IMAGE_MODEL                   | OpenAI-compatible /images/generations                |
 * | placement | OPENAI_EDIT_MODEL                    | OpenAI-compatible /images/edits                      |
 * |           | else GEMINI_API_KEY                  | Gemini generateContent (image model)                 |
 * | vision    | OPENAI_VISION_MODEL                  | OpenAI-compatible /chat/completions                  |
 * | hooks     | OPENAI_TEXT_MODEL                    | OpenAI-compatible /chat/completions                  |
 * | lipsync   | FAL_KEY                              | fal.ai queue API (avatar model for stills)           |
 *
 * OPENAI_TTS_MODEL alone is enough for keyless local servers; OPENAI_BASE_URL points every OpenAI stage elsewhere.
 */
import { localVoice, type VoiceSynthesizer } from '../voice/index.ts';
import { ElevenLabsVoice, elevenLabsConfigFromEnv } from './elevenlabs.ts';
import { FalLipSync, falConfigFromEnv, type LipSyncProvider } from './fal.ts';
import {
  GeminiImageEdit,
  OpenAIImageEdit,
  geminiConfigFromEnv,
  openAIEditSettingsFromEnv,
  type ProductPlacer,
} from './image-edit.ts';
import type { FetchFn } from './http.ts';
import { OpenAIHookWriter, type HookWriter } from './hook-writer.ts';
import { OpenAITraitReader, type TraitReader } from './trait-reader.ts';
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
export type RemoteStage = 'voice' | 'images' | 'placement' | 'vision' | 'hooks' | 'lipsync';

export interface RemoteStages {
  voice: boolean;
  images: boolean;
  placement: boolean;
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
  /** The actor holding the product, photoreal; null → the local composite (`compositeProduct`). */
  placement: ProductPlacer | null;
  /** Product shape/category; null → the heuristic result `cutoutProduct` already returns. */
  vision: ProductAnalyzer | null;
  /** Hook variations for a pack; null → the local rule-based writer (contracts writeHookVariants). */
  hooks: HookWriter | null;
  /** Character traits from a description; null → the rule-based reader (`statedTraits`). Same switch as hooks. */
  traits: TraitReader | null;
  /** Talking actor; null → local lip-flap render. */
  lipsync: LipSyncProvider | null;
  /** Who does each remote stage ("ElevenLabs", "OpenAI-compatible", "Gemini", "fal"), null when local. No URLs. */
  providers: Record<RemoteStage, string | null>;
  /** Whether the voice's word timings come from the provider (exact) or are estimated from the audio. */
  wordTimings: 'exact' | 'estimated';
  /** One line per stage for startup logs, e.g. "voice: remote (OpenAI-compatible https://api.openai.com/v1, gpt-4o-mini-tts)". Never contains keys. */
  summary: string[];
}

/** Which stages are remote, from the env alone (no instances, nothing validated). */
export function remoteStagesFromEnv(env: Env = process.env): RemoteStages {
  return {
    voice: Boolean(nonEmpty(env.ELEVENLABS_API_KEY) ?? nonEmpty(env.OPENAI_API_KEY) ?? nonEmpty(env.OPENAI_TTS_MODEL)),
    images: Boolean(nonEmpty(env.OPENAI_IMAGE_MODEL)),
    placement: Boolean(nonEmpty(env.OPENAI_EDIT_MODEL) ?? nonEmpty(env.GEMINI_API_KEY)),
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
  const eleven = elevenLabsConfigFromEnv(env);
  const edit = openAIEditSettingsFromEnv(env);
  const editModel = edit?.model;
  const gemini = editModel ? null : geminiConfigFromEnv(env);
  const openaiVoice = remote.voice && !eleven;
  const anyOpenAI = openaiVoice || remote.images || remote.vision || remote.hooks || Boolean(editModel);
  const openai = anyOpenAI ? { ...openAIConfigFromEnv(env), fetch: options.fetch } : null;
  const fal = remote.lipsync ? falConfigFromEnv(env) : null;
  const at = openai ? `OpenAI-compatible ${openai.baseUrl}` : '';
  const voice: VoiceSynthesizer = eleven
    ? new ElevenLabsVoice({ ...eleven, fetch: options.fetch })
    : openai && openaiVoice
      ? new OpenAIVoice(openai)
      : localVoice;
  const placement: ProductPlacer | null =
    openai && edit
      ? new OpenAIImageEdit({ baseUrl: openai.baseUrl, apiKey: openai.apiKey, ...edit, fetch: options.fetch })
      : gemini
        ? new GeminiImageEdit({ ...gemini, fetch: options.fetch })
        : null;
  const voiceSummary = eleven
    ? `remote (ElevenLabs ${eleven.baseUrl}, ${eleven.model}, word timings from the provider)`
    : openaiVoice
      ? `remote (${at}, ${openai!.ttsModel}${openai!.ttsVoice ? `, voice ${openai!.ttsVoice}` : ''}, estimated word timings)`
      : 'local (festival / eSpeak-NG)';
  return {
    remote,
    voice,
    images: openai && remote.images ? new OpenAIImages(openai) : null,
    placement,
    vision: openai && remote.vision ? new OpenAIVision(openai) : null,
    hooks: openai?.textModel && remote.hooks ? new OpenAIHookWriter({ ...openai, textModel: openai.textModel }) : null,
    traits:
      openai?.textModel && remote.hooks ? new OpenAITraitReader({ ...openai, textModel: openai.textModel }) : null,
    lipsync: fal ? new FalLipSync({ ...fal, fetch: options.fetch }) : null,
    providers: {
      voice: eleven ? 'ElevenLabs' : openaiVoice ? 'OpenAI-compatible' : null,
      images: remote.images ? 'OpenAI-compatible' : null,
      placement: editModel ? 'OpenAI-compatible' : gemini ? 'Gemini' : null,
      vision: remote.vision ? 'OpenAI-compatible' : null,
      hooks: remote.hooks ? 'OpenAI-compatible' : null,
      lipsync: fal ? 'fal' : null,
    },
    // festival and eSpeak-NG report their own word timings; only the OpenAI-compatible voice has to guess.
    wordTimings: openaiVoice ? 'estimated' : 'exact',
    summary: [
      `voice: ${voiceSummary}`,
      `images: ${remote.images ? `remote (${at}, ${openai!.imageModel})` : 'local (illustrated character rig)'}`,
      `placement: ${editModel ? `remote (${at} /images/edits, ${editModel})` : gemini ? `remote (Gemini ${gemini.baseUrl}, ${gemini.model})` : 'local (composite)'}`,
      `vision: ${remote.vision ? `remote (${at}, ${openai!.visionModel})` : 'local (mask geometry + colour)'}`,
      `hooks: ${remote.hooks ? `remote (${at}, ${openai!.textModel})` : 'local (rule-based variations)'}`,
      `lipsync: ${fal ? `remote (fal ${fal.baseUrl}, stills ${fal.model}, clips ${fal.videoModel ?? fal.model})` : 'local (lip-flap)'}`,
    ],
  };
}

/** Why Realistic cannot run here: one reason per missing stage, empty when it can. */
export interface RealisticAvailability {
  /** Product-in-hand and project videos: photoreal placement, a remote voice and a talking-actor model. */
  videos: { available: boolean; missing: string[] };
  /** Hook packs also need photoreal characters from a description. */
  hookPacks: { available: boolean; missing: string[] };
}

export function realisticAvailability(remote: RemoteStages): RealisticAvailability {
  const missing: string[] = [];
  if (!remote.placement) missing.push('Product in hand: set OPENAI_EDIT_MODEL or GEMINI_API_KEY');
  if (!remote.voice) missing.push('Voice: set ELEVENLABS_API_KEY (or an OpenAI-compatible voice)');
  if (!remote.lipsync) missing.push('Talking actor: set FAL_KEY');
  const packMissing = [...missing];
  if (!remote.images) packMissing.push('Characters: set OPENAI_IMAGE_MODEL');
  return {
    videos: { available: missing.length === 0, missing },
    hookPacks: { available: packMissing.length === 0, missing: packMissing },
  };
}

export {
  DEFAULT_FAL_AVATAR_MODEL,
  DEFAULT_FAL_BASE_URL,
  DEFAULT_FAL_LIPSYNC_MODEL,
  FalLipSync,
  falAppId,
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
export { MODEL_HOOK_MAX, OpenAIHookWriter, hookWriterPrompt, parseHookLines, type HookWriter } from './hook-writer.ts';
export {
  ContentRuleError,
  INVENTED_PERSON_FRAMING,
  NAMED_PERSON_MESSAGE,
  assertInventedPerson,
} from './content-rules.ts';
export {
  DEFAULT_ELEVENLABS_BASE_URL,
  DEFAULT_ELEVENLABS_MODEL,
  ELEVENLABS_VOICES,
  ElevenLabsVoice,
  MAX_VOICE_SPEED,
  MIN_VOICE_SPEED,
  clampSpeed,
  elevenLabsConfigFromEnv,
  elevenLabsVoiceFor,
  wordsFromAlignment,
  type ElevenLabsConfig,
} from './elevenlabs.ts';
export {
  DEFAULT_GEMINI_BASE_URL,
  DEFAULT_GEMINI_IMAGE_MODEL,
  GeminiImageEdit,
  OpenAIImageEdit,
  geminiConfigFromEnv,
  placementMask,
  placementPrompt,
  productBox,
  type GeminiConfig,
  type OpenAIEditConfig,
  type PlacementEditRequest,
  type PlacementEditResult,
  type ProductPlacer,
} from './image-edit.ts';
export { formatUsage, type ProviderUsage, type UsageStage } from './usage.ts';
export {
  OpenAITraitReader,
  parseTraits,
  traitReaderPrompt,
  type StatedTraits,
  type TraitReader,
} from './trait-reader.ts';
