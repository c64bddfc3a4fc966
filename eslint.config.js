import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import groups for the server's direction rules; type-only imports are erased at run time and allowed. */
const ENGINE = {
  group: ['@hookreel/engine', '@hookreel/engine/*'],
  message: 'Only the media port (src/media) uses the engine: ask ctx.media, or take a pure value from media/values.ts.',
};
/**
 * Another area of services/ is entered only through its face (decision 200). Inside an area, `../<other>/…` names
 * another area; from elsewhere, `…/services/<area>/…`. Type imports count too: an area's types are part of its face.
 */
const AREA_FROM_AREA = {
  group: ['../*/**', '!../*/index.ts', '!../../**'],
  message: 'Import another area only through its face: ../<area>/index.ts.',
};
const AREA_FROM_OUTSIDE = {
  group: ['**/services/*/**', '!**/services/*/index.ts'],
  message: 'Import a service area only through its face: services/<area>/index.ts.',
};
const HTTP = { group: ['**/http/*', '**/http/**'], message: 'http/ is the top layer: nothing below it imports it.' };
const SERVICES = {
  group: ['**/services/*', '**/services/**'],
  message: 'Only http/ and the start-up wiring import services.',
};
const RUNNER = { group: ['**/jobs/*', '**/jobs/**'], message: 'Repositories know no jobs.' };
/** The media port may name the job contract (PermanentJobError for a refusal no retry fixes), not the runner. */
const RUNNER_BUT_CONTRACT = {
  group: ['**/jobs/*', '**/jobs/**', '!**/jobs/definition.ts'],
  message: 'The media port knows jobs only through jobs/definition.ts.',
};
const DEFINITIONS = {
  group: ['**/job-definitions.ts'],
  message: 'The runner gets its definitions at start-up; it imports none.',
};
const restrict = (...groups) => ({
  patterns: groups.map((g) => ({ ...g, allowTypeImports: !g.message.includes('face') })),
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tmp/**', 'data/**', '**/*.config.js', 'scripts/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // Import directions (decision 081). apps/server/test/import-boundaries.test.ts checks the whole graph, including
  // what a glob cannot see (relative climbs, transitive edges); these catch the common slips in the editor.
  // A later block replaces an earlier one's options for the same rule, so each area lists all of its own.
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features/*'],
              message: 'Features never import each other: share through @/lib or @/components.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/services/**', 'apps/server/src/media/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', restrict(ENGINE, AREA_FROM_OUTSIDE)] },
  },
  {
    files: ['apps/server/src/services/**/*.ts'],
    ignores: ['apps/server/src/services/**/*.test.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', restrict(ENGINE, HTTP, AREA_FROM_AREA)] },
  },
  {
    // A unit test beside a service may open its area's inner files, but it too reaches the engine only through media/.
    files: ['apps/server/src/services/**/*.test.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', restrict(ENGINE, HTTP)] },
  },
  {
    files: ['apps/server/src/media/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', restrict(HTTP, SERVICES, RUNNER_BUT_CONTRACT)] },
  },
  {
    files: ['apps/server/src/jobs/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', restrict(ENGINE, HTTP, SERVICES, DEFINITIONS)] },
  },
  {
    files: ['apps/server/src/db/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', restrict(ENGINE, HTTP, SERVICES, RUNNER)] },
  },
);
