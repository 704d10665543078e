#!/usr/bin/env bash
# The one command for the GPU machine: build for Hopper, run every test with GPUs required, the
# GPU benchmark (every issue-5 target as a measured ratio), the reduction ladder, the Lab's ladders
# (reversal and matrix multiply at their target sizes, Nsight Compute counters), the comparison on
# a generated 10M-sample signal, then compute-sanitizer memcheck and racecheck on the CUDA tests.
# Logs go to $OUT when it is set (the device tool), else to build-gpu/logs.
#
#   scripts/gpu-check.sh [build] [test] [bench] [sanitize]     (no argument: all four, in order)
#
# One device call may run 10 minutes: run `build test bench` in one call and `sanitize` in the
# next (the build folder stays on the machine between calls). libsndfile comes from .debs/ where
# the machine lacks it (scripts/fetch-gpu-deps.sh, carried).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-deps-env.sh
siglab_use_carried_deps || exit 1
steps=" ${*:-build test bench sanitize} "
wants() { [[ $steps == *" $1 "* ]]; }
export PATH=/usr/local/cuda/bin:$PATH
build=build-gpu
logs=${OUT:-$build/logs}
mkdir -p "$logs"
arch=${SIGLAB_CUDA_ARCH:-90}
samples=${SIGLAB_GPU_CHECK_SAMPLES:-10000000}
sanitizer_limit=${SIGLAB_SANITIZER_SECONDS:-300}
ncu_metrics=smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct  # each sanitizer run; keeps the whole call inside 10 minutes
status=0
step() {  # step NAME LOG COMMAND...: runs it, appends to LOG, remembers a failure
  local name=$1 log=$2 start=$SECONDS; shift 2
  echo "== $name: $*" | tee -a "$logs/$log"
  if "$@" > >(tee -a "$logs/$log") 2>&1; then echo "== $name: ok ($((SECONDS - start)) s)"
  else echo "== $name: FAILED ($((SECONDS - start)) s)"; status=1; fi
}

if wants build; then
  # The GPU machine's python3 (a virtual environment) carries pybind11 and NumPy, not Debian's packages:
  # point CMake at them so the Python module and its tests (devices= included) run on the GPU too.
  python_args=""
  if pybind11_dir=$(python3 -m pybind11 --cmakedir 2>/dev/null); then
    python_args="-DPython3_EXECUTABLE=$(command -v python3) -Dpybind11_DIR=$pybind11_dir"
  fi
  step build build.log bash -c "SIGLAB_BUILD_DIR=$build bash scripts/build.sh -DSIGLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=$arch $python_args"
fi
[[ -x $build/bin/siglab-cli ]] || { echo "build failed"; exit 1; }
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv | tee "$logs/gpu.txt"
export SIGLAB_REQUIRE_GPU=1
# The machine has the memory for the test that loads more than 2^31 samples (16 GiB of doubles).
[[ $(awk '/MemAvailable/ {print $2}' /proc/meminfo) -gt $((24 << 20)) ]] && export SIGLAB_LARGE_TESTS=1
if wants test; then
  step tests tests.log ctest --test-dir "$build" --output-on-failure
