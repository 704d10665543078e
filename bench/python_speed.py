#!/usr/bin/python3
"""siglab.filter from Python against the same engine timed in C++ and against SciPy, in one run.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/python_speed.py [SAMPLES] [WINDOW] [REPEATS]
Every time is siglab.measure()'s (SigLab's one warm-up/repeat loop): one untimed call, then the
median (min, max) of REPEATS calls, on random non-zero float64 samples. The input is a non-owning
view into a larger buffer, to show that siglab.filter uses it where it lies.
Targets (issue 18): siglab.filter at most 1.1x the C++ engine's time; at least 5x faster than
scipy.ndimage.uniform_filter1d.
"""
import os
import sys
import warnings

import numpy as np
import scipy.ndimage

import siglab


def line(label, timing):
    return f"{label:<58} {timing['median_ms']:9.3f} ms (min {timing['min_ms']:.3f}, max {timing['max_ms']:.3f})"


def main():
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    window = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    rng = np.random.default_rng()
    buffer = rng.uniform(0.5, 1.5, samples + 1)  # non-zero samples
    x = buffer[1:]                                 # a view: x owns nothing
    assert not x.flags.owndata and x.flags.c_contiguous
    out = np.full(samples, np.nan)
    scipy_out = np.full(samples, np.nan)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a copy of x would warn
        _, auto_engine = siglab.filter(x, window=window, return_engine=True)
    assert np.shares_memory(siglab._samples(x), x), "siglab copied a contiguous view"
    print(f"siglab.filter vs the C++ engine vs scipy: {samples} float64 samples, mean window {window}, zero mode; "
          f"{repeats} timed runs after a warm-up; {os.cpu_count()} cores; loadavg {open('/proc/loadavg').read().strip()}")
    print(f"input: a non-owning view (x.base is a {buffer.size}-sample buffer), used without a copy; "
          f"auto picks {auto_engine}")

    scipy_alloc = siglab.measure(lambda: scipy.ndimage.uniform_filter1d(x, window, mode="constant"), repeats=repeats)
    scipy_into = siglab.measure(lambda: scipy.ndimage.uniform_filter1d(x, window, mode="constant", output=scipy_out),
                                repeats=repeats)
    print(line("scipy.ndimage.uniform_filter1d (new result array)", scipy_alloc))
    print(line("scipy.ndimage.uniform_filter1d (output=)", scipy_into))
    met = True
    for engine in dict.fromkeys(["cpu-parallel", auto_engine]):
        cpp_out = np.full(samples, np.nan)
        # The engine in C++ before and after the Python calls: the machine's drift shows as their difference.
        cpp_before = siglab._siglab.time_engine(x, cpp_out, window, "zero", engine, 1, repeats)
        out.fill(np.nan)
        into = siglab.measure(lambda: siglab.filter(x, window=window, engine=engine, out=out), repeats=repeats)
        alloc = siglab.measure(lambda: siglab.filter(x, window=window, engine=engine), repeats=repeats)
        cpp_after = siglab._siglab.time_engine(x, cpp_out, window, "zero", engine, 1, repeats)
        assert np.array_equal(out, cpp_out), "siglab.filter and the C++ engine disagree"
        np.testing.assert_allclose(out, scipy.ndimage.uniform_filter1d(x, window, mode="constant"), rtol=1e-12)
        cpp_ms = (cpp_before["median_ms"] + cpp_after["median_ms"]) / 2
        print(line(f"{engine} in C++ (measure() on the engine), before", cpp_before))
        print(line(f"siglab.filter(engine={engine!r}, out=)", into))
        print(line(f"siglab.filter(engine={engine!r}) (new result array)", alloc))
        print(line(f"{engine} in C++ (measure() on the engine), after", cpp_after))
        python_ratio = into["median_ms"] / cpp_ms
        scipy_ratio = scipy_into["median_ms"] / into["median_ms"]
        alloc_scipy_ratio = scipy_alloc["median_ms"] / alloc["median_ms"]
        ok = python_ratio <= 1.1 and scipy_ratio >= 5
        met = met and ok
        print(f"  {engine}: Python/C++ = {python_ratio:.3f}x the mean of the two C++ medians (target <= 1.1); "
              f"scipy/siglab = {scipy_ratio:.2f}x with out=/output= (target >= 5), {alloc_scipy_ratio:.2f}x both "
              f"allocating; Python allocating/C++ = {alloc['median_ms'] / cpp_ms:.3f}x; same bits as C++: yes; "
              f"targets {'met' if ok else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
