#!/usr/bin/env bash
# Retakes the README's screenshots (docs/images/siglab-*.png) with an already built
# siglab-screenshots: the filtered signal, the timing table after Compare, the Spectrum tab with
# the filter's response, the Spectrogram dock, the cursors with a marker and a region, the Lab tab,
# the first window, the import dialog and the statistics.
# Runs it under Xvfb (xvfb-run, from scripts/setup.sh) as the desktop draws it, or offscreen
# where there is no Xvfb. Builds nothing.
# Usage: scripts/screenshots.sh BIN_DIR [OUT_DIR]   e.g. scripts/screenshots.sh build/bin
set -euo pipefail
if (($# < 1 || $# > 2)); then
  echo "usage: $0 BIN_DIR [OUT_DIR]  (BIN_DIR holds siglab-screenshots; OUT_DIR defaults to docs/images)" >&2
  exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
tool=$(realpath "$1")/siglab-screenshots
out=$(realpath -m "${2:-$repo/docs/images}")
[[ -x $tool ]] || { echo "screenshots: no siglab-screenshots in $1 (build it: cmake --build build --target siglab-screenshots)" >&2; exit 1; }
if command -v xvfb-run >/dev/null; then
  env -u WAYLAND_DISPLAY QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" \
    "$tool" "$out" "$repo/data/noise_sample.txt"
else
  QT_QPA_PLATFORM=offscreen "$tool" "$out" "$repo/data/noise_sample.txt"
fi
