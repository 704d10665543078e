"""SigLab for Python: read large signals, run them through stages with SigLab's engines, compare the engines.

    import siglab
    x = siglab.read_signal("noise.txt")            # a NumPy array; x.rate is the sample rate or None
    y = siglab.filter(x, window=5, mode="reflect")  # same size, same dtype (float64 or float32)
    p = siglab.Pipeline("butter 4,0.1,0.3,bandpass zero-phase; median 5; detrend")
    y = p.run(x)                                    # 1-D, or N x C with the channels on the last axis
    siglab.stats(x)["std"]
    from siglab import signal, ndimage              # SciPy's names and signatures, through the same core
    y = signal.sosfiltfilt(signal.butter(4, 0.2, output="sos"), x)

Arrays are used where they lie: a C-contiguous float64/float32 array is not copied. Errors carry
SigLab's own messages: siglab.InputError (an OSError) for files, ValueError for bad arguments.
"""
import contextlib
import os
import warnings

import numpy as np

from ._siglab import InputError
from . import _siglab
from .pipeline import Pipeline, VerificationError, stage, stage_kinds
from . import ndimage, signal
from .signal_files import formats, read, write

__all__ = ["read_signal", "filter", "compare", "stats", "engines", "measure", "release_memory", "InputError", "Signal",
           "Pipeline", "VerificationError", "stage", "stage_kinds", "signal", "ndimage", "read", "write", "formats"]


class Signal(np.ndarray):
    """A NumPy array of samples with the sample rate it was recorded at (Hz, or None)."""

    def __array_finalize__(self, obj):
        self.rate = getattr(obj, "rate", None)


def read_signal(path, *, column=0, skip_header=False, raw=None, offset=0, channel=1, allow_nonfinite=False):
    """Reads a signal file (text, CSV column, .npy, raw with raw="f64"/"f32"/"i16"..., WAV)."""
    samples, rate = _siglab.read_signal(str(path), column, skip_header, raw, offset, channel, allow_nonfinite)
    signal = samples.view(Signal)
    signal.rate = rate
    return signal


def _samples(x):
    """x as a 1-D C-contiguous float64 or float32 array, copied only where it must be (with a note)."""
    array = np.asarray(x)
    if array.dtype not in (np.float64, np.float32):
        raise ValueError(f"x must hold float64 or float32 samples, not {array.dtype}")
    if array.ndim != 1:
        raise ValueError(f"x must be one-dimensional, not of shape {array.shape}")
    if not array.flags.c_contiguous:
        warnings.warn("x is not contiguous: SigLab filters a contiguous copy of it", stacklevel=3)
        array = np.ascontiguousarray(array)
    return np.asarray(array, dtype=array.dtype.newbyteorder("="))


