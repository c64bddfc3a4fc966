import path from 'node:path';
import type { Accent, Language } from '@hookreel/contracts';
import {
  ContentRuleError,
  ProviderError,
  actorFromDescription,
  renderTalkingVideo,
  type ProviderUsage,
} from '@hookreel/engine';
import { engineConfig } from './media.ts';
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
  /** The actor still to animate (local path; already holding the product when merged), or null for a generated one. */
  actor: { imagePath: string; gender: 'male' | 'female' } | null;
  watermark: boolean;
  /** Scratch directory for this run (removed afterwards); write outputs here. */
  workDir: string;
  signal: AbortSignal;
  onProgress(percent: number, logLine?: string): Promise<void>;
  /** One billable provider call (voice characters, avatar seconds…), recorded on the job as it happens. */
  onUsage?(usage: ProviderUsage): Promise<void>;
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
    const out = await withProviderErrors(() =>
      renderTalkingVideo({
        script: input.project.script,
        language: input.project.language as Language,
        accent: input.project.accent as Accent,
        actor: input.actor
          ? { kind: 'photo', imagePath: input.actor.imagePath, gender: input.actor.gender }
          : { kind: 'procedural', spec: actorFromDescription(input.project.name, 0) },
        watermark: input.watermark,
        voice: engineConfig().voice,
        lipSync: engineConfig().lipsync,
        workDir: path.join(input.workDir, 'render'),
        signal: input.signal,
        onProgress: (fraction, message) => void input.onProgress(fraction * 100, message),
        onUsage: input.onUsage,
      }),
    );
    return { videoPath: out.videoPath, posterPath: out.posterPath };
  },
};

/**
 * Provider failures as job failures a person can read. A refusal (bad key, bad input, content rules, a model that
 * answered without a result) will not change on retry: it fails the job at once, which releases its credits.
 * Rate limits, 5xx and timeouts that outlasted the adapter's own retries are left to the runner's retry with
 * backoff. The message never holds a key (adapters redact them).
 */
export async function withProviderErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ContentRuleError) throw new PermanentJobError(err.message);
    if (err instanceof ProviderError) {
      const refused =
        (err.status !== null && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429) ||
        err.code === 'no_image' ||
        err.code === 'FAILED';
      const text = `Provider error (${err.provider}): ${err.message}`;
      if (refused) throw new PermanentJobError(text);
      throw new Error(text, { cause: err });
    }
    throw err;
  }
}
