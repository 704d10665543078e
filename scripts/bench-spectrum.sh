#!/usr/bin/env bash
# Welch's PSD of 10M float64 samples (segment 4096, half overlap, Hann, density): SigLab's CPU
# engine (build/bin/siglab-spectrum-bench, measure(): one warm-up, median of 20) against
# scipy.signal.welch on the same samples in the same run (/usr/bin/python3: one warm-up, median
# of 10), then the ratio, and the largest difference between the two spectra.
# Usage: scripts/bench-spectrum.sh [build-dir]   (output under docs/perf/ by hand)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(lscpu | sed -n 's/^Model name: *//p')"
"$build/bin/siglab-spectrum-bench" --save-signal "$work/x.npy" --save-power "$work/psd.npy" | tee "$work/siglab.txt"
siglab_ms=$(sed -n 's/^cpu (FFTW) *median *\([0-9.]*\) ms.*/\1/p' "$work/siglab.txt")

/usr/bin/python3 - "$work" "$siglab_ms" <<'PY'
import sys, time, statistics
import numpy as np, scipy, scipy.signal
work, siglab_ms = sys.argv[1], float(sys.argv[2])
x = np.load(f"{work}/x.npy")
run = lambda: scipy.signal.welch(x, nperseg=4096)
f, p = run()  # warm-up
times = []
for _ in range(10):
    start = time.perf_counter()
    run()
    times.append((time.perf_counter() - start) * 1e3)
ours = np.load(f"{work}/psd.npy")
med = statistics.median(times)
print(f"scipy        median {med:9.3f} ms  min {min(times):9.3f}  max {max(times):9.3f}  (10 runs, scipy {scipy.__version__}, numpy {np.__version__})")
print(f"max |siglab - scipy| / max(scipy) = {np.max(np.abs(ours[:, 1] - p)) / np.max(p):.3g}; frequencies equal: {np.array_equal(ours[:, 0], f)}")
print(f"ratio: SigLab CPU is {med / siglab_ms:.2f}x faster than scipy.signal.welch (target >= 3x: {'met' if med / siglab_ms >= 3 else 'MISSED'})")
PY
