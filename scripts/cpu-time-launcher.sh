#!/usr/bin/env bash
# A compiler launcher that appends each compile's CPU seconds (user, system), wall seconds and output
# file to $SIGLAB_CPU_TIME_LOG, then runs the compile: per-object CPU time that hardly depends on the
# machine's load, unlike .ninja_log's wall times (docs/perf/ci-timing-2026-11-27.txt). Use it in place
# of ccache: SIGLAB_CPU_TIME_LOG=/tmp/objects.log cmake -B build-profile -DSIGLAB_CCACHE=$PWD/scripts/cpu-time-launcher.sh
set -euo pipefail
out=unknown
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  [[ ${args[i]} == -o ]] && out=${args[i + 1]:-unknown}
done
exec /usr/bin/time -f "%U %S %e ${out}" -a -o "${SIGLAB_CPU_TIME_LOG:?set SIGLAB_CPU_TIME_LOG}" "$@"
