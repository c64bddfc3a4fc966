import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ActorSpec } from './actors/index.ts';
import { toAss, toSrt, toVtt } from './captions/index.ts';
import { compositeProduct, frameOf, type Placement } from './composite/index.ts';
import type { RigBoxes } from './actors/rig.ts';
import { rigActor, type CameraShot } from './motion/index.ts';
import type { LipSyncProvider } from './remote/fal.ts';
import type { ProviderUsage } from './remote/usage.ts';
import { renderVideo, type RenderInput } from './render/index.ts';
import type { Accent, Gender, Language, WordTiming } from './types.ts';
import { localVoice, type VoiceSynthesizer } from './voice/index.ts';

export type TalkingActor =
  | { kind: 'procedural'; spec: ActorSpec }
  /** A still (an uploaded avatar, or an actor already holding the product): it gets gentle camera motion. */
  | { kind: 'photo'; imagePath: string; gender: Gender };

export interface TalkingVideoInput {
  /** What the actor says. */
  script: string;
  language: Language;
  accent: Accent;
  actor: TalkingActor;
  /** The cut-out product and where it goes; omitted when the actor image already holds it. */
  product?: { cutoutPath: string; placement: Placement } | null;
  /** Shown on screen for the first seconds. */
  hookText?: string | null;
  watermark: boolean;
  workDir: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number, message: string) => void;
  voice?: VoiceSynthesizer;
  /** Speaking rate 0.8–1.2 for voices that support it (1 = normal). */
  voiceSpeed?: number;
  /** Told about each billable provider call as soon as it returns (the job records it even if a later step fails). */
  onUsage?: (usage: ProviderUsage) => void | Promise<void>;
  /** A lip-sync provider animates a photo actor's mouth to the voice (FAL_KEY); without one, gentle motion. */
  lipSync?: LipSyncProvider | null;
}

export interface TalkingVideoOutput {
  videoPath: string;
  posterPath: string;
  assPath: string;
  srtPath: string;
  vttPath: string;
  durationSec: number;
  words: WordTiming[];
  /** For a rig actor: where face, mouth, body, hand and product are (frame coordinates) and the camera's shots. */
  rig: { boxes: RigBoxes; shots: CameraShot[] } | null;
  /** What remote providers billed for this video (voice characters, avatar seconds); empty when all local. */
  usage: ProviderUsage[];
}

/**
 * Script → voice → captions → frames → MP4. Every output is written under `workDir` with fixed names and moved
 * into place atomically, so running it twice leaves one set of files.
 */
export async function renderTalkingVideo(input: TalkingVideoInput): Promise<TalkingVideoOutput> {
  const dir = input.workDir;
  await mkdir(dir, { recursive: true });
  const report = (f: number, m: string) => input.onProgress?.(Math.max(0, Math.min(1, f)), m);
  const gender = input.actor.kind === 'procedural' ? input.actor.spec.gender : input.actor.gender;

  report(0.02, 'Synthesising the voice');
  const voice = await (input.voice ?? localVoice).synthesize(
    { text: input.script, language: input.language, accent: input.accent, gender, speed: input.voiceSpeed },
    path.join(dir, 'voice'),
    input.signal,
  );

  report(0.25, 'Writing captions');
  const usage: ProviderUsage[] = [];
  const billed = async (u: ProviderUsage) => {
    usage.push(u);
    await input.onUsage?.(u);
  };
  if (voice.usage) await billed(voice.usage);
  const durationSec = voice.durationSec + 0.4;
  const assPath = path.join(dir, 'captions.ass');
  const srtPath = path.join(dir, 'captions.srt');
  const vttPath = path.join(dir, 'captions.vtt');
  await writeFile(
    assPath,
    toAss(voice.words, { hookText: input.hookText ?? undefined, hookUntilSec: Math.min(3, durationSec) }),
  );
  await writeFile(srtPath, toSrt(voice.words));
  await writeFile(vttPath, toVtt(voice.words));

  report(0.3, 'Preparing the actor');
  const prepared = await prepareFrames(input, dir, voice.words, durationSec);
  let visual: RenderInput['visual'] = prepared.visual;
  if (visual.kind === 'photo' && input.lipSync) {
    report(0.32, 'Lip-syncing the actor');
    const clip = await input.lipSync.lipSync({
      imagePath: visual.imagePath,
      audioPath: voice.wavPath,
      outPath: path.join(dir, 'lipsync.mp4'),
      signal: input.signal,
    });
    await billed(clip.usage);
    visual = { kind: 'clip', videoPath: clip.videoPath, posterSourcePath: visual.imagePath };
  }

  report(0.35, 'Rendering the video');
  const videoPath = path.join(dir, 'video.mp4');
  const posterPath = path.join(dir, 'poster.jpg');
  await renderVideo({
    visual,
    voicePath: voice.wavPath,
    durationSec,
    words: voice.words,
    assPath,
    watermark: input.watermark,
    outPath: videoPath,
    posterPath,
    workDir: dir,
    signal: input.signal,
    onProgress: (f) => report(0.35 + f * 0.63, 'Rendering the video'),
  });
  report(1, 'Video ready');
  return {
    videoPath,
    posterPath,
    assPath,
    srtPath,
    vttPath,
    durationSec,
    words: voice.words,
    rig: prepared.rig,
    usage,
  };
}

async function prepareFrames(
  input: TalkingVideoInput,
  dir: string,
  words: WordTiming[],
  durationSec: number,
): Promise<{ visual: RenderInput['visual']; rig: TalkingVideoOutput['rig'] }> {
  if (input.actor.kind === 'procedural') {
    // The rig holds the product itself (fingers over it) and moves: see docs/video-design.md.
    const rig = await rigActor({
      spec: input.actor.spec,
      product: input.product ?? null,
      words,
      totalSec: durationSec,
      hookText: input.hookText,
    });
    return {
      visual: { kind: 'rig', segments: rig.segments, camera: rig.camera, posterSourcePath: rig.posterSourcePath },
      rig: { boxes: rig.boxes, shots: rig.shots },
    };
  }
  const out = path.join(dir, 'frame.png');
  if (input.product) {
    await compositeProduct({
      actorPath: input.actor.imagePath,
      productPath: input.product.cutoutPath,
      placement: input.product.placement,
      outPath: out,
    });
  } else {
    await frameOf(input.actor.imagePath).png().toFile(out);
  }
  return { visual: { kind: 'photo', imagePath: out }, rig: null };
}
