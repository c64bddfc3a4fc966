import type { ActorSpec } from '../actors/index.ts';
import { REST_POSE, rigBoxes, unionBox, type RigBoxes, type RigPose } from '../actors/rig.ts';
import type { WordTiming } from '../types.ts';
import { VIDEO_HEIGHT, VIDEO_WIDTH } from '../types.ts';
import { produceAtomic } from '../util/files.ts';
import { framingView, type FramedDrawer } from './film.ts';
import {
  prepareProduct,
  renderRigFrame,
  rigFrames,
  rigFrameY4m,
  type PreparedProduct,
  type ProductPlacement,
  type RigFrameFiles,
} from './frames.ts';
import {
  beatsOf,
  cameraFilter,
  cameraShots,
  poseKey,
  poseTimeline,
  type CameraShot,
  type PoseSegment,
} from './timeline.ts';

export interface RiggedActor {
  /** Frame files (yuv420p Y4M) in play order with their durations (the concat list). */
  segments: Array<{ path: string; durationSec: number; pose: RigPose }>;
  /** ffmpeg filter for the camera, on the 720x1280 stream. */
  camera: string;
  shots: CameraShot[];
  /** The rest-pose frame (poster). */
  posterSourcePath: string;
  /**
   * Where the actor is, in frame coordinates (576x1024), covering every pose of the video: text must avoid
   * face and product. The camera zooms in on some beats (see `shots`); boxes are for the wide shot.
   */
  boxes: RigBoxes;
  /** Draws one of these pose frames again through a held shot's framing (`filmSegments`). */
  drawFramed: FramedDrawer;
}

/** Boxes covering all the poses a video uses (head sway, breathing, the lift gesture). */
export function boxesOverPoses(spec: ActorSpec, product: PreparedProduct | null, poses: readonly RigPose[]): RigBoxes {
  const all = (poses.length ? poses : [REST_POSE]).map((p) => rigBoxes(spec.traits, product?.held ?? null, p));
  return all.reduce((a, b) => ({
    face: unionBox(a.face, b.face),
    mouth: unionBox(a.mouth, b.mouth),
    body: unionBox(a.body, b.body),
    hand: unionBox(a.hand, b.hand),
    product: a.product && b.product ? unionBox(a.product, b.product) : (a.product ?? b.product),
  }));
}

/**
 * Everything the renderer needs to play a talking rig actor: the pose timeline from the words, each pose's frame
 * (rendered once per actor and product, cached), and the camera.
 */
export async function rigActor(input: {
  spec: ActorSpec;
  product: { cutoutPath: string; placement: ProductPlacement } | null;
  words: readonly WordTiming[];
  totalSec: number;
  hookText?: string | null;
}): Promise<RiggedActor> {
  const product = input.product ? await prepareProduct(input.product.cutoutPath, input.product.placement) : null;
  const beats = beatsOf(input.words, input.hookText);
  const timeline: PoseSegment[] = poseTimeline({
    words: input.words,
    totalSec: input.totalSec,
    seed: input.spec.seed,
    beats,
    gesture: product !== null,
  });
  const poses = [REST_POSE, ...timeline.map((s) => s.pose)];
  const files = await rigFrames({ spec: input.spec, product, poses, width: VIDEO_WIDTH, height: VIDEO_HEIGHT });
  const boxes = boxesOverPoses(input.spec, product, poses);
  const face = { cx: boxes.face.x + boxes.face.w / 2, cy: boxes.face.y + boxes.face.h / 2 };
  // The CTA comes after the lift gesture: the close-up frames the product where the resting hand holds it.
  const ctaProduct = product ? rigBoxes(input.spec.traits, product.held, REST_POSE).product : null;
  const shots = cameraShots({ totalSec: input.totalSec, beats, face, product: ctaProduct, faceBox: boxes.face });
  const poseOfFile = new Map(poses.map((p) => [files.get(poseKey(p))!.y4m, p]));
  const drawFramed: FramedDrawer = (source, framing) => {
    const pose = poseOfFile.get(source);
    if (!pose) return Promise.reject(new Error(`no pose drawn as ${source}`));
    const view = framingView(framing, VIDEO_WIDTH, VIDEO_HEIGHT);
    return rigFrameY4m({ spec: input.spec, product, pose, width: VIDEO_WIDTH, height: VIDEO_HEIGHT, view });
  };
  return {
    segments: timeline.map((s) => ({
      path: files.get(poseKey(s.pose))!.y4m,
      durationSec: s.durationSec,
      pose: s.pose,
    })),
    camera: cameraFilter(shots, VIDEO_WIDTH, VIDEO_HEIGHT),
    shots,
    posterSourcePath: restPicture(files),
    boxes,
    drawFramed,
  };
}

function restPicture(files: Map<string, RigFrameFiles>): string {
  const png = files.get(poseKey(REST_POSE))?.png;
  if (!png) throw new Error('the rest pose was not drawn as a picture');
  return png;
}

export {
  prepareProduct,
  renderRigFrame,
  rigFrames,
  y4mFrame,
  type PreparedProduct,
  type ProductPlacement,
  type RigFrameFiles,
} from './frames.ts';
export {
  beatsOf,
  blinkTimes,
  cameraFilter,
  cameraShots,
  closeUpZoom,
  mouthShapes,
  poseTimeline,
  visemesOfWord,
  type Beats,
  type CameraShot,
  type PoseSegment,
} from './timeline.ts';

/**
 * A still of a rig actor holding the product at a placement (576x1024 PNG): the hand drawn over the product,
 * the product scaled and rotated as placed, with its soft shadow. Replaces pasting the cut-out over a portrait.
 */
export async function renderHoldingPortrait(input: {
  spec: ActorSpec;
  cutoutPath: string;
  placement: ProductPlacement;
  outPath: string;
}): Promise<void> {
  const product = await prepareProduct(input.cutoutPath, input.placement);
  const frame = await renderRigFrame({ spec: input.spec, pose: REST_POSE, product, width: 576, height: 1024 });
  await produceAtomic(input.outPath, (tmp) =>
    frame
      .png({ compressionLevel: 6 })
      .toFile(tmp)
      .then(() => undefined),
  );
}
export { boxAtTime, cameraAt } from './timeline.ts';
export { measureMouthMotion } from './check.ts';
