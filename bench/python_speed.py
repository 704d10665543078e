#!/usr/bin/python3
"""siglab.filter from Python against the same engine timed in C++ and against SciPy, in one run.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/python_speed.py [SAMPLES] [WINDOW] [REPEATS] [ROUNDS]
Every time is siglab.measure()'s (SigLab's one warm-up/repeat loop: one untimed call, then the
median of REPEATS calls), on random non-zero float64 samples. The machine is shared, so every
variant is measured once a round, ROUNDS rounds, in turn (the order reversed every other round):
a variant's time is the median of its round medians, and a ratio is the median of the ratios of
the same round (both measured within seconds of each other), with their range. The input is a
non-owning view into a larger buffer, to show that siglab.filter uses it where it lies.

Two kinds of call, each against C++ doing the same work:
- reusing: siglab.filter(x, out=y) against the engine writing into a buffer it reuses;
- allocating: y = siglab.filter(x), which makes a new result (SigLab's 2 MiB-aligned large pages)
  and frees it when dropped, against C++ allocating the same (LargePageBuffer), filtering into it
  and freeing it. Memory new to a process is zeroed by the kernel at its first touch, whoever
  allocates it: C++ allocating/C++ reusing shows that price in C++ itself.
Also shown: the plain call against C++ reusing (the price of fresh pages included), NumPy's own
allocation (out=np.empty(n): what the plain call made before), and C++ with std::vector<double>(n).
Targets (issue 18): siglab.filter at most 1.1x the C++ engine's time, like for like; at least 5x
faster than scipy.ndimage.uniform_filter1d.
"""
import os
import statistics
import sys
import warnings

import numpy as np
import scipy.ndimage

import siglab


def loadavg():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def main():
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    window = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    rng = np.random.default_rng()
    buffer = rng.uniform(0.5, 1.5, samples + 1)  # non-zero samples
    x = buffer[1:]                                 # a view: x owns nothing
    assert not x.flags.owndata and x.flags.c_contiguous
    out = np.full(samples, np.nan)
    cpp_out = np.full(samples, np.nan)
    scipy_out = np.full(samples, np.nan)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a copy of x would warn
        _, auto_engine = siglab.filter(x, window=window, return_engine=True)
    assert np.shares_memory(siglab._samples(x), x), "siglab copied a contiguous view"
    print(f"siglab.filter vs the C++ engine vs scipy: {samples} float64 samples, mean window {window}, zero mode; "
          f"{rounds} rounds of {repeats} timed runs after a warm-up; {os.cpu_count()} cores; "
          f"loadavg {loadavg()} at the start")
    print(f"input: a non-owning view (x.base is a {buffer.size}-sample buffer), used without a copy; "
          f"auto picks {auto_engine}")

    def timed(once):
        return lambda: siglab.measure(once, repeats=repeats)

    met = True
    for engine in dict.fromkeys(["cpu-parallel", auto_engine]):
        def cpp(result):
            return lambda: siglab._siglab.time_engine(x, cpp_out, window, "zero", engine, 1, repeats, result)

        def python(**kwargs):
            return timed(lambda: siglab.filter(x, window=window, engine=engine, **kwargs))

        variants = {
            "cpp_reuse": (f"C++ {engine}, reusing its result buffer", cpp("reuse")),
            "py_out": (f"siglab.filter(x, engine={engine!r}, out=y)", python(out=out)),
            "py_new": (f"y = siglab.filter(x, engine={engine!r}) (new result)", python()),
            "cpp_new": (f"C++ {engine}, a new LargePageBuffer each call", cpp("new")),
            "py_numpy": (f"siglab.filter(x, engine={engine!r}, out=np.empty(n))",
                         timed(lambda: siglab.filter(x, window=window, engine=engine, out=np.empty(samples)))),
            "cpp_vector": (f"C++ {engine}, a new std::vector<double>(n) each call", cpp("vector")),
            "scipy_out": ("scipy.ndimage.uniform_filter1d(x, output=z)",
                          timed(lambda: scipy.ndimage.uniform_filter1d(x, window, mode="constant", output=scipy_out))),
            "scipy_new": ("z = scipy.ndimage.uniform_filter1d(x) (new result)",
                          timed(lambda: scipy.ndimage.uniform_filter1d(x, window, mode="constant"))),
        }
        runs = {key: [] for key in variants}
        for round_index in range(rounds):
            order = list(variants) if round_index % 2 == 0 else list(reversed(variants))
            for key in order:
                runs[key].append(variants[key][1]())
        out.fill(np.nan)
        siglab.filter(x, window=window, engine=engine, out=out)
        assert np.array_equal(out, cpp_out), "siglab.filter and the C++ engine disagree"
        assert np.array_equal(siglab.filter(x, window=window, engine=engine), cpp_out), "a new result disagrees"
        np.testing.assert_allclose(out, scipy.ndimage.uniform_filter1d(x, window, mode="constant"), rtol=1e-12)

        print(f"{engine}: the median of {rounds} round medians (min, max of every timed run); loadavg {loadavg()} "
              f"at the end")
        for key, (label, _) in variants.items():
            medians = [r["median_ms"] for r in runs[key]]
            print(f"  {label:<66} {statistics.median(medians):9.3f} ms "
                  f"(min {min(r['min_ms'] for r in runs[key]):.3f}, max {max(r['max_ms'] for r in runs[key]):.3f})")

        def ratio(label, top, bottom, target=None):
            each = [a["median_ms"] / b["median_ms"] for a, b in zip(runs[top], runs[bottom])]
            value = statistics.median(each)
            goal = "" if target is None else f" (target {target})"
            print(f"  {label:<50} {value:7.3f}x (rounds {min(each):.3f} to {max(each):.3f}){goal}")
            return value

        reuse_ratio = ratio("Python/C++, reusing (out=)", "py_out", "cpp_reuse", "<= 1.1")
        alloc_ratio = ratio("Python/C++, allocating (plain call)", "py_new", "cpp_new", "<= 1.1")
        ratio("fresh pages in C++: allocating/reusing", "cpp_new", "cpp_reuse")
        ratio("fresh pages in Python: plain call/out=", "py_new", "py_out")
        ratio("plain call/C++ reusing (fresh pages included)", "py_new", "cpp_reuse")
        ratio("NumPy's allocation/SigLab's large pages", "py_numpy", "py_new")
        ratio("C++ with std::vector(n)/plain call", "cpp_vector", "py_new")
        scipy_ratio = ratio("scipy/siglab, output=/out=", "scipy_out", "py_out", ">= 5")
        alloc_scipy_ratio = ratio("scipy/siglab, both allocating", "scipy_new", "py_new", ">= 5")
        ok = reuse_ratio <= 1.1 and alloc_ratio <= 1.1 and scipy_ratio >= 5 and alloc_scipy_ratio >= 5
        met = met and ok
        print(f"  same bits as C++: yes; targets {'met' if ok else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
