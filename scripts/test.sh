#!/usr/bin/env bash
# Quick start 2: set up, build, and run every test. GPU tests skip without a GPU; set
# SIGLAB_REQUIRE_GPU=1 to make a skip a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/phase-time.sh
phase "test.sh: set-up" bash scripts/setup.sh
phase "test.sh: build" bash scripts/build.sh
phase "test.sh: tests" ctest --test-dir "${SIGLAB_BUILD_DIR:-build}" --output-on-failure --parallel "$(nproc)"
