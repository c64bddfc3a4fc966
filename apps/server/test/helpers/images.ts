import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { portraitFixture, type PortraitFixture } from '@hookreel/engine/testing';
import type { TestServer } from './app.ts';

/**
 * Image factories for upload tests: valid PNG/JPEG/WEBP made with sharp, and a corpus of hostile files
 * (wrong magic bytes, truncated, SVG with script, GIF, pixel bombs, EXIF GPS, oversize).
 */

/** A two-colour image (left half red, right half blue) so orientation changes can be seen in the pixels. */
function twoTone(width: number, height: number, alpha = false) {
  const channels = alpha ? 4 : 3;
  const raw = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      const left = x < width / 2;
      raw[i] = left ? 255 : 0;
      raw[i + 1] = 0;
      raw[i + 2] = left ? 0 : 255;
      if (alpha) raw[i + 3] = left ? 255 : 64;
    }
  }
  return sharp(raw, { raw: { width, height, channels } });
}

export const pngImage = (width = 64, height = 48, alpha = true) => twoTone(width, height, alpha).png().toBuffer();
export const jpegImage = (width = 64, height = 48) => twoTone(width, height).jpeg({ quality: 90 }).toBuffer();
export const webpImage = (width = 64, height = 48) => twoTone(width, height).webp({ quality: 90 }).toBuffer();
export const gifImage = () => twoTone(16, 16).gif().toBuffer();

/** 40x20 landscape pixels tagged EXIF orientation 6 (display rotated 90° clockwise → 20x40) with GPS data. */
export const jpegWithExifGpsAndOrientation = () =>
  twoTone(40, 20)
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'SpyCam', Model: 'Tracker 3000', Artist: 'secret person' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();

/** Plain text in a file named like a PNG. */
export const textPretendingToBePng = () => Buffer.from('This is not an image, just text in a .png file.\n'.repeat(20));

/** The first half of a real PNG: the header is fine, the pixel data stops. */
export async function truncatedPng(): Promise<Buffer> {
  const full = await twoTone(256, 256).png({ compressionLevel: 0 }).toBuffer();
  return full.subarray(0, Math.floor(full.length / 2));
}

export const svgWithScript = () =>
  Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' +
      '<script>alert(document.cookie)</script><rect width="100" height="100" fill="red"/></svg>',
  );

/** HTML with a PNG's first bytes would still be a PNG to the sniffer; this one starts as HTML. */
export const htmlPage = () => Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A valid-looking tiny PNG whose header claims width x height (default 100000x100000 = 10 gigapixels). */
export function pngHeaderBomb(width = 100_000, height = 100_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  const idat = deflateSync(Buffer.alloc(1024));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let bomb: Promise<Buffer> | undefined;
/** A real, highly compressible PNG over the pixel cap (6400x6400 = 41 MP in well under 1 MB); made once. */
export const compressiblePngBomb = () =>
  (bomb ??= sharp({ create: { width: 6400, height: 6400, channels: 3, background: '#ffffff' } })
    .png({ compressionLevel: 9 })
    .toBuffer());

/** Just over 10 MB that starts like a PNG. */
export function oversizeFile(bytes = 10 * 1024 * 1024 + 1024): Buffer {
  const b = Buffer.alloc(bytes, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b);
  return b;
}

/** A multipart body from parts, for fetch. */
export function formData(
  parts: Array<{ name: string; value: string } | { name: string; file: Buffer; filename: string; type?: string }>,
) {
  const fd = new FormData();
  for (const p of parts) {
    if ('file' in p)
      fd.append(p.name, new Blob([new Uint8Array(p.file)], { type: p.type ?? 'application/octet-stream' }), p.filename);
    else fd.append(p.name, p.value);
  }
  return fd;
}

/** The multipart body of POST /api/avatars/upload: consent given, then each portrait (PNG) as a `files` part. */
export const avatarUploadForm = async (...photos: Array<{ filename: string; kind?: PortraitFixture }>) =>
  formData([
    { name: 'consent', value: 'true' },
    ...(await Promise.all(
      photos.map(async ({ filename, kind }) => ({
        name: 'files',
        file: await portraitImage(kind),
        filename,
        type: 'image/png',
      })),
    )),
  ]);

/** The multipart body of POST /api/creators: a name, consent given, and a portrait (PNG) as the photo. */
export const creatorForm = async (name: string, filename = 'creator.png') =>
  formData([
    { name: 'name', value: name },
    { name: 'consent', value: 'true' },
    { name: 'photo', file: await portraitImage(), filename, type: 'image/png' },
  ]);

/** The multipart body of POST /api/projects/: a name and, optionally, a product photo (PNG). */
export const projectForm = (name: string, photo?: Buffer, filename = 'product.png') =>
  formData([
    { name: 'name', value: name },
    ...(photo ? [{ name: 'file', file: photo, filename, type: 'image/png' }] : []),
  ]);

/** A photo-like PNG of random pixels: it does not compress away, so its size follows width × height. */
export const noisyPng = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();

/** Every file under DATA_DIR/files except the seeded catalogue. */
export async function storedFiles(server: TestServer): Promise<string[]> {
  const root = server.ctx.config.filesDir;
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((p) => !p.startsWith('catalogue/'))
    .sort();
}

const portraits = new Map<PortraitFixture, Promise<Buffer>>();
/**
 * A photo derived from the public-domain astronaut portrait (packages/engine/src/photo/fixtures.ts). Avatar uploads
 * run the face analysis (decision 190), so they need a real face: 'portrait' (PNG) and 'dim' (JPEG) are accepted,
 * the other kinds are refused for their reason.
 */
export const portraitImage = (kind: PortraitFixture = 'portrait'): Promise<Buffer> => {
  let p = portraits.get(kind);
  if (!p) portraits.set(kind, (p = portraitFixture(kind)));
  return p;
};
