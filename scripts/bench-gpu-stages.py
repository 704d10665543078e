#!/usr/bin/env python3
"""Issue 27's GPU stage engines beside CuPy's cupyx.scipy.signal, in one run on one GPU.

Makes 10M float64 normal samples (seed 1), hands them to siglab-gpu-stages-bench (which copies
them to the device and times each engine there) and runs CuPy's function on the same samples,
already on the device, timed the same way (host clock around a call and a synchronize; the median
of --repeat after two warm-ups). Prints each stage's times, CuPy's time over SigLab's (target
>= 1.5x), the memory-bound fraction of the device's copy rate, and both results' checksums.

    python3 scripts/bench-gpu-stages.py [--build build-gpu] [--samples 10000000] [--repeat 20]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

TARGET = 1.5


def cupy_timings(x_host, template_host, long_template_host, repeat, only):
    import cupy as cp
    import cupyx.scipy.signal as cs

    x = cp.asarray(x_host)
    template = cp.asarray(template_host)
    long_template = cp.asarray(long_template_host)
    sos = cs.butter(8, [0.1, 0.3], btype="band", output="sos")
    stream = cp.cuda.get_current_stream()
    calls = {
        "spectrogram": lambda: cs.spectrogram(x, nperseg=1024)[2],
        "resample_poly": lambda: cs.resample_poly(x, 3, 2),
        "decimate": lambda: cs.decimate(x, 4, ftype="fir"),
        "find_peaks": lambda: cs.find_peaks(x, height=3)[0],
        # SigLab's hilbert writes the imaginary part (the real part is x); CuPy's, the complex signal.
        "hilbert": lambda: cs.hilbert(x),
        "envelope": lambda: cp.abs(cs.hilbert(x)),
        "correlate": lambda: cs.correlate(x, template, mode="valid"),
        "correlate_fft": lambda: cs.correlate(x, long_template, mode="valid", method="fft"),
        "sosfilt": lambda: cs.sosfilt(sos, x),
        "sosfiltfilt": lambda: cs.sosfiltfilt(sos, x),
    }
    results = {}
    for name, call in calls.items():
        if only and name not in only:
            continue
        for _ in range(2):
            call()
            stream.synchronize()
        ms = []
        for _ in range(repeat):
            start = time.perf_counter()
            out = call()
            stream.synchronize()
            ms.append((time.perf_counter() - start) * 1e3)
        ms.sort()
        checksum = (float(out.size) if name == "find_peaks" else float(cp.sum(out.imag)) if name == "hilbert"
                    else float(cp.sum(out)))
        results[name] = (ms[len(ms) // 2], ms[0], checksum)
    return cp.__version__, results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build-gpu")
    parser.add_argument("--samples", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--long-template", type=int, default=50_000,
                        help="values of correlate_fft's template (method='fft' on both sides)")
    parser.add_argument("--only", default="", help="the stages to run beside CuPy, comma-separated (default: all)")
    args = parser.parse_args()
    bench = os.path.join(args.build, "bin", "siglab-gpu-stages-bench")
    x = np.random.default_rng(1).standard_normal(args.samples)
    template = np.random.default_rng(2).standard_normal(64)
    long_template = np.random.default_rng(3).standard_normal(args.long_template)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "samples.f64")
        x.tofile(path)
        template.tofile(path + ".template")
        long_template.tofile(path + ".long-template")
        run = subprocess.run([bench, path, "--repeat", str(args.repeat)], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{bench} failed ({run.returncode}): {run.stderr.strip()}")
    siglab, copy = {}, None
    for line in run.stdout.splitlines():
        fields = line.split()
        if fields and fields[0] == "RESULT":
            siglab[fields[1]] = (float(fields[2]), float(fields[3]), float(fields[4]), float(fields[5]))
        elif fields and fields[0] == "COPY":
            copy = float(fields[2]) / (float(fields[1]) * 1e-3)  # bytes per second
    only = set(args.only.split(",")) if args.only else set()
    version, cupy = cupy_timings(x, template, long_template, args.repeat, only)
    print(f"{args.samples} float64 normal samples (seed 1) already on the GPU; CuPy {version}; "
          f"median of {args.repeat} after two warm-ups, host clock around call + synchronize")
    print(f"device-to-device copy: {copy / 1e9:.0f} GB/s (read + written)")
    print(f"{'stage':<14}{'SigLab ms':>10}{'min':>9}{'CuPy ms':>10}{'min':>9}{'CuPy/SigLab':>13}  target  "
          f"{'copy rate':>9}  checksums (SigLab, CuPy)")
    met = True
    for name, (ms, low, moved, checksum) in siglab.items():
        if name not in cupy:
            continue
        cms, clow, cchecksum = cupy[name]
        ratio = cms / ms
        met &= ratio >= TARGET
        fraction = moved / (ms * 1e-3) / copy
        print(f"{name:<14}{ms:>10.3f}{low:>9.3f}{cms:>10.3f}{clow:>9.3f}{ratio:>12.1f}x  "
              f"{'met ' if ratio >= TARGET else 'MISS'}  {fraction:>8.0%}  {checksum:.9g}, {cchecksum:.9g}")
    if "correlate_direct_long" in siglab and "correlate_fft" in siglab:
        direct, fft = siglab["correlate_direct_long"], siglab["correlate_fft"]
        print(f"correlate, template of {args.long_template} values, mode valid: main's GPU path (direct sums on "
              f"gpu-tuned) {direct[0]:.3f} ms, gpu-fft's overlap-save {fft[0]:.3f} ms ({direct[0] / fft[0]:.1f}x); "
              f"checksums {direct[3]:.9g}, {fft[3]:.9g}")
    print(f"every stage >= {TARGET}x CuPy: {'yes' if met else 'no'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
