import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Accent, Language } from '@hookreel/contracts';
import {
  actorFromDescription,
  actorFromSeed,
  compositeProduct,
  createEngineConfig,
  cutoutProduct,
  renderActorPortrait,
  renderTalkingVideo,
} from '@hookreel/engine';
import type { MediaPort } from './port.ts';

let config: ReturnType<typeof createEngineConfig> | null = null;
/**
 * Which stages run remotely, from the environment (OPENAI_*, FAL_KEY; docs/providers.md), built once per process.
 * Voice and product analysis switch here; everything else stays local.
 */
export const engineConfig = (): ReturnType<typeof createEngineConfig> => (config ??= createEngineConfig(process.env));

/** The media port on packages/engine: real media, offline by default, remote stages where configured. */
export const engineMedia: MediaPort = {
  async renderProjectVideo(input) {
    const out = await renderTalkingVideo({
      script: input.project.script,
      language: input.project.language as Language,
      accent: input.project.accent as Accent,
      actor: input.actor
        ? { kind: 'photo', imagePath: input.actor.imagePath, gender: input.actor.gender }
        : { kind: 'procedural', spec: actorFromDescription(input.project.name, 0) },
      productFrameBox: input.actor ? (input.productFrameBox ?? null) : null,
      captionStyle: input.style?.captionStyle,
      cta: input.style?.cta ?? null,
      musicPath: input.style?.musicPath ?? null,
      watermark: input.watermark,
      voice: engineConfig().voice,
      lipSync: engineConfig().lipsync,
      workDir: path.join(input.workDir, 'render'),
      signal: input.signal,
      onProgress: (fraction, message) => void input.onProgress(fraction * 100, message),
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
    await writeFile(input.outPath, await renderActorPortrait(actorFromSeed(input.seed, input.description)));
  },
  async compositeProduct(input) {
    await compositeProduct(input);
  },
  async renderHookVideo(input) {
    const out = await renderTalkingVideo({
      script: input.hookText,
      hookText: input.hookText,
      language: input.language as Language,
      accent: input.accent as Accent,
      actor: { kind: 'procedural', spec: actorFromSeed(input.actorSeed, input.actorDescription) },
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
