#!/usr/bin/env bash
# Installs the Debian packages Hookreel needs (ffmpeg, festival and flite voices, fonts; chromium for tests) when missing.
# Usage: scripts/ensure-system.sh [--with-browser]
set -euo pipefail
need=()
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
command -v ffprobe >/dev/null 2>&1 || need+=(ffmpeg)
command -v text2wave >/dev/null 2>&1 || need+=(festival)
[ -d /usr/share/festival/voices/us/cmu_us_slt_arctic_hts ] || need+=(festvox-us-slt-hts)
[ -d /usr/share/festival/voices/english/kal_diphone ] || need+=(festvox-kallpc16k)
# flite's clustergen voices (rms: the English male voice, decision 210).
command -v flite >/dev/null 2>&1 || need+=(flite)
[ -f /usr/include/flite/flite.h ] || need+=(flite1-dev)
command -v cc >/dev/null 2>&1 || need+=(gcc libc6-dev)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] || need+=(fonts-dejavu-core)
# Brand-kit caption fonts (open licences, listed in docs/video-design.md#asset-licences).
[ -f /usr/share/fonts/truetype/lato/Lato-Bold.ttf ] || need+=(fonts-lato)
[ -f /usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf ] || need+=(fonts-open-sans)
# Perl runs ExifTool (npm exiftool-vendored), which writes the AI provenance into every MP4 (decision 201).
command -v perl >/dev/null 2>&1 || need+=(perl)
if [ "${1:-}" = "--with-browser" ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
fi
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
echo "[ensure-system] installing: ${need[*]}"
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
