import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      name: 'web',
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}'],
      css: false,
      restoreMocks: true,
      // The first render of a file pays for jsdom and module start-up; beside the CPU-heavy render tests of a full
      // run on 2 cores that alone can pass 5 s.
      testTimeout: 20_000,
    },
  }),
);
