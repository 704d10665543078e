#!/usr/bin/env bash
# Python's GPU path from NumPy against CuPy, A/B in one device call (issue 28): main's module and this
# tree's (siglab_python only, built side by side), CuPy against each (scripts/bench-python-vs-cupy.py),
# where each call's time goes (scripts/python-gpu-phases.py), this tree's results against main's, and
# the GPU spectrogram / stft against the CPU's. Run from the tree's root on the device machine:
#   bash scripts/python-gpu-ab.sh [MAIN_TREE]     (default .base; about 4 minutes, logs in $OUT)
# .debs (scripts/fetch-gpu-deps.sh) in this tree's root where the machine lacks libsndfile or FFTW.
cd "$(dirname "$0")/.."  # the tree root: this file lives in scripts/
base=${1:-.base}  # main's tree, e.g. git -C /work/main archive HEAD | tar -x -C .base
start=$SECONDS
OUT_DIR=${OUT:-/tmp}

source scripts/gpu-deps-env.sh; siglab_use_carried_deps || exit 1
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "$(nproc) cpus"; uptime
pyargs="-DPython3_EXECUTABLE=$(command -v python3) -Dpybind11_DIR=$(python3 -m pybind11 --cmakedir)"
cfg="-G Ninja -DCMAKE_BUILD_TYPE=Release -DSIGLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DSIGLAB_TESTS=OFF -DSIGLAB_BENCHMARKS=OFF $pyargs"
build() { cmake -S "$1" -B "$1/build-gpu" $cfg > "$OUT_DIR/cfg-$2.log" 2>&1 && cmake --build "$1/build-gpu" --target siglab_python -j 8 > "$OUT_DIR/build-$2.log" 2>&1; echo "build $2: rc $? at $((SECONDS - start)) s"; }
build . this & build "$base" main & wait
tail -n 2 "$OUT_DIR"/build-*.log
[[ -f build-gpu/python/siglab/__init__.py && -f "$base/build-gpu/python/siglab/__init__.py" ]] || { echo "a build failed"; exit 1; }
mkdir -p /tmp/res-main /tmp/res-this
for t in main this; do
  dir=$([[ $t == main ]] && echo "$base" || echo .)
  echo "## $t's module: scripts/bench-python-vs-cupy.py (at $((SECONDS - start)) s)"
  PYTHONPATH=$dir/build-gpu/python timeout 60 python3 scripts/bench-python-vs-cupy.py --repeat 5
done
for t in this main; do
  dir=$([[ $t == main ]] && echo "$base" || echo .)
  echo "## $t's module: scripts/python-gpu-phases.py (at $((SECONDS - start)) s)"
  PYTHONPATH=$dir/build-gpu/python timeout 50 python3 scripts/python-gpu-phases.py --repeat 3 --save /tmp/res-$t
done
echo "## this tree's results against main's (at $((SECONDS - start)) s)"
timeout 30 python3 - <<'PY'
import glob, os, numpy as np
for f in sorted(glob.glob("/tmp/res-main/*.npy")):
    a = np.load(f); b = np.load(f.replace("res-main", "res-this"))
    same = a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()
    d = float(np.max(np.abs(a - b))) if a.shape == b.shape else float("nan")
    print(f"{os.path.basename(f)[:-4]:<15} {str(a.shape):<14} {a.dtype}  max|diff| {d:.3g}  bits equal: {same}")
PY
echo "## this tree: GPU spectrogram/stft against the CPU's (at $((SECONDS - start)) s)"
PYTHONPATH=build-gpu/python timeout 40 python3 - <<'PY'
import numpy as np
from siglab import signal
x = np.random.default_rng(2).standard_normal(3_000_000)
two = np.stack([x[:100_000], x[5:100_005]])
cases = {
    "spectrogram psd 1024": lambda e: signal.spectrogram(x, nperseg=1024, engine=e)[2],
    "spectrogram complex 256": lambda e: signal.spectrogram(x, nperseg=256, mode="complex", engine=e)[2],
    "stft 256": lambda e: signal.stft(x, nperseg=256, engine=e)[2],
    "stft 2 channels f32": lambda e: signal.stft(two.astype(np.float32), nperseg=100, engine=e)[2],
    "spectrogram 2 channels complex": lambda e: signal.spectrogram(two, nperseg=100, mode="complex", engine=e)[2],
}
for name, call in cases.items():
    g, c = call("gpu-fft"), call("cpu-parallel")
    err = float(np.max(np.abs(g - c)) / np.max(np.abs(c)))
    print(f"{name:<32} {g.shape} {g.dtype} vs cpu {c.shape} {c.dtype}: max |diff| / max |cpu| {err:.2e} "
          f"{'ok' if g.shape == c.shape and g.dtype == c.dtype and err < (1e-12 if g.real.dtype == np.float64 else 1e-6) else 'DIFFERS'}")
PY
echo "total $((SECONDS - start)) s"
