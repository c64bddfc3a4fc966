import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  AI_LABEL_TEXT,
  ASPECTS,
  aspectTag,
  DEFAULT_BRAND_COLOURS,
  DEFAULT_CAPTION_STYLE,
  type Aspect,
  type Box,
  type CaptionFont,
  type CaptionStyle,
  type PhotoFace,
  type QualityReport,
} from '@hookreel/contracts';
import sharp from 'sharp';
import type { ActorSpec } from './actors/index.ts';
import type { RigBoxes } from './actors/rig.ts';
import { rigActor, type CameraShot } from './motion/index.ts';
import { photoActor, voiceLoudness, type MouthStills } from './talk/index.ts';
import { readPcmWav } from './render/loudness.ts';
import { warpRing } from './talk/face.ts';
import { filmPlan, filmSegments, type FramedDrawer } from './motion/film.ts';
import { boxAtTime, PUNCH_IN_ZOOM, type CameraKey } from './motion/timeline.ts';
import type { ProviderUsage } from './remote/usage.ts';
import { toSrt, toVtt } from './captions/index.ts';
import { compositeProduct, frameOf, type Placement } from './composite/index.ts';
import { actorBoxesInVideo, frameToVideo, PORTRAIT_BOXES } from './layout/actor-boxes.ts';
import { layoutToAss } from './layout/ass.ts';
import { layoutFontFor } from './layout/font.ts';
import {
  cropShots,
  cropYAt,
  cropYExpression,
  intoCut,
  safeZoneFor,
  scaleLayout,
  shotsForFrame,
  workingFrame,
} from './layout/aspect.ts';
import { type AssLook } from './layout/ass.ts';
import {
  cameraEnvelope,
  computeLayout,
  END_CARD_SEC,
  OUTRO_SEC,
  type ActorBoxes,
  type LayoutInput,
  type VideoLayout,
} from './layout/index.ts';
import type { LipSyncProvider } from './remote/fal.ts';
import { levelGain, prepareAudio } from './render/audio.ts';
import { CAMERA, renderVideo, type RenderInput } from './render/index.ts';
import { analyseVideo, bareTap, reportTaps } from './report/index.ts';
import { produceAtomic } from './util/files.ts';
import { FRAME_HEIGHT, FRAME_WIDTH, VIDEO_HEIGHT, VIDEO_WIDTH } from './types.ts';
import type { Accent, Gender, Language, WordTiming } from './types.ts';
import { availableVoices, localVoice, type VoiceSynthesizer } from './voice/index.ts';
import { dropEmoji } from './voice/text.ts';
import { writeProvenance, type Provenance } from './provenance/index.ts';

export type TalkingActor =
  | { kind: 'procedural'; spec: ActorSpec }
  /** A still (an uploaded avatar, or an actor already holding the product): it gets gentle camera motion. */
  | {
      kind: 'photo';
      imagePath: string;
      gender: Gender;
      /**
       * The photo's face points (found once at upload): with them, and without a lip-sync provider, the photo
       * talks (src/talk); without them it gets gentle camera motion.
       */
      face?: PhotoFace | null;
      /** Real mouth stills by mouth shape, framed like the photo: used instead of warped lips when present. */
      mouthStills?: MouthStills | null;
    };

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
  /** The local voice chosen (an id of availableVoices()); absent: the best for language, accent and the actor. */
  voiceId?: string;
  /** Told about each billable provider call as soon as it returns (the job records it even if a later step fails). */
  onUsage?: (usage: ProviderUsage) => void | Promise<void>;
  /** A lip-sync provider animates a photo actor's mouth to the voice (FAL_KEY); without one, gentle motion. */
  lipSync?: LipSyncProvider | null;
  /** The brand kit's look (docs/video-design.md#brand-kit); the default look when omitted. */
  brand?: BrandLook | null;
  /**
   * Frame shapes to export besides the 9:16 master (4:5, 1:1): each is re-composed from the master's picture
   * with its own text layout and quality report; voice and actor are made once (docs/video-design.md#aspects).
   */
  aspects?: readonly Aspect[];
  /**
   * What the finished MP4s say of themselves (decision 201): every video is marked AI-made in its metadata; this
   * adds whether a real person's photo was animated (false when omitted).
   */
  provenance?: Provenance | null;
}

