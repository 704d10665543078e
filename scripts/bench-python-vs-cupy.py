#!/usr/bin/python3
"""siglab.signal with a GPU engine, called on a NumPy array, against CuPy's cupyx.scipy.signal on
cupy.asarray(x) with .get(): the host-to-host path a NumPy user would write (target: 5x).

Makes 10M float64 normal samples (seed 1) in host memory. For each function (the filters, welch,
spectrogram) times SigLab's call with engine="gpu-..." (the fastest of the GPU engines that run the
function here, each timed and printed; welch: engine="gpu") and CuPy's call from host memory to host
memory, each after one warm-up, the median of --repeat, and prints CuPy's time over SigLab's.
Where no GPU engine can run (no GPU, a build without CUDA) SigLab's default engine is timed and
said so; where CuPy is missing (or finds no GPU) its column says why and the ratio is skipped.

    /usr/bin/python3 scripts/bench-python-vs-cupy.py [--samples 10000000] [--repeat 5]
        (PYTHONPATH=build/python for a build tree's module)
"""
import argparse
import sys
import time

import numpy as np

import siglab
from siglab import signal

TARGET = 5.0


def median_ms(call, repeat):
    call()  # warm-up: plans, kernels, allocations
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def cases(x):
    """name: (SigLab's call taking engine=, CuPy's taking (cupy, cupyx.scipy.signal, device array),
    the coefficients copied to the device as a CuPy user must, and returning a device array, or None)."""
    sos = signal.butter(8, [0.1, 0.3], btype="bandpass", output="sos")
    b, a = signal.butter(4, 0.2)
    taps = signal.firwin(63, 0.2)
    return {
        "sosfilt": (lambda e: signal.sosfilt(sos, x, engine=e), lambda cp, cs, d: cs.sosfilt(cp.asarray(sos), d)),
        "sosfiltfilt": (lambda e: signal.sosfiltfilt(sos, x, engine=e), lambda cp, cs, d: cs.sosfiltfilt(cp.asarray(sos), d)),
        "lfilter-fir": (lambda e: signal.lfilter(taps, [1.0], x, engine=e), lambda cp, cs, d: cs.lfilter(cp.asarray(taps), cp.asarray([1.0]), d)),
        "filtfilt": (lambda e: signal.filtfilt(b, a, x, engine=e), lambda cp, cs, d: cs.filtfilt(cp.asarray(b), cp.asarray(a), d)),
        "savgol_filter": (lambda e: signal.savgol_filter(x, 31, 3, engine=e), lambda cp, cs, d: cs.savgol_filter(d, 31, 3)),
        "medfilt": (lambda e: signal.medfilt(x, 31, engine=e), lambda cp, cs, d: cs.medfilt(d, 31)),
        "resample_poly": (lambda e: signal.resample_poly(x, 3, 2, engine=e), lambda cp, cs, d: cs.resample_poly(d, 3, 2)),
        "welch": (lambda e: signal.welch(x, nperseg=4096, engine=e)[1], lambda cp, cs, d: cs.welch(d, nperseg=4096)[1]),
        "spectrogram": (lambda e: signal.spectrogram(x, nperseg=1024, engine=e)[2],
                        lambda cp, cs, d: cs.spectrogram(d, nperseg=1024)[2]),
    }


def gpu_engines(name, call):
    """([every GPU engine that runs `call` here], why none did). Every GPU engine is tried: an engine's
    listed reason is about the default filter kind (a correlation), not about this function's
    (gpu-sos-scan's "computes sections only" is no reason for sosfilt)."""
    candidates = ["gpu"] if name == "welch" else [e["name"] for e in siglab.engines() if e["name"].startswith("gpu-")]
    if name == "welch" and not any(e["name"].startswith("gpu-") and not e["unavailable_reason"]
                                   for e in siglab.engines()):
        candidates = []
    runs, reasons = [], []
    for engine in candidates:
        try:
            call(engine)
            runs.append(engine)
        except (ValueError, NotImplementedError, RuntimeError) as error:
            reasons.append(f"{engine}: {error}")
    return runs, ("" if runs else "; ".join(reasons[-1:]) or "no GPU engine runs it")


def gpu_engine(name, call, repeat=3):
    """(The fastest GPU engine for `call` here, timed, or the default engine, why none ran; every GPU
    engine's time as "name ms" text). A NumPy user picks the engine by name: each one that runs the
    function is timed and the fastest compared; the others are printed beside it."""
    runs, why = gpu_engines(name, call)
    if not runs:
        return "auto", why, ""
    times = {engine: median_ms(lambda: call(engine), repeat) for engine in runs}
    best = min(times, key=times.get)
    return best, "", " ".join(f"{e} {ms:.1f}" for e, ms in times.items() if e != best)


def cupy_module():
    """(cupy, cupyx.scipy.signal), or (None, why not)."""
    try:
        import cupy
        import cupyx.scipy.signal as cs
        cupy.cuda.runtime.getDeviceCount()
        return cupy, cs
    except Exception as error:  # not installed, or no GPU/driver: CuPy's parts are skipped
        return None, f"CuPy skipped: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    x = np.random.default_rng(1).standard_normal(args.samples)
    cupy, cs = cupy_module()
    print(f"{args.samples} float64 normal samples (seed 1) in host memory; median of {args.repeat} after a "
          f"warm-up; CuPy: {cupy.__version__ if cupy else cs}")
    print(f"{'function':<15}{'engine':<16}{'SigLab ms':>10}{'CuPy ms':>10}{'CuPy/SigLab':>13}  target {TARGET}x")
    met, compared, notes = True, 0, set()
    for name, (ours, theirs) in cases(x).items():
        engine, why, others = gpu_engine(name, ours)
        if why:
            notes.add(f"no GPU engine: {why}: SigLab's default engine timed")
        ms = median_ms(lambda: ours(engine), args.repeat)
        if cupy is None:
            print(f"{name:<15}{engine:<16}{ms:>10.2f}{'-':>10}{'-':>13}  skipped")
            continue

        def host_to_host():
            result = theirs(cupy, cs, cupy.asarray(x)).get()
            cupy.cuda.get_current_stream().synchronize()
            return result
        try:
            cms = median_ms(host_to_host, args.repeat)
        except Exception as error:  # CuPy refuses these arguments: say so and go on with the others
            print(f"{name:<15}{engine:<16}{ms:>10.2f}{'-':>10}{'-':>13}  CuPy failed: {type(error).__name__}: {error}")
            met = False
            continue
        ratio = cms / ms
        compared += 1
        met &= ratio >= TARGET and not why
        print(f"{name:<15}{engine:<16}{ms:>10.2f}{cms:>10.2f}{ratio:>12.2f}x  {'met' if ratio >= TARGET else 'MISS'}"
              + (f"  (other GPU engines, ms: {others})" if others else ""))
    for note in sorted(notes):
        print(note)
    if compared:
        print(f"every function >= {TARGET}x CuPy with a GPU engine: {'yes' if met else 'no'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
