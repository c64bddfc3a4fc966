/**
 * The engine's pure values the server's rules share: constants of the frame and the fonts, geometry, the content
 * rule and the engine's error classes. Nothing here draws, probes or calls a provider (that is the port's work,
 * `ctx.media`), so areas may import these directly; media/ stays the one folder that imports @hookreel/engine.
 */
export {
  CAPTION_FONT_FILES,
  ContentRuleError,
  HAND_ANCHOR,
  NAMED_PERSON_MESSAGE,
  ProviderError,
  assertInventedPerson,
  rotatedBox,
} from '@hookreel/engine';
export type { BrandLook, StoredVoiceMeta, VoiceStore } from '@hookreel/engine';
