#!/usr/bin/env bash
# Type-checks every workspace (strict); each has its own tsconfig.json. Two tsc runs at a time, each one's output
# kept apart: the checks are single-threaded and the machine has at least two cores.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
check() {
  local p=$1 log="$logs/${1//\//_}.log"
  npx tsc -p "$p" --noEmit > "$log" 2>&1 || { echo "type errors in $p" >> "$log"; return 1; }
}
# The two heaviest (server, web) in different lanes, the rest after them.
lane() {
  local status=0
  for p in "$@"; do
    [ -f "$p/tsconfig.json" ] || continue
    check "$p" || status=1
  done
  return $status
}
lane apps/server packages/engine e2e & first=$!
lane apps/web bench packages/contracts & second=$!
status=0
wait $first || status=1
wait $second || status=1
cat "$logs"/*.log
exit $status
