#!/usr/bin/env bash
# The GPU engines' shared scaffolding lives in one place each (issue 30): no engine sets the device,
# compares the out-of-memory code, makes its own timer or cuFFT plan, or queues work on the legacy
# default stream; every engine runs through the engine base. Reads the source tree only; runs without a GPU.
#   gpu_scaffolding_check.sh SOURCE_DIR
set -uo pipefail
cd "${1:?usage: gpu_scaffolding_check.sh SOURCE_DIR}/cuda" || exit 2
failed=0
# only_in PATTERN ALLOWED_FILE... : PATTERN may appear in the allowed files and nowhere else.
only_in() {
  local pattern=$1; shift
  local hits
  hits=$(grep -rnE -- "$pattern" src bench | grep -vE "^($(IFS='|'; echo "$*")):" || true)
  if [[ -n $hits ]]; then
    echo "'$pattern' belongs only in $*; found:"
    echo "$hits"
    failed=1
  fi
}
only_in 'cudaSetDevice' src/device_scope.hpp
only_in 'cudaErrorMemoryAllocation' src/cuda_check.hpp
only_in 'CUFFT_ALLOC_FAILED|cufftPlanMany|cufftSetStream' src/fft_plan_cache.cpp src/cufft_loader.cpp
only_in 'cudaEventCreate|class [A-Za-z]*Timer\b' src/event_timer.hpp
only_in 'cudaStreamCreate' src/stream.hpp
only_in 'cudaMalloc\(|cudaMallocHost\(|cudaFree\(|cudaFreeHost\(' src/device_buffer.hpp src/device_memory.cpp src/device_probe.cu bench/gpu_filters_bench.cpp
# The legacy default stream: synchronous copies and sets, launches without a stream, events
# recorded without one.
only_in '\b(cudaMemcpy|cudaMemset|cudaMemcpyToSymbol)\(' none
only_in '<<<[^,>]*,[^,>]*>>>|<<<[^,>]*,[^,>]*,[^,>]*>>>' none
only_in '\.record\(\)' none
# Every GPU engine runs through the base (gpu_engine.hpp, or the ladders' lab_gpu_run.hpp on it).
for engine in src/*_backend.cu src/median_filter_kernels.cu src/sos_scan_kernels.cu src/*_gpu.cu \
              src/*_ladder.cu src/reduction_devices.cu; do
  if ! grep -qE '#include "(gpu_engine|lab_gpu_run)\.hpp"' "$engine"; then
    echo "$engine does not run through the GPU engine base (gpu_engine.hpp)"
    failed=1
  fi
done
exit $failed
