import { LIMITS, VALIDATION } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { imageFileProblem, sniffImage } from './image-file';

const bytes = (...b: number[]) => new Uint8Array(b);
const webpHead = new TextEncoder().encode('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ');

describe('imageFileProblem', () => {
  it('accepts PNG, JPEG and WEBP by their first bytes, whatever the name says', async () => {
    expect(sniffImage(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a))).toBe('png');
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(sniffImage(webpHead)).toBe('webp');
    expect(await imageFileProblem(new Blob([bytes(0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0)], { type: 'image/png' }))).toBe(
      null,
    );
  });

  it('refuses SVG, a renamed text file and an empty file with the upload message', async () => {
    expect(
      await imageFileProblem(new Blob(['<svg xmlns="http://www.w3.org/2000/svg"/>'], { type: 'image/svg+xml' })),
    ).toBe(VALIDATION.imageRequired);
    expect(await imageFileProblem(new Blob(['just some notes'], { type: 'image/png' }))).toBe(VALIDATION.imageRequired);
    expect(await imageFileProblem(new Blob([]))).toBe(VALIDATION.imageRequired);
  });

  it('refuses a file over the upload cap before reading it', async () => {
    const big = new Blob([new Uint8Array(LIMITS.uploadMaxBytes + 1)], { type: 'image/png' });
    expect(await imageFileProblem(big)).toBe(VALIDATION.fileTooLarge);
  });
});
