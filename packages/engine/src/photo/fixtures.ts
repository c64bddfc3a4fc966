import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/**
 * Test photos for the photo actor, all derived in code from one public-domain portrait (fixtures/PROVENANCE.md):
 * the NASA portrait of astronaut Eileen Collins that Debian's python3-skimage ships. A test fixture only: never a
 * catalogue actor. Coordinates below were measured by the face detector on `portrait` (800 x 800).
 */
export const ASTRONAUT_PNG = fileURLToPath(new URL('./fixtures/astronaut.png', import.meta.url));

export type PortraitFixture =
  /** Head and shoulders, cropped from the 512 px original and enlarged 2.5x: face ~260 px tall. Usable. */
  | 'portrait'
  /** The portrait mirrored. Usable. */
  | 'mirrored'
  /** The portrait a little darker and warmer, as a JPEG. Usable. */
  | 'dim'
  /** The 512 px original: face ~104 px tall. */
  | 'too-small'
  /** A crop of the suit below the face. */
  | 'no-face'
  /** Two copies of the portrait side by side. */
  | 'many-faces'
  /** The portrait turned 40° in its plane. */
  | 'tilted'
  /** Both eyes painted over with the cheek's colour, softened: closed lids without lashes. */
  | 'eyes-closed'
  /** A dark rounded shape over the lips, like a microphone held to the mouth. */
  | 'mouth-covered'
  /** A skin-coloured patch over the lips, like a hand. */
  | 'mouth-covered-hand';

const PORTRAIT = 800;
const EYES = [
  { x: 253, y: 244, width: 43, height: 18 },
  { x: 354, y: 250, width: 44, height: 17 },
];
const LIPS = { x: 263, y: 345, width: 111, height: 43 };
const CHEEK = { x: 235, y: 301 };

const svg = (body: string, w = PORTRAIT, h = PORTRAIT): Buffer =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`);

async function portrait(): Promise<Buffer> {
  return sharp(ASTRONAUT_PNG)
    .extract({ left: 96, top: 0, width: 320, height: 320 })
    .resize(PORTRAIT, PORTRAIT, { kernel: 'lanczos3' })
    .png()
    .toBuffer();
}

async function cheekColour(png: Buffer): Promise<string> {
  const { data } = await sharp(png)
    .extract({ left: CHEEK.x - 4, top: CHEEK.y - 4, width: 9, height: 9 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const mean = [0, 1, 2].map((c) => {
    let s = 0;
    for (let i = c; i < data.length; i += 3) s += data[i]!;
    return Math.round(s / (data.length / 3));
  });
  return `rgb(${mean.join(',')})`;
}

/** One of the derived test photos as image bytes (PNG, or JPEG for 'dim'). */
export async function portraitFixture(kind: PortraitFixture = 'portrait'): Promise<Buffer> {
  const base = await portrait();
  switch (kind) {
    case 'portrait':
      return base;
    case 'mirrored':
      return sharp(base).flop().png().toBuffer();
    case 'dim':
      return sharp(base).modulate({ brightness: 0.8 }).tint('#ffe8d0').jpeg({ quality: 88 }).toBuffer();
    case 'too-small':
      return sharp(ASTRONAUT_PNG).png().toBuffer();
    case 'no-face':
      return sharp(ASTRONAUT_PNG)
        .extract({ left: 0, top: 320, width: 192, height: 192 })
        .resize(512, 512)
        .png()
        .toBuffer();
    case 'many-faces':
      return sharp(base)
        .extend({ right: PORTRAIT, background: '#000000' })
        .composite([{ input: base, left: PORTRAIT, top: 0 }])
        .png()
        .toBuffer();
    case 'tilted':
      return sharp(base).rotate(40, { background: '#808080' }).png().toBuffer();
    case 'eyes-closed': {
      const skin = await cheekColour(base);
      const lids = EYES.map(
        (e) =>
          `<ellipse cx="${e.x + e.width / 2}" cy="${e.y + e.height / 2}" rx="${e.width * 0.65}" ry="${e.height * 0.75}" fill="${skin}"/>`,
      ).join('');
      const layer = await sharp(svg(lids)).blur(3).png().toBuffer();
      return sharp(base)
        .composite([{ input: layer }])
        .png()
        .toBuffer();
    }
    case 'mouth-covered':
    case 'mouth-covered-hand': {
      const fill = kind === 'mouth-covered' ? '#3a3a3a' : await cheekColour(base);
      const pad = 0.25;
      const x = LIPS.x - LIPS.width * pad;
      const y = LIPS.y - LIPS.height * pad;
      const cover = `<rect x="${x}" y="${y}" width="${LIPS.width * (1 + 2 * pad)}" height="${LIPS.height * (1 + 2 * pad)}" rx="20" fill="${fill}"/>`;
      return sharp(base)
        .composite([{ input: svg(cover) }])
        .png()
        .toBuffer();
    }
  }
}
