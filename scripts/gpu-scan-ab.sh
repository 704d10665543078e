#!/usr/bin/env bash
# Issue 30's sections scan on the GPU machine, before and after in one run, from binaries built here
# for sm_90 and carried there (the device spends its time measuring, not compiling: 30 s a call).
#   scripts/gpu-scan-ab.sh build DIR BASE_TREE   here, after configuring build-cuda with
#       -DSIGLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90: this tree's siglab-sos-scan-bench,
#       siglab-multi-gpu-kinds-bench, siglab-welch-median-bench and siglab-cuda-tests, the bench and
#       the tests linked again with BASE_TREE's cuda/src/sos_scan_kernels.cu (DIR/before; the tests
#       there show which new test fails before), and the shared libraries they use
#       that the GPU machine's image lacks (DIR/lib); carry DIR packed (tar czf) with the tree
#   scripts/gpu-scan-ab.sh run DIR               there: the scan's tests (after, and before), the bench
#       before, after and before again, each pipeline's chunk timeline (SIGLAB_PIPELINE_TIMELINE: the
#       scan before and after, Welch and gpu-median), the kinds on a forced split (SIGLAB_SCAN_KINDS=1),
#       ncu's time of each scan kernel (SIGLAB_SCAN_NCU=1)
# Logs go to $OUT when it is set (the device tool), else to DIR/logs.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:?build or run}
dir=${2:?the folder of the binaries}
if [[ $mode == build ]]; then
  base=${3:?the tree before (its cuda/src/sos_scan_kernels.cu)}
  build=${SIGLAB_SCAN_BUILD:-build-cuda}
  set -e
  cmake --build "$build" --target siglab-sos-scan-bench siglab-multi-gpu-kinds-bench siglab-welch-median-bench \
    siglab-cuda-tests
  mkdir -p "$dir"
  cp "$build"/bin/{siglab-sos-scan-bench,siglab-multi-gpu-kinds-bench,siglab-welch-median-bench,siglab-cuda-tests} "$dir"/
  cmake --build "$build" --target siglab-gpu-bench
  cp "$build"/bin/siglab-gpu-bench "$dir"/
  # The bench again with other sources: their objects compiled by this build's own commands (from
  # the tree before's sources, or with a define), put into a copy of the library, the benches linked
  # to it. SOURCES: files of cuda/src/, space-separated; the benches: $targets (the scan's by default).
  variant() {  # variant NAME SOURCES [DEFINE]; with tests=1 the CUDA tests are linked with it too
    local out=$PWD/$dir/$1 sources=$2 define=${3:-}
    mkdir -p "$out"
    cp "$build/cuda/libsiglab_cuda.a" "$out/libsiglab_cuda.a"
    local compile link source name object
    for source in $sources; do
      name=$(basename "$source")
      object=cuda/CMakeFiles/siglab_cuda.dir/src/$name.o
      compile=$(ninja -C "$build" -t commands "$object" | tail -1)
      compile=${compile//-o $object/-o $out/$name.o}
      compile=${compile//-MF $object.d/-MF $out/$name.o.d}
      compile=${compile//-c $PWD\/cuda\/src\/$name/$define -c $source}
      (cd "$build" && eval "$compile")
      (cd "$out" && ar r libsiglab_cuda.a "$name.o")
    done
    for target in ${targets:-siglab-sos-scan-bench} ${tests:+siglab-cuda-tests}; do
      link=$(ninja -C "$build" -t commands bin/$target | tail -1)
      link=${link//cuda\/libsiglab_cuda.a/$out/libsiglab_cuda.a}
      link=${link//-o bin\/$target/-o $out/$target}
      (cd "$build" && eval "$link")
    done
    rm -f "$out"/*.o "$out"/*.d "$out"/*.a
  }
  # main's scan, and main's pipeline under every engine that uses it (Welch, gpu-median, gpu-tuned).
  tests=1 variant before "$base/cuda/src/sos_scan_kernels.cu"
  targets="siglab-welch-median-bench siglab-gpu-bench" variant pipeline-before \
    "$base/cuda/src/median_filter_kernels.cu $base/cuda/src/spectrum_gpu.cu $base/cuda/src/tuned_filter_backend.cu"
  # Compile-time variants of this tree's scan (the tests linked to one with tests=1).
  for parts in ${SIGLAB_SCAN_PARTS_VARIANTS:-4 16}; do
    variant "chunks$parts" "$PWD/cuda/src/sos_scan_kernels.cu" -DSIGLAB_SCAN_CHUNKS_PER_SIGNAL=$parts
  done
  mkdir -p "$dir/lib"  # the system's own C, C++ and OpenMP runtimes stay the GPU machine's
  for binary in "$dir"/siglab-*; do ldd "$binary" | awk '/=>/ {print $3}'; done | sort -u |
    grep -v -E '/(libc|libm|libresolv|libpthread|libdl|librt|libstdc\+\+|libgcc_s|libgomp)\.so' |
    xargs -r -I{} cp -L {} "$dir/lib/"
  ls -la "$dir" "$dir"/*/
  exit 0
fi
# The build machine's shared libraries the binaries need and this machine may lack (SigLab's readers'),
# carried beside them in DIR/lib when the build step was followed by a copy of them there.
[[ -d $dir/lib ]] && export LD_LIBRARY_PATH=$PWD/$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
logs=${OUT:-$dir/logs}
mkdir -p "$logs"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv | tee "$logs/gpu.txt"
export SIGLAB_REQUIRE_GPU=1
status=0
step() {  # step NAME COMMAND...: runs it into NAME's log, remembers a failure
  local name=$1 start=$SECONDS; shift
  echo "== $name: $*" | tee -a "$logs/$name.txt"
  if "$@" > >(tee -a "$logs/$name.txt") 2>&1; then echo "== $name: ok ($((SECONDS - start)) s)"
  else echo "== $name: FAILED ($((SECONDS - start)) s)"; status=1; fi
}
scan_tests='GpuSosScan.*:GpuSosScanStreamed.*:GpuDeviceList.SosScan*:GpuCancel.GpuSosScan*'
step tests "$dir/siglab-cuda-tests" --gtest_filter="$scan_tests:GpuStages.Causal*:GpuKindBackends.*:GpuSplit.*Sos*:GpuOverlap.*:GpuCancel.*"
# The tests again with the scan before: a new test that fails here failed before the change.
[[ -x $dir/before/siglab-cuda-tests ]] && step tests-before "$dir/before/siglab-cuda-tests" --gtest_filter="$scan_tests"
step bench-before "$dir/before/siglab-sos-scan-bench" --label "before: main"
step bench-after "$dir/siglab-sos-scan-bench" --label "after: this tree"
for variant in "$dir"/*/; do  # the build step's other variants, each with its tests where linked
  name=$(basename "$variant")
  [[ $name == before || $name == lib || $name == logs || $name == pipeline-before ]] && continue
  [[ -x $variant/siglab-cuda-tests ]] && step "tests-$name" "$variant/siglab-cuda-tests" --gtest_filter="$scan_tests"
  step "bench-$name" "$variant/siglab-sos-scan-bench" --label "variant $name"
done
step bench-before-again "$dir/before/siglab-sos-scan-bench" --label "before again: main"
# The engines on the base's pipeline with main's (before) and this tree's, twice each in turns.
for round in 1 2; do
  [[ -x $dir/pipeline-before/siglab-welch-median-bench ]] &&
    step "welch-median-before-$round" "$dir/pipeline-before/siglab-welch-median-bench"
  step "welch-median-after-$round" "$dir/siglab-welch-median-bench"
done
[[ -x $dir/pipeline-before/siglab-gpu-bench ]] && step tuned-before timeout 50 "$dir/pipeline-before/siglab-gpu-bench"
[[ -x $dir/siglab-gpu-bench ]] && step tuned-after timeout 50 "$dir/siglab-gpu-bench"
# Where each pipeline pass's time goes, chunk by chunk (one timed run each, after the warm-ups).
SIGLAB_PIPELINE_TIMELINE=1 step timeline-before "$dir/before/siglab-sos-scan-bench" --repeats 1 --label "timeline before"
SIGLAB_PIPELINE_TIMELINE=1 step timeline-after "$dir/siglab-sos-scan-bench" --repeats 1 --label "timeline after"
SIGLAB_PIPELINE_TIMELINE=1 step timeline-welch-median "$dir/siglab-welch-median-bench" --repeats 1
[[ ${SIGLAB_SCAN_KINDS:-0} == 1 ]] && step kinds "$dir/siglab-multi-gpu-kinds-bench" --samples 10000000
# Each kernel of the scan's first runs (the resident zero-phase warm-ups: chunk kernels and carries),
# at ncu's fixed clocks.
if [[ ${SIGLAB_SCAN_NCU:-0} == 1 ]] && command -v ncu > /dev/null; then
  step ncu timeout 120 ncu --metrics gpu__time_duration.sum -k 'regex:sosCarry|sosChunkTiles|sosStartChunk|sosStateAt' \
    --launch-count 16 "$dir/siglab-sos-scan-bench" --repeats 1 --label "under ncu"
fi
echo
[[ $status -eq 0 ]] && echo "gpu-scan-ab: all steps passed" || echo "gpu-scan-ab: some steps FAILED"
exit $status
