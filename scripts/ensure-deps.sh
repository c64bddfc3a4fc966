#!/usr/bin/env bash
# Installs npm dependencies when package-lock.json changed since the last install (or node_modules is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.hookreel-lock.sha
want=$(sha1sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
echo "[ensure-deps] installing npm dependencies (first run takes a few minutes)"
# onnxruntime-node would otherwise try to download CUDA binaries; its CPU libraries ship in the tarball.
export npm_config_onnxruntime_node_install_cuda=skip
if [ -d node_modules ]; then npm install --no-audit --no-fund; else npm ci --no-audit --no-fund; fi
echo "$want" > "$stamp"
