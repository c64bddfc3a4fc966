// Prints one closing line "N passed, N failed" over the Vitest and Playwright JSON reports.
import { existsSync, readFileSync } from 'node:fs';

const [vitestFile, playwrightFile] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
if (vitestFile && existsSync(vitestFile)) {
  const v = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + v.numTodoTests;
  if (v.numTotalTestSuites > 0 && v.success === false && v.numFailedTests === 0) failed += 1; // a suite failed to load
} else {
  failed += 1;
}
if (playwrightFile && existsSync(playwrightFile)) {
  const p = JSON.parse(readFileSync(playwrightFile, 'utf8'));
  passed += p.stats.expected + p.stats.flaky;
  failed += p.stats.unexpected;
  skipped += p.stats.skipped;
  if (p.errors?.length) failed += p.errors.length;
} else {
  failed += 1;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || skipped > 0 ? 1 : 0);
