import { z } from 'zod';
import { MESSAGES } from './messages.ts';

/**
 * A photo actor's face, found once when the photo is uploaded (decision 189) and kept with the avatar so a render
 * never detects again. Pixels of the stored photo; angles in degrees.
 */
const FaceBox = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export type FaceBox = z.infer<typeof FaceBox>;

export const PhotoFace = z.object({
  version: z.literal(1),
  imageSize: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }),
  /** 478 points [x, y, z] in the MediaPipe face-mesh order: 468 surface points, then 5 for each iris. */
  points: z.array(z.tuple([z.number(), z.number(), z.number()])).length(478),
  /** The detector's box (a square around the face, forehead to chin and a margin). */
  box: FaceBox,
  /** The mesh's face outline, tight. */
  faceBox: FaceBox,
  /** The outer lips. */
  mouthBox: FaceBox,
  pose: z.object({ yaw: z.number(), pitch: z.number(), roll: z.number() }),
  /** Lid gap over eye width per eye (picture left and right): ~0.25–0.45 open. */
  eyesOpen: z.object({ left: z.number(), right: z.number() }),
  /** Inner-lip gap over mouth width in the photo: 0 closed, above ~0.1 teeth likely show. */
  mouthOpen: z.number(),
  /** The face-description model's descriptor of the photo, for the identity check on rendered frames. */
  descriptor: z.array(z.number()).length(1024),
});
export type PhotoFace = z.infer<typeof PhotoFace>;

export const FACE_REFUSALS = ['no-face', 'many-faces', 'turned', 'eyes-closed', 'too-small', 'mouth-covered'] as const;
export const FaceRefusal = z.enum(FACE_REFUSALS);
export type FaceRefusal = z.infer<typeof FaceRefusal>;

/** What the uploader reads when a photo cannot be animated. */
export const FACE_MESSAGES: Record<FaceRefusal, string> = MESSAGES.avatars.face;
