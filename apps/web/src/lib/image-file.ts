import { LIMITS, VALIDATION } from '@hookreel/contracts';

/** PNG, JPEG or WEBP from the first bytes of the file, the same test the server makes (docs/decisions/030). */
export function sniffImage(head: Uint8Array): 'png' | 'jpeg' | 'webp' | null {
  const at = (i: number) => head[i] ?? -1;
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) return 'png';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'jpeg';
  const ascii = (from: number, to: number) => String.fromCharCode(...head.slice(from, to));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

/**
 * Why the server would refuse this file as a product image, or null when it would take it. Checked before
 * anything is created, so a refused file leaves nothing behind (an SVG or a renamed text file, a 15 MB photo).
 */
export async function imageFileProblem(file: Blob): Promise<string | null> {
  if (file.size > LIMITS.uploadMaxBytes) return VALIDATION.fileTooLarge;
  const head = await readHead(file.slice(0, 12));
  return sniffImage(head) ? null : VALIDATION.imageRequired;
}

/** FileReader rather than Blob.arrayBuffer, which older engines (and jsdom) lack. */
export function readHead(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsArrayBuffer(blob);
  });
}
