import path from 'node:path';
import type { PhotoFace } from '@hookreel/contracts';
import sharp from 'sharp';
import type { ProductPlacer } from '../remote/image-edit.ts';
import type { ProviderUsage } from '../remote/usage.ts';
import { frameOf } from '../composite/index.ts';
import { FRAME_HEIGHT, FRAME_WIDTH } from '../types.ts';
import { writeFileAtomic } from '../util/files.ts';
import type { MouthStills } from './index.ts';

/** What each mouth still shows, in the words the image-edit model gets (keys are the photo actor's visemes). */
export const MOUTH_STILL_WORDS: Readonly<Record<string, string>> = {
  aa: 'the mouth open as when saying "ah", upper and lower teeth showing, the tongue low',
  ee: 'the lips spread as when saying "ee", the teeth nearly together and showing',
  oh: 'the lips rounded and open as when saying "oh", a little of the upper teeth showing',
  oo: 'the lips pushed forward into a small round opening as when saying "oo"',
  fv: 'the upper teeth resting on the lower lip as when saying "f"',
};

/** The words for one shape: only the mouth changes, the rest of the photo stays as it is. */
export function mouthStillPrompt(shape: string): string {
  const words = MOUTH_STILL_WORDS[shape];
  if (!words) throw new Error(`No mouth still is made for the shape ${shape}`);
  return [
    `Edit only the mouth of the person in this photo: ${words}.`,
    'Real, natural teeth and lips, lit like the rest of the face.',
    'Keep everything else exactly as it is: the same person, face, skin, expression of the eyes, head position,',
    'hair, clothes, background, framing and light. Photorealistic.',
  ].join(' ');
}

/** An ellipse: centre and radii, in pixels. */
interface Area {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
}

/** The mouth's area in the photo with room for an open jaw, in the photo's pixels. */
function mouthArea(face: PhotoFace): Area {
  const m = face.mouthBox;
  return {
    cx: m.x + m.width / 2,
    cy: m.y + m.height / 2 + m.height * 0.25,
    rx: Math.max(8, m.width * 0.7),
    ry: Math.max(8, m.height * 1.1),
  };
}

/**
 * The part of the photo the model is shown: around the mouth, in the 2:3 portrait shape the edit is asked for, so
 * its answer is scaled back without stretching. The face and some of the shoulders, so the model sees who it is.
 */
function editCrop(width: number, height: number, face: PhotoFace, a: Area) {
  let h = Math.max(face.faceBox.height * 2.2, a.ry * 12);
  let w = (h * 2) / 3;
  if (w > width) [w, h] = [width, (width * 3) / 2];
  if (h > height) [w, h] = [(height * 2) / 3, height];
  const cw = Math.max(16, Math.floor(w));
  const ch = Math.max(16, Math.min(height, Math.floor(h)));
  const left = Math.round(Math.max(0, Math.min(width - cw, a.cx - cw / 2)));
  const top = Math.round(Math.max(0, Math.min(height - ch, a.cy - ch / 2)));
  return { left, top, width: Math.min(cw, width), height: ch };
}

