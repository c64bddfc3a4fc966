import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CAPTION_STYLES } from '@hookreel/contracts';
import { renderCaptionPreview } from './preview.ts';

/** `npm run caption-previews [dir]`: writes one preview PNG per caption style (default: the web app's public dir). */
const dir = path.resolve(process.argv[2] ?? 'apps/web/public/caption-styles');
await mkdir(dir, { recursive: true });
for (const style of CAPTION_STYLES) {
  const out = path.join(dir, `${style}.png`);
  await renderCaptionPreview(style, out);
  console.log(`[caption-previews] ${out}`);
}
