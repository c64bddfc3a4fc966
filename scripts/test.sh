#!/usr/bin/env bash
# `npm test`: installs what is missing, then runs every check and test — type checks, ESLint and Prettier, unit
# and API tests (SQLite and PostgreSQL, BullMQ on the local Redis), and the Chromium end-to-end specs.
# Ends with one line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system.sh --with-browser || exit 1
bash scripts/ensure-deps.sh || exit 1
bash scripts/ensure-services.sh || exit 1
mkdir -p .tmp
rm -f .tmp/vitest.json .tmp/playwright.json
status=0

echo "== type check and lint"
# Three single-threaded checks: run side by side on the machine's cores, each one's output kept apart.
bash scripts/typecheck.sh > .tmp/typecheck.log 2>&1 & typecheck=$!
npx eslint . > .tmp/eslint.log 2>&1 & eslint=$!
npx prettier --check . > .tmp/prettier.log 2>&1 & prettier=$!
for check in typecheck eslint prettier; do
  wait "${!check}" || { status=1; echo "-- $check failed:"; }
  cat ".tmp/$check.log"
done

echo "== unit and API tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json || status=1

echo "== end-to-end tests (Chromium)"
bash scripts/build-web.sh || status=1
(cd e2e && npx playwright test) || status=1

node scripts/summarize-tests.mjs .tmp/vitest.json .tmp/playwright.json || status=1
exit $status
