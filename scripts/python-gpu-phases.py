#!/usr/bin/python3
"""Where each siglab.signal call with a GPU engine spends its time (issue 28): the Python call, the
native run inside it, and core's stage report (the engine's pass: copies and kernels; verification),
beside the host's own costs for the same bytes (NumPy's fresh 80 MB array written, one copy).

    /usr/bin/python3 scripts/python-gpu-phases.py [--samples 10000000] [--repeat 5]
        (PYTHONPATH=build/python for a build tree's module)
    --save DIR writes each function's result to DIR/NAME.npy, to compare two trees' results.
"""
import argparse
import importlib.util
import os
import sys
import time

import numpy as np

import siglab
from siglab import _scipy_calls


class TimedNative:
    """A NativePipeline whose run and run_analysis record their wall time and report; `verify`, where
    set, replaces run's verify argument (to time a call without its verification)."""
    last = {}
    verify = None

    def __init__(self, native):
        self._native = native

    def __getattr__(self, name):
        attr = getattr(self._native, name)
        if name not in ("run", "run_analysis"):
            return attr

        def timed(*args, **kwargs):
            if name == "run" and TimedNative.verify is not None:
                args = (*args[:4], TimedNative.verify, *args[5:])
            start = time.perf_counter()
            out = attr(*args, **kwargs)
            TimedNative.last = {"native_ms": (time.perf_counter() - start) * 1e3, "report": out[1]}
            return out
        return timed


class TimedPipeline(_scipy_calls.Pipeline):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._native = TimedNative(self._native)


