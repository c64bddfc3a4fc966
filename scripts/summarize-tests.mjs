// Prints the failed tests (name and first lines of the error) and one closing line "N passed, N failed" over the
// Vitest and Playwright JSON reports. The failures come last so that a log's tail says what broke.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [vitestFile, playwrightFile] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

const firstLines = (text) =>
  String(text ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .slice(0, 6)
    .join('\n    ');

if (vitestFile && existsSync(vitestFile)) {
  const v = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + v.numTodoTests;
  for (const file of v.testResults ?? []) {
    const name = relative(process.cwd(), file.name);
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests) failures.push(`${name} › ${t.fullName}\n    ${firstLines(t.failureMessages?.[0])}`);
    if (file.status === 'failed' && failedTests.length === 0) {
      failed += 1; // the file failed to load or a hook failed
      failures.push(`${name} (file)\n    ${firstLines(file.message)}`);
    }
  }
} else {
  failed += 1;
  failures.push('vitest wrote no report');
}

function walkPlaywright(suite, trail) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status === 'unexpected') {
        const last = test.results?.[test.results.length - 1];
        failures.push(
          `e2e/${spec.file} › ${[...trail, spec.title].join(' › ')}\n    ${firstLines(last?.error?.message)}`,
        );
      }
    }
  }
  for (const child of suite.suites ?? []) walkPlaywright(child, [...trail, child.title]);
}

if (playwrightFile && existsSync(playwrightFile)) {
  const p = JSON.parse(readFileSync(playwrightFile, 'utf8'));
  passed += p.stats.expected + p.stats.flaky;
  failed += p.stats.unexpected;
  skipped += p.stats.skipped;
  for (const suite of p.suites ?? []) walkPlaywright(suite, []);
  for (const error of p.errors ?? []) {
    failed += 1;
    failures.push(`playwright: ${firstLines(error.message)}`);
  }
} else {
  failed += 1;
  failures.push('playwright wrote no report');
}

if (failures.length > 0) {
  console.log('\nFailed:');
  for (const failure of failures) console.log(`  ✗ ${failure}`);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || skipped > 0 ? 1 : 0);
