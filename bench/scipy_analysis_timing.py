#!/usr/bin/python3
"""Times SciPy's spectrogram and find_peaks on the signal siglab-analysis-bench wrote, same run.

usage: scipy_analysis_timing.py SIGNAL.f64 OUTDIR REPEATS
Prints one line per case: "<case> <best wall ms> <best CPU ms>", after one untimed warm-up; "+save" cases
also write the result as SigLab does (np.save of frames x frequencies, the peaks as CSV).
"""
import sys
import time

import numpy as np
import scipy.signal as signal


def timed(work, repeats):
    work()
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        wall.append((time.perf_counter() - start) * 1e3)
        cpu.append((time.process_time() - start_cpu) * 1e3)
    return min(wall), min(cpu)


def main():
    path, outdir, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
    x = np.fromfile(path, dtype=np.float64)

    def spectrogram():
        return signal.spectrogram(x, nperseg=1024)

    def spectrogram_saved():
        np.save(outdir + "/scipy-spec.npy", spectrogram()[2].T)

    def peaks():
        return signal.find_peaks(x, height=3)

    def peaks_saved():
        p, props = peaks()
        np.savetxt(outdir + "/scipy-peaks.csv", np.column_stack([p, props["peak_heights"]]), delimiter=",",
                   header="index,height", comments="")

    for name, work in [("spectrogram", spectrogram), ("spectrogram+save", spectrogram_saved),
                       ("find_peaks", peaks), ("find_peaks+save", peaks_saved)]:
        wall, cpu = timed(work, repeats)
        print(f"{name} {wall:.3f} {cpu:.3f}", flush=True)


if __name__ == "__main__":
    main()
