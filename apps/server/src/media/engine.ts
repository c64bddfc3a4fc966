import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ACTORS, type Accent, type Language } from '@hookreel/contracts';
import {
  actorFromDescription,
  actorFromSeed,
  catalogueActorSpec,
  compositeProduct,
  createEngineConfig,
  cutoutProduct,
  formatUsage,
  renderActorPortrait,
  renderHoldingPortrait,
  renderTalkingVideo,
  type ActorSpec,
} from '@hookreel/engine';
import type { MediaPort, RigActorRef } from './port.ts';

let config: ReturnType<typeof createEngineConfig> | null = null;
/**
 * Which stages run remotely, from the environment (OPENAI_*, FAL_KEY; docs/providers.md), built once per process.
 * Voice and product analysis switch here; everything else stays local.
 */
export const engineConfig = (): ReturnType<typeof createEngineConfig> => (config ??= createEngineConfig(process.env));
/** Forgets the built config so the next call reads the environment again (tests that change provider variables). */
export const resetEngineConfig = (): void => {
  config = null;
};

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

/** The media port on packages/engine: real media, offline by default, remote stages where configured. */
export const engineMedia: MediaPort = {
  describeUsage: formatUsage,
  async renderProjectVideo(input) {
    const rigSpec = await rigSpecOf(input.actor?.rig?.actor, input.signal);
    const out = await renderTalkingVideo({
      script: input.project.script,
      language: input.project.language as Language,
      accent: input.project.accent as Accent,
      actor: rigSpec
        ? { kind: 'procedural', spec: rigSpec }
        : input.actor
          ? { kind: 'photo', imagePath: input.actor.imagePath, gender: input.actor.gender }
          : { kind: 'procedural', spec: actorFromDescription(input.project.name, 0) },
      product: rigSpec ? (input.actor?.rig?.product ?? null) : null,
      productFrameBox: rigSpec ? null : (input.actor?.productBox ?? null),
      captionStyle: input.style?.captionStyle,
      cta: input.style?.cta ?? null,
      musicPath: input.style?.musicPath ?? null,
      watermark: input.watermark,
      voice: engineConfig().voice,
      lipSync: engineConfig().lipsync,
      workDir: path.join(input.workDir, 'render'),
      signal: input.signal,
      onProgress: (fraction, message) => void input.onProgress(fraction * 100, message),
      onUsage: input.onUsage,
    });
    return {
      videoPath: out.videoPath,
      posterPath: out.posterPath,
      contactSheetPath: out.contactSheetPath,
      report: out.report,
    };
  },
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
      captionStyle: input.style?.captionStyle,
      cta: input.style?.cta ?? null,
      musicPath: input.style?.musicPath ?? null,
      watermark: input.watermark,
      voice: engineConfig().voice,
      workDir: path.join(input.outDir, 'render'),
      signal: input.signal,
      onProgress: input.onProgress,
    });
    return {
      videoPath: out.videoPath,
      posterPath: out.posterPath,
      srtPath: out.srtPath,
      vttPath: out.vttPath,
      contactSheetPath: out.contactSheetPath,
      report: out.report,
    };
  },
};