/** An ellipse over a picture: `inside` is the ellipse's alpha, the rest the other; optionally blurred at its edge. */
async function ellipseMask(width: number, height: number, a: Area, inside: 0 | 1, blur = 0): Promise<Buffer> {
  const [fill, rest] = inside ? ['white', 'black'] : ['black', 'white'];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="100%" height="100%" fill="${rest}"/><ellipse cx="${a.cx}" cy="${a.cy}" rx="${a.rx}" ry="${a.ry}" fill="${fill}"/></svg>`;
  const grey = sharp(Buffer.from(svg)).greyscale();
  return (blur > 0 ? grey.blur(blur) : grey).extractChannel(0).raw().toBuffer();
}

/** The edit's mask for OpenAI (transparent where the model may repaint): the picture's size, a hole at `a`. */
export async function mouthEditMask(width: number, height: number, a: Area): Promise<Buffer> {
  const alpha = await ellipseMask(width, height, a, 0);
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .joinChannel(alpha, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

/**
 * Real mouth stills of a photo actor (decision 216): for each shape, the image-edit model repaints the mouth of a
 * portrait crop of the actor's own photo, and only that mouth (a soft-edged ellipse) is laid back on the photo, so
 * every still lines up with the photo pixel for pixel and the face points found on it hold for each. Written as PNGs
 * in `outDir`.
 */
export async function makeMouthStills(input: {
  photoPath: string;
  face: PhotoFace;
  shapes: readonly string[];
  editor: ProductPlacer;
  outDir: string;
  signal?: AbortSignal;
  onUsage?: (usage: ProviderUsage) => void | Promise<void>;
}): Promise<MouthStills> {
  const photo = await sharp(input.photoPath).removeAlpha().png().toBuffer({ resolveWithObject: true });
  const { width, height } = photo.info;
  const area = mouthArea(input.face);
  const crop = editCrop(width, height, input.face, area);
  const local: Area = { ...area, cx: area.cx - crop.left, cy: area.cy - crop.top };
  const mask = await mouthEditMask(crop.width, crop.height, local);
  const cropPath = path.join(input.outDir, 'mouth-source.png');
  await writeFileAtomic(cropPath, await sharp(photo.data).extract(crop).png().toBuffer());
  const feather = Math.max(2, input.face.mouthBox.height * 0.25);
  const keep = await ellipseMask(crop.width, crop.height, local, 1, feather);
  const stills: MouthStills = {};
  for (const shape of input.shapes) {
    const edited = path.join(input.outDir, `mouth-${shape}-edited.png`);
    const made = await input.editor.editRegion({
      imagePath: cropPath,
      prompt: mouthStillPrompt(shape),
      mask,
      outPath: edited,
      signal: input.signal,
    });
    await input.onUsage?.(made.usage);
    // Flattened first in a pipeline of its own: sharp removes alpha after joining, which would drop the mask.
    const opaque = await sharp(edited).resize(crop.width, crop.height, { fit: 'fill' }).removeAlpha().png().toBuffer();
    const mouth = await sharp(opaque)
      .joinChannel(keep, { raw: { width: crop.width, height: crop.height, channels: 1 } })
      .png()
      .toBuffer();
    const out = path.join(input.outDir, `mouth-${shape}.png`);
    await writeFileAtomic(
      out,
      await sharp(photo.data)
        .composite([{ input: mouth, left: crop.left, top: crop.top }])
        .png()
        .toBuffer(),
    );
    stills[shape] = out;
  }
  return stills;
}

/**
 * A mouth still carried into the 576x1024 frame `frameOf` makes of its photo (a Draft merge's still): the same
 * scale and the same crop (which sharp reports for the photo), so it lines up with the merged still as the face
 * points do (decision 184). Null when the still is not the photo's size.
 */
export async function mouthStillInFrame(photoPath: string, stillPath: string, outPath: string): Promise<string | null> {
  const [photo, still] = await Promise.all([sharp(photoPath).metadata(), sharp(stillPath).metadata()]);
  if (!photo.width || !photo.height || photo.width !== still.width || photo.height !== still.height) return null;
  const { info } = await frameOf(photoPath).raw().toBuffer({ resolveWithObject: true });
  const s = Math.max(FRAME_WIDTH / photo.width, FRAME_HEIGHT / photo.height);
  const [w, h] = [
    Math.max(FRAME_WIDTH, Math.round(photo.width * s)),
    Math.max(FRAME_HEIGHT, Math.round(photo.height * s)),
  ];
  const left = Math.max(0, Math.min(w - FRAME_WIDTH, -(info.cropOffsetLeft ?? 0)));
  const top = Math.max(0, Math.min(h - FRAME_HEIGHT, -(info.cropOffsetTop ?? 0)));
  const png = await sharp(stillPath)
    .resize(w, h, { fit: 'fill' })
    .extract({ left, top, width: FRAME_WIDTH, height: FRAME_HEIGHT })
    .png()
    .toBuffer();
  await writeFileAtomic(outPath, png);
  return outPath;
}
