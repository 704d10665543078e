#!/usr/bin/python3
"""siglab.signal / siglab.ndimage against SciPy and against siglab-cli on the same work, in one run.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/python_scipy_api.py SIGLAB_CLI [SAMPLES] [ROUNDS]
Each function runs on SAMPLES random float64 samples (a contiguous array, used where it lies) with
the default engine. A warm-up round first (untimed), then ROUNDS rounds; in each, in turn (the order
reversed every other round): SciPy's call, siglab's call, and siglab-cli filter --chain with the same
stage on the same samples in a raw file (its reading and writing included: the CLI's streamed runs
report no separate stage time). Each call's wall time is measured, and its CPU seconds beside (user
and system of every thread; the CLI's from its process). A time is the median over the rounds; a
ratio the median of the ratios of the same round. Targets (issue 28), on wall time: siglab at least
3x faster than SciPy, and at least 1.0x the CLI's time. The machine's load (1-minute average) is
read before, after and between the functions: on a loaded machine the wall clock counts other
programs' turns too, so say the load with the figures.
"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.ndimage
import scipy.signal

import siglab
from siglab import ndimage, signal

SOS = scipy.signal.butter(4, [0.1, 0.3], "bandpass", output="sos")
B, A = scipy.signal.butter(3, 0.2)
FIR = scipy.signal.firwin(31, 0.2)
H = scipy.signal.firwin(24, 1 / 3)
WEIGHTS = scipy.signal.firwin(21, 0.3)

# name: (call(module, x), the CLI's chain for the same work; {files} are the coefficient files).
CASES = {
    "signal.sosfilt (butter 4 bandpass)": (lambda m, x: m.sosfilt(SOS, x), "sosfilt {sos}"),
    "signal.sosfiltfilt (butter 4 bandpass)": (lambda m, x: m.sosfiltfilt(SOS, x), "sosfiltfilt {sos}"),
    "signal.lfilter (butter 3)": (lambda m, x: m.lfilter(B, A, x), "lfilter {b},{a}"),
    "signal.lfilter (FIR 31)": (lambda m, x: m.lfilter(FIR, [1.0], x), "lfilter {fir},{one}"),
    "signal.filtfilt (butter 3)": (lambda m, x: m.filtfilt(B, A, x), "filtfilt {b},{a}"),
    "signal.savgol_filter (11, 3)": (lambda m, x: m.savgol_filter(x, 11, 3), "savgol 11,3"),
    "signal.medfilt (5)": (lambda m, x: m.medfilt(x, 5), "median 5"),
    "signal.detrend (linear)": (lambda m, x: m.detrend(x), "detrend"),
    "signal.resample_poly (3/2)": (lambda m, x: m.resample_poly(x, 3, 2), "resample-poly 3,2"),
    "signal.upfirdn (24 taps, 2/3)": (lambda m, x: m.upfirdn(H, x, 2, 3), "upfirdn {h},2,3"),
    "signal.decimate (4, iir)": (lambda m, x: m.decimate(x, 4), "decimate 4"),
    "ndimage.correlate1d (21 taps)": (lambda m, x: m.correlate1d(x, WEIGHTS), "taps {weights} mode reflect"),
    "ndimage.uniform_filter1d (51)": (lambda m, x: m.uniform_filter1d(x, 51), "mean 51 mode reflect"),
    "ndimage.gaussian_filter1d (3.0)": (lambda m, x: m.gaussian_filter1d(x, 3.0), "gaussian 3 mode reflect"),
    "ndimage.median_filter (5)": (lambda m, x: m.median_filter(x, 5), "median 5 mode reflect"),
    "signal.welch (nperseg 1024)": (lambda m, x: m.welch(x, nperseg=1024), "spectrum --segment 1024"),
    "signal.spectrogram (defaults)": (lambda m, x: m.spectrogram(x), "spectrogram"),
    "signal.stft (defaults)": (lambda m, x: m.stft(x), "stft"),
    "signal.find_peaks (prominence 1, wlen 101)": (lambda m, x: m.find_peaks(x, prominence=1.0, wlen=101),
                                                   "find-peaks prominence=1 wlen=101"),
}


def scipy_module(name):
    return scipy.ndimage if name.startswith("ndimage") else scipy.signal


def siglab_module(name):
    return ndimage if name.startswith("ndimage") else signal


def own_cpu_seconds():
    return time.process_time()  # every thread of this process


def children_cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed_once(work, cpu_clock=own_cpu_seconds):
    """(wall ms, CPU ms) of one call of work()."""
    cpu, wall = cpu_clock(), time.perf_counter()
    work()
    return (time.perf_counter() - wall) * 1e3, (cpu_clock() - cpu) * 1e3


def cli_command(cli, chain, raw_path, folder):
    """siglab-cli for the same work, file to file: filter --chain, or spectrum for Welch's."""
    if chain.startswith("spectrum"):
        return [cli, "spectrum", raw_path, "--raw", "f64", *chain.split()[1:], "-o", os.path.join(folder, "p.csv")]
    out = os.path.join(folder, "y.csv" if chain.startswith("find-peaks") else "y.npy")
    return [cli, "filter", "-q", raw_path, "--raw", "f64", "--chain", chain, "-o", out]


