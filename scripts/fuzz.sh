#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) into build-fuzz/ and runs each one for
# SECONDS (default 600), starting from the committed seed corpus in fuzz/corpus/<reader>/.
# New inputs found go to build-fuzz/corpus/<reader>/; crashes to build-fuzz/crashes/.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: fuzz-text ...)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
# Configured once (the build re-runs CMake itself when a CMakeLists.txt changes): two runs of this
# script at once then never regenerate the same build folder together.
if [[ ! -f build-fuzz/build.ninja ]]; then
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DSIGLAB_FUZZ=ON -DSIGLAB_CUDA=OFF > build-fuzz.log
fi
targets=("$@")
if ((${#targets[@]} == 0)); then
  mapfile -t targets < <(sed -n 's/^foreach(reader \(.*\))$/\1/p' fuzz/CMakeLists.txt | tr ' ' '\n' | sed 's/^/fuzz-/')
fi
# Only the targets asked for (and siglab_core under them), not every fuzz target.
cmake --build build-fuzz --parallel "$(nproc)" --target "${targets[@]}" >> build-fuzz.log
mkdir -p build-fuzz/crashes
status=0
for target in "${targets[@]}"; do
  reader=${target#fuzz-}
  mkdir -p "build-fuzz/corpus/$reader"
  echo "== $target for ${seconds}s"
  if ! "build-fuzz/bin/$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="build-fuzz/crashes/$target-" \
      "build-fuzz/corpus/$reader" "fuzz/corpus/$reader" 2>&1 | tee "build-fuzz/$target.log" | grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|new_units_added|peak_rss_mb)|==[0-9]+==ERROR|SUMMARY'; then
    :
  fi
  grep -q -E '==[0-9]+==ERROR|SUMMARY: (Address|Undefined)|deadly signal|Timeout' "build-fuzz/$target.log" && status=1
done
exit $status
