#!/usr/bin/env bash
# Quick start 1: set up, build, and show SigLab on the bundled sample: the desktop application
# where a display is available ($DISPLAY or $WAYLAND_DISPLAY), else (or with --cli) the CLI: apply
# (the fastest engine that can run the filter here, verified) and compare (every engine measured).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
if [[ ${1:-} != --cli && ( -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ) && -x build/bin/siglab ]]; then
  exec ./build/bin/siglab data/noise_sample.txt
fi
./build/bin/siglab-cli devices
./build/bin/siglab-cli filter data/noise_sample.txt -o build/result.txt
./build/bin/siglab-cli compare data/noise_sample.txt --backend all --report build/report.json
echo "demo: wrote build/result.txt and build/report.json"
