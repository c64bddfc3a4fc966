import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  actorFromSeed,
  catalogueActorSpec,
  compositeProduct,
  createEngineConfig,
  cutoutProduct,
  renderActorPortrait,
  renderHoldingPortrait,
  renderTalkingVideo,
  type ActorSpec,
  type Placement,
} from '@hookreel/engine';
import { ACTORS, type Accent, type Language } from '@hookreel/contracts';

/** An actor the engine draws itself (so it can hold the product and talk): a catalogue actor or a seeded one. */
export type RigActorRef = { catalogueActorId: string } | { seed: string; description: string };

/**
 * The engine's spec for a drawn actor, or null (an uploaded photo, a catalogue id that no longer exists). A
 * seeded actor's description is read by the language model when one is configured (OPENAI_TEXT_MODEL), else by
 * the engine's word rules.
 */
export async function rigSpecOf(ref: RigActorRef | null | undefined, signal?: AbortSignal): Promise<ActorSpec | null> {
  if (!ref) return null;
  if ('seed' in ref) return seededActor(ref.seed, ref.description, signal);
  const actor = ACTORS.find((a) => a.id === ref.catalogueActorId);
  return actor ? catalogueActorSpec(actor) : null;
}

async function seededActor(seed: string, description: string, signal?: AbortSignal): Promise<ActorSpec> {
  const reader = engineConfig().traits;
  return actorFromSeed(seed, description, reader ? await reader.read(description, signal) : {});
}

/**
 * What the job handlers need from packages/engine, in one place: handlers speak this interface, and only this
 * file knows the engine's functions. Everything here reads and writes local files.
 */
export interface Media {
  /** Background removal + analysis of a product photo: an RGBA cut-out the photo's size, its mask, shape, category. */
  cutoutProduct(input: { productPath: string; outDir: string; signal: AbortSignal }): Promise<{
    cutoutPath: string;
    maskPath: string;
    shape: string | null;
    category: string | null;
  }>;
  /** A procedural actor portrait (576x1024 PNG); the same seed always gives the same person. */
  renderActor(input: { seed: string; description: string; outPath: string; signal: AbortSignal }): Promise<void>;
  /**
   * The product at a placement in the 576x1024 frame (PNG). A drawn actor (`actor`) is redrawn holding it, fingers
   * over the product; a photo gets the cut-out composited onto it.
   */
  compositeProduct(input: {
    actorPath: string;
    productPath: string;
    placement: Placement;
    outPath: string;
    signal: AbortSignal;
    actor?: RigActorRef | null;
  }): Promise<void>;
  /** A talking procedural actor holding the product: MP4 (720x1280 H.264 + AAC), poster, SRT and VTT. */
  renderHookVideo(input: {
    actorSeed: string;
    actorDescription: string;
    productCutoutPath: string | null;
    placement: Placement | null;
    hookText: string;
    language: string;
    accent: string;
    watermark: boolean;
    outDir: string;
    signal: AbortSignal;
    onProgress(fraction: number, message: string): void;
  }): Promise<{ videoPath: string; posterPath: string | null; srtPath: string | null; vttPath: string | null }>;
}

let config: ReturnType<typeof createEngineConfig> | null = null;
/**
 * Which stages run remotely, from the environment (OPENAI_*, FAL_KEY; docs/providers.md), built once per process.
 * Voice and product analysis switch here; everything else stays local.
 */
export const engineConfig = (): ReturnType<typeof createEngineConfig> => (config ??= createEngineConfig(process.env));

/** The engine (packages/engine): real media, offline by default, remote stages where configured. */
export const engineMedia: Media = {
  async cutoutProduct(input) {
    const r = await cutoutProduct(input);
    const vision = engineConfig().vision;
    const analysis = vision ? await vision.analyse({ imagePath: input.productPath, signal: input.signal }) : r;
    return { cutoutPath: r.cutoutPath, maskPath: r.maskPath, shape: analysis.shape, category: analysis.category };
  },
  async renderActor(input) {
    await writeFile(
      input.outPath,
      await renderActorPortrait(await seededActor(input.seed, input.description, input.signal)),
    );
  },
  async compositeProduct(input) {
    const spec = await rigSpecOf(input.actor, input.signal);
    if (spec) {
      await renderHoldingPortrait({
        spec,
        cutoutPath: input.productPath,
        placement: input.placement,
        outPath: input.outPath,
      });
      return;
    }
    await compositeProduct(input);
  },
  async renderHookVideo(input) {
    const out = await renderTalkingVideo({
      script: input.hookText,
      hookText: input.hookText,
      language: input.language as Language,
      accent: input.accent as Accent,
      actor: { kind: 'procedural', spec: await seededActor(input.actorSeed, input.actorDescription, input.signal) },
      product:
        input.productCutoutPath && input.placement
          ? { cutoutPath: input.productCutoutPath, placement: input.placement }
          : null,
      watermark: input.watermark,
      voice: engineConfig().voice,
      workDir: path.join(input.outDir, 'render'),
      signal: input.signal,
      onProgress: input.onProgress,
    });
    return { videoPath: out.videoPath, posterPath: out.posterPath, srtPath: out.srtPath, vttPath: out.vttPath };
  },
};
