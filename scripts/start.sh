#!/usr/bin/env bash
# `npm start`: everything a fresh Debian machine needs, then the app on the embedded default
# (SQLite + in-process jobs + local files + local OpenID provider) at http://localhost:${PORT:-3000}.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system.sh
bash scripts/ensure-deps.sh
bash scripts/build-web.sh
export DATA_DIR="${DATA_DIR:-$PWD/data}"
exec node --import tsx apps/server/src/main.ts
