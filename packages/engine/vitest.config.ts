import { defineConfig } from 'vitest/config';

// Real media tests (ffmpeg, festival, ONNX) need far more than the 5 s default.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
