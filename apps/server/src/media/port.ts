import type {
  Actor,
  Aspect,
  Box,
  Capabilities,
  CaptionStyle,
  CutoutVerdict,
  HookLine,
  PhotoFace,
  QualityReport,
  VideoQuality,
  Voice,
} from '@hookreel/contracts';
import type { BrandLook, Placement, PortraitAnalysis, ProviderUsage, VoiceStore } from '@hookreel/engine';

/** One billable provider call (the engine's record); the runner adds it to the job's cost. */
export type { ProviderUsage } from '@hookreel/engine';

/** An actor the engine draws itself (so it can hold the product and talk): a catalogue actor or a seeded one. */
export type RigActorRef = { catalogueActorId: string } | { seed: string; description: string };

/**
 * Everything the server asks of media work, in one interface: job handlers call `ctx.media`, never the engine,
 * so tests swap in a fast implementation and a remote engine could replace the local one. Every method reads
 * and writes local files; storing them is the caller's business.
 */
export interface MediaPort {
  /** What this server's engine can do (remote stages, Realistic and what it lacks), for the browser and the rules. */
  capabilities(): Capabilities;
  /** Loads the operator's Piper voices from `dir` (at start-up); which were loaded, which refused and why. */
  loadVoices(
    dir: string,
  ): Promise<{ loaded: Array<{ id: string; timing: string }>; refused: Array<{ file: string; reason: string }> }>;
  /** The voices this server speaks with, best first, each marked when it is the default for its kind. */
  voices(): Promise<Array<Omit<Voice, 'sample_url'>>>;
  /** Says `text` with voice `id` into a WAV at `outPath`; false when there is no such voice. */
  renderVoiceSample(id: string, text: string, outPath: string): Promise<boolean>;
  /** The longest speech the talking-actor provider animates, in seconds; null when it sets no limit (or is off). */
  maxTalkingSpeechSec(): number | null;
  /**
   * Hook lines written by the language model for a pack, or null when no model is configured (the rules then
   * write them). Throws when the model fails; the caller falls back to the rules.
   */
  writeHookLines(input: {
    hook: string;
    productDetails?: string | null;
    category?: string | null;
    language: string;
    count: number;
  }): Promise<HookLine[] | null>;
  /** A catalogue actor's portrait (576x1024 PNG), as the catalogue shows it; the same actor always looks the same. */
  drawCatalogueActor(actor: Actor): Promise<Buffer | Uint8Array>;
  /** What a local audio file is (container, streams, declared length); throws when it cannot be read as media. */
  probeAudio(filePath: string): Promise<AudioProbe>;
  /** Seconds of audio the file really holds, found by decoding at most `capSec` + 1 s; NaN when none decodes. */
  decodedAudioSec(filePath: string, capSec: number): Promise<number>;
  /**
   * The first audio stream re-encoded as clean AAC (M4A), tags and pictures dropped, cut one second past `maxSec`
   * when given; throws when that fails.
   */
  cleanAudio(input: { inPath: string; outPath: string; channels: 1 | 2; maxSec?: number }): Promise<void>;
  /** The log line for one billable provider call, e.g. "Provider cost: fal avatar (…) 8.4 s". */
  describeUsage(usage: ProviderUsage): string;
  /** A project's script spoken by its actor, with captions: MP4 and an optional poster JPEG. */
  renderProjectVideo(input: RenderProjectVideoInput): Promise<RenderOutput>;
  /** Background removal + analysis of a product photo: an RGBA cut-out the photo's size, its mask, shape, category. */
  cutoutProduct(input: { productPath: string; outDir: string; signal: AbortSignal }): Promise<{
    /** Written from the cleaned matte: every later use of the cut-out sees what the check left. */
    cutoutPath: string;
    maskPath: string;
    shape: string | null;
    category: string | null;
    /** The matte check's verdict, what it fixed and why it needs a look (decision 214). */
    check: { verdict: CutoutVerdict; fixed: string[]; reasons: string[] };
  }>;
  /**
   * The catalogue actors' ids best first for a character description: their drawn traits scored against what the
   * description states (read by rules, and by the language model where one is configured and answers).
   */
  rankCatalogueActors(input: { description: string; signal?: AbortSignal }): Promise<string[]>;
  /**
   * The face in a portrait photo (478 points, pose, boxes, descriptor), or why the photo cannot be animated
   * (decision 190). Runs the face detector's child process; ~0.1–0.3 s warm, ~1.3 s for the first photo.
   */
  analyzePortrait(input: { imagePath: string; signal?: AbortSignal }): Promise<PortraitAnalysis>;
  /** A procedural actor portrait (576x1024 PNG); the same seed always gives the same person. */
  renderActor(input: { seed: string; description: string; outPath: string; signal: AbortSignal }): Promise<void>;
  /**
   * The product at a placement in the 576x1024 frame (PNG). Draft: a drawn actor (`actor`) is redrawn holding it,
   * fingers over the product; a photo gets the cut-out composited onto it. Realistic: the image-edit provider
   * returns the pictured actor holding the product (the placement sent as mask and words).
   */
  compositeProduct(input: {
    actorPath: string;
    productPath: string;
    placement: Placement;
    outPath: string;
    signal: AbortSignal;
    actor?: RigActorRef | null;
    quality?: VideoQuality;
    onUsage?(usage: ProviderUsage): Promise<void>;
  }): Promise<void>;
  /**
   * What identifies the photoreal picture the images provider would make of a catalogue actor (Realistic): a short
   * hash of the images stage (provider and model) and the prompt, so a stored one is reused until either changes.
   * Null when the images stage is local or the catalogue has no such actor: there is no photoreal picture to make.
   */
  catalogueActorPhotoTag(catalogueActorId: string): string | null;
  /**
   * A catalogue actor as a real-looking person (576x1024 PNG), made by the images provider from the actor's
   * description with the UGC selfie framing characters get. Throws when `catalogueActorPhotoTag` is null.
   */
  catalogueActorPhoto(input: {
    catalogueActorId: string;
    outPath: string;
    signal: AbortSignal;
    onUsage?(usage: ProviderUsage): Promise<void>;
  }): Promise<void>;
  /**
   * Real mouth stills of a photo actor (decision 216): the image-edit provider repaints the mouth of `photoPath`
   * for each of MOUTH_STILL_SHAPES, one paid edit each, and only the mouth is laid back on the photo. Local PNGs
   * by shape, each the photo's size. Throws when no image-edit provider is configured.
   */
  makeMouthStills(input: {
    photoPath: string;
    face: PhotoFace;
    outDir: string;
    signal: AbortSignal;
    onUsage?(usage: ProviderUsage): Promise<void>;
  }): Promise<MouthStillFiles>;
  /** A talking procedural actor holding the product: MP4 (720x1280 H.264 + AAC), poster, SRT and VTT. */
  renderHookVideo(input: {
    actorSeed: string;
    actorDescription: string;
    productCutoutPath: string | null;
    placement: Placement | null;
    /**
     * One of the user's own creators (decision 207): their photo (already holding the product) talks through the
     * engine's photo actor instead of a drawn one, and the video says a real person's photo was animated. Draft only.
     */
    photo?: HookVideoPhoto;
    hookText: string;
    language: string;
    accent: string;
    /** The local voice chosen (an id of GET /api/voices); null or absent: the best for language, accent and actor. */
    voiceId?: string | null;
    style?: VideoStyle;
    watermark: boolean;
    /**
     * Takes already spoken for this pack: a hook said by the same voice is synthesised once and reused by every
     * video of the pack that says it (docs/product.md#hook-matrix). `onVoiceReused` hears when this video reused one.
     */
    voiceStore?: VoiceStore | null;
    onVoiceReused?: () => void;
    outDir: string;
    signal: AbortSignal;
    /** Speaking rate 0.8–1.2. */
    voiceSpeed?: number;
    /**
     * Realistic: the character is made photoreal from its description by the images provider (seeded by the
     * character's seed), holding the product by the image-edit provider, voiced and animated by the providers.
     */
    quality?: VideoQuality;
    onUsage?(usage: ProviderUsage): Promise<void>;
    onProgress(fraction: number, message: string): void;
  }): Promise<{
    videoPath: string;
    /** The finished video's length in seconds, when the engine knows it. */
    durationSec?: number | null;
    posterPath: string | null;
    srtPath: string | null;
    vttPath: string | null;
    contactSheetPath?: string | null;
    report?: QualityReport | null;
    aspects?: AspectRender[];
  }>;
}

