#!/usr/bin/env bash
# Quick start 1: set up, build, and run the comparison of every engine on the bundled sample.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/bin/siglab-cli devices
./build/bin/siglab-cli filter data/noise_sample.txt -o result.txt --backend all --report report.json
