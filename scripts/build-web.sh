#!/usr/bin/env bash
# Builds the web app when its sources (or the contracts it imports) changed since the last build.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=apps/web/dist/.source.sha
want=$(find apps/web/src apps/web/public apps/web/index.html apps/web/vite.config.ts apps/web/prerender.mjs apps/web/package.json packages/contracts/src -type f -print0 2>/dev/null \
  | sort -z | xargs -0 sha1sum | sha1sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
echo "[build-web] building the web app"
npm run build -w @hookreel/web --silent
echo "$want" > "$stamp"