/** Real mouth stills by mouth shape (local paths), in the pixels of the photo the face points were found on. */
export type MouthStillFiles = Partial<Record<string, string>>;

/** A hook video's photo actor: the still to animate and what is known of it (see RenderProjectVideoInput.actor). */
export type HookVideoPhoto = {
  imagePath: string;
  gender: 'male' | 'female';
  /** The upload's face, in the pixels of `faceSourcePath` when given, else of `imagePath`. */
  face: PhotoFace | null;
  /** The uploaded photo `imagePath` was fitted from (a preview's 576x1024 still), or null. */
  faceSourcePath: string | null;
  /** Where the still holds the product (576x1024 frame), so text keeps off it; null if unknown. */
  productBox: Box | null;
  /** The actor's real mouth stills, in the pixels `face` is in (decision 216); absent: the drawn mouth. */
  mouthStills?: MouthStillFiles | null;
} | null;

/** What ffprobe found in an uploaded audio file; lengths in seconds, null when the file does not declare one. */
export interface AudioProbe {
  formatName: string;
  durationSec: number | null;
  streams: Array<{ type: string; codec: string; durationSec: number | null }>;
}

/** An extra frame shape of a finished render (4:5, 1:1): local files and what was measured on it. */
export interface AspectRender {
  aspect: Aspect;
  videoPath: string;
  posterPath: string | null;
  contactSheetPath: string | null;
  report: QualityReport | null;
}

