#!/usr/bin/env bash
# The one command for the GPU machine: build for Hopper, run every test with GPUs required,
# compute-sanitizer memcheck and racecheck on the CUDA tests, then the comparison on a generated
# 10M-sample signal. Logs go to $OUT when it is set (the device tool), else to build-gpu/logs.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
build=build-gpu
logs=${OUT:-$build/logs}
mkdir -p "$logs"
arch=${SIGLAB_CUDA_ARCH:-90}
samples=${SIGLAB_GPU_CHECK_SAMPLES:-10000000}
status=0
step() {  # step NAME COMMAND...: runs it, logs it, remembers a failure
  local name=$1; shift
  echo "== $name: $*"
  if "$@" > >(tee "$logs/$name.log") 2>&1; then echo "== $name: ok"; else echo "== $name: FAILED"; status=1; fi
}

step build bash -c "SIGLAB_BUILD_DIR=$build bash scripts/build.sh -DSIGLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=$arch"
[[ -x $build/bin/siglab-cli ]] || { echo "build failed"; exit 1; }
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv | tee "$logs/gpu.txt"
export SIGLAB_REQUIRE_GPU=1
step tests ctest --test-dir "$build" --output-on-failure
step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$build/bin/siglab-cuda-tests"
step racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$build/bin/siglab-cuda-tests"
step generate "$build/bin/siglab-cli" generate -n "$samples" --seed 1 -o "$build/signal.txt"
step devices "$build/bin/siglab-cli" devices
step compare "$build/bin/siglab-cli" filter "$build/signal.txt" -o "$build/result.txt" --backend all \
  --report "$logs/comparison.json"
echo
[[ $status -eq 0 ]] && echo "gpu-check: all steps passed" || echo "gpu-check: some steps FAILED"
exit $status