/** One extra frame shape of a render: its video, pictures, report and the layout it was drawn from. */
export interface AspectOutput {
  aspect: Aspect;
  videoPath: string;
  posterPath: string;
  contactSheetPath: string;
  report: QualityReport;
  /** In the output's pixels. */
  layout: VideoLayout;
}

/** How a brand's videos look: font of the text, two colours (#RRGGBB) and an optional outro card with the logo. */
export interface BrandLook {
  font?: CaptionFont;
  primary?: string;
  secondary?: string;
  /** The logo (PNG or WEBP already checked by the caller); the video ends on an outro card with it when given. */
  outroLogoPath?: string | null;
  /** Draw an "AI-generated" label on the video (docs/ai-labels.md); the caller decides from the brand kit. */
  aiLabel?: boolean;
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
  /** The extra frame shapes asked for, in the order of ASPECTS; empty when only 9:16 was. */
  aspects: AspectOutput[];
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
    {
      text: input.script,
      language: input.language,
      accent: input.accent,
      gender,
      speed: input.voiceSpeed,
      ...(input.voiceId ? { voiceId: input.voiceId } : {}),
    },
    path.join(dir, 'voice'),
    input.signal,
  );

  // Which local voice spoke, by the name the voice picker shows (the job's log says it; a remote voice is the
  // provider's and is named by the provider's stage instead).
  const spoke = (await availableVoices()).find((v) => v.id === voice.voice);
  if (spoke) report(0.19, `Voice: ${spoke.label}`);
  report(0.2, 'Preparing the actor');
  const usage: ProviderUsage[] = [];
  const billed = async (u: ProviderUsage) => {
    usage.push(u);
    await input.onUsage?.(u);
  };
  if (voice.usage) await billed(voice.usage);
  const speechEnd = voice.durationSec + 0.4;
  const outroLogo = input.brand?.outroLogoPath ? await prepareLogo(input.brand.outroLogoPath, dir) : null;
  const durationSec = speechEnd + (input.cta?.trim() ? END_CARD_SEC : 0) + (outroLogo ? OUTRO_SEC : 0);
  const frames = await prepareFrames(input, dir, voice.words, durationSec, voice.wavPath);
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
  const font = layoutFontFor(
    input.brand?.font,
    `${input.hookText ?? ''} ${voice.words.map((w) => w.word).join(' ')} ${input.cta ?? ''}`,
  );
  const text: TextOfVideo = {
    words: voice.words,
    durationSec,
    hookText: input.hookText ?? null,
    captionStyle: input.captionStyle ?? DEFAULT_CAPTION_STYLE,
    watermark: watermarkText(input),
    cta: input.cta?.trim() || null,
    font: font.metrics,
    outro: outroLogo ? { logoAspect: outroLogo.width / outroLogo.height } : null,
  };
  const scene: Scene = {
    actor: actorBoxesInVideo(frames.actorBoxes),
    product: frames.productBox ? frameToVideo(frames.productBox) : null,
    hand: heldHand(frames.rig, frames.productBox),
    camera: CAMERA[visual.kind],
    view: frames.rig ? rigView(frames.rig, frames.productBox) : undefined,
    cuts: frames.rig ? cutsOf(frames.rig.shots) : undefined,
  };
  const layout = computeLayout({ width: VIDEO_WIDTH, height: VIDEO_HEIGHT, ...scene, ...text });
  const assPath = path.join(dir, 'captions.ass');
  const srtPath = path.join(dir, 'captions.srt');
  const vttPath = path.join(dir, 'captions.vtt');
  const look: AssLook = {
    family: font.family,
    metrics: font.metrics,
    primary: input.brand?.primary ?? DEFAULT_BRAND_COLOURS.primary,
    secondary: input.brand?.secondary ?? DEFAULT_BRAND_COLOURS.secondary,
  };
  await writeFile(assPath, layoutToAss(layout, look));
  await writeFile(srtPath, toSrt(voice.words));
  await writeFile(vttPath, toVtt(voice.words));

  // Without a music bed the sound track is the voice, and the encode levels it from its measured loudness
  // (decision 155); a mix, or a voice whose loudness is unknown, is levelled by an ffmpeg run of its own first.
  const levelDb = !input.musicPath && typeof voice.loudnessLufs === 'number' ? levelGain(voice.loudnessLufs) : null;
  let audio: { path: string; gainDb: number; levelDb: number | null };
  if (levelDb !== null) {
    audio = { path: voice.wavPath, gainDb: 0, levelDb };
  } else {
    report(0.32, 'Levelling the sound');
    const mixPath = path.join(dir, 'audio.wav');
    const { gainDb } = await prepareAudio({
      voicePath: voice.wavPath,
      musicPath: input.musicPath ?? null,
      durationSec,
      outPath: mixPath,
      signal: input.signal,
    });
    audio = { path: mixPath, gainDb, levelDb: null };
  }
  const audioPath = audio.path;
  const audioGainDb = audio.gainDb;
  const audioLevelDb = audio.levelDb;

  report(0.35, 'Rendering the video');
  const extraAspects = ASPECTS.filter((a) => a !== '9:16' && input.aspects?.includes(a));
  // The master's encode and each extra shape's take about the same time; the report after each is quick.
  const renderShare = 0.6 / (1 + extraAspects.length);
  const videoPath = path.join(dir, 'video.mp4');
  const posterPath = path.join(dir, 'poster.jpg');
  const contactSheetPath = path.join(dir, 'contact-sheet.jpg');
  const mouthRawPath = path.join(dir, 'mouth.gray');
  const bareRawPath = path.join(dir, 'bare.gray');
  const drawnRawPath = path.join(dir, 'drawn.gray');
  const endCardImagePath = layout.endCard?.product ? await endCardImage(input, frames, dir) : null;
  // The report's poster, contact sheet and lip-motion samples come out of the same ffmpeg run as the video.
  await produceAtomic(posterPath, (posterTmp) =>
    produceAtomic(contactSheetPath, (sheetTmp) =>
      renderVideo({
        visual,
        audioPath,
        audioGainDb,
        audioLevelDb,
        durationSec,
        words: voice.words,
        layout,
        assPath,
        endCardImagePath,
        outroLogoPath: outroLogo?.path ?? null,
        fontDir: font.dir,
        outPath: videoPath,
        workDir: dir,
        signal: input.signal,
        onProgress: (f) => report(0.35 + f * renderShare, 'Rendering the video'),
        taps: (tap) =>
          reportTaps({
            input: tap,
            layout,
            durationSec,
            posterPath: posterTmp,
            contactSheetPath: sheetTmp,
            mouthRawPath,
            drawnRawPath,
          }),
        bareTap: (tap) => bareTap({ input: tap, layout, bareRawPath }),
      }),
    ),
  );
  report(0.35 + renderShare, 'Checking the video');
  const quality = await analyseVideo({
    videoPath,
    layout,
    words: voice.words,
    mouthRawPath,
    productCutoutPath: input.product?.cutoutPath ?? null,
    bareRawPath,
    drawnRawPath,
    photo: frames.talkingFace
      ? {
          face: frames.talkingFace,
          edge: (points) => [warpRing(points.map((q) => [q[0], q[1]] as const)).map(([x, y]) => [x, y, 0])],
        }
      : null,
    signal: input.signal,
  });
  const aspects: AspectOutput[] = [];
  for (const [i, aspect] of extraAspects.entries()) {
    const from = 0.35 + renderShare * (i + 1);
    report(from, `Re-composing for ${aspect}`);
    // A rig's camera is re-planned for the shape (a gentler close-up); its cuts stay where they were.
    const shots = frames.rig ? shotsForFrame(frames.rig.shots, workingFrame(aspect).height) : null;
    aspects.push(
      await renderAspect({
        aspect,
        scene: shots && frames.rig ? { ...scene, view: rigView({ ...frames.rig, shots }, frames.productBox) } : scene,
        text,
        visual:
          shots && visual.kind === 'rig'
            ? { ...visual, ...(await filmedRig(frames.poseSegments, shots, frames.drawFramed!, input.signal)) }
            : visual,
        audioPath,
        audioGainDb,
        audioLevelDb,
        endCardImagePath,
        outroLogoPath: outroLogo?.path ?? null,
        fontDir: font.dir,
        look,
        dir,
        signal: input.signal,
        onProgress: (f) => report(from + f * renderShare, `Re-composing for ${aspect}`),
        // The rig's CTA close-up (zoomed past the punch-in) is about the product.
        productShot: shots
          ? (t) => {
              const s = frames.rig!.shots.find((c) => t >= c.startSec - 1e-6 && t < c.endSec);
              return !!s && s.zoomFrom > PUNCH_IN_ZOOM + 0.01;
            }
          : undefined,
      }),
    );
  }
  // After the last encode: metadata written earlier would not survive ffmpeg's remux.
  report(0.98, 'Labelling the video');
  for (const file of [videoPath, ...aspects.map((a) => a.videoPath)]) {
    await writeProvenance(file, {
      realPersonPhoto: input.provenance?.realPersonPhoto ?? false,
      createdAt: input.provenance?.createdAt,
    });
  }
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
    aspects,
  };
}

