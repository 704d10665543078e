#!/usr/bin/env bash
# Issue 27's CPU targets in one command: SciPy 1.10 (/usr/bin/python3) against SigLab's default
# engine on 10M float64 samples, each stage's ratio measured in the same run, the machine's load
# noted before and after. Builds siglab-rate-bench into $SIGLAB_BUILD_DIR (default build/) first.
#   usage: scripts/bench-cpu-stages.sh [SAMPLES] [REPEATS] > docs/perf/cpu-stages-DATE.txt
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SIGLAB_BUILD_DIR:-build}
cmake --build "$build" --target siglab-rate-bench >/dev/null
echo "# scripts/bench-cpu-stages.sh ${*}: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
echo "# SciPy $(/usr/bin/python3 -c 'import scipy; print(scipy.__version__)'); commit $(git rev-parse --short HEAD)"
echo "# load before: $(uptime | sed 's/.*load average/load average/')"
"$build/bin/siglab-rate-bench" "${1:-10000000}" "${2:-5}"
echo "# load after: $(uptime | sed 's/.*load average/load average/')"
