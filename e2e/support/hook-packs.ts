import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/**
 * A product photo as a shopper would upload it: a coloured bottle with a cap and a label on a white background,
 * drawn with sharp and written to a temp file. Returns the file's path.
 */
export async function productPhotoFile(colour = '#1f7a4d', name = 'bottle.png'): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    <rect width="600" height="800" fill="#ffffff"/>
    <rect x="215" y="230" width="170" height="470" rx="36" fill="${colour}"/>
    <rect x="255" y="140" width="90" height="100" rx="10" fill="#2b2b2b"/>
    <rect x="235" y="380" width="130" height="110" rx="6" fill="#f4ead5"/>
  </svg>`;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hookreel-product-')), name);
  writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
  return file;
}