def engine_of(chain, x):
    """The engine siglab's call ran: core's report of the same stage on the same samples (Welch's:
    the spectrum's own rule, cuFFT or FFTW)."""
    if chain.startswith("spectrum"):
        return "auto (cuFFT or FFTW)"
    pipeline = siglab.Pipeline(chain)
    if chain.split()[0] in ("spectrogram", "stft", "find-peaks"):
        _, report = pipeline._native.run_analysis([x], 1.0, ["auto"], True, None, None)
    else:
        _, report = pipeline.run(x, report=True)
    return report["channels"][0][0]["engine"]


def load_average():
    return os.getloadavg()[0]


def main():
    cli = sys.argv[1]
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    x = np.random.default_rng().standard_normal(samples)
    loads = [load_average()]
    print(f"siglab.signal/ndimage vs SciPy {scipy.__version__} vs siglab-cli: {samples} float64 samples, default "
          f"engine; wall time, the median of {rounds} rounds after a warm-up round (CPU time beside); "
          f"{os.cpu_count()} cores; uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    with tempfile.TemporaryDirectory() as folder:
        files = {}
        for name, values in {"sos": SOS, "b": B, "a": A, "fir": FIR, "one": np.ones(1), "h": H,
                             "weights": WEIGHTS}.items():
            files[name] = os.path.join(folder, f"{name}.txt")
            np.savetxt(files[name], np.atleast_1d(values), fmt="%.17g")
        raw = os.path.join(folder, "x.f64")
        x.tofile(raw)
        print(f"{'function':<42} {'scipy ms':>9} {'siglab ms':>9} {'cli ms':>8} {'scipy/siglab':>12} "
              f"{'cli/siglab':>10} | {'CPU ms: scipy':>13} {'siglab':>7} {'cli':>7} | {'load':>4}  engine")
        met = True
        for name, (call, chain) in CASES.items():
            ours, theirs = siglab_module(name), scipy_module(name)
            expected, got = call(theirs, x), call(ours, x)
            for g, e in (zip(got, expected) if isinstance(expected, tuple) else [(got, expected)]):
                if isinstance(e, dict):  # find_peaks' properties
                    g, e = np.concatenate([g[k] for k in sorted(e)]), np.concatenate([e[k] for k in sorted(e)])
                scale = max(1.0, float(np.abs(e).max(initial=0.0)))
                np.testing.assert_allclose(g, e, rtol=1e-9, atol=1e-9 * scale)
            del expected, got
            stage = chain.format(**files)
            engine = engine_of(stage, x)
            command = cli_command(cli, stage, raw, folder)
            work = {"scipy": (lambda: call(theirs, x), own_cpu_seconds),
                    "siglab": (lambda: call(ours, x), own_cpu_seconds),
                    "cli": (lambda: subprocess.run(command, capture_output=True, check=True), children_cpu_seconds)}
            times = {key: [] for key in work}
            for round_index in range(rounds + 1):  # round 0: the warm-up
                order = list(work) if round_index % 2 == 0 else list(reversed(work))
                for key in order:
                    measured = timed_once(*work[key])
                    if round_index > 0:
                        times[key].append(measured)
            loads.append(load_average())

            def wall(key):
                return [w for w, _ in times[key]]

            def median_ms(key, index):
                return statistics.median(t[index] for t in times[key])

            vs_scipy = statistics.median(s / o for s, o in zip(wall("scipy"), wall("siglab")))
            vs_cli = statistics.median(c / o for c, o in zip(wall("cli"), wall("siglab")))
            ok = vs_scipy >= 3 and vs_cli >= 1.0
            met = met and ok
            print(f"{name:<42} {median_ms('scipy', 0):9.1f} {median_ms('siglab', 0):9.1f} {median_ms('cli', 0):8.1f} "
                  f"{vs_scipy:11.2f}x {vs_cli:9.2f}x | {median_ms('scipy', 1):13.0f} {median_ms('siglab', 1):7.0f} "
                  f"{median_ms('cli', 1):7.0f} | {loads[-1]:4.1f}  {engine}{'' if ok else '  MISSED'}", flush=True)
    print(f"uptime at the end: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    print(f"1-minute load average read between the functions: {min(loads):.2f} to {max(loads):.2f}")
    print(f"targets (wall: >= 3x SciPy, >= 1.0x the CLI): {'met' if met else 'MISSED for the lines marked'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
