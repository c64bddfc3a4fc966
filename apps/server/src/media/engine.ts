import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ACTORS, MESSAGES, MOUTH_STILL_SHAPES, type Accent, type Language, type PhotoFace } from '@hookreel/contracts';
import {
  actorFromDescription,
  analyzePortrait,
  actorFromSeed,
  catalogueActorDescription,
  catalogueActorSpec,
  characterPrompt,
  compositeProduct,
  createEngineConfig,
  cutoutProduct,
  faceInFrame,
  formatUsage,
  localVoice,
  makeMouthStills,
  mouthStillInFrame,
  rankCatalogueActors,
  ownVoice,
  renderActorPortrait,
  renderHoldingPortrait,
  renderTalkingVideo,
  sharedVoice,
  type ActorSpec,
  type MouthStills,
  type TalkingVideoOutput,
} from '@hookreel/engine';
import type { AspectRender, MediaPort, MouthStillFiles, RigActorRef, VideoStyle } from './port.ts';
import { cleanAudio, decodedAudioSec, probeAudio } from './audio.ts';
import { capabilitiesOf } from './capabilities.ts';
import { drawCatalogueActor } from './portraits.ts';
import { listVoices, loadVoices, renderVoiceSample } from './voices.ts';

let config: ReturnType<typeof createEngineConfig> | null = null;
/** Which synthesiser speaks (its line of the config summary: provider, model, voice), part of a take's key. */
const voiceName = (): string =>
  engineConfig().summary.find((l) => l.startsWith('voice:')) ?? engineConfig().providers.voice ?? 'local';

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
  // The language model only fills what the word rules miss: when it fails (a refused request, an outage), the rules
  // alone make the actor, so a Draft never depends on a provider.
  const read = reader ? await reader.read(description, signal).catch(() => ({})) : {};
  return actorFromSeed(seed, description, read);
}

/**
 * The images provider's request for a catalogue actor made photoreal: its description in words, seeded by the
 * actor so the setting and expression are the same every time, and the tag of that request (see
 * MediaPort.catalogueActorPhotoTag). Null when the images stage is local or the id is unknown.
 */
function catalogueActorPhotoRequest(catalogueActorId: string) {
  const cfg = engineConfig();
  const actor = ACTORS.find((a) => a.id === catalogueActorId);
  if (!cfg.images || !actor) return null;
  const description = catalogueActorDescription(actor);
  const seed = `catalogue-actor-${actor.id}`;
  const stage = cfg.summary.find((l) => l.startsWith('images:')) ?? 'images';
  const tag = createHash('sha256')
    .update(`${stage}\n${characterPrompt(description, seed)}`)
    .digest('hex')
    .slice(0, 12);
  return { images: cfg.images, description, seed, tag };
}

/**
 * The face points of the still a render animates: the upload's own, or, for a Draft merge's still, carried into
 * its 576x1024 frame through the composite's fitting (decision 184); null when they cannot be (the photo then keeps
 * gentle camera motion, as before points existed).
 */
async function stillFace(actor: {
  face?: PhotoFace | null;
  faceSourcePath?: string | null;
}): Promise<PhotoFace | null> {
  if (!actor.face) return null;
  if (!actor.faceSourcePath) return actor.face;
  return faceInFrame(actor.faceSourcePath, actor.face).catch(() => null);
}

/**
 * The actor's real mouth stills for the still a render animates (decision 216): as they are, or carried into a
 * merge's frame like the face points (a still that cannot be is left out, and its shape keeps the drawn mouth).
 */
async function stillMouths(
  actor: { face?: PhotoFace | null; faceSourcePath?: string | null; mouthStills?: MouthStillFiles | null },
  workDir: string,
): Promise<MouthStills | null> {
  const stills = Object.entries(actor.mouthStills ?? {}).filter((e): e is [string, string] => !!e[1]);
  if (!actor.face || stills.length === 0) return null;
  if (!actor.faceSourcePath) return Object.fromEntries(stills);
  const source = actor.faceSourcePath;
  await mkdir(workDir, { recursive: true });
  const framed = await Promise.all(
    stills.map(async ([shape, file]) => {
      const out = await mouthStillInFrame(source, file, path.join(workDir, `mouth-${shape}-framed.png`)).catch(
        () => null,
      );
      return out ? ([shape, out] as const) : null;
    }),
  );
  return Object.fromEntries(framed.filter((e) => e !== null));
}

