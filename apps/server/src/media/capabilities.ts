import type { Capabilities } from '@hookreel/contracts';
import { MAX_VOICE_SPEED, MIN_VOICE_SPEED, realisticAvailability, type EngineConfig } from '@hookreel/engine';

/**
 * What this server's engine can do, for the browser: which stages run on providers, and whether Realistic can be
 * offered (and, when not, what the operator has to configure). Built from the engine config, so it never holds
 * a key or a provider URL.
 */
export function capabilitiesOf(cfg: EngineConfig): Capabilities {
  const stage = (s: keyof EngineConfig['providers']) => ({
    remote: cfg.remote[s],
    provider: cfg.providers[s],
  });
  const realistic = realisticAvailability(cfg.remote);
  return {
    stages: {
      voice: { ...stage('voice'), word_timings: cfg.wordTimings },
      characters: stage('images'),
      product_in_hand: stage('placement'),
      talking_actor: stage('lipsync'),
      product_analysis: stage('vision'),
      hook_lines: stage('hooks'),
    },
    realistic: { videos: realistic.videos, hook_packs: realistic.hookPacks },
    voice_speed: { min: MIN_VOICE_SPEED, max: MAX_VOICE_SPEED },
  };
}
