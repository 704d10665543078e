#!/usr/bin/env bash
# Issue 27's end-to-end target on a GPU machine: a stage on a GPU engine from a raw float64 file,
# streamed into a file, against reading the file (`cat FILE > /dev/null`), the page cache warm,
# timed in the same run (the median of three each), beside `cp` (reading and writing the same
# bytes) and the same stage on cpu-parallel. Writes under a temporary folder only; with $OUT set,
# each case's messages go there too.
#
#   scripts/gpu-end-to-end.sh BUILD_DIR [SAMPLES] [FOLDER]   (100M samples: 800 MB; a new folder
#                                                              under FOLDER, else under $TMPDIR)
set -euo pipefail
bin=$1/bin
samples=${2:-100000000}
work=$(mktemp -d ${3:+-p "$3"})
df -hT "$work" | tail -1
trap 'rm -rf "$work"' EXIT
in=$work/in.f64
python3 -c "import numpy as np; np.random.default_rng(1).standard_normal($samples).tofile('$in')"
cat "$in" > /dev/null  # the page cache warm
median_ms() {  # median_ms COMMAND...: the median wall time of three runs, in ms
  local runs=() start
  for _ in 1 2 3; do
    start=$(date +%s%N)
    "$@" > "$work/said" 2>"$work/err" || { cat "$work/err" >&2; echo FAILED; return; }
    cat "$work/said" >> "$work/err"
    runs+=($(( ($(date +%s%N) - start) / 1000000 )))
  done
  printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p
}
start_ms=$(median_ms "$bin/siglab-cli" devices)
read_file() { cat "$1" > /dev/null; }  # median_ms sends stdout to a file: reading alone, not a copy
read_ms=$(median_ms read_file "$in")
copy_ms=$(median_ms cp "$in" "$work/copy.raw")
rm -f "$work/copy.raw"
echo "$samples float64 samples, $(( samples * 8 / 1000000 )) MB raw; cat FILE > /dev/null: $read_ms ms;" \
  "cp FILE COPY: $copy_ms ms ($(python3 -c "print(f'{$copy_ms / $read_ms:.2f}')")x read), medians of 3;" \
  "siglab-cli devices (start, GPU probe, exit): $start_ms ms"
printf '%-62s %9s %8s  %s\n' "siglab-cli filter IN --raw f64 ... -o OUT (streamed)" "ms" "x read" "engine"
run_case() {  # run_case LABEL OUTPUT ARGS...
  local label=$1 out=$2; shift 2
  local ms
  ms=$(median_ms "$bin/siglab-cli" filter "$in" --raw f64 --stream always -o "$work/$out" "$@")
  if [[ $ms == FAILED ]]; then printf '%-62s %9s\n' "$label" FAILED; return; fi
  printf '%-62s %9d %7.2fx  %s\n' "$label" "$ms" "$(python3 -c "print($ms / $read_ms)")" \
    "$(grep -o 'gpu-[a-z-]*\|cpu-[a-z]*' "$work/err" | sort -u | tr '\n' ' ')"
  [[ -n ${OUT:-} ]] && { echo "== $label"; cat "$work/err"; } >> "$OUT/e2e-messages.txt"
  rm -f "$work/$out"
}
run_case "--gaussian 3 --engine gpu-tuned" out.raw --gaussian 3 --engine gpu-tuned
run_case "--gaussian 3 --engine cpu-parallel" out.raw --gaussian 3 --engine cpu-parallel
run_case "--chain 'spectrogram nperseg=1024' --engine gpu-fft" out.npy --chain "spectrogram nperseg=1024" --engine gpu-fft
run_case "--chain 'spectrogram nperseg=1024' --engine cpu-parallel" out.npy --chain "spectrogram nperseg=1024" --engine cpu-parallel
run_case "--chain 'hilbert' --engine gpu-fft" out.npy --chain "hilbert" --engine gpu-fft
run_case "--chain 'hilbert' --engine cpu-parallel" out.npy --chain "hilbert" --engine cpu-parallel
