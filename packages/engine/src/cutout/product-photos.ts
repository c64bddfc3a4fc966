import sharp from 'sharp';
import type { MatteVerdict } from './matte-check.ts';

/**
 * Product photos made in code the way a phone or a small studio takes them: a backdrop with a gradient and
 * sensor noise, soft contact shadows, highlights on glass, dust, and JPEG compression. Each comes with the
 * verdict an honest cut-out check should give it (cutout/matte-check.ts). Used by the engine tests and the
 * before/after frames in docs/video-design.md.
 */
export interface ProductPhoto {
  name: string;
  /** What the photo shows, for test names. */
  about: string;
  expected: MatteVerdict;
  /** Renders the photo to `file` (JPEG unless `png`). */
  write(file: string): Promise<void>;
}

const W = 600;
const H = 800;

/** A small seeded generator, so a photo is the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Renders an SVG, adds sensor noise and (when asked) dust specks, and writes a JPEG like a camera's. */
async function photo(
  file: string,
  svg: string,
  opts: { seed: number; noise?: number; dust?: number; quality?: number },
): Promise<void> {
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rnd = random(opts.seed);
  const noise = opts.noise ?? 3;
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i]! + (rnd() - 0.5) * 2 * noise));
  // Dust and sensor specks: 1–3 px dots, darker or lighter than the backdrop.
  for (let k = 0; k < (opts.dust ?? 0); k++) {
    const cx = Math.floor(rnd() * info.width);
    const cy = Math.floor(rnd() * info.height);
    const r = 1 + Math.floor(rnd() * 2);
    const shade = rnd() < 0.6 ? -90 : 60;
    for (let y = cy - r; y <= cy + r; y++)
      for (let x = cx - r; x <= cx + r; x++) {
        if (x < 0 || y < 0 || x >= info.width || y >= info.height) continue;
        const p = (y * info.width + x) * 3;
        for (let c = 0; c < 3; c++) data[p + c] = Math.max(0, Math.min(255, data[p + c]! + shade));
      }
  }
  await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .jpeg({ quality: opts.quality ?? 88 })
    .toFile(file);
}

