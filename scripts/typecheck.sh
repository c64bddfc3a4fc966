#!/usr/bin/env bash
# Type-checks every workspace (strict); each has its own tsconfig.json.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
for p in packages/contracts packages/engine apps/server apps/web e2e bench; do
  [ -f "$p/tsconfig.json" ] || continue
  npx tsc -p "$p" --noEmit || { echo "type errors in $p"; status=1; }
done
exit $status
