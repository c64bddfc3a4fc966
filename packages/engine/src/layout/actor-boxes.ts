import type { Box } from '@hookreel/contracts';
import { FRAME_HEIGHT, FRAME_WIDTH, VIDEO_HEIGHT, VIDEO_WIDTH } from '../types.ts';
import type { ActorBoxes } from './index.ts';

/**
 * Face, mouth and body of today's portraits in the 576x1024 frame: the 440 px DiceBear head drawn at (68, 72)
 * and our torso below it. The face box runs from the brows to the chin and ear to ear (hair above it may carry text); the mouth
 * box is generous because the two head styles put the mouth at slightly different places. Photos (uploaded
 * avatars) follow the same head-and-shoulders framing. The face box reaches down to 530 because the rig's own
 * portraits (catalogue actors holding the product) have their head lower (chin near y 520): a 4:5 or 1:1 cut
 * puts text near the chin, where the shorter box let it sit on the mouth.
 */
export const PORTRAIT_BOXES: ActorBoxes = {
  face: { x: 160, y: 180, w: 280, h: 350 },
  mouth: { x: 262, y: 318, w: 146, h: 80 },
  body: { x: 80, y: 480, w: 416, h: 544 },
};

const SX = VIDEO_WIDTH / FRAME_WIDTH;
const SY = VIDEO_HEIGHT / FRAME_HEIGHT;

/** A box in the 576x1024 frame, in output pixels (the frame is scaled to fill 720x1280). */
export const frameToVideo = (b: Box): Box => ({ x: b.x * SX, y: b.y * SY, w: b.w * SX, h: b.h * SY });

export const actorBoxesInVideo = (boxes: ActorBoxes = PORTRAIT_BOXES): ActorBoxes => ({
  face: frameToVideo(boxes.face),
  mouth: frameToVideo(boxes.mouth),
  body: frameToVideo(boxes.body),
});

/**
 * The bounding box, in the frame, of a w x h product centred at (cx, cy) and rotated by `rotationDeg` about its
 * centre — how the placement editor and the compositor place it.
 */
export function rotatedBox(cx: number, cy: number, w: number, h: number, rotationDeg: number): Box {
  const r = (rotationDeg * Math.PI) / 180;
  const bw = Math.abs(w * Math.cos(r)) + Math.abs(h * Math.sin(r));
  const bh = Math.abs(w * Math.sin(r)) + Math.abs(h * Math.cos(r));
  return { x: cx - bw / 2, y: cy - bh / 2, w: bw, h: bh };
}
