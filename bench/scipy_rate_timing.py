#!/usr/bin/python3
"""Times SciPy's rate changes on the signal siglab-rate-bench wrote, for ratios in the same run.

usage: scipy_rate_timing.py SIGNAL.f64 REPEATS [CASE]
Prints one line per case (or for CASE alone): "<case>|<median ms>|<min ms>|<median CPU ms>", after one
untimed warm-up (CPU: this process's processor time, which a machine loaded by others does not inflate).
"""
import sys
import time

import numpy as np
import scipy.signal as signal


def timed(work, repeats):
    work()
    millis, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        millis.append((time.perf_counter() - start) * 1e3)
        cpu.append((time.process_time() - start_cpu) * 1e3)
    return np.median(millis), min(millis), np.median(cpu)


def main():
    path, repeats = sys.argv[1], int(sys.argv[2])
    only = sys.argv[3] if len(sys.argv) > 3 else None
    x = np.fromfile(path, dtype=np.float64)
    h = signal.firwin(31, 0.3)
    sos = signal.butter(8, [0.1, 0.3], "bandpass", output="sos")
    template = np.sin(np.arange(64) / 3.0)
    cases = {
        "resample-poly 3,2": lambda: signal.resample_poly(x, 3, 2),
        "upfirdn 31 taps,3,2": lambda: signal.upfirdn(h, x, 3, 2),
        "decimate 4 ftype fir": lambda: signal.decimate(x, 4, ftype="fir"),
        "decimate 4": lambda: signal.decimate(x, 4),
        "decimate 4 zero-phase=off": lambda: signal.decimate(x, 4, zero_phase=False),
        "sosfilt order 8": lambda: signal.sosfilt(sos, x),
        "sosfiltfilt order 8": lambda: signal.sosfiltfilt(sos, x),
        "envelope": lambda: np.abs(signal.hilbert(x)),
        "correlate 64 same": lambda: signal.correlate(x, template, "same"),
    }
    for name, work in cases.items():
        if only is not None and name != only:
            continue
        median, low, cpu = timed(work, repeats)
        print(f"{name}|{median:.3f}|{low:.3f}|{cpu:.3f}", flush=True)


if __name__ == "__main__":
    main()
