import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_CAPTION_STYLE, type Box, type CaptionStyle, type QualityReport } from '@hookreel/contracts';
import sharp from 'sharp';
import type { ActorSpec } from './actors/index.ts';
import type { RigBoxes } from './actors/rig.ts';
import { rigActor, type CameraShot } from './motion/index.ts';
import { boxAtTime } from './motion/timeline.ts';
import type { ProviderUsage } from './remote/usage.ts';
import { toSrt, toVtt } from './captions/index.ts';
import { compositeProduct, frameOf, type Placement } from './composite/index.ts';
import { actorBoxesInVideo, frameToVideo, PORTRAIT_BOXES } from './layout/actor-boxes.ts';
import { layoutToAss } from './layout/ass.ts';
import { computeLayout, END_CARD_SEC, type ActorBoxes, type VideoLayout } from './layout/index.ts';
import type { LipSyncProvider } from './remote/fal.ts';
import { prepareAudio } from './render/audio.ts';
import { CAMERA, renderVideo, type RenderInput } from './render/index.ts';
import { analyseVideo, reportTaps } from './report/index.ts';
import { produceAtomic } from './util/files.ts';
import { FRAME_HEIGHT, FRAME_WIDTH, VIDEO_HEIGHT, VIDEO_WIDTH } from './types.ts';
import type { Accent, Gender, Language, WordTiming } from './types.ts';
import { localVoice, type VoiceSynthesizer } from './voice/index.ts';
import { dropEmoji } from './voice/text.ts';

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
  /**
   * Where the product already is in a photo actor (576x1024 frame), so text keeps off it and the end card can
   * show it. Ignored when `product` is given (its box is measured from the composite).
   */
  productFrameBox?: Box | null;
  /** Shown on screen as the hook sticker for its beat; captions take over after it. */
  hookText?: string | null;
  /** Caption preset (docs/video-design.md#caption-styles); word-by-word highlight by default. */
  captionStyle?: CaptionStyle;
  /** A music bed (MP3/WAV/M4A already checked by the caller), looped or trimmed and ducked under the voice. */
  musicPath?: string | null;
  /** The call to action of an end card shown for the last 1.5 s (product picture + this line); none when empty. */
  cta?: string | null;
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
  /** Six frames of the video in a 3x2 JPEG. */
  contactSheetPath: string;
  /** What was measured on the finished video; a 'fail' check is a bug (docs/video-design.md#quality-report). */
  report: QualityReport;
  layout: VideoLayout;
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
export async function renderTalkingVideo(given: TalkingVideoInput): Promise<TalkingVideoOutput> {
  const input = withoutEmoji(given);
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

  report(0.2, 'Preparing the actor');
  const usage: ProviderUsage[] = [];
  const billed = async (u: ProviderUsage) => {
    usage.push(u);
    await input.onUsage?.(u);
  };
  if (voice.usage) await billed(voice.usage);
  const speechEnd = voice.durationSec + 0.4;
  const durationSec = speechEnd + (input.cta?.trim() ? END_CARD_SEC : 0);
  const frames = await prepareFrames(input, dir, voice.words, durationSec);
  let visual: RenderInput['visual'] = frames.visual;
  if (visual.kind === 'photo' && input.lipSync) {
    report(0.25, 'Lip-syncing the actor');
    const clip = await input.lipSync.lipSync({
      imagePath: visual.imagePath,
      audioPath: voice.wavPath,
      outPath: path.join(dir, 'lipsync.mp4'),
      signal: input.signal,
    });
    await billed(clip.usage);
    visual = { kind: 'clip', videoPath: clip.videoPath, posterSourcePath: visual.imagePath };
  }

  report(0.3, 'Laying out the frame');
  const layout = computeLayout({
    width: VIDEO_WIDTH,
    height: VIDEO_HEIGHT,
    actor: actorBoxesInVideo(frames.actorBoxes),
    product: frames.productBox ? frameToVideo(frames.productBox) : null,
    camera: CAMERA[visual.kind],
    view: frames.rig ? rigView(frames.rig, frames.productBox) : undefined,
    cuts: frames.rig ? cutsOf(frames.rig.shots) : undefined,
    words: voice.words,
    durationSec,
    hookText: input.hookText ?? null,
    captionStyle: input.captionStyle ?? DEFAULT_CAPTION_STYLE,
    watermark: input.watermark ? 'Hookreel · Free trial' : null,
    cta: input.cta?.trim() || null,
  });
  const assPath = path.join(dir, 'captions.ass');
  const srtPath = path.join(dir, 'captions.srt');
  const vttPath = path.join(dir, 'captions.vtt');
  await writeFile(assPath, layoutToAss(layout));
  await writeFile(srtPath, toSrt(voice.words));
  await writeFile(vttPath, toVtt(voice.words));

  report(0.32, 'Levelling the sound');
  const audioPath = path.join(dir, 'audio.wav');
  const { gainDb: audioGainDb } = await prepareAudio({
    voicePath: voice.wavPath,
    musicPath: input.musicPath ?? null,
    durationSec,
    outPath: audioPath,
    signal: input.signal,
  });

  report(0.35, 'Rendering the video');
  const videoPath = path.join(dir, 'video.mp4');
  const posterPath = path.join(dir, 'poster.jpg');
  const contactSheetPath = path.join(dir, 'contact-sheet.jpg');
  const mouthRawPath = path.join(dir, 'mouth.gray');
  const endCardImagePath = layout.endCard?.product ? await endCardImage(input, frames, dir) : null;
  // The report's poster, contact sheet and lip-motion samples come out of the same ffmpeg run as the video.
  await produceAtomic(posterPath, (posterTmp) =>
    produceAtomic(contactSheetPath, (sheetTmp) =>
      renderVideo({
        visual,
        audioPath,
        audioGainDb,
        durationSec,
        words: voice.words,
        layout,
        assPath,
        endCardImagePath,
        outPath: videoPath,
        workDir: dir,
        signal: input.signal,
        onProgress: (f) => report(0.35 + f * 0.6, 'Rendering the video'),
        taps: (tap) =>
          reportTaps({
            input: tap,
            layout,
            durationSec,
            posterPath: posterTmp,
            contactSheetPath: sheetTmp,
            mouthRawPath,
          }),
      }),
    ),
  );
  report(0.96, 'Checking the video');
  const quality = await analyseVideo({
    videoPath,
    layout,
    words: voice.words,
    mouthRawPath,
    signal: input.signal,
  });
  report(1, 'Video ready');
  return {
    videoPath,
    posterPath,
    contactSheetPath,
    report: quality,
    layout,
    assPath,
    srtPath,
    vttPath,
    durationSec,
    words: voice.words,
    rig: frames.rig,
    usage,
  };
}

