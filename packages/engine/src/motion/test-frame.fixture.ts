import { y4mFrame } from './frames.ts';

/**
 * A pose-like 720x1280 frame for tests: diagonal stripes and a disc whose place depends on `seed`, so crops and
 * scales show in the pixels. Returned as a one-frame Y4M file's bytes, as pose frames are stored.
 */
export function testPoseFrame(seed: number, width = 720, height = 1280): Buffer {
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const disc = (x - 300 - seed * 40) ** 2 + (y - 500) ** 2 < 120 ** 2;
      rgba[i] = disc ? 230 : (x * 3 + y) % 256;
      rgba[i + 1] = disc ? 40 : (x + y * 2 + seed * 50) % 256;
      rgba[i + 2] = ((x ^ y) + seed * 90) % 256;
      rgba[i + 3] = 255;
    }
  return y4mFrame(rgba, width, height);
}
