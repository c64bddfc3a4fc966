import { z } from 'zod';

/** One generation stage: whether a remote provider does it here, and which one (never a key or a URL). */
export const StageCapability = z.object({
  remote: z.boolean(),
  /** e.g. "ElevenLabs", "OpenAI-compatible", "Gemini", "fal"; null when local. */
  provider: z.string().nullable(),
});

/** Whether a mode can run on this server, and in plain words what is missing when it cannot. */
export const ModeAvailability = z.object({
  available: z.boolean(),
  missing: z.array(z.string()),
});
export type ModeAvailability = z.infer<typeof ModeAvailability>;

/**
 * GET /api/capabilities: which stages run on providers here, and so whether Realistic can be offered and why not.
 * Draft (the local engine) is always available.
 */
export const Capabilities = z.object({
  stages: z.object({
    voice: StageCapability.extend({ word_timings: z.enum(['exact', 'estimated']) }),
    characters: StageCapability,
    product_in_hand: StageCapability,
    talking_actor: StageCapability,
    product_analysis: StageCapability,
    hook_lines: StageCapability,
  }),
  realistic: z.object({ videos: ModeAvailability, hook_packs: ModeAvailability }),
  /** Voice speed a project may choose (1 = normal). */
  voice_speed: z.object({ min: z.number(), max: z.number() }),
});
export type Capabilities = z.infer<typeof Capabilities>;