const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${body}</svg>`;

/** A soft contact shadow: a blurred ellipse under the product. */
const shadow = (cx: number, cy: number, rx: number, ry: number, opacity: number, blur = 10) =>
  `<filter id="sh" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${blur}"/></filter>
   <ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="#000" opacity="${opacity}" filter="url(#sh)"/>`;

/** An amber dropper bottle (body, shoulder, black bulb, glass pipette collar) with light edges and a label. */
const amberBottle = (x: number, y: number) => `
  <defs>
    <linearGradient id="amber" x1="0" x2="1">
      <stop offset="0" stop-color="#e9c48d"/><stop offset="0.07" stop-color="#9a5214"/>
      <stop offset="0.45" stop-color="#7a3c0c"/><stop offset="0.8" stop-color="#5e2c06"/>
      <stop offset="0.95" stop-color="#a8652a"/><stop offset="1" stop-color="#ecd2a8"/>
    </linearGradient>
    <linearGradient id="bulb" x1="0" x2="1">
      <stop offset="0" stop-color="#3a3a3a"/><stop offset="0.35" stop-color="#111"/><stop offset="1" stop-color="#222"/>
    </linearGradient>
  </defs>
  <rect x="${x + 52}" y="${y}" width="56" height="90" rx="26" fill="url(#bulb)"/>
  <rect x="${x + 40}" y="${y + 80}" width="80" height="50" rx="6" fill="#1c1c1c"/>
  <rect x="${x + 46}" y="${y + 88}" width="6" height="36" fill="#6a6a6a"/>
  <path d="M ${x + 44} ${y + 130} L ${x + 116} ${y + 130} C ${x + 160} ${y + 150} ${x + 160} ${y + 170} ${x + 160} ${y + 200}
           L ${x + 160} ${y + 410} Q ${x + 160} ${y + 430} ${x + 140} ${y + 430} L ${x + 20} ${y + 430}
           Q ${x} ${y + 430} ${x} ${y + 410} L ${x} ${y + 200} C ${x} ${y + 170} ${x} ${y + 150} ${x + 44} ${y + 130} Z"
        fill="url(#amber)"/>
  <rect x="${x + 14}" y="${y + 250}" width="132" height="110" fill="#f4ecdc"/>
  <text x="${x + 80}" y="${y + 300}" font-family="sans-serif" font-size="26" font-weight="bold" fill="#5a2a06"
        text-anchor="middle">SERUM</text>
  <text x="${x + 80}" y="${y + 330}" font-family="sans-serif" font-size="13" fill="#7a5a3a"
        text-anchor="middle">vitamin C · 30 ml</text>
  <rect x="${x + 128}" y="${y + 190}" width="7" height="210" rx="3" fill="#f6e7cc" opacity="0.9"/>`;

export const PRODUCT_PHOTOS: readonly ProductPhoto[] = [
  {
    name: 'amber-dropper-beige-gradient',
    about: 'an amber dropper bottle on a light beige studio gradient, darker at the top and bottom, with dust',
    expected: 'cleaned',
    write: (file) =>
      photo(
        file,
        svg(`<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
               <stop offset="0" stop-color="#b9a88e"/><stop offset="0.12" stop-color="#e6dac6"/>
               <stop offset="0.5" stop-color="#f2ebdf"/><stop offset="0.88" stop-color="#e3d6c0"/>
               <stop offset="1" stop-color="#b3a185"/></linearGradient></defs>
             <rect width="${W}" height="${H}" fill="url(#bg)"/>
             ${amberBottle(220, 170)}`),
        { seed: 1, dust: 40 },
      ),
  },
  {
    name: 'green-box-white-print',
    about: 'a green box with white lettering on a white background',
    expected: 'cleaned',
    write: (file) =>
      photo(
        file,
        svg(`<rect width="${W}" height="${H}" fill="#fbfbfa"/>
             <rect x="150" y="170" width="300" height="460" rx="6" fill="#1f7a45"/>
             <rect x="150" y="170" width="300" height="36" fill="#1a6a3b"/>
             <text x="300" y="340" font-family="sans-serif" font-size="64" font-weight="bold" fill="#ffffff"
                   text-anchor="middle">GLOW</text>
             <text x="300" y="390" font-family="sans-serif" font-size="22" fill="#ffffff" text-anchor="middle">daily greens · 30 sachets</text>
             <rect x="190" y="440" width="220" height="4" fill="#ffffff"/>
             <circle cx="300" cy="530" r="40" fill="none" stroke="#ffffff" stroke-width="6"/>`),
        { seed: 2 },
      ),
  },
  {
    name: 'jar-soft-shadow-grey-gradient',
    about: 'a cream jar with a soft contact shadow on a light grey gradient',
    // JPEG ringing inside the lettering leaves pinholes the check fills.
    expected: 'cleaned',
    write: (file) =>
      photo(
        file,
        svg(`<defs><radialGradient id="bg" cx="0.5" cy="0.45" r="0.8">
               <stop offset="0" stop-color="#f1f1f0"/><stop offset="1" stop-color="#dcdcda"/></radialGradient>
               <linearGradient id="lid" x1="0" x2="1"><stop offset="0" stop-color="#c9a86a"/>
               <stop offset="0.5" stop-color="#f0d79c"/><stop offset="1" stop-color="#a8884c"/></linearGradient></defs>
             <rect width="${W}" height="${H}" fill="url(#bg)"/>
             ${shadow(300, 575, 150, 14, 0.18, 8)}
             <rect x="160" y="330" width="280" height="240" rx="18" fill="#d9486b"/>
             <rect x="150" y="290" width="300" height="60" rx="8" fill="url(#lid)"/>
             <text x="300" y="470" font-family="serif" font-size="40" fill="#fff5f7" text-anchor="middle">rosé</text>`),
        { seed: 3 },
      ),
  },
  {
    name: 'clean-red-tube-white',
    about: 'a red tube on a plain white backdrop',
    expected: 'clean',
    write: (file) =>
      photo(
        file,
        svg(`<rect width="${W}" height="${H}" fill="#fdfdfd"/>
             <rect x="250" y="150" width="100" height="60" rx="6" fill="#2b2b2b"/>
             <path d="M 235 210 L 365 210 L 380 640 L 220 640 Z" fill="#c8202c"/>
             <rect x="215" y="630" width="170" height="20" fill="#b01c26"/>`),
        { seed: 4, noise: 2 },
      ),
  },
  {
    name: 'clear-glass-bottle-white',
    about: 'a clear glass bottle on white: only its outline and highlights differ from the backdrop',
    expected: 'needs-review',
    write: (file) =>
      photo(
        file,
        svg(`<rect width="${W}" height="${H}" fill="#fafafa"/>
             <rect x="265" y="140" width="70" height="70" rx="6" fill="#9a9a9a"/>
             <path d="M 270 210 L 330 210 L 330 260 C 400 280 410 300 410 340 L 410 620 Q 410 650 380 650
                      L 220 650 Q 190 650 190 620 L 190 340 C 190 300 200 280 270 260 Z"
                   fill="#eef2f2" stroke="#8a9696" stroke-width="5"/>
             <rect x="215" y="330" width="10" height="280" fill="#ffffff"/>
             <rect x="375" y="330" width="6" height="280" fill="#c4cccc"/>`),
        { seed: 5 },
      ),
  },
  {
    name: 'bottle-cropped-at-bottom',
    about: 'a blue bottle photographed too close, running off the bottom of the photo',
    expected: 'needs-review',
    write: (file) =>
      photo(
        file,
        svg(`<rect width="${W}" height="${H}" fill="#f6f4f1"/>
             <rect x="250" y="120" width="100" height="90" rx="8" fill="#e8e8e8" stroke="#bbb" stroke-width="2"/>
             <rect x="180" y="200" width="240" height="620" rx="40" fill="#2a5ba8"/>
             <text x="300" y="460" font-family="sans-serif" font-size="44" fill="#ffffff" text-anchor="middle">AQUA</text>`),
        { seed: 6 },
      ),
  },
];

export const PRODUCT_PHOTO_SIZE = { width: W, height: H } as const;

/**
 * A plain blue bottle on white (480x640 PNG at `file`): the product of the frame-shape renders, the shapes test
 * and `npm run shape-frames`, where the cut-out is not what is looked at.
 */
export async function writeBlueBottlePhoto(file: string): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640">
    <rect width="480" height="640" fill="#ffffff"/>
    <rect x="170" y="180" width="140" height="380" rx="30" fill="#2d6cd6"/>
    <rect x="205" y="110" width="70" height="80" rx="8" fill="#333333"/>
    <rect x="190" y="300" width="100" height="90" fill="#f5e6c8"/></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(file);
}
