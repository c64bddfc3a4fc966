import { defineConfig } from 'vitest/config';

/** One Vitest run for every workspace: unit tests beside the code, API tests over HTTP in apps/server/test. */
export default defineConfig({
  test: {
    // Vitest's default on 2 cores is one file at a time, which leaves a core idle while a file starts up or waits
    // on a socket or a child process: two files side by side keep both busy (docs/decisions/143).
    maxWorkers: 2,
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
      'apps/web/vitest.config.ts',
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
