#!/usr/bin/env bash
# HDF5 read target (issue 26): a chunked gzip dataset of N float64 samples (default 100M) read into
# memory by SigLab (siglab-hdf5-bench: readChannels) and by h5py (dataset[:]), each once after a
# warm-up read so both find the file in the page cache; then streamed through siglab-cli stats
# (read plus statistics), with its peak RSS. Usage: scripts/bench-hdf5.sh [SAMPLES] [FOLDER]   (needs /usr/bin/python3 with h5py)
set -euo pipefail
cd "$(dirname "$0")/.."
samples=${1:-100000000}
folder=${2:-$(mktemp -d)}
cli=${SIGLAB_CLI:-build/bin/siglab-cli}
reader=${SIGLAB_HDF5_BENCH:-build/bin/siglab-hdf5-bench}
file="$folder/bench.h5"
/usr/bin/python3 - "$file" "$samples" <<'PY'
import sys, h5py, numpy as np
path, n = sys.argv[1], int(sys.argv[2])
step = 1 << 22
with h5py.File(path, "w") as f:
    d = f.create_dataset("x", shape=(n,), dtype="<f8", chunks=(1 << 17,), compression="gzip", compression_opts=4)
    d.attrs["rate"] = 48000.0
    rng = np.random.default_rng(1)
    for first in range(0, n, step):
        m = min(step, n - first)
        t = np.arange(first, first + m) / 48000.0
        d[first:first + m] = np.round(np.sin(2 * np.pi * 440 * t) + 0.1 * rng.standard_normal(m), 4)
PY
echo "file: $(stat -c %s "$file") bytes, $samples float64 samples, chunks of 131072, gzip level 4"
h5py_seconds=$(/usr/bin/python3 - "$file" <<'PY'
import sys, time, h5py
with h5py.File(sys.argv[1], "r") as f:
    d = f["x"]
    d[: 1 << 20]                       # warm-up (page cache, library)
    start = time.perf_counter()
    x = d[:]
    print(f"{time.perf_counter() - start:.3f}")
PY
)
read -r siglab_read frames < <("$reader" "$file:/x")
start=$(date +%s.%N)
/usr/bin/time -f "%M" -o "$folder/rss.txt" "$cli" stats -q "$file:/x" > "$folder/stats.txt"
siglab_seconds=$(echo "$(date +%s.%N) - $start" | bc -l)
rss_kib=$(cat "$folder/rss.txt")
printf 'h5py dataset[:]: %.3f s\nSigLab readChannels: %.3f s (%d frames)\n' "$h5py_seconds" "$siglab_read" "$frames"
printf 'speed ratio SigLab/h5py (h5py time / SigLab time): %.2fx (target >= 0.9x)\n' "$(echo "$h5py_seconds / $siglab_read" | bc -l)"
printf 'siglab-cli stats (streamed read + statistics): %.3f s\n' "$siglab_seconds"
printf 'siglab-cli stats peak RSS: %d MiB (target <= 256 MiB)\n' "$((rss_kib / 1024))"
grep -E '^(count|mean):' "$folder/stats.txt"
[[ -n "${KEEP:-}" ]] || rm -f "$file"
