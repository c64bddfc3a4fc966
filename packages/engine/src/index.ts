/** The generation engine: media stages with local implementations (offline, real media) and remote adapters. */
export * from './types.ts';
export {
  ACTOR_STYLES,
  BACKGROUNDS,
  HAND_ANCHOR,
  actorFromDescription,
  actorFromSeed,
  catalogueActorDescription,
  catalogueActorSpec,
  rankCatalogueActors,
  renderActorPortrait,
  type ActorSpec,
  type ActorStyle,
  type Background,
  type Race,
} from './actors/index.ts';
export { groupWords, toSrt, toVtt } from './captions/index.ts';
export {
  CAPTION_STYLE_SPECS,
  END_CARD_SEC,
  checkLayout,
  computeLayout,
  safeZone,
  type ActorBoxes,
  type CameraMotion,
  type LayoutInput,
  type VideoLayout,
} from './layout/index.ts';
export { PORTRAIT_BOXES, actorBoxesInVideo, frameToVideo, rotatedBox } from './layout/actor-boxes.ts';
export { layoutToAss } from './layout/ass.ts';
export { analyseVideo, hardFailures } from './report/index.ts';
export { prepareAudio } from './render/audio.ts';
export {
  AGE_BANDS,
  HAIR_COLOURS,
  HAIR_STYLES,
  SKIN_TONES,
  describeTraits,
  mergeStated,
  statedTraits,
  traitMatchScore,
  traitsFor,
  type ActorTraits,
  type AgeBand,
  type StatedTraitsOf,
} from './actors/traits.ts';
export { VISEMES, rigBoxes, type Box as RigBox, type RigBoxes, type RigPose, type Viseme } from './actors/rig.ts';
export {
  boxAtTime,
  cameraAt,
  measureMouthMotion,
  renderHoldingPortrait,
  rigActor,
  type CameraShot,
  type RiggedActor,
} from './motion/index.ts';
export { compositeProduct, faceInFrame, frameOf, type Placement } from './composite/index.ts';
export { cutoutProduct, type CutoutResult, type ProductCategory, type ProductShape } from './cutout/index.ts';
export { CAMERA, mouthTimeline, renderVideo } from './render/index.ts';
export {
  renderTalkingVideo,
  type AspectOutput,
  type BrandLook,
  type TalkingActor,
  type TalkingVideoInput,
  type TalkingVideoOutput,
} from './pipeline.ts';
export { CAPTION_FONT_FILES, layoutFontFor } from './layout/font.ts';
export { safeZoneFor, scaleLayout, workingFrame } from './layout/aspect.ts';
export {
  availableVoices,
  localVoice,
  resolveVoice,
  type VoiceRequest,
  type VoiceResult,
  type VoiceSynthesizer,
} from './voice/index.ts';
export { BUILT_IN_VOICES, pickVoice, type VoiceEngine, type VoiceInfo } from './voice/catalog.ts';
export { setOperatorVoices, type OperatorVoice } from './voice/operator.ts';
export { loadPiperVoices, PIPER_RANK, type RefusedVoice } from './voice/piper/load.ts';
export type { PiperTiming, PiperVoice } from './voice/piper/voice.ts';
export { OWN_VOICE_MAX_SEC, ownVoice, type OwnVoiceOptions, type OwnVoiceTiming } from './voice/own.ts';
export { folderVoiceStore, sharedVoice, voiceKey, type StoredVoiceMeta, type VoiceStore } from './voice/shared.ts';
export { FFMPEG, ffprobe, mediaDurationSec } from './util/media.ts';
export { runProcess } from './util/process.ts';
export {
  FalLipSync,
  OpenAIImages,
  OpenAIVision,
  OpenAIVoice,
  OpenAITraitReader,
  parseTraits,
  type StatedTraits,
  type TraitReader,
  PRODUCT_CATEGORIES,
  PRODUCT_SHAPES,
  ProviderError,
  ContentRuleError,
  ElevenLabsVoice,
  GeminiImageEdit,
  MAX_VOICE_SPEED,
  MIN_VOICE_SPEED,
  NAMED_PERSON_MESSAGE,
  OpenAIImageEdit,
  assertInventedPerson,
  characterPrompt,
  createEngineConfig,
  formatUsage,
  realisticAvailability,
  remoteStagesFromEnv,
  type EngineConfig,
  type PlacementEditRequest,
  type ProductPlacer,
  type ProviderUsage,
  type RealisticAvailability,
  type FalConfig,
  type ImageGenerationRequest,
  type ImageGenerationResult,
  type ImageGenerator,
  type LipSyncProvider,
  type LipSyncRequest,
  type LipSyncResult,
  type OpenAIConfig,
  type ProductAnalysis,
  type ProductAnalyzer,
  type RemoteStages,
} from './remote/index.ts';
export {
  analyzePortrait,
  descriptorSimilarity,
  judgePortrait,
  warmFaceDetector,
  stopFaceDetector,
  PORTRAIT_LIMITS,
  type PortraitAnalysis,
} from './photo/index.ts';
export {
  AI_KEYWORD,
  PROVENANCE_SOFTWARE,
  REAL_PHOTO_KEYWORD,
  TRAINED_ALGORITHMIC_MEDIA,
  provenanceDescription,
  readProvenance,
  writeProvenance,
  type Provenance,
  type ReadProvenance,
} from './provenance/index.ts';
export type { MouthStills } from './talk/index.ts';
export { makeMouthStills, mouthStillInFrame, mouthStillPrompt, MOUTH_STILL_WORDS } from './talk/mouth-stills.ts';
