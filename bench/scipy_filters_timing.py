#!/usr/bin/python3
"""Times SciPy on the signal siglab-filters-bench wrote, for ratios measured in the same run.

usage: scipy_filters_timing.py SIGNAL.f64 WINDOW REPEATS
Prints one line per case: "<case> <median ms> <min ms> <max ms>", after one untimed warm-up.
"""
import sys
import time

import numpy as np
import scipy.ndimage as ndimage


def timed(work, repeats):
    work()  # warm-up: pages touched, caches settled
    millis = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        millis.append((time.perf_counter() - start) * 1e3)
    return np.median(millis), min(millis), max(millis)


def main():
    path, window, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    x = np.fromfile(path, dtype=np.float64)
    out = np.empty_like(x)
    median, low, high = timed(lambda: ndimage.median_filter(x, window, mode="reflect", output=out), repeats)
    print(f"scipy.ndimage.median_filter {median:.3f} {low:.3f} {high:.3f}")


if __name__ == "__main__":
    main()
