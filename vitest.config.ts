import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** The web app's test files (relative to apps/web), split by whether they replace a module with vi.mock. */
const webTestFiles = readdirSync('apps/web/src', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => path.join('src', file));
const mocksModules = (file: string) => readFileSync(path.join('apps/web', file), 'utf8').includes('vi.mock(');
const webFilesWithModuleMocks = webTestFiles.filter(mocksModules);
const webFilesWithoutModuleMocks = webTestFiles.filter((file) => !mocksModules(file));

/** One Vitest run for every workspace: unit tests beside the code, API tests over HTTP in apps/server/test. */
export default defineConfig({
  test: {
    // Vitest's default on 2 cores is one file at a time, which leaves a core idle while a file starts up or waits
    // on a socket or a child process (docs/decisions/143). Two files still left the cores a fifth idle through much
    // of the run; three keep them busy (docs/decisions/158).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'engine',
          include: ['packages/engine/src/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // As for the server files: a worker loads the engine once, not once per file (decision 148).
          isolate: false,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          // The scale proof renders 36 videos: `npm run proof:matrix36`, outside the everyday suite.
          exclude: ['apps/server/test/scale/**', 'apps/server/test/proof/**'],
          // Generous: beside another file's render a single render test can take twice its lone time.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // A worker keeps its loaded modules from one file to the next: loading the server and the engine again
          // for each of ~80 files was about a fifth of the run's CPU (decision 148). Each file still makes its own
          // server, database, data directory and Redis prefix; a file that changes the engine's environment resets
          // its cached config (resetEngineConfig) on the way in and out.
          isolate: false,
        },
      },
      {
        // Multi-process scale mode (API and worker processes, PostgreSQL, Redis, s3rver): `npm run test:scale`.
        test: {
          name: 'scale',
          include: ['apps/server/test/scale/**/*.test.ts'],
          testTimeout: 420_000,
          hookTimeout: 180_000,
          pool: 'forks',
          // Each file boots its own cluster of render processes: one file at a time, after the other projects
          // (in a full run), so the clusters do not compete with each other or the rest of the suite for CPU.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      // The web app's files in jsdom. Most share a worker's modules from file to file (jsdom and React are set up
      // once per worker, not once per file: about 2.4x faster); a file that replaces a module with vi.mock runs
      // in its own module registry, since a shared one would hand later files the mocked module (decision 153).
      {
        extends: 'apps/web/vitest.config.ts',
        root: 'apps/web',
        test: { name: 'web', exclude: webFilesWithModuleMocks, isolate: false },
      },
      {
        extends: 'apps/web/vitest.config.ts',
        root: 'apps/web',
        // `extends` adds to the base's include list, so this project leaves out the other files instead.
        test: { name: 'web-mocked', exclude: webFilesWithoutModuleMocks },
      },
      // `npm run proof:matrix36` (HOOKREEL_PROOF=1): evidence runs too slow for every test run.
      ...(process.env.HOOKREEL_PROOF
        ? [
            {
              test: {
                name: 'proof',
                include: ['apps/server/test/proof/**/*.test.ts'],
                testTimeout: 1_200_000,
                hookTimeout: 180_000,
                pool: 'forks' as const,
              },
            },
          ]
        : []),
    ],
  },
});
