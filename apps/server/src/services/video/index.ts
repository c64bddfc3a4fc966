/**
 * What every video area shares: the look of a video (style, brand kit, music), its file names and quality report,
 * the Realistic rules and prices, and how provider failures read. Other areas import it only through this file.
 */
export { aiColumns } from './ai-labels.ts';
export * from './brand-kit.ts';
export { withEstimatedProgress } from './estimated-progress.ts';
export { asciiSlug, aspectFileName, isSafeFileName, videoFileName } from './file-names.ts';
export { MUSIC_MESSAGES, musicFile, storeUploadedAudio, storeUploadedMusic, type AudioRules } from './music-file.ts';
export { withProviderErrors } from './provider-errors.ts';
export {
  jobAspectVideos,
  qualityLine,
  qualityOfResult,
  storeAspects,
  storeQuality,
  storedAspectsOf,
} from './quality.ts';
export {
  assertInventedCharacters,
  assertRealisticActor,
  assertRealisticAvailable,
  assertSpeechFitsAvatar,
  packUpgradeCredits,
  projectSpeechSeconds,
  projectVideoCredits,
  upgradeCredits,
  type PricedProject,
} from './realistic.ts';
export { extraAspectsOf, localMusic, renderStyleOf, videoStyleOf } from './video-style.ts';
export { filesVoiceStore } from './voice-store.ts';