/** The media port on packages/engine: real media, offline by default, remote stages where configured. */
export const engineMedia: MediaPort = {
  capabilities: () => capabilitiesOf(engineConfig()),
  loadVoices,
  voices: listVoices,
  renderVoiceSample,
  maxTalkingSpeechSec: () => engineConfig().lipsync?.maxAudioSec ?? null,
  async writeHookLines(input) {
    const writer = engineConfig().hooks;
    return writer ? writer.write(input) : null;
  },
  drawCatalogueActor,
  probeAudio,
  decodedAudioSec: (filePath, capSec) => decodedAudioSec(filePath, capSec),
  cleanAudio,
  describeUsage: formatUsage,
  async renderProjectVideo(input) {
    const realistic = input.quality === 'realistic';
    // Realistic animates a still through the talking-actor provider: a drawn rig is not used there.
    const rigSpec = realistic ? null : await rigSpecOf(input.actor?.rig?.actor, input.signal);
    const actorStill = input.actor;
    // The provider would animate a drawn stand-in as a cartoon: Realistic needs a real actor (decision 125).
    if (realistic && !actorStill) throw new Error(MESSAGES.realistic.needsActor);
    const out = await renderTalkingVideo({
      script: input.project.script,
      language: input.project.language as Language,
      accent: input.project.accent as Accent,
      actor: rigSpec
        ? { kind: 'procedural', spec: rigSpec }
        : actorStill
          ? {
              kind: 'photo',
              imagePath: actorStill.imagePath,
              gender: actorStill.gender,
              face: await stillFace(actorStill),
              mouthStills: await stillMouths(actorStill, path.join(input.workDir, 'mouths')),
            }
          : { kind: 'procedural', spec: actorFromDescription(input.project.name, 0) },
      product: rigSpec ? (input.actor?.rig?.product ?? null) : null,
      productFrameBox: rigSpec ? null : (actorStill?.productBox ?? null),
      ...styleFields(input.style),
      watermark: input.watermark,
      voice: input.style?.voiceOverPath
        ? ownVoice(input.style.voiceOverPath, {
            onTiming: (how, why) => {
              const line =
                how === 'aligned'
                  ? `Voice-over: words aligned to the recording (${why})`
                  : `Voice-over: words spread over the recording's speech, ${why}`;
              input.onProgress(2, line).catch(() => undefined);
            },
          })
        : realistic
          ? input.voiceStore
            ? sharedVoice(engineConfig().voice, input.voiceStore, { voiceName: voiceName() })
            : engineConfig().voice
          : localVoice,
      voiceSpeed: input.style?.voiceSpeed,
      ...(input.project.voiceId ? { voiceId: input.project.voiceId } : {}),
      lipSync: realistic ? engineConfig().lipsync : null,
      workDir: path.join(input.workDir, 'render'),
      signal: input.signal,
      // The engine does not await progress; a refused update (job cancelled or deleted) reaches the render through
      // its abort signal, so the rejection is dropped here instead of crashing the process as unhandled.
      onProgress: (fraction, message) => {
        input.onProgress(fraction * 100, message).catch(() => undefined);
      },
      onUsage: input.onUsage,
      provenance: { realPersonPhoto: input.actor?.realPerson === true },
    });
    return {
      videoPath: out.videoPath,
      posterPath: out.posterPath,
      contactSheetPath: out.contactSheetPath,
      report: out.report,
      aspects: aspectRenders(out.aspects),
    };
  },
  async cutoutProduct(input) {
    const r = await cutoutProduct(input);
    const vision = engineConfig().vision;
    const analysis = vision ? await vision.analyse({ imagePath: input.productPath, signal: input.signal }) : r;
    const { verdict, fixed, reasons } = r.matte;
    return {
      cutoutPath: r.cutoutPath,
      maskPath: r.maskPath,
      shape: analysis.shape,
      category: analysis.category,
      check: { verdict, fixed, reasons },
    };
  },
  async renderActor(input) {
    await writeFile(
      input.outPath,
      await renderActorPortrait(await seededActor(input.seed, input.description, input.signal)),
    );
  },
  async compositeProduct(input) {
    const placer = input.quality === 'realistic' ? engineConfig().placement : null;
    if (placer) {
      const edited = await placer.placeProduct({
        actorPath: input.actorPath,
        productPath: input.productPath,
        placement: input.placement,
        outPath: input.outPath,
        signal: input.signal,
      });
      await input.onUsage?.(edited.usage);
      return;
    }
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
  async rankCatalogueActors({ description, signal }) {
    const reader = engineConfig().traits;
    // The language model only fills what the rules miss; when it fails the rules alone still rank the catalogue.
    const read = reader ? await reader.read(description, signal).catch(() => ({})) : {};
    return rankCatalogueActors(ACTORS, description, read).map((r) => r.actor.id);
  },
  analyzePortrait: ({ imagePath, signal }) => analyzePortrait(imagePath, { signal }),
  catalogueActorPhotoTag: (catalogueActorId) => catalogueActorPhotoRequest(catalogueActorId)?.tag ?? null,
  async catalogueActorPhoto(input) {
    const req = catalogueActorPhotoRequest(input.catalogueActorId);
    if (!req) throw new Error(`No photoreal picture can be made of catalogue actor ${input.catalogueActorId}`);
    const made = await req.images.generate({
      description: req.description,
      seed: req.seed,
      outPath: input.outPath,
      signal: input.signal,
    });
    if (made.usage) await input.onUsage?.(made.usage);
  },
  async makeMouthStills(input) {
    const editor = engineConfig().placement;
    if (!editor) throw new Error(MESSAGES.looks.mouthsNoProvider);
    await mkdir(input.outDir, { recursive: true });
    return makeMouthStills({
      photoPath: input.photoPath,
      face: input.face,
      shapes: MOUTH_STILL_SHAPES,
      editor,
      outDir: input.outDir,
      signal: input.signal,
      onUsage: input.onUsage,
    });
  },
  async renderHookVideo(input) {
    if (input.quality === 'realistic') {
      // Realistic packs are refused for creators when queued (decision 207); a photo is never drawn over here.
      if (input.photo) throw new Error(MESSAGES.hookPacks.creatorRealistic);
      return realisticHookVideo(input);
    }
    const photo = input.photo ?? null;
    const out = await renderTalkingVideo({
      script: input.hookText,
      hookText: input.hookText,
      language: input.language as Language,
      accent: input.accent as Accent,
      // An own creator's photo talks as the project's photo actors do (decision 207); otherwise the drawn character.
      actor: photo
        ? {
            kind: 'photo',
            imagePath: photo.imagePath,
            gender: photo.gender,
            face: await stillFace(photo),
            mouthStills: await stillMouths(photo, path.join(input.outDir, 'mouths')),
          }
        : { kind: 'procedural', spec: await seededActor(input.actorSeed, input.actorDescription, input.signal) },
      product:
        !photo && input.productCutoutPath && input.placement
          ? { cutoutPath: input.productCutoutPath, placement: input.placement }
          : null,
      productFrameBox: photo?.productBox ?? null,
      provenance: { realPersonPhoto: photo !== null },
      ...styleFields(input.style),
      watermark: input.watermark,
      // Draft: the local voice whatever is configured, at the pack's speed; one take per line is shared.
      voice: input.voiceStore
        ? sharedVoice(localVoice, input.voiceStore, {
            // Versioned by the built-in voices' choice (decision 210): takes said by kal_diphone are not reused.
            voiceName: 'local:210',
            onReuse: () => input.onVoiceReused?.(),
          })
        : localVoice,
      voiceSpeed: input.voiceSpeed,
      ...(input.voiceId ? { voiceId: input.voiceId } : {}),
      workDir: path.join(input.outDir, 'render'),
      signal: input.signal,
      onProgress: input.onProgress,
    });
    return hookVideoOutput(out);
  },
};

/**
 * A Realistic hook video: the character as a photoreal still (images provider, from its description and seed; the
 * drawn portrait when that stage is local), the product put in its hand by the image-edit provider (the drawn
 * actor holding it when that stage is local), then voiced and animated by the providers with the local layout,
 * hook sticker and captions on top.
 */
async function realisticHookVideo(input: Parameters<MediaPort['renderHookVideo']>[0]) {
  const cfg = engineConfig();
  const dir = path.join(input.outDir, 'realistic');
  await mkdir(dir, { recursive: true });
  const spec = await seededActor(input.actorSeed, input.actorDescription, input.signal);
  const portrait = path.join(dir, 'portrait.png');
  if (cfg.images) {
    const made = await cfg.images.generate({
      description: input.actorDescription,
      seed: input.actorSeed,
      outPath: portrait,
      signal: input.signal,
    });
    if (made.usage) await input.onUsage?.(made.usage);
  } else {
    await writeFile(portrait, await renderActorPortrait(spec));
  }
  let still = portrait;
  if (input.productCutoutPath && input.placement) {
    still = path.join(dir, 'holding.png');
    if (cfg.placement) {
      const edited = await cfg.placement.placeProduct({
        actorPath: portrait,
        productPath: input.productCutoutPath,
        placement: input.placement,
        outPath: still,
        signal: input.signal,
      });
      await input.onUsage?.(edited.usage);
    } else {
      await renderHoldingPortrait({
        spec,
        cutoutPath: input.productCutoutPath,
        placement: input.placement,
        outPath: still,
      });
    }
  }
  const out = await renderTalkingVideo({
    script: input.hookText,
    hookText: input.hookText,
    language: input.language as Language,
    accent: input.accent as Accent,
    // No face points: Realistic needs the talking-actor provider (realisticAvailability), which animates the still
    // itself; the engine's own photo animation is Draft's, so there is nothing to detect here.
    actor: { kind: 'photo', imagePath: still, gender: spec.gender },
    ...styleFields(input.style),
    watermark: input.watermark,
    voice: input.voiceStore
      ? sharedVoice(cfg.voice, input.voiceStore, { voiceName: voiceName(), onReuse: () => input.onVoiceReused?.() })
      : cfg.voice,
    voiceSpeed: input.voiceSpeed,
    lipSync: cfg.lipsync,
    workDir: path.join(input.outDir, 'render'),
    signal: input.signal,
    onProgress: input.onProgress,
    onUsage: input.onUsage,
  });
  return hookVideoOutput(out);
}

/** The port's video style as the engine's render takes it (the same fields, with the engine's defaults). */
const styleFields = (style: VideoStyle | undefined) => ({
  captionStyle: style?.captionStyle,
  cta: style?.cta ?? null,
  musicPath: style?.musicPath ?? null,
  aspects: style?.aspects,
  brand: style?.brand ?? null,
});

/** A finished hook video as the port returns it. */
const hookVideoOutput = (out: TalkingVideoOutput) => ({
  videoPath: out.videoPath,
  durationSec: out.durationSec,
  posterPath: out.posterPath,
  srtPath: out.srtPath,
  vttPath: out.vttPath,
  contactSheetPath: out.contactSheetPath,
  report: out.report,
  aspects: aspectRenders(out.aspects),
});

/** The engine's extra shapes as the port describes them. */
const aspectRenders = (list: TalkingVideoOutput['aspects']): AspectRender[] =>
  list.map((a) => ({
    aspect: a.aspect,
    videoPath: a.videoPath,
    posterPath: a.posterPath,
    contactSheetPath: a.contactSheetPath,
    report: a.report,
  }));