/**
 * The corner pill: the visible AI label (docs/ai-labels.md) and, on the free trial, the watermark, sharing one
 * place the layout keeps clear of face and product.
 */
export function watermarkText(input: Pick<TalkingVideoInput, 'watermark' | 'brand'>): string | null {
  const parts = [input.brand?.aiLabel ? AI_LABEL_TEXT : null, input.watermark ? 'Hookreel · Free trial' : null];
  return parts.filter((p): p is string => p !== null).join(' · ') || null;
}

/** What the layout needs to know of the picture: where actor and product are and how the camera moves. */
type Scene = Pick<LayoutInput, 'actor' | 'product' | 'hand' | 'camera' | 'view' | 'cuts'>;
type TextOfVideo = Omit<LayoutInput, keyof Scene | 'width' | 'height' | 'safe' | 'rtl'>;

/**
 * One extra frame shape from the master's picture: cut per shot around face and product, text laid out again
 * for the cut (its own safe zone), one more encode with the same sound track, then its own quality report.
 */
async function renderAspect(input: {
  aspect: Aspect;
  scene: Scene;
  text: TextOfVideo;
  visual: RenderInput['visual'];
  audioPath: string;
  /** prepareAudio's final gain, applied by the encode. */
  audioGainDb: number;
  /** The voice's levelling, applied by the encode (RenderInput.audioLevelDb). */
  audioLevelDb: number | null;
  endCardImagePath: string | null;
  outroLogoPath: string | null;
  fontDir?: string;
  look: AssLook;
  dir: string;
  signal?: AbortSignal;
  onProgress: (fraction: number) => void;
  productShot?: (t: number) => boolean;
}): Promise<AspectOutput> {
  const { aspect, scene, dir } = input;
  const work = workingFrame(aspect);
  const W = VIDEO_WIDTH;
  const H = work.height;
  // Where face, mouth and product are in the master at time t; a still camera's boxes are grown by its motion
  // in the master's own frame before they are cut.
  const masterView = (t: number) => {
    if (scene.view) {
      const v = scene.view(t);
      return { face: v.face, product: v.product, mouth: v.mouth ?? scene.actor.mouth, hand: v.hand ?? null };
    }
    const grow = (b: Box) => cameraEnvelope(b, scene.camera, VIDEO_WIDTH, VIDEO_HEIGHT);
    return {
      face: grow(scene.actor.face),
      product: scene.product ? grow(scene.product) : null,
      mouth: grow(scene.actor.mouth),
      hand: scene.hand ? grow(scene.hand) : null,
    };
  };
  const shots = cropShots({
    cropHeight: H,
    durationSec: input.text.durationSec,
    cuts: scene.cuts ?? [],
    view: masterView,
    productShot: input.productShot,
  });
  const y0 = shots[0]!.y;
  const cut = (b: Box, t: number) => intoCut(b, cropYAt(shots, t), W, H);
  // Face and mouth are moved into the cut but not clamped to it: the layout clamps them for the text and tells
  // from the whole boxes how much of the face the cut shows (the report's face check).
  const shift = (b: Box, t: number): Box => ({ ...b, y: b.y - cropYAt(shots, t) });
  const still = !scene.view;
  const working = computeLayout({
    width: W,
    height: H,
    safe: safeZoneFor(aspect, W, H),
    actor: {
      face: shift(masterView(0).face, 0),
      mouth: shift(masterView(0).mouth, 0),
      body: intoCut(
        still ? cameraEnvelope(scene.actor.body, scene.camera, VIDEO_WIDTH, VIDEO_HEIGHT) : scene.actor.body,
        y0,
        W,
        H,
      ),
    },
    product: masterView(0).product ? cut(masterView(0).product!, 0) : null,
    hand: masterView(0).hand ? cut(masterView(0).hand!, 0) : null,
    // The master's motion is already in the boxes (grown, or followed in time).
    camera: { maxZoom: 1, driftPx: 0 },
    view: still
      ? undefined
      : (t) => {
          const v = masterView(t);
          return {
            face: shift(v.face, t),
            mouth: shift(v.mouth, t),
            product: v.product ? cut(v.product, t) : null,
            hand: v.hand ? cut(v.hand, t) : null,
          };
        },
    // A shot's cut can only change with the camera's cuts, so the camera's cuts are the layout's.
    cuts: scene.cuts,
    ...input.text,
  });
  const tag = aspectTag(aspect);
  const assPath = path.join(dir, `captions-${tag}.ass`);
  await writeFile(assPath, layoutToAss(working, input.look));
  const layout = scaleLayout(working, work.scale);
  const videoPath = path.join(dir, `video-${tag}.mp4`);
  const posterPath = path.join(dir, `poster-${tag}.jpg`);
  const contactSheetPath = path.join(dir, `contact-sheet-${tag}.jpg`);
  const mouthRawPath = path.join(dir, `mouth-${tag}.gray`);
  const bareRawPath = path.join(dir, `bare-${tag}.gray`);
  const drawnRawPath = path.join(dir, `drawn-${tag}.gray`);
  await produceAtomic(posterPath, (posterTmp) =>
    produceAtomic(contactSheetPath, (sheetTmp) =>
      renderVideo({
        visual: input.visual,
        audioPath: input.audioPath,
        audioGainDb: input.audioGainDb,
        audioLevelDb: input.audioLevelDb,
        durationSec: input.text.durationSec,
        words: input.text.words,
        layout,
        assPath,
        endCardImagePath: input.endCardImagePath,
        outroLogoPath: input.outroLogoPath,
        fontDir: input.fontDir,
        outPath: videoPath,
        workDir: dir,
        signal: input.signal,
        onProgress: input.onProgress,
        frame: { width: layout.width, height: layout.height, cropHeight: H, cropY: cropYExpression(shots) },
        taps: (tap) =>
          reportTaps({
            input: tap,
            layout,
            durationSec: input.text.durationSec,
            posterPath: posterTmp,
            contactSheetPath: sheetTmp,
            mouthRawPath,
            drawnRawPath,
          }),
        bareTap: (tap) => bareTap({ input: tap, layout, bareRawPath }),
      }),
    ),
  );
  const report = await analyseVideo({
    videoPath,
    layout,
    words: input.text.words,
    mouthRawPath,
    bareRawPath,
    drawnRawPath,
    signal: input.signal,
  });
  return { aspect, videoPath, posterPath, contactSheetPath, report, layout };
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

/** Where the rig's face, product and the hand holding it are on screen at time t: its boxes through the shots. */
function rigView(rig: NonNullable<PreparedFrames['rig']>, product: Box | null) {
  return (t: number) => ({
    face: boxAtTime(rig.boxes.face, rig.shots, t, VIDEO_WIDTH, VIDEO_HEIGHT),
    mouth: boxAtTime(rig.boxes.mouth, rig.shots, t, VIDEO_WIDTH, VIDEO_HEIGHT),
    product: product ? boxAtTime(product, rig.shots, t, VIDEO_WIDTH, VIDEO_HEIGHT) : null,
    hand: product ? boxAtTime(rig.boxes.hand, rig.shots, t, VIDEO_WIDTH, VIDEO_HEIGHT) : null,
  });
}

/** The rig's holding hand at zoom 1 (output pixels); none without a product (the resting hands are cut off). */
const heldHand = (rig: PreparedFrames['rig'], product: Box | null): Box | null =>
  rig && product ? frameToVideo(rig.boxes.hand) : null;

interface PreparedFrames {
  visual: Extract<RenderInput['visual'], { kind: 'rig' | 'photo' }>;
  rig: TalkingVideoOutput['rig'];
  /** The still the end card may crop the product from. */
  stillPath: string;
  actorBoxes: ActorBoxes;
  /** The product's box in the 576x1024 frame, or null. */
  productBox: Box | null;
  /** A rig's pose frames in play order, before the camera frames them (empty for a photo). */
  poseSegments: ReadonlyArray<{ path: string; durationSec: number }>;
  /** Draws a rig's pose frame through a held shot's framing (null for a photo). */
  drawFramed: FramedDrawer | null;
  /** The face of a talking photo (its report gets the photo checks). */
  talkingFace?: PhotoFace | null;
}

/**
 * The face points when they belong to this image: a still merged with a product (576x1024, fitted by the
 * composite) no longer matches the photo's points, and then the photo stays still.
 */
async function faceOfImage(imagePath: string, face: PhotoFace): Promise<PhotoFace | null> {
  const meta = await sharp(imagePath).rotate().metadata();
  const w = meta.autoOrient?.width ?? meta.width;
  const h = meta.autoOrient?.height ?? meta.height;
  return w === face.imageSize.width && h === face.imageSize.height ? face : null;
}

/**
 * The rig's frames as the camera shows them: held shots play pose frames framed once and cached, the camera
 * filter moves only in moving shots (decision 099).
 */
async function filmedRig(
  segments: ReadonlyArray<{ path: string; durationSec: number }>,
  shots: readonly CameraShot[],
  drawFramed: FramedDrawer,
  signal?: AbortSignal,
): Promise<{
  segments: Array<{ path: string; durationSec: number }>;
  camera: string;
  cameraKey: CameraKey;
}> {
  const plan = filmPlan(segments, shots, VIDEO_WIDTH, VIDEO_HEIGHT);
  return {
    segments: await filmSegments(plan, drawFramed, signal),
    camera: plan.camera,
    cameraKey: plan.cameraKey,
  };
}

async function prepareFrames(
  input: TalkingVideoInput,
  dir: string,
  words: WordTiming[],
  durationSec: number,
  voicePath: string,
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
      visual: {
        kind: 'rig',
        ...(await filmedRig(rig.segments, rig.shots, rig.drawFramed, input.signal)),
        posterSourcePath: rig.posterSourcePath,
      },
      poseSegments: rig.segments,
      rig: { boxes: rig.boxes, shots: rig.shots },
      drawFramed: rig.drawFramed,
      stillPath: rig.posterSourcePath,
      actorBoxes: { face: rig.boxes.face, mouth: rig.boxes.mouth, body: rig.boxes.body },
      productBox: rig.boxes.product,
    };
  }
  const face = input.actor.face && !input.lipSync ? await faceOfImage(input.actor.imagePath, input.actor.face) : null;
  if (face) {
    // A photo with face points talks: its states are drawn once per actor and sequenced like the rig's poses.
    const talking = await photoActor({
      photoPath: input.actor.imagePath,
      face,
      product: input.product ?? null,
      words,
      totalSec: durationSec,
      hookText: input.hookText,
      // Blinks and glances are seeded from the photo's bytes (photoActor's default): the same photo renders the
      // same wherever it is stored.
      mouthStills: input.actor.mouthStills,
      // The mouth opens with the voice's own loudness (and shuts in its pauses), the phones giving its shape.
      loudness: await readPcmWav(voicePath).then((w) => (w ? voiceLoudness(w.channels[0]!, w.sampleRate) : null)),
    });
    const productBox = talking.boxes.product ?? input.productFrameBox ?? null;
    return {
      visual: {
        kind: 'rig',
        ...(await filmedRig(talking.segments, talking.shots, talking.drawFramed, input.signal)),
        posterSourcePath: talking.posterSourcePath,
      },
      poseSegments: talking.segments,
      rig: { boxes: { ...talking.boxes, product: productBox }, shots: talking.shots },
      drawFramed: talking.drawFramed,
      stillPath: talking.posterSourcePath,
      actorBoxes: { face: talking.boxes.face, mouth: talking.boxes.mouth, body: talking.boxes.body },
      productBox,
      talkingFace: face,
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
    poseSegments: [],
    drawFramed: null,
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

/** The logo as an RGBA PNG trimmed of empty margins, so the layout sizes what is actually drawn. */
async function prepareLogo(
  logoPath: string,
  dir: string,
): Promise<{ path: string; width: number; height: number } | null> {
  const out = path.join(dir, 'outro-logo.png');
  const trimmed = sharp(logoPath).ensureAlpha();
  const info = await trimmed
    .trim()
    .png()
    .toFile(out)
    .catch(() => sharp(logoPath).ensureAlpha().png().toFile(out));
  if (!info.width || !info.height) return null;
  return { path: out, width: info.width, height: info.height };
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
