import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/**
 * A product photo as a shopper would upload it: a coloured bottle with a cap and a label on a white background,
 * drawn with sharp and written to a temp file. Returns the file's path. `transparent` leaves the background
 * transparent, as a brand's cut-out PNG: the server takes it as its own cut-out and runs no background-removal
 * model (docs/decisions/151), so specs that are not about the cut-out use it.
 */
export async function productPhotoFile(
  colour = '#1f7a4d',
  name = 'bottle.png',
  { transparent = false }: { transparent?: boolean } = {},
): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    ${transparent ? '' : '<rect width="600" height="800" fill="#ffffff"/>'}
    <rect x="215" y="230" width="170" height="470" rx="36" fill="${colour}"/>
    <rect x="255" y="140" width="90" height="100" rx="10" fill="#2b2b2b"/>
    <rect x="235" y="380" width="130" height="110" rx="6" fill="#f4ead5"/>
  </svg>`;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hookreel-product-')), name);
  writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
  return file;
}

/**
 * A product photo whose background was removed badly before upload (a transparent PNG): the bottle runs off
 * the photo's bottom edge and a patch of the old grey backdrop was left beside it. Its own alpha is its cut-out
 * (decision 151), and the cut-out check asks for a look (decision 214).
 */
export async function badBackgroundPhotoFile(name = 'bad-background.png'): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    <rect x="215" y="230" width="170" height="570" rx="36" fill="#b8641c"/>
    <rect x="255" y="140" width="90" height="100" rx="10" fill="#2b2b2b"/>
    <rect x="235" y="380" width="130" height="110" rx="6" fill="#f4ead5"/>
    <rect x="15" y="30" width="150" height="260" fill="#d8d2c8"/>
  </svg>`;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hookreel-product-')), name);
  writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
  return file;
}
