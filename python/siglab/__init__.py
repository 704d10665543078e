"""SigLab for Python: read large 1-D signals, filter them with SigLab's engines, compare the engines.

    import siglab
    x = siglab.read_signal("noise.txt")            # a NumPy array; x.rate is the sample rate or None
    y = siglab.filter(x, window=5, mode="reflect")  # same size, same dtype (float64 or float32)
    siglab.stats(x)["std"]

Arrays are used where they lie: a C-contiguous float64/float32 array is not copied. Errors carry
SigLab's own messages: siglab.InputError (an OSError) for files, ValueError for bad arguments.
"""
import warnings

import numpy as np

from ._siglab import InputError
from . import _siglab

__all__ = ["read_signal", "filter", "compare", "stats", "engines", "measure", "InputError", "Signal"]


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


def filter(x, window=5, mode="zero", *, taps=None, gaussian=None, engine="auto", out=None, return_engine=False,
           devices=None):
    """Filters x with the mean of `window` samples, custom `taps` or Gaussian taps of sigma `gaussian`.

    mode: zero, reflect, mirror, nearest or wrap (scipy.ndimage.correlate1d's meanings).
    engine: "auto" (the fastest engine that runs here) or a name from engines().
    out: an array to write the result into (contiguous, x's dtype and size, not overlapping x),
    as NumPy's out=: no new result array, so no page faults for its first touch.
    devices: the GPUs the GPU engines run on, as the CLI's --devices: "all", "0,1" or [0, 1] (one
    contiguous part of x each, the same bits as one GPU; "0,0" runs two parts on GPU 0). None:
    GPU 0. A GPU that does not exist is a ValueError naming the ones there are.
    """
    taps = None if taps is None else [float(t) for t in np.asarray(taps, dtype=np.float64).ravel()]
    samples = _samples(x)
    if out is not None and np.may_share_memory(out, samples):
        raise ValueError("out must not overlap x (SigLab's engines do not filter in place)")
    window = _whole_number("window", window)
    if window < 0:
        raise ValueError(f"window must be an odd number from 1 to 2^62 - 1, got {window}")
    result, used = _siglab.filter(samples, window, mode, taps, gaussian, engine, out, devices=devices)
    return (result, used) if return_engine else result


def compare(x, window=5, mode="zero", *, taps=None, gaussian=None, engines=("cpu-serial", "cpu-parallel"), repeat=10,
            devices=None):
    """Runs each engine on x (timed: one warm-up, then the median of `repeat` runs), each checked
    against cpu-serial. Returns (rows, reference): one dict per engine, and cpu-serial's result.
    devices: the GPUs the GPU engines run on, as filter()'s."""
    taps = None if taps is None else [float(t) for t in np.asarray(taps, dtype=np.float64).ravel()]
    x = _samples(x)
    if x.dtype != np.float64:
        raise ValueError("compare takes float64 samples")
    window = _whole_number("window", window)
    if window < 0:
        raise ValueError(f"window must be an odd number from 1 to 2^62 - 1, got {window}")
    repeat = _whole_number("repeat", repeat)
    if not -2**31 <= repeat < 2**31:
        raise ValueError(f"repeat must be from 1 to 100000, not {repeat}")
    return _siglab.compare(x, window, mode, taps, gaussian, list(engines), repeat, devices=devices)


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