fi
if wants bench; then
  step benchmark benchmark.txt "$build/bin/siglab-gpu-bench"
  step sos-scan sos-scan.txt "$build/bin/siglab-sos-scan-bench"  # issue 30: the sections scan against the copies and its floor
  step fft-benchmark gpu-fft-bench.txt "$build/bin/siglab-gpu-fft-bench"  # issue 14: gpu-fft, W sweep, Welch
  step welch-median welch-median.txt "$build/bin/siglab-welch-median-bench"  # issue 30: Welch and gpu-median end to end against one pinned copy
  step reduce reduce.txt "$build/bin/siglab-cli" reduce --random-ints 28
  step generate compare.log "$build/bin/siglab-cli" generate -n "$samples" --seed 1 -o "$build/signal.txt"
  step devices compare.log "$build/bin/siglab-cli" devices
  step compare compare.log "$build/bin/siglab-cli" compare "$build/signal.txt" -o "$build/result.txt" --backend all \
    --report "$logs/comparison.json"
  step apply compare.log "$build/bin/siglab-cli" filter "$build/signal.txt" -o "$build/applied.txt"
  step reduce-signal reduce.txt "$build/bin/siglab-cli" reduce "$build/signal.txt" --random-ints 0
  # The lab's ladders at their target sizes, and one non-square product whose sides are no tile's multiple.
  step lab-reverse lab-reverse.txt "$build/bin/siglab-cli" lab reverse -n 2^28
  step lab-matmul lab-matmul.txt "$build/bin/siglab-cli" lab matmul --size 4096,4096,4096
  step lab-matmul lab-matmul.txt "$build/bin/siglab-cli" lab matmul --size 1000,1000,1000
  step lab-matmul lab-matmul.txt "$build/bin/siglab-cli" lab matmul --size 1999,1537,1001
  # The seed's profiler counters, from Nsight Compute: bytes used per 32-byte sector moved, for
  # loads and stores of each reversal kernel (n odd as well: the stores straddle sectors).
  if command -v ncu > /dev/null; then
    for n in 16777216 16777217; do
      step lab-ncu lab-ncu.txt ncu --metrics "$ncu_metrics" -k regex:reverse "$build/bin/siglab-cli" lab reverse -n $n --repeat 1
    done
  fi
  step spectrum spectrum.txt "$build/bin/siglab-spectrum-bench" --repeat 10
  # A long Gaussian (W = 8001): gpu-fft against gpu-tuned; cpu-serial, the reference, takes most of the time.
  step long-filter long-filter.txt "$build/bin/siglab-cli" compare "$build/signal.txt" -o "$build/result-g.txt" \
    --gaussian 1000 --backend gpu-tuned,gpu-fft --repeat 3 --report "$logs/long-filter.json"
  # The filter kinds' GPU engines against the parallel CPU engine and the serial reference (issue 15).
  step filters gpu-filters.txt "$build/bin/siglab-gpu-filters-bench"
  # GPU Welch, gpu-median and gpu-sos-scan on every GPU (0,0 on one) against GPU 0, same bits (issue 18).
  step kinds-devices multi-gpu-kinds.txt "$build/bin/siglab-multi-gpu-kinds-bench"
  # Issue 27's stage engines beside CuPy's cupyx.scipy.signal on the same 10M samples on the GPU.
  step stages gpu-stages.txt python3 scripts/bench-gpu-stages.py --build "$build"
fi
if wants sanitize; then
  # The out-of-memory test fails allocations on purpose: memcheck would count each as an API error,
  # so it runs apart, still checked for bad accesses, with API errors not reported.
  oom_test=GpuFaults.OutOfMemory*
  step memcheck sanitizers.log timeout "$sanitizer_limit" compute-sanitizer --tool memcheck --error-exitcode 1 \
    "$build/bin/siglab-cuda-tests" --gtest_filter=-$oom_test
  step memcheck-oom sanitizers.log timeout "$sanitizer_limit" compute-sanitizer --tool memcheck --error-exitcode 1 \
    --report-api-errors no "$build/bin/siglab-cuda-tests" --gtest_filter=$oom_test
  # racecheck checks shared-memory hazards inside each kernel and runs far slower than memcheck: it
  # skips the tests that only repeat already covered kernels with many chunks or very wide windows.
  # Also skipped: a timing test (instrumented kernels break its time relations) and the matmul,
  # spectrum and long-signal tests that repeat covered kernels at sizes racecheck takes minutes on,
  # the median sweeps (158 s each there; GpuKindBackends runs the same median kernels) and the
  # one-device splits (57 s each since the median and the scan launch in parts; GpuCancel covers those),
  # and the median through the chunk pipeline at 1.1M and 16.7M samples (GpuOverlap, GpuCancel: the
  # latter alone outran 140 s there; GpuKindBackends runs the same chunk kernels), and GPU Welch cancelled at
  # 16.7M samples (PinnedHostMemory runs its kernels).
  racecheck_skip=GpuOverlap.Median*:GpuCancel.GpuMedian*:GpuCancel.GpuWelch*:GpuTuned.ASmallMemoryBudget*:GpuTuned.HalosWiderThanAChunk:GpuFilter.WindowWider*:GpuFilter.TapsBeyond*:GpuFft.ManyBatches*:GpuFilter.TimingsAreMeasured:GpuLab.EveryMatmul*:GpuSpectrum.*:GpuSosScan.*:GpuDeviceList.*:GpuSplit.*:GpuMedian.BitIdentical*
  step racecheck sanitizers.log timeout "$sanitizer_limit" compute-sanitizer --tool racecheck --error-exitcode 1 \
    "$build/bin/siglab-cuda-tests" --gtest_filter=-$racecheck_skip
fi
echo
[[ $status -eq 0 ]] && echo "gpu-check: all steps passed" || echo "gpu-check: some steps FAILED"
exit $status