def _whole_number(name, value):
    """value as an int, refusing what only converts to one (True, 2.0, "5"), as the CLI refuses them."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    return int(value)


@contextlib.contextmanager
def _one_stage(window, mode, taps, gaussian):
    """The one-stage Pipeline filter()'s keywords describe, as siglab-cli's --window, --taps and
    --gaussian with --mode describe it: the kind whose one-stage option the keyword is, its value
    that option's. Taps given as values are written (exactly: shortest round-trip text) to a
    file in memory for the taps kind to read, closed afterwards."""
    if taps is not None and gaussian is not None:
        raise ValueError("give taps or gaussian, not both")
    if taps is None and gaussian is None:
        window = _whole_number("window", window)
        if window < 0:
            raise ValueError(f"window must be an odd number from 1 to 2^62 - 1, got {window}")
    option, value = ("gaussian", gaussian) if gaussian is not None else ("taps", taps) if taps is not None \
        else ("window", window)
    kind = next(k for k in stage_kinds() if k["option"] == option)
    in_value = next(p["name"] for p in kind["parameters"] if p["in_value"])
    if option != "taps" or isinstance(value, (str, os.PathLike)):
        yield Pipeline([(kind["name"], {in_value: value, "mode": mode})])
        return
    fd = os.memfd_create("siglab-taps")  # a file in memory only: nothing left behind, whatever happens
    try:
        os.write(fd, "".join(f"{float(t)!r}\n" for t in np.asarray(value, dtype=np.float64).ravel()).encode())
        path = f"/proc/self/fd/{fd}"
        try:
            yield Pipeline([(kind["name"], {in_value: path, "mode": mode})])
        except InputError as error:  # the taps' own count, said of the taps given
            raise ValueError(str(error).replace(path, "taps")) from None
    finally:
        os.close(fd)


def filter(x, window=5, mode="zero", *, taps=None, gaussian=None, engine="auto", out=None, return_engine=False,
           devices=None):
    """Filters x with the mean of `window` samples, custom `taps` (values, or a file of them) or
    Gaussian taps of sigma `gaussian`: a one-stage siglab.Pipeline, run as siglab-cli filter runs
    --window, --taps or --gaussian (the same engine choice, fallback and verification).

    mode: zero, reflect, mirror, nearest or wrap (scipy.ndimage.correlate1d's meanings).
    engine: "auto" (the fastest engine that runs here) or a name from engines().
    out: an array to write the result into (contiguous, x's dtype and size, not overlapping x),
    as NumPy's out=: the engine writes it in place (float64), with no copy.
    devices: the GPUs the GPU engines run on, as the CLI's --devices: "all", "0,1" or [0, 1] (one
    contiguous part of x each, the same bits as one GPU; "0,0" runs two parts on GPU 0). None:
    GPU 0. A GPU that does not exist is a ValueError naming the ones there are.
    """
    samples = _samples(x)
    with _one_stage(window, mode, taps, gaussian) as pipeline:
        result, report = pipeline._run(samples, engine=engine, devices=devices, out=out)
    used = report["channels"][0][0]["engine"] if report["channels"] and report["channels"][0] else ""
    return (result, used) if return_engine else result


def compare(x, window=5, mode="zero", *, taps=None, gaussian=None, engines=("cpu-serial", "cpu-parallel"), repeat=10,
            devices=None):
    """Runs each engine on x (timed: one warm-up, then the median of `repeat` runs), each checked
    against cpu-serial. Returns (rows, reference): one dict per engine, and cpu-serial's result.
    devices: the GPUs the GPU engines run on, as filter()'s."""
    x = _samples(x)
    if x.dtype != np.float64:
        raise ValueError("compare takes float64 samples")
    repeat = _whole_number("repeat", repeat)
    if not -2**31 <= repeat < 2**31:
        raise ValueError(f"repeat must be from 1 to 100000, not {repeat}")
    with _one_stage(window, mode, taps, gaussian) as pipeline:
        return _siglab.compare(x, pipeline._native, list(engines), repeat, devices=devices)


def stats(x):
    """count, sum, mean, sumsq, rms, variance (population), std, min and max with their first index."""
    x = _samples(x)
    return _siglab.stats(np.asarray(x, dtype=np.float64))


def measure(once, *, warmups=1, repeats=10):
    """Times once() with SigLab's measure(): `warmups` untimed calls, then the median, min and max
    (ms) of `repeats` timed ones, the loop every SigLab benchmark uses."""
    return _siglab.measure(once, warmups, repeats)


def engines():
    """Every engine SigLab has, with the reason it cannot run here (empty when it can)."""
    return _siglab.engines()


def release_memory():
    """Gives back the memory SigLab keeps for later results.

    A result's memory is kept when its array goes (at most 8 blocks and 512 MiB, and as much
    again of GPU results pinned in place), so that the next result of the same size costs no page
    faults or pinning; the GPU engines keep up to 1 GiB of device memory a GPU for their next
    buffers. This unpins and unmaps what is kept and gives the device memory back; arrays still
    held keep their memory.
    """
    _siglab.release_memory()
