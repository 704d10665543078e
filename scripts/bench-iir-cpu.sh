#!/usr/bin/env bash
# sosfilt and sosfiltfilt of 10M float64 samples through an order-8 Butterworth band-pass (8
# sections, the CuPy figure's filter, given as a sections file): SigLab's CPU engines (siglab-cli
# compare: one warm-up, median of 5, kernel time, data in memory) against scipy.signal.sosfilt /
# sosfiltfilt on the same samples in the same run (/usr/bin/python3: one warm-up, median of 5),
# the ratios, and the largest difference between the two outputs.
# Usage: scripts/bench-iir-cpu.sh [build-dir]   (output under docs/perf/ by hand)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(lscpu | sed -n 's/^Model name: *//p')"
/usr/bin/python3 -c "
import numpy as np, scipy.signal as s
np.save('$work/x.npy', np.random.default_rng(1).standard_normal(10_000_000))
np.savetxt('$work/sos.txt', s.butter(8, [0.1, 0.3], 'bandpass', output='sos'))"
for stage in sosfilt sosfiltfilt; do
  "$build/bin/siglab-cli" compare "$work/x.npy" --$stage "$work/sos.txt" --repeat 5 -o "$work/$stage.npy" \
    --report "$work/$stage.json" | sed -n '/^backend/,/^cpu-parallel/p'
done
/usr/bin/python3 - "$work" <<'PY'
import json, statistics, sys, time
import numpy as np, scipy, scipy.signal as s
work = sys.argv[1]
x = np.load(f"{work}/x.npy")
sos = np.loadtxt(f"{work}/sos.txt")
for name in ("sosfilt", "sosfiltfilt"):
    run = getattr(s, name)
    y = run(sos, x)  # warm-up
    times = []
    for _ in range(5):
        start = time.perf_counter()
        run(sos, x)
        times.append((time.perf_counter() - start) * 1e3)
    scipy_ms = statistics.median(times)
    report = json.load(open(f"{work}/{name}.json"))
    ours = np.load(f"{work}/{name}.npy")
    print(f"scipy.signal.{name} (SciPy {scipy.__version__}) median {scipy_ms:.1f} ms (min {min(times):.1f}, max {max(times):.1f})")
    for b in report["backends"]:
        if b["status"] == "ok":
            ms = b["kernel"]["median_ms"]
            print(f"  siglab {name} {b['name']:13s} median {ms:.1f} ms: {scipy_ms / ms:.2f}x SciPy")
    print(f"  max |siglab cpu-serial - scipy| {np.max(np.abs(ours - y)):.3g}")
PY
