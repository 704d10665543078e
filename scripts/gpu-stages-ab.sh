#!/usr/bin/env bash
# Issue 27's GPU stages before and after in one run on one GPU: BASE (main's tree, e.g. from
# `git archive main`) and this tree, each built for Hopper (the libraries and the benches only);
# the stage engines' CUDA tests of this tree; siglab-stream-e2e-bench (hilbert and envelope on
# gpu-fft from a raw file against reading it, each phase alone) of both trees, taking turns; and
# this tree's stages beside CuPy (scripts/bench-gpu-stages.py: correlate's FFT method with a long
# template, and main's GPU path for it, the direct sums). Writes under a temporary folder only.
#
#   scripts/gpu-stages-ab.sh BASE_TREE [SAMPLES] [STAGES]   (SAMPLES of the file: 100M, 800 MB; BASE_TREE
#                                                            -: this tree alone; STAGES: beside CuPy, default all)
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-deps-env.sh
siglab_use_carried_deps > /dev/null || exit 1
export PATH=/usr/local/cuda/bin:$PATH
base=$1
[[ $base == - ]] || base=$(cd "$1" && pwd)
samples=${2:-100000000}
stages=${3:-}
here=$(pwd)
if [[ $base != - ]]; then  # main's tree gets the same end-to-end bench (it uses only what main's headers offer)
  cp cuda/bench/stream_e2e_bench.cpp "$base/cuda/bench/"
  grep -q siglab-stream-e2e-bench "$base/cuda/CMakeLists.txt" || cat >> "$base/cuda/CMakeLists.txt" <<'CMAKE'
if(SIGLAB_HAVE_CUDA AND SIGLAB_BENCHMARKS)
  add_executable(siglab-stream-e2e-bench bench/stream_e2e_bench.cpp)
  target_link_libraries(siglab-stream-e2e-bench PRIVATE siglab_cuda)
endif()
CMAKE
fi
build() {  # build TREE TARGETS...
  local tree=$1; shift
  cmake -S "$tree" -B "$tree/build-gpu" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIGLAB_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DSIGLAB_UNITY=ON > "$tree/build-gpu.log" 2>&1 &&
    cmake --build "$tree/build-gpu" --parallel "$(nproc)" --target "$@" >> "$tree/build-gpu.log" 2>&1 ||
    { tail -30 "$tree/build-gpu.log"; return 1; }
}
start=$SECONDS
build "$here" siglab-cuda-tests siglab-stream-e2e-bench siglab-gpu-stages-bench || exit 1
[[ $base == - ]] || build "$base" siglab-stream-e2e-bench || exit 1
echo "== built ($((SECONDS - start)) s)"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
export SIGLAB_REQUIRE_GPU=1
echo "== this tree's tests"
"$here/build-gpu/bin/siglab-cuda-tests" --gtest_filter='GpuStageEngines.*' 2>&1 | grep -E '^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure|error' | head -40
work=$(mktemp -d -p "${TMPDIR:-/tmp}")
trap 'rm -rf "$work"' EXIT
df -hT "$work" | tail -1
python3 -c "import numpy as np; np.random.default_rng(1).standard_normal($samples).tofile('$work/in.f64')"
mkdir -p "$work/base" "$work/here"
if [[ $base != - ]]; then
  echo "== main's tree (BASE)"
  "$base/build-gpu/bin/siglab-stream-e2e-bench" "$work/in.f64" "$work/base" --repeat 3
fi
echo "== this tree"
"$here/build-gpu/bin/siglab-stream-e2e-bench" "$work/in.f64" "$work/here" --repeat 3
rm -f "$work/in.f64"
echo "== stages beside CuPy (this tree)"
python3 scripts/bench-gpu-stages.py --build "$here/build-gpu" --repeat 5 ${stages:+--only "$stages"}
echo "== done ($((SECONDS - start)) s)"