/** The project data a render needs, reloaded from the database when the job runs. */
export interface ProjectForRender {
  id: number;
  name: string;
  script: string;
  language: string;
  accent: string;
  /** The voice chosen (an id of GET /api/voices); null or absent: the best for language, accent and actor. */
  voiceId?: string | null;
  /** Storage key of the project's reference image, if any. */
  fileKey: string | null;
}

/** How the video looks and sounds beside the script (docs/video-design.md). */
export interface VideoStyle {
  captionStyle: CaptionStyle;
  /** End card line, or null for none. */
  cta: string | null;
  /** Local path of the music bed, or null for none. */
  musicPath: string | null;
  /** Speaking rate 0.8–1.2 (1 = normal). */
  voiceSpeed?: number;
  /** Extra frame shapes to export beside 9:16 (re-composed from the 9:16 render); none when absent. */
  aspects?: readonly Aspect[];
  /** The brand look: font, colours and the outro card's logo (local path). */
  brand?: BrandLook | null;
  /**
   * Local path of the user's own recording, which then is the voice: the script's words are timed against it and
   * the video lasts as long as it does. Null or absent: the generated voice speaks.
   */
  voiceOverPath?: string | null;
}

export interface RenderProjectVideoInput {
  userId: number;
  /** For tracing and test doubles; the output does not depend on it. */
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
    /** Where the still already holds the product (576x1024 frame), so text keeps off it; null if unknown. */
    productBox?: Box | null;
    /**
     * An uploaded photo's face, found when it was uploaded (decision 190), in the avatar photo's own pixels
     * (`face.imageSize`); null for drawn actors and older uploads.
     */
    face?: PhotoFace | null;
    /**
     * The still is a real person's photo (an uploaded actor, not a drawn or generated face): the video's metadata
     * says so and the brand kit's AI label applies (decision 201).
     */
    realPerson?: boolean;
    /**
     * When `imagePath` is a Draft merge's 576x1024 still (the photo fitted into the frame by the local composite,
     * product on top): the uploaded photo it was made from, whose pixels `face` is in. The media layer carries the
     * points through the same fitting (decision 184) rather than detecting the face again.
     */
    faceSourcePath?: string | null;
    /**
     * The actor's real mouth stills (decision 216), in the pixels `face` is in (the upload's, or the photoreal
     * still's): carried into the frame with the points when the still is a merge's. Absent: the drawn mouth.
     */
    mouthStills?: MouthStillFiles | null;
  } | null;
  style?: VideoStyle;
  /**
   * Draft: every stage local, whatever providers are configured. Realistic: the configured voice and talking
   * actor (the actor is animated as a still, never as a drawn rig). Draft when absent.
   */
  quality?: VideoQuality;
  watermark: boolean;
  /** Scratch directory for this run (removed afterwards); write outputs here. */
  /**
   * Realistic: where the paid voice of this job is kept, so a retry of the job (after the avatar step failed, say)
   * reuses the take it paid for instead of buying it again.
   */
  voiceStore?: VoiceStore | null;
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
  /** Local path of the 6-frame contact sheet JPEG, and what the engine measured on the video. */
  contactSheetPath?: string | null;
  report?: QualityReport | null;
  /** The extra frame shapes asked for in the style, each with its own report. */
  aspects?: AspectRender[];
}
