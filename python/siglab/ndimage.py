"""scipy.ndimage's one-dimensional filters with SciPy's names, signatures, defaults and dtype rules,
run along `axis` by core's pipeline (the CLI's engine choice, cropping, bounds and refusals), plus
keyword-only ``engine=`` and ``devices=`` as siglab.signal's.

    from siglab import ndimage
    y = ndimage.uniform_filter1d(x, 51)              # mode='reflect', as SciPy's default
"""
import numpy as np

from ._scipy_calls import coefficient_files, coefficients, float_input, require_default, run_stage, unsupported

__all__ = ["correlate1d", "uniform_filter1d", "gaussian_filter1d", "median_filter"]

# ndimage's boundary modes as SigLab's stages name them (constant: with cval 0 only).
_MODES = {"reflect": "reflect", "grid-mirror": "reflect", "mirror": "mirror", "nearest": "nearest", "wrap": "wrap",
          "grid-wrap": "wrap", "constant": "zero", "grid-constant": "zero"}


def _mode(function, mode, cval):
    if mode not in _MODES:
        raise RuntimeError("boundary mode not supported")  # SciPy's own words for a mode it does not know
    if _MODES[mode] == "zero":
        require_default(f"ndimage.{function}", "cval", cval, 0.0)
    return _MODES[mode]


def _input(function, x, output, origin):
    require_default(f"ndimage.{function}", "output", output, None)
    require_default(f"ndimage.{function}", "origin", origin, 0)
    return float_input(f"ndimage.{function}", x, integers="refuse")


def _odd(function, name, length):
    if length % 2 == 0:
        unsupported(f"ndimage.{function}", name, length, "an odd length (SigLab's windows are centred)")


def correlate1d(input, weights, axis=-1, output=None, mode='reflect', cval=0.0, origin=0, *, engine="auto",
                devices=None):
    """Calculate a 1-D correlation along the given axis (scipy.ndimage.correlate1d).

    Parameters
    ----------
    input : array_like
        The signal (float64 or float32, kept; integers are NotImplementedError: SciPy returns integers).
    weights : array_like, 1-D
        The taps, an odd count (an even one is NotImplementedError).
    axis : int, optional
        The axis filtered; every other axis is a channel.
    output, origin :
        Only SciPy's defaults (None, 0).
    mode : {'reflect', 'mirror', 'nearest', 'wrap', 'constant'}, optional
        The boundary, as SciPy's ('grid-' names too).
    cval : float, optional
        The constant mode's value: only 0.0.
    engine : str, keyword-only
        "auto" (core's choice, as siglab-cli) or an engine's name.
    devices : str or list of int, keyword-only
        The GPUs the GPU engines run on, as the CLI's --devices.

    Returns
    -------
    result : ndarray
        Of input's shape and dtype.
    """
    x = _input("correlate1d", input, output, origin)
    taps = coefficients("weights", weights)
    _odd("correlate1d", "weights of length", taps.size)
    with coefficient_files(weights=taps) as files:
        params = {"file": files["weights"], "mode": _mode("correlate1d", mode, cval)}
        return run_stage("ndimage.correlate1d", x, "taps", params, axis=axis,
                         dtype=x.dtype, engine=engine, devices=devices)


def uniform_filter1d(input, size, axis=-1, output=None, mode='reflect', cval=0.0, origin=0, *, engine="auto",
                     devices=None):
    """Calculate a 1-D uniform (moving average) filter along the given axis (scipy.ndimage.uniform_filter1d).

    Parameters
    ----------
    input : array_like
        The signal (float64 or float32, kept).
    size : int
        The window, odd (an even one is NotImplementedError).
    axis, output, mode, cval, origin, engine, devices :
        As correlate1d's.

    Returns
    -------
    result : ndarray
        Of input's shape and dtype.
    """
    x = _input("uniform_filter1d", input, output, origin)
    if size < 1:
        raise RuntimeError("incorrect filter size")
    _odd("uniform_filter1d", "size", size)
    params = {"window": size, "mode": _mode("uniform_filter1d", mode, cval)}
    return run_stage("ndimage.uniform_filter1d", x, "mean", params, axis=axis,
                     dtype=x.dtype, engine=engine, devices=devices)


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode='reflect', cval=0.0, truncate=4.0, *,
                      radius=None, engine="auto", devices=None):
    """1-D Gaussian filter (scipy.ndimage.gaussian_filter1d).

    Parameters
    ----------
    input : array_like
        The signal (float64 or float32, kept).
    sigma : float
        The Gaussian's standard deviation, in samples.
    order : 0
        Derivatives of the Gaussian are NotImplementedError.
    truncate : float, optional
        The taps reach truncate sigma each side (radius int(truncate sigma + 0.5)).
    radius : int, optional
        The taps' radius, instead of truncate's.
    axis, output, mode, cval, engine, devices :
        As correlate1d's.

    Returns
    -------
    result : ndarray
        Of input's shape and dtype.
    """
    require_default("ndimage.gaussian_filter1d", "order", order, 0)
    x = _input("gaussian_filter1d", input, output, 0)
    sigma = float(sigma)
    reach = int(truncate * sigma + 0.5) if radius is None else int(radius)
    if reach < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    params = {"sigma": sigma, "window": 2 * reach + 1, "mode": _mode("gaussian_filter1d", mode, cval)}
    return run_stage("ndimage.gaussian_filter1d", x, "gaussian", params, axis=axis, dtype=x.dtype, engine=engine,
                     devices=devices)


def median_filter(input, size=None, footprint=None, output=None, mode='reflect', cval=0.0, origin=0, *,
                  engine="auto", devices=None):
    """Calculate a 1-D median filter (scipy.ndimage.median_filter on a 1-D input).

    Parameters
    ----------
    input : array_like, 1-D
        The signal (float64 or float32, kept). A 2-D input (SciPy's 2-D median) is NotImplementedError.
    size : int
        The window, odd.
    footprint : None
        Footprints are NotImplementedError.
    output, mode, cval, origin, engine, devices :
        As correlate1d's.

    Returns
    -------
    result : ndarray
        Of input's shape and dtype.
    """
    require_default("ndimage.median_filter", "footprint", footprint, None)
    x = _input("median_filter", input, output, origin)
    if x.ndim != 1:
        unsupported("ndimage.median_filter", "input of shape", x.shape, "SigLab's median is 1-D")
    if size is None:
        raise RuntimeError("no footprint or filter size provided")
    if isinstance(size, (list, tuple, np.ndarray)):
        size, = size
    _odd("median_filter", "size", size)
    params = {"window": size, "mode": _mode("median_filter", mode, cval)}
    return run_stage("ndimage.median_filter", x, "median", params, axis=-1,
                     dtype=x.dtype, engine=engine, devices=devices)
