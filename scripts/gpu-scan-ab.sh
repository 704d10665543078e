#!/usr/bin/env bash
# Issue 30's sections scan on the GPU machine, before and after in one run, from binaries built here
# for sm_90 and carried there (the device spends its time measuring, not compiling: 30 s a call).
#   scripts/gpu-scan-ab.sh build DIR BASE_TREE   here, after configuring build-cuda with
#       -DSIGLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90: this tree's siglab-sos-scan-bench,
#       siglab-multi-gpu-kinds-bench and siglab-cuda-tests, the bench linked again with
#       BASE_TREE's cuda/src/sos_scan_kernels.cu (DIR/before), and the shared libraries they use
#       that the GPU machine's image lacks (DIR/lib); carry DIR packed (tar czf) with the tree
#   scripts/gpu-scan-ab.sh run DIR               there: the scan's tests, the bench before, after
#       and before again, the kinds on a forced split, ncu's time of each scan kernel
# Logs go to $OUT when it is set (the device tool), else to DIR/logs.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:?build or run}
dir=${2:?the folder of the binaries}
if [[ $mode == build ]]; then
  base=${3:?the tree before (its cuda/src/sos_scan_kernels.cu)}
  build=${SIGLAB_SCAN_BUILD:-build-cuda}
  set -e
  cmake --build "$build" --target siglab-sos-scan-bench siglab-multi-gpu-kinds-bench siglab-cuda-tests
  mkdir -p "$dir"
  cp "$build"/bin/{siglab-sos-scan-bench,siglab-multi-gpu-kinds-bench,siglab-cuda-tests} "$dir"/
  # The bench again with another scan: its object compiled by this build's own command (from the
  # tree before's source, or with a define), put into a copy of the library, the bench linked to it.
  variant() {  # variant NAME SOURCE [DEFINE]; with tests=1 the CUDA tests are linked with it too
    local out=$PWD/$dir/$1 source=$2 define=${3:-} object=cuda/CMakeFiles/siglab_cuda.dir/src/sos_scan_kernels.cu.o
    mkdir -p "$out"
    local compile link
    compile=$(ninja -C "$build" -t commands "$object" | tail -1)
    compile=${compile//-o $object/-o $out/sos_scan_kernels.cu.o}
    compile=${compile//-MF $object.d/-MF $out/sos_scan_kernels.cu.o.d}
    compile=${compile//-c $PWD\/cuda\/src\/sos_scan_kernels.cu/$define -c $source}
    (cd "$build" && eval "$compile")
    cp "$build/cuda/libsiglab_cuda.a" "$out/libsiglab_cuda.a"
    (cd "$out" && ar r libsiglab_cuda.a sos_scan_kernels.cu.o)
    for target in siglab-sos-scan-bench ${tests:+siglab-cuda-tests}; do
      link=$(ninja -C "$build" -t commands bin/$target | tail -1)
      link=${link//cuda\/libsiglab_cuda.a/$out/libsiglab_cuda.a}
      link=${link//-o bin\/$target/-o $out/$target}
      (cd "$build" && eval "$link")
    done
    rm -f "$out"/*.o "$out"/*.d "$out"/*.a
  }
  variant before "$base/cuda/src/sos_scan_kernels.cu"
  # e.g. a compile-time variant of this tree's scan, with the tests linked to it too:
  #   tests=1 variant NAME "$PWD/cuda/src/sos_scan_kernels.cu" -DSOME_SWITCH
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
step tests "$dir/siglab-cuda-tests" --gtest_filter='GpuSosScan.*:GpuDeviceList.SosScan*:GpuCancel.GpuSosScan*:GpuStages.Causal*:GpuKindBackends.*:GpuSplit.*Sos*'
step bench-before "$dir/before/siglab-sos-scan-bench" --label "before: main"
step bench-after "$dir/siglab-sos-scan-bench" --label "after: this tree"
for variant in "$dir"/*/; do  # the build step's other variants, each with its tests where linked
  name=$(basename "$variant")
  [[ $name == before || $name == lib ]] && continue
  [[ -x $variant/siglab-cuda-tests ]] && step "tests-$name" "$variant/siglab-cuda-tests" --gtest_filter='GpuSosScan.*:GpuDeviceList.SosScan*:GpuCancel.GpuSosScan*'
  step "bench-$name" "$variant/siglab-sos-scan-bench" --label "variant $name"
done
step bench-before-again "$dir/before/siglab-sos-scan-bench" --label "before again: main"
step kinds "$dir/siglab-multi-gpu-kinds-bench" --samples 10000000
# Each kernel of the scan's first runs (the resident zero-phase warm-ups: chunk kernels and carries),
# at ncu's fixed clocks.
if command -v ncu > /dev/null; then
  step ncu timeout 120 ncu --metrics gpu__time_duration.sum -k 'regex:sosCarry|sosChunkTiles|sosStartChunk|sosStateAt' \
    --launch-count 16 "$dir/siglab-sos-scan-bench" --repeats 1 --label "under ncu"
fi
echo
[[ $status -eq 0 ]] && echo "gpu-scan-ab: all steps passed" || echo "gpu-scan-ab: some steps FAILED"
exit $status