def median(values):
    return float(np.median(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--save", help="a folder: each function's result saved there as NAME.npy (to compare trees)")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("bench", os.path.join(here, "bench-python-vs-cupy.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    _scipy_calls.Pipeline = TimedPipeline
    x = np.random.default_rng(1).standard_normal(args.samples)
    for name in ("enabled", "defrag"):
        try:
            with open(f"/sys/kernel/mm/transparent_hugepage/{name}") as f:
                print(f"transparent huge pages {name}: {f.read().strip()}")
        except OSError:
            pass
    empty = []
    copy = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        y = np.empty_like(x)
        y.fill(1.0)
        empty.append((time.perf_counter() - start) * 1e3)
        start = time.perf_counter()
        y = x.copy()
        copy.append((time.perf_counter() - start) * 1e3)
    print(f"numpy: empty+fill {x.nbytes >> 20} MiB {median(empty):.2f} ms, x.copy() {median(copy):.2f} ms; "
          f"{os.cpu_count()} cpus")
    from concurrent.futures import ThreadPoolExecutor
    for threads in (4, 8, 16):
        pool = ThreadPoolExecutor(threads)
        parts = np.array_split(np.arange(x.size), threads)
        reused = np.empty_like(x)
        fresh_ms, reused_ms = [], []
        for _ in range(args.repeat):
            for target, times in ((None, fresh_ms), (reused, reused_ms)):
                start = time.perf_counter()
                y = np.empty_like(x) if target is None else target
                list(pool.map(lambda p: np.copyto(y[p[0]:p[-1] + 1], x[p[0]:p[-1] + 1]), parts))
                times.append((time.perf_counter() - start) * 1e3)
        pool.shutdown()
        print(f"host copy on {threads} threads: into a fresh array {median(fresh_ms):.2f} ms, into a reused one "
              f"{median(reused_ms):.2f} ms")
    try:
        import cupy
        d = cupy.asarray(x)
        h2d, d2h = [], []
        for _ in range(args.repeat):
            cupy.cuda.runtime.deviceSynchronize()
            start = time.perf_counter()
            d = cupy.asarray(x)
            cupy.cuda.runtime.deviceSynchronize()
            h2d.append((time.perf_counter() - start) * 1e3)
            start = time.perf_counter()
            d.get()
            d2h.append((time.perf_counter() - start) * 1e3)
        print(f"cupy: asarray(x) pageable {median(h2d):.2f} ms, .get() into a fresh array {median(d2h):.2f} ms")
    except Exception as error:  # no CuPy or no GPU: the host's figures only
        print(f"cupy: skipped ({type(error).__name__})")
    try:
        import cupy
        for mib in (80, 120):
            times = []
            for _ in range(args.repeat):
                cupy.cuda.runtime.deviceSynchronize()
                start = time.perf_counter()
                pointer = cupy.cuda.runtime.malloc(mib << 20)
                cupy.cuda.runtime.free(pointer)
                times.append((time.perf_counter() - start) * 1e3)
            print(f"cudaMalloc + cudaFree of {mib} MiB: {median(times):.3f} ms")
        rt = cupy.cuda.runtime
        for label, make in (("x (faulted)", lambda: x), ("a new array", lambda: np.empty_like(x))):
            reg, unreg = [], []
            for _ in range(args.repeat):
                a = make()
                start = time.perf_counter()
                rt.hostRegister(a.ctypes.data, a.nbytes, 0)
                reg.append((time.perf_counter() - start) * 1e3)
                start = time.perf_counter()
                rt.hostUnregister(a.ctypes.data)
                unreg.append((time.perf_counter() - start) * 1e3)
            print(f"cudaHostRegister of {label} {x.nbytes >> 20} MiB: {median(reg):.2f} ms, unregister "
                  f"{median(unreg):.2f} ms")
        alloc, free = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            pointer = rt.mallocHost(x.nbytes)
            alloc.append((time.perf_counter() - start) * 1e3)
            start = time.perf_counter()
            rt.freeHost(pointer)
            free.append((time.perf_counter() - start) * 1e3)
        print(f"cudaMallocHost {x.nbytes >> 20} MiB: {median(alloc):.2f} ms, cudaFreeHost {median(free):.2f} ms")
        pinned_ptr = rt.mallocHost(x.nbytes)
        d = cupy.empty_like(cupy.asarray(x[:10]), shape=x.shape)
        h2d = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            rt.memcpy(d.data.ptr, pinned_ptr, x.nbytes, rt.memcpyHostToDevice)
            h2d.append((time.perf_counter() - start) * 1e3)
        rt.freeHost(pinned_ptr)
        print(f"cudaMemcpy {x.nbytes >> 20} MiB from pinned memory: {median(h2d):.2f} ms")
    except Exception as error:
        print(f"cudaMalloc timing skipped ({type(error).__name__})")
    print(f"{'function':<15}{'engine':<14}{'call':>8}{'native':>8}{'stage':>8}{'xfer':>8}{'kernel':>8}"
          f"{'verify':>8}{'unverif':>8}  (ms, medians; unverif: the call with verify=False)  why")
    for name, (ours, _) in bench.cases(x).items():
        engine, why, _ = bench.gpu_engine(name, ours)
        result = ours(engine)
        if args.save:
            np.save(os.path.join(args.save, f"{name}.npy"), np.asarray(result))
        rows = []
        for _ in range(args.repeat):
            TimedNative.last = {}
            start = time.perf_counter()
            ours(engine)
            call = (time.perf_counter() - start) * 1e3
            last = TimedNative.last
            stage = last["report"]["channels"][0][-1] if last else {}
            rows.append((call, last.get("native_ms", float("nan")), stage.get("total_ms", float("nan")),
                         stage.get("transfer_ms", float("nan")), stage.get("kernel_ms", float("nan")),
                         stage.get("verify_ms", float("nan"))))
        cols = [median([r[k] for r in rows]) for k in range(6)]
        TimedNative.verify = False
        unverified = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            ours(engine)
            unverified.append((time.perf_counter() - start) * 1e3)
        TimedNative.verify = None
        cols.append(median(unverified))
        note = (last["report"]["why"][:60] if last else "no pipeline report") + (f" [{why}]" if why else "")
        print(f"{name:<15}{engine:<14}" + "".join(f"{c:>8.2f}" for c in cols) + f"  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
