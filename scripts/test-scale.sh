#!/usr/bin/env bash
# `npm run test:scale`: scale mode as separate processes — API processes and BullMQ workers over PostgreSQL,
# Redis and an S3 bucket (s3rver) — driven over HTTP (apps/server/test/scale).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-services.sh || exit 1
npx vitest run --project scale "$@"