/** The camera's cuts: where a shot starts at a different zoom or centre than the previous one ended. */
const cutsOf = (shots: readonly CameraShot[]): number[] =>
  shots
    .filter(
      (s, i) =>
        i > 0 &&
        (Math.abs(s.zoomFrom - shots[i - 1]!.zoomTo) > 0.03 || s.cx !== shots[i - 1]!.cx || s.cy !== shots[i - 1]!.cy),
    )
    .map((s) => s.startSec);

/** Where the rig's face and product are on screen at time t: its boxes through the camera's shots. */
function rigView(rig: NonNullable<PreparedFrames['rig']>, product: Box | null) {
  return (t: number) => ({
    face: boxAtTime(rig.boxes.face, rig.shots, t, VIDEO_WIDTH, VIDEO_HEIGHT),
    mouth: boxAtTime(rig.boxes.mouth, rig.shots, t, VIDEO_WIDTH, VIDEO_HEIGHT),
    product: product ? boxAtTime(product, rig.shots, t, VIDEO_WIDTH, VIDEO_HEIGHT) : null,
  });
}

interface PreparedFrames {
  visual: Extract<RenderInput['visual'], { kind: 'rig' | 'photo' }>;
  rig: TalkingVideoOutput['rig'];
  /** The still the end card may crop the product from. */
  stillPath: string;
  actorBoxes: ActorBoxes;
  /** The product's box in the 576x1024 frame, or null. */
  productBox: Box | null;
}

async function prepareFrames(
  input: TalkingVideoInput,
  dir: string,
  words: WordTiming[],
  durationSec: number,
): Promise<PreparedFrames> {
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
      stillPath: rig.posterSourcePath,
      actorBoxes: { face: rig.boxes.face, mouth: rig.boxes.mouth, body: rig.boxes.body },
      productBox: rig.boxes.product,
    };
  }
  const imagePath = path.join(dir, 'frame.png');
  let productBox: Box | null = input.productFrameBox ?? null;
  if (input.product) {
    const maskPath = path.join(dir, 'product-mask.png');
    await compositeProduct({
      actorPath: input.actor.imagePath,
      productPath: input.product.cutoutPath,
      placement: input.product.placement,
      outPath: imagePath,
      maskPath,
    });
    productBox = await maskBox(maskPath);
  } else {
    await frameOf(input.actor.imagePath).png().toFile(imagePath);
  }
  return {
    visual: { kind: 'photo', imagePath },
    rig: null,
    stillPath: imagePath,
    actorBoxes: PORTRAIT_BOXES,
    productBox,
  };
}

/** Bounding box of the white pixels of a 576x1024 product mask; null when the product is outside the frame. */
async function maskBox(maskPath: string): Promise<Box | null> {
  const { data, info } = await sharp(maskPath).greyscale().raw().toBuffer({ resolveWithObject: true });
  let x0 = info.width;
  let y0 = info.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (data[y * info.width + x]! > 32) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  return x1 < 0 ? null : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/**
 * The end card's product picture: the cut-out trimmed to the product, or, when the actor photo already holds it,
 * the product's box cropped from the still with rounded corners.
 */
async function endCardImage(input: TalkingVideoInput, frames: PreparedFrames, dir: string): Promise<string | null> {
  const out = path.join(dir, 'end-card-product.png');
  if (input.product) {
    await sharp(input.product.cutoutPath).ensureAlpha().trim().png().toFile(out);
    return out;
  }
  const b = frames.productBox;
  if (!b) return null;
  const left = Math.max(0, Math.floor(b.x));
  const top = Math.max(0, Math.floor(b.y));
  const width = Math.min(FRAME_WIDTH - left, Math.ceil(b.w));
  const height = Math.min(FRAME_HEIGHT - top, Math.ceil(b.h));
  if (width < 4 || height < 4) return null;
  const r = Math.round(Math.min(width, height) * 0.08);
  const mask = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" rx="${r}" fill="#fff"/></svg>`,
  );
  await sharp(frames.stillPath)
    .extract({ left, top, width, height })
    .ensureAlpha()
    .composite([{ input: mask, blend: 'dest-in' }])
    .png()
    .toFile(out);
  return out;
}

/** Emoji are neither spoken nor drawn (see dropEmoji): script, hook and CTA lose them before anything renders. */
function withoutEmoji(input: TalkingVideoInput): TalkingVideoInput {
  return {
    ...input,
    script: dropEmoji(input.script),
    hookText: input.hookText == null ? input.hookText : dropEmoji(input.hookText),
    cta: input.cta == null ? input.cta : dropEmoji(input.cta),
  };
}
