import path from 'node:path';
import type { Accent, Language } from '@hookreel/contracts';
import { actorFromDescription, renderTalkingVideo, type Placement } from '@hookreel/engine';
import { engineConfig, rigSpecOf, type RigActorRef } from './media.ts';
import { PermanentJobError } from './registry.ts';

/** The project data a render needs, reloaded from the database when the job runs. */
export interface ProjectForRender {
  id: number;
  name: string;
  script: string;
  language: string;
  accent: string;
  /** Storage key of the project's reference image, if any. */
  fileKey: string | null;
}

export interface RenderProjectVideoInput {
  userId: number;
  jobId: number;
  project: ProjectForRender;
  /**
   * The actor still to animate (local path; already holding the product when merged), or null for a generated
   * one. `rig`: the actor is one the engine draws (a catalogue actor), so it is animated as a talking rig holding
   * the product (local paths) instead of moving the still.
   */
  actor: {
    imagePath: string;
    gender: 'male' | 'female';
    rig?: { actor: RigActorRef; product: { cutoutPath: string; placement: Placement } | null } | null;
  } | null;
  watermark: boolean;
  /** Scratch directory for this run (removed afterwards); write outputs here. */
  workDir: string;
  signal: AbortSignal;
  onProgress(percent: number, logLine?: string): Promise<void>;
}

export interface RenderOutput {
  /** Local path of the finished MP4. */
  videoPath: string;
  /** Local path of a poster JPEG, if the engine made one. */
  posterPath?: string | null;
}

/**
 * The real work behind the job handlers, injected through the context (`ctx.engine`) so the server does not
 * depend on how rendering is done. The lead wires packages/engine's pipeline here; tests inject a fast one.
 */
export interface JobEngine {
  renderProjectVideo(input: RenderProjectVideoInput): Promise<RenderOutput>;
}

/** The local engine: the project's script spoken by the actor, with captions, as a real MP4. */
export const localJobEngine: JobEngine = {
  async renderProjectVideo(input) {
    if (!input.project.script.trim()) throw new PermanentJobError('The project has no script to speak');
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
      watermark: input.watermark,
      voice: engineConfig().voice,
      lipSync: engineConfig().lipsync,
      workDir: path.join(input.workDir, 'render'),
      signal: input.signal,
      onProgress: (fraction, message) => void input.onProgress(fraction * 100, message),
    });
    return { videoPath: out.videoPath, posterPath: out.posterPath };
  },
};
