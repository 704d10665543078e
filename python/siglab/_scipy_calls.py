"""What siglab.signal and siglab.ndimage share: SciPy's arguments read into one SigLab stage, run
by core's pipeline (Pipeline: the CLI's engine choice, cropping, bounds and refusals) along an axis.
Nothing here decides how a stage runs; it only translates SciPy's spelling into the stage's."""
import contextlib
import math
import os

import numpy as np

from . import _siglab
from .pipeline import Pipeline, VerificationError

_ENGINE_KEYWORDS = ("engine", "devices")


def unsupported(function, keyword, value, why=""):
    """A keyword SigLab does not run: NotImplementedError naming it, never silently ignored."""
    raise NotImplementedError(f"siglab.{function}: {keyword}={value!r} is not supported{': ' + why if why else ''}")


def require_default(function, keyword, value, default):
    """Refuses `value` unless it is SciPy's default for `keyword` (compared as SciPy compares it)."""
    same = value is default if default is None or isinstance(default, bool) else \
        (not isinstance(value, (bool, np.ndarray, list, tuple)) and value == default)
    if not same:
        unsupported(function, keyword, value, f"only SciPy's default {default!r}")


def float_input(function, x, *, integers="float64"):
    """x as an array of float64 or float32, as SciPy reads it: integers (and bools) become float64
    (integers="float64") or are refused (integers="refuse": SciPy would return integers)."""
    array = np.asarray(x)
    if array.dtype in (np.float64, np.float32):
        return array
    if array.dtype.kind in "biu":
        if integers == "refuse":
            unsupported(function, "input of dtype", str(array.dtype),
                        "SciPy returns integers here; SigLab filters floats (pass x.astype(float))")
        return array.astype(np.float64)
    if array.dtype.kind == "f":
        unsupported(function, "input of dtype", str(array.dtype), "SigLab filters float64 or float32")
    if array.dtype.kind == "c":
        unsupported(function, "input of dtype", str(array.dtype), "SigLab filters real signals")
    raise TypeError(f"siglab.{function}: x must hold numbers, not {array.dtype}")


def coefficients(name, values, *, ndim=1):
    """Filter coefficients as a float64 array of `ndim` dimensions (finite values are core's check)."""
    array = np.asarray(values)
    if array.dtype.kind == "c":
        raise NotImplementedError(f"complex {name} are not supported")
    array = np.atleast_1d(np.asarray(array, dtype=np.float64))
    if array.ndim != ndim:
        raise ValueError(f"{name} must be {'one' if ndim == 1 else 'two'}-dimensional, not of shape {array.shape}")
    return array


@contextlib.contextmanager
def coefficient_files(**arrays):
    """Each array written (exactly: shortest round-trip text, one row a line) to a file in memory
    that the stage reads as it reads a coefficient file; yields {name: path}. Nothing is left
    behind; a message about such a file names the argument instead."""
    paths, fds = {}, []
    try:
        for name, array in arrays.items():
            fd = os.memfd_create(f"siglab-{name}")
            fds.append(fd)
            rows = array.reshape(array.shape[0], -1) if array.ndim > 1 else array.reshape(-1, 1)
            os.write(fd, "".join(" ".join(repr(float(v)) for v in row) + "\n" for row in rows).encode())
            paths[name] = f"/proc/self/fd/{fd}"
        try:
            yield paths
        except (_siglab.InputError, ValueError) as error:
            message = str(error)
            for name, path in paths.items():
                message = message.replace(path, name)
            if message == str(error):
                raise
            raise ValueError(message) from None
    finally:
        for fd in fds:
            os.close(fd)


def run_stage(function, x, kind, params, *, axis, dtype, engine="auto", devices=None):
    """siglab.`function`: x (float64 or float32) through the one stage `kind` with `params`, along `axis`, every other
    axis a channel: the result in `dtype` (float32: the engines run in float32). A contiguous
    float64 1-D x (or rows along the last axis) is used where it lies, each result written by the
    stage straight into the returned array. Core's refusals name the function, not "stage 1"."""
    if x.ndim == 0:
        raise ValueError(f"siglab.{function}: x must have at least one dimension")
    try:
        return _run_rows(x, kind, params, axis, dtype, engine, devices)
    except ValueError as error:
        label = f"stage 1 ({kind}): "
        if not str(error).startswith(label):
            raise
        raise ValueError(f"siglab.{function}: {str(error)[len(label):]}") from None


def _run_rows(x, kind, params, axis, dtype, engine, devices):
    pipeline = Pipeline([(kind, params)])
    rows_view = np.moveaxis(x, axis, -1)
    leading = rows_view.shape[:-1]
    rows = rows_view.reshape(math.prod(rows_view.shape[:-1]), rows_view.shape[-1])  # -1 cannot stand for it beside 0 samples
    sample_type = "f32" if dtype == np.float32 else "f64"
    engines = [engine] if isinstance(engine, str) else list(engine)
    if rows.shape[0] == 0:  # no channels: the stage's output length, learnt on zeros
        length = _run_rows(np.zeros(rows.shape[-1]), kind, params, 0, dtype, engine, devices).shape[0]
        return np.moveaxis(np.empty((*leading, length), dtype=dtype), -1, axis)
    result = None
    for r in range(rows.shape[0]):
        row = np.ascontiguousarray(rows[r], dtype=np.float64)  # no copy for a contiguous float64 row
        into = None if result is None else result[r]
        out, described = pipeline._native.run([row], None, engines, sample_type, True, None, devices, into, True)
        if not described["passed"]:
            raise VerificationError(described["failure"])
        if result is None:
            if rows.shape[0] == 1:
                return np.moveaxis(out.reshape(*leading, out.shape[0]), -1, axis)
            result = np.empty((rows.shape[0], out.shape[0]), dtype=out.dtype)
            result[0] = out
    return np.moveaxis(result.reshape(*leading, result.shape[-1]), -1, axis)


def run_analysis(function, x, kind, params, *, axis, rate, take, engine="auto", devices=None, complex_pairs=False):
    """x (float64, or read as float64) through the analysis stage `kind` (spectrogram, stft,
    find-peaks, hilbert) along `axis`, one channel at a time, each result handed over by core's
    memory sink (a matrix as an array of its shape, a table as {column: values}) to
    take(channel, count, result); a complex matrix as (frames, frequencies, 2) pairs where
    `complex_pairs` (NumPy's complex128 layout), else as planes (frames, 2, frequencies). Returns (the matrix's axes {"frequencies", "times"}, or {} for
    a table or a signal; the leading shape of the other axes)."""
    if x.ndim == 0:
        raise ValueError(f"siglab.{function}: x must have at least one dimension")
    pipeline = Pipeline([(kind, params)])
    rows_view = np.moveaxis(x, axis, -1)
    rows = rows_view.reshape(math.prod(rows_view.shape[:-1]), rows_view.shape[-1])  # -1 cannot stand for it beside 0 samples
    engines = [engine] if isinstance(engine, str) else list(engine)
    label = f"stage 1 ({kind}): "
    try:
        axes = pipeline._native.analysis_axes(rows.shape[-1], rate)
        for channel, row in enumerate(rows):
            result, described = pipeline._native.run_analysis([np.ascontiguousarray(row, dtype=np.float64)], rate,
                                                              engines, True, None, devices, complex_pairs)
            if not described["passed"]:
                raise VerificationError(described["failure"])
            take(channel, rows.shape[0], result)
    except ValueError as error:
        if not str(error).startswith(label):
            raise
        raise ValueError(f"siglab.{function}: {str(error)[len(label):]}") from None
    return axes, rows_view.shape[:-1]
