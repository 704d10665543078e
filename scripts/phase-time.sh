# Sourced by scripts/test.sh and scripts/test-sanitizers.sh: `phase NAME COMMAND...` runs COMMAND and
# prints its wall time and the CPU seconds (user + system) it and its children used, so that .ci/run's
# log splits each step into set-up, build and tests (issue 30). CPU seconds hardly depend on the
# machine's load, wall seconds do.
phase() {
  local name=$1 start=$SECONDS times_file
  shift
  times_file=$(mktemp)
  # `times`, run in this shell (not a subshell), prints this shell's and its finished children's
  # user and system times ("0m1.234s 0m0.056s" a line); their growth is the command's CPU time.
  times >"$times_file"
  local status=0 cpu
  "$@" || status=$?
  times >>"$times_file"
  cpu=$(awk '{ for (i = 1; i <= NF; ++i) { split($i, t, /[ms]/); s = t[1] * 60 + t[2]; sum += (NR > 2 ? s : -s) } }
             END { printf "%.1f", sum }' "$times_file")
  rm -f "$times_file"
  echo "${name} took $((SECONDS - start)) s, ${cpu} CPU-s$( ((status == 0)) || echo ", failed with status ${status}")"
  return "$status"
}
