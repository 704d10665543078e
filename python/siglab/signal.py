"""scipy.signal's names and signatures for what SigLab runs: the same positional and keyword
arguments and defaults, SciPy's dtype rules and `axis`, plus keyword-only ``engine=`` ("auto" or
an engine's name, per stage) and ``devices=`` (the GPUs, as the CLI's --devices).

    from siglab import signal
    sos = signal.butter(4, [0.1, 0.3], btype="bandpass", output="sos")
    y = signal.sosfiltfilt(sos, x)                 # core's pipeline: the CLI's engine, bounds, refusals

Every filter runs as one stage of a siglab.Pipeline, so it gives the answer and the refusal
siglab-cli gives for the same request. A keyword SciPy takes and SigLab does not run (zi, a
padtype other than odd, ...) is a NotImplementedError naming it. Designs (butter, ..., firwin) and
responses (freqz, sosfreqz) are core's own designs, returned as SciPy returns them.
"""
import math

import numpy as np

from . import _siglab
from ._scipy_calls import (coefficient_files, coefficients, float_input, require_default, run_analysis, run_stage,
                           unsupported)
from ._transforms import correlate, hilbert, istft

__all__ = ["sosfilt", "sosfiltfilt", "lfilter", "filtfilt", "savgol_filter", "medfilt", "detrend",
           "resample_poly", "upfirdn", "decimate", "welch", "spectrogram", "stft", "istft", "hilbert", "correlate", "find_peaks", "butter", "cheby1", "cheby2",
           "ellip", "bessel", "iirnotch", "firwin", "freqz", "sosfreqz"]


def _result_type(x, *coefficient_arrays):
    """SciPy's output dtype for a filter of given coefficients: NumPy's result type of x and them."""
    dtype = np.result_type(x, *coefficient_arrays)
    return np.dtype(np.float32) if dtype == np.float32 else np.dtype(np.float64)


def _sections(sos):
    sos = coefficients("sos", sos, ndim=2)
    if sos.shape[1] != 6:
        raise ValueError(f"sos array must be shape (n_sections, 6), not {sos.shape}")
    return sos


def sosfilt(sos, x, axis=-1, zi=None, *, engine="auto", devices=None):
    """Filter data along one dimension using cascaded second-order sections (scipy.signal.sosfilt).

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)
        Second-order sections, each ``b0 b1 b2 a0 a1 a2`` with ``a0 == 1``.
    x : array_like
        The signal (float64 or float32; integers are read as float64).
    axis : int, optional
        The axis filtered; every other axis is a channel.
    zi : None
        Initial conditions: not supported (NotImplementedError).
    engine : str, keyword-only
        "auto" (core's choice, as siglab-cli) or an engine's name.
    devices : str or list of int, keyword-only
        The GPUs the GPU engines run on, as the CLI's --devices.

    Returns
    -------
    y : ndarray
        The filtered signal, of x's shape.
    """
    require_default("signal.sosfilt", "zi", zi, None)
    sections = _sections(sos)
    x = float_input("signal.sosfilt", x)
    with coefficient_files(sos=sections) as files:
        return run_stage("signal.sosfilt", x, "sosfilt", {"file": files["sos"]}, axis=axis,
                         dtype=_result_type(x, np.asarray(sos)),
                         engine=engine, devices=devices)


def sosfiltfilt(sos, x, axis=-1, padtype='odd', padlen=None, *, engine="auto", devices=None):
    """A forward-backward digital filter using cascaded second-order sections (scipy.signal.sosfiltfilt).

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)
        Second-order sections, each ``b0 b1 b2 a0 a1 a2`` with ``a0 == 1``.
    x : array_like
        The signal (float64 or float32; integers are read as float64).
    axis : int, optional
        The axis filtered; every other axis is a channel.
    padtype : 'odd'
        SciPy's default odd extension; others are not supported (NotImplementedError).
    padlen : None
        SciPy's default pad length; others are not supported (NotImplementedError).
    engine, devices : keyword-only
        As sosfilt's.

    Returns
    -------
    y : ndarray
        The filtered signal, of x's shape.
    """
    require_default("signal.sosfiltfilt", "padtype", padtype, "odd")
    require_default("signal.sosfiltfilt", "padlen", padlen, None)
    sections = _sections(sos)
    x = float_input("signal.sosfiltfilt", x)
    with coefficient_files(sos=sections) as files:
        return run_stage("signal.sosfiltfilt", x, "sosfiltfilt", {"file": files["sos"]}, axis=axis,
                         dtype=_result_type(x, np.asarray(sos)),
                         engine=engine, devices=devices)


def _transfer_function(function, b, a, x, axis, engine, devices):
    b_values, a_values = coefficients("b", b), coefficients("a", a)
    x = float_input(f"signal.{function}", x)
    with coefficient_files(b=b_values, a=a_values) as files:
        return run_stage(f"signal.{function}", x, function, {"b": files["b"], "a": files["a"]}, axis=axis,
                         dtype=_result_type(x, np.asarray(b), np.asarray(a)), engine=engine, devices=devices)


def lfilter(b, a, x, axis=-1, zi=None, *, engine="auto", devices=None):
    """Filter data along one dimension with an IIR or FIR filter b / a (scipy.signal.lfilter).

    Parameters
    ----------
    b : array_like
        The numerator's coefficients.
    a : array_like
        The denominator's coefficients (``a[0]`` not 0); ``[1]`` for an FIR.
    x : array_like
        The signal (float64 or float32; integers are read as float64).
    axis : int, optional
        The axis filtered; every other axis is a channel.
    zi : None
        Initial conditions: not supported (NotImplementedError).
    engine, devices : keyword-only
        As sosfilt's.

    Returns
    -------
    y : ndarray
        The filtered signal, of x's shape. An IIR runs as the second-order sections of
        ``tf2sos(b, a)``: equal to SciPy's to rounding, more accurate for high orders.
    """
    require_default("signal.lfilter", "zi", zi, None)
    return _transfer_function("lfilter", b, a, x, axis, engine, devices)


def filtfilt(b, a, x, axis=-1, padtype='odd', padlen=None, method='pad', irlen=None, *, engine="auto", devices=None):
    """Apply a digital filter forward and backward to a signal (scipy.signal.filtfilt).

    Parameters
    ----------
    b, a : array_like
        The filter's numerator and denominator coefficients.
    x : array_like
        The signal (float64 or float32; integers are read as float64).
    axis : int, optional
        The axis filtered; every other axis is a channel.
    padtype, padlen, method, irlen :
        SciPy's defaults ('odd', None: 3 max(len(a), len(b)), 'pad', None) only; others are
        NotImplementedError.
    engine, devices : keyword-only
        As sosfilt's.

    Returns
    -------
    y : ndarray
        The filtered signal, of x's shape.
    """
    require_default("signal.filtfilt", "padtype", padtype, "odd")
    require_default("signal.filtfilt", "padlen", padlen, None)
    require_default("signal.filtfilt", "method", method, "pad")
    require_default("signal.filtfilt", "irlen", irlen, None)
    return _transfer_function("filtfilt", b, a, x, axis, engine, devices)


# savgol_filter's modes (ndimage's meanings) as the savgol stage names them.
_SAVGOL_MODES = {"interp": "interp", "mirror": "mirror", "nearest": "nearest", "wrap": "wrap", "constant": "zero"}


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1, mode='interp', cval=0.0, *,
                  engine="auto", devices=None):
    """Apply a Savitzky-Golay filter to an array (scipy.signal.savgol_filter).

    Parameters
    ----------
    x : array_like
        The signal (float64 or float32, kept; integers become float64).
    window_length : int
        The window's length, odd.
    polyorder : int
        The polynomial's order, below window_length.
    deriv : int, optional
        The derivative's order (0: the smoothed signal).
    delta : float, optional
        The samples' spacing: only 1.0 for a derivative (NotImplementedError otherwise).
    axis : int, optional
        The axis filtered; every other axis is a channel.
    mode : {'interp', 'mirror', 'nearest', 'wrap', 'constant'}, optional
        The edges, as SciPy's.
    cval : float, optional
        The constant mode's value: only 0.0.
    engine, devices : keyword-only
        As sosfilt's.

    Returns
    -------
    y : ndarray
        The filtered signal, of x's shape and dtype.
    """
    if deriv and delta != 1.0:
        unsupported("signal.savgol_filter", "delta", delta, "only 1.0 with a derivative")
    if mode not in _SAVGOL_MODES:
        raise ValueError("mode must be 'mirror', 'constant', 'nearest', 'wrap' or 'interp'.")
    if mode == "constant":
        require_default("signal.savgol_filter", "cval", cval, 0.0)
    x = float_input("signal.savgol_filter", x)
    params = {"window": window_length, "order": polyorder, "deriv": deriv, "mode": _SAVGOL_MODES[mode]}
    return run_stage("signal.savgol_filter", x, "savgol", params, axis=axis, dtype=x.dtype, engine=engine,
                     devices=devices)


def medfilt(volume, kernel_size=None, *, engine="auto", devices=None):
    """Perform a median filter on a 1-D array (scipy.signal.medfilt), zero beyond the ends.

    Parameters
    ----------
    volume : array_like, 1-D
        The signal (float64 or float32, kept). A 2-D volume (SciPy's 2-D median) is
        NotImplementedError, as are integers (SciPy returns integers).
    kernel_size : int, optional
        The window, odd (default 3).
    engine, devices : keyword-only
        As sosfilt's.

    Returns
    -------
    out : ndarray
        The median-filtered signal, of volume's shape and dtype.
    """
    x = float_input("signal.medfilt", volume, integers="refuse")
    if x.ndim != 1:
        unsupported("signal.medfilt", "volume of shape", x.shape, "SigLab's median is 1-D (a median along one axis: "
                    "siglab.ndimage.median_filter)")
    size = 3 if kernel_size is None else kernel_size
    if isinstance(size, (list, tuple, np.ndarray)):
        if len(size) != 1:
            raise ValueError("kernel_size must have one entry for a 1-D volume")
        size = size[0]
    return run_stage("signal.medfilt", x, "median", {"window": size, "mode": "zero"}, axis=-1, dtype=x.dtype,
                     engine=engine, devices=devices)


def detrend(data, axis=-1, type='linear', bp=0, overwrite_data=False, *, engine="auto", devices=None):
    """Remove a linear trend, or the mean, along an axis (scipy.signal.detrend).

    Parameters
    ----------
    data : array_like
        The signal (float64 or float32, kept; integers become float64).
    axis : int, optional
        The axis detrended; every other axis is a channel.
    type : {'linear', 'constant'}, optional
        Less the least-squares line, or less the mean.
    bp : 0
        Breakpoints: not supported (NotImplementedError).
    overwrite_data : bool, optional
        SciPy's permission to overwrite data; SigLab never does (a new array is returned).
    engine, devices : keyword-only
        As sosfilt's.

    Returns
    -------
    ret : ndarray
        The detrended data, of data's shape and dtype.
    """
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    if not (np.isscalar(bp) and bp == 0):
        unsupported("signal.detrend", "bp", bp, "only SciPy's default 0 (no breakpoints)")
    x = float_input("signal.detrend", data)
    kind = "linear" if type in ("linear", "l") else "constant"
    return run_stage("signal.detrend", x, "detrend", {"type": kind}, axis=axis, dtype=x.dtype, engine=engine,
                     devices=devices)


def resample_poly(x, up, down, axis=0, window=('kaiser', 5.0), padtype='constant', cval=None, *, engine="auto",
                  devices=None):
    """Resample x along the given axis using polyphase filtering (scipy.signal.resample_poly).

    Parameters
    ----------
    x : array_like
        The signal (float64 or float32, kept; integers become float64).
    up, down : int
        The rate changes to up / down (reduced by their greatest common divisor, as SciPy's).
    axis : int, optional
        The axis resampled (SciPy's default 0).
    window : ('kaiser', beta) or 'hamming', optional
        The anti-aliasing filter's window; other windows and given taps are NotImplementedError.
    padtype : 'constant'
        Only SciPy's default (zeros beyond the ends).
    cval : None
        Only SciPy's default.
    engine, devices : keyword-only
        As sosfilt's.

    Returns
    -------
    resampled_x : ndarray
        ceil(n up / down) samples along axis.
    """
    require_default("signal.resample_poly", "padtype", padtype, "constant")
    require_default("signal.resample_poly", "cval", cval, None)
    if isinstance(window, tuple) and len(window) == 2 and window[0] == "kaiser":
        params = {"window": "kaiser", "beta": window[1]}
    elif isinstance(window, str) and window == "hamming":
        params = {"window": "hamming"}
    else:
        unsupported("signal.resample_poly", "window", window, "('kaiser', beta) or 'hamming'")
    x = float_input("signal.resample_poly", x)
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    divisor = math.gcd(up, down)
    params.update(up=up // divisor, down=down // divisor)
    return run_stage("signal.resample_poly", x, "resample-poly", params, axis=axis,
                     dtype=x.dtype, engine=engine, devices=devices)


def upfirdn(h, x, up=1, down=1, axis=-1, mode='constant', cval=0, *, engine="auto", devices=None):
    """Upsample, FIR filter, and downsample (scipy.signal.upfirdn).

    Parameters
    ----------
    h : array_like, 1-D
        The FIR filter's taps.
    x : array_like
        The signal (float64 or float32; integers are read as float64).
    up, down : int, optional
        The upsampling and downsampling factors.
    axis : int, optional
        The axis filtered; every other axis is a channel.
    mode, cval :
        Only SciPy's defaults ('constant', 0).
    engine, devices : keyword-only
        As sosfilt's.

    Returns
    -------
    y : ndarray
        ((n - 1) up + len(h) - 1) // down + 1 samples along axis.
    """
    require_default("signal.upfirdn", "mode", mode, "constant")
    require_default("signal.upfirdn", "cval", cval, 0)
    taps = coefficients("h", h)
    x = float_input("signal.upfirdn", x)
    with coefficient_files(h=taps) as files:
        return run_stage("signal.upfirdn", x, "upfirdn", {"file": files["h"], "up": up, "down": down}, axis=axis,
                         dtype=_result_type(x, np.asarray(h)), engine=engine, devices=devices)


def decimate(x, q, n=None, ftype='iir', axis=-1, zero_phase=True, *, engine="auto", devices=None):
    """Downsample the signal after applying an anti-aliasing filter (scipy.signal.decimate).

    Parameters
    ----------
    x : array_like
        The signal (float64 or float32, kept; integers become float64).
    q : int
        The downsampling factor.
    n : int, optional
        The filter's order (default 8 for 'iir', 20 q for 'fir').
    ftype : {'iir', 'fir'}, optional
        A Chebyshev type I or a Hamming firwin filter; a dlti object is NotImplementedError.
    axis : int, optional
        The axis decimated; every other axis is a channel.
    zero_phase : bool, optional
        Filter forward and backward (no delay).
    engine, devices : keyword-only
        As sosfilt's.

    Returns
    -------
    y : ndarray
        ceil(n / q) samples along axis.
    """
    if not isinstance(ftype, str):
        unsupported("signal.decimate", "ftype", ftype, "'iir' or 'fir'")
    if ftype not in ("iir", "fir"):
        raise ValueError("invalid ftype")
    x = float_input("signal.decimate", x)
    params = {"q": q, "ftype": ftype, "zero_phase": bool(zero_phase)}
    if n is not None:
        if int(n) == 0:
            unsupported("signal.decimate", "n", n, "an order of at least 1")
        params["n"] = n
    return run_stage("signal.decimate", x, "decimate", params, axis=axis, dtype=x.dtype, engine=engine,
                     devices=devices)


_SEGMENT_WINDOWS = ("tukey", "hann", "hamming", "blackman", "boxcar")


def _segment_window(function, window):
    """SciPy's window argument as the stage's window and tukey-alpha (a bare 'tukey' is get_window's 0.5)."""
    if isinstance(window, tuple) and len(window) == 2 and window[0] == "tukey":
        return {"window": "tukey", "tukey_alpha": float(window[1])}
    if isinstance(window, str) and window in _SEGMENT_WINDOWS:
        return {"window": window, **({"tukey_alpha": 0.5} if window == "tukey" else {})}
    unsupported(f"signal.{function}", "window", window, f"one of {', '.join(_SEGMENT_WINDOWS)} or ('tukey', alpha)")


def _segment_detrend(function, detrend):
    if detrend is False:
        return "none"
    if isinstance(detrend, str) and detrend in ("constant", "linear"):
        return detrend
    unsupported(f"signal.{function}", "detrend", detrend, "'constant', 'linear' or False")


def _segments(nperseg, noverlap, nfft):
    given = {"nperseg": nperseg, "noverlap": noverlap, "nfft": nfft}
    return {name: value for name, value in given.items() if value is not None}


def _matrix(function, x, kind, params, axis, fs, complex_values, engine, devices):
    """The analysis's frames x frequencies matrices as SciPy's f, t and (..., frequencies, frames)
    array (a transposed view, as SciPy's), in x's precision (float32 and complex64 for float32 x):
    one channel's matrix, as core hands it over (frames x frequencies, complex128 for complex
    values), is the result itself where its type is."""
    if fs is None or np.ndim(fs) != 0:
        unsupported(f"signal.{function}", "fs", fs, "a sample rate in Hz")
    real = np.float32 if x.dtype == np.float32 else np.float64
    dtype = np.result_type(real, np.complex64) if complex_values else np.dtype(real)
    result = []

    def take(channel, channels, values):  # frames x frequencies, or frames x frequencies x (re, im)
        matrix = values.view(np.complex128)[..., 0] if complex_values else values  # no copy
        if channels == 1 and matrix.dtype == dtype:
            result.append(matrix[np.newaxis])
            return
        if not result:
            result.append(np.empty((channels, *matrix.shape), dtype=dtype))
        result[0][channel] = matrix

    axes, leading = run_analysis(f"signal.{function}", x, kind, params, axis=axis, rate=float(fs), take=take,
                                 engine=engine, devices=devices, complex_pairs=complex_values)
    matrix = np.swapaxes(result[0].reshape(*leading, *result[0].shape[1:]), -1, -2)
    where = axis % x.ndim
    if where != x.ndim - 1:  # SciPy puts the frequencies where the axis was, the frames last
        matrix = np.moveaxis(matrix, -2, where)
    return axes["frequencies"], axes["times"], matrix


_WELCH_WINDOWS = ("hann", "hamming", "blackman", "boxcar")


def welch(x, fs=1.0, window='hann', nperseg=None, noverlap=None, nfft=None, detrend='constant', return_onesided=True,
          scaling='density', axis=-1, average='mean', *, engine="auto", devices=None):
    """Estimate power spectral density using Welch's method (scipy.signal.welch): core's spectrum,
    on the engine siglab-cli spectrum would use.

    Parameters
    ----------
    x : array_like
        The signal (float64 or float32; read as float64).
    fs : float, optional
        The sample rate.
    window : {'hann', 'hamming', 'blackman', 'boxcar'}, optional
        The segments' window (periodic); others and arrays are NotImplementedError.
    nperseg : int, optional
        Samples a segment (default 256), cut to the signal's length as SciPy cuts it.
    noverlap : int, optional
        Samples neighbouring segments share (default nperseg // 2).
    nfft : None
        Only the segment's own length (NotImplementedError otherwise).
    detrend : {'constant', False}, optional
        Each segment's mean removed, or nothing; 'linear' is NotImplementedError.
    return_onesided, average :
        Only SciPy's defaults (True, 'mean').
    scaling : {'density', 'spectrum'}, optional
        Power per Hz or per bin.
    axis : int, optional
        The axis analysed; every other axis is a channel.
    engine : {"auto", "cpu", "gpu"}, keyword-only
        auto: cuFFT where a GPU can run it, else FFTW; as the CLI's spectrum --engine.
    devices : keyword-only
        The GPUs, as the CLI's --devices.

    Returns
    -------
    f : ndarray
        The frequencies.
    Pxx : ndarray
        The power spectral density, (..., frequencies), frequencies where axis was.
    """
    require_default("signal.welch", "return_onesided", return_onesided, True)
    require_default("signal.welch", "average", average, "mean")
    if not (isinstance(window, str) and window in _WELCH_WINDOWS):
        unsupported("signal.welch", "window", window, f"one of {', '.join(_WELCH_WINDOWS)}")
    if detrend not in ("constant", False):
        unsupported("signal.welch", "detrend", detrend, "'constant' or False")
    if scaling not in ("density", "spectrum"):
        raise ValueError(f"Unknown scaling: {scaling!r}")
    x = float_input("signal.welch", x)
    rows_view = np.moveaxis(x, axis, -1)
    n = rows_view.shape[-1]
    segment = min(256 if nperseg is None else int(nperseg), n)  # SciPy's rule: a segment no longer than x
    if nfft is not None and int(nfft) != segment:
        unsupported("signal.welch", "nfft", nfft, "the segment's own length")
    overlap = segment // 2 if noverlap is None else int(noverlap)
    frequencies, rows = None, []
    for row in rows_view.reshape(-1, n):
        frequencies, power, _ = _siglab.welch(np.ascontiguousarray(row, dtype=np.float64), segment, overlap, window,
                                              scaling, detrend == "constant", float(fs), engine, devices)
        rows.append(power)
    result = np.stack(rows).reshape(*rows_view.shape[:-1], -1).astype(
        np.float32 if x.dtype == np.float32 else np.float64, copy=False)
    return frequencies, np.moveaxis(result, -1, axis)


def spectrogram(x, fs=1.0, window=('tukey', 0.25), nperseg=None, noverlap=None, nfft=None, detrend='constant',
                return_onesided=True, scaling='density', axis=-1, mode='psd', *, engine="auto", devices=None):
    """Compute a spectrogram with consecutive Fourier transforms (scipy.signal.spectrogram).

    Parameters
    ----------
    x : array_like
        The signal (float64 or float32; integers are read as float64).
    fs : float, optional
        The sample rate.
    window : str or ('tukey', alpha), optional
        tukey, hann, hamming, blackman or boxcar (periodic, as get_window); arrays are NotImplementedError.
    nperseg, noverlap, nfft : int, optional
        The segments, as SciPy's (nperseg 256, cut to the signal's length; noverlap nperseg // 8).
    detrend : {'constant', 'linear', False}, optional
        What each segment loses first; a function is NotImplementedError.
    return_onesided : True
        Only one-sided spectra.
    scaling : {'density', 'spectrum'}, optional
        Power per Hz or per bin.
    axis : int, optional
        The axis analysed; every other axis is a channel.
    mode : {'psd', 'magnitude', 'complex'}, optional
        SciPy's 'angle' and 'phase' are NotImplementedError.
    engine : {"auto", "cpu-parallel", "cpu-serial"}, keyword-only
        The frames' engine (the same bits either way).
    devices : keyword-only
        As sosfilt's.

    Returns
    -------
    f : ndarray
        The frequencies.
    t : ndarray
        The segments' centres, in seconds.
    Sxx : ndarray
        (..., frequencies, frames), frequencies where axis was.
    """
    require_default("signal.spectrogram", "return_onesided", return_onesided, True)
    if mode not in ("psd", "magnitude", "complex"):
        unsupported("signal.spectrogram", "mode", mode, "'psd', 'magnitude' or 'complex'")
    if scaling not in ("density", "spectrum"):
        raise ValueError(f"Unknown scaling: {scaling!r}")
    params = {**_segment_window("spectrogram", window), **_segments(nperseg, noverlap, nfft),
              "detrend": _segment_detrend("spectrogram", detrend), "scaling": scaling, "mode": mode}
    x = float_input("signal.spectrogram", x)
    return _matrix("spectrogram", x, "spectrogram", params, axis, fs, mode == "complex", engine, devices)


def stft(x, fs=1.0, window='hann', nperseg=256, noverlap=None, nfft=None, detrend=False, return_onesided=True,
         boundary='zeros', padded=True, axis=-1, scaling='spectrum', *, engine="auto", devices=None):
    """Compute the Short Time Fourier Transform (scipy.signal.stft).

    Parameters
    ----------
    x : array_like
        The signal (float64 or float32; integers are read as float64).
    fs, window, nperseg, noverlap, nfft, detrend, return_onesided :
        As spectrogram's (window default 'hann', nperseg 256, noverlap nperseg // 2, detrend False).
    boundary : {'zeros', None}, optional
        nperseg // 2 zeros before and after the signal, or none; other extensions are NotImplementedError.
    padded : bool, optional
        Zeros after the signal up to a whole segment.
    axis : int, optional
        The axis analysed; every other axis is a channel.
    scaling : {'spectrum', 'psd'}, optional
        Amplitude per bin, or per square root of Hz.
    engine, devices : keyword-only
        As spectrogram's.

    Returns
    -------
    f : ndarray
        The frequencies.
    t : ndarray
        The segments' times.
    Zxx : ndarray
        Complex, (..., frequencies, frames).
    """
    require_default("signal.stft", "return_onesided", return_onesided, True)
    if boundary not in ("zeros", None):
        unsupported("signal.stft", "boundary", boundary, "'zeros' or None")
    if scaling not in ("spectrum", "psd"):
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    params = {**_segment_window("stft", window), **_segments(nperseg, noverlap, nfft),
              "detrend": _segment_detrend("stft", detrend), "boundary": "zeros" if boundary else "none",
              "padded": "true" if padded else "false", "scaling": scaling}
    x = float_input("signal.stft", x)
    return _matrix("stft", x, "stft", params, axis, fs, True, engine, devices)


def _indices(column):
    """Core's table column of whole numbers (float64) as NumPy's intp, converted where it lies: the
    column is the table's own (no other view of it), and a copy of it was a new array's page faults."""
    indices = column.view(np.intp)
    np.copyto(indices, column, casting="unsafe")
    return indices


def find_peaks(x, height=None, threshold=None, distance=None, prominence=None, width=None, wlen=None,
               rel_height=0.5, plateau_size=None, *, engine="auto", devices=None):
    """Find peaks inside a signal based on peak properties (scipy.signal.find_peaks).

    Parameters
    ----------
    x : array_like, 1-D
        The signal.
    height, threshold, prominence, width : float or (min, max) tuple, optional
        Each property's minimum, or SciPy's interval (either end None); arrays are NotImplementedError.
    distance : float, optional
        The least samples between neighbouring peaks (the higher kept).
    wlen : float, optional
        The window, in samples, a prominence looks for its bases in.
    rel_height : float, optional
        Where widths are measured, a fraction of the prominence.
    plateau_size : None
        Plateau conditions are NotImplementedError.
    engine, devices : keyword-only
        As spectrogram's.

    Returns
    -------
    peaks : ndarray
        The peaks' indices (int64).
    properties : dict
        SciPy's: peak_heights, left_thresholds and right_thresholds, prominences, left_bases and
        right_bases, widths, width_heights, left_ips and right_ips, as the conditions given ask.
    """
    require_default("signal.find_peaks", "plateau_size", plateau_size, None)
    conditions = {"height": height, "threshold": threshold, "distance": distance, "prominence": prominence,
                  "width": width, "wlen": wlen}
    params = {}
    for name, value in conditions.items():
        low, high = value if isinstance(value, tuple) and len(value) == 2 and name not in ("distance", "wlen") \
            else (value, None)
        for key, end in ((name, low), (name + "-max", high)):
            if end is not None and np.ndim(end) != 0:
                unsupported("signal.find_peaks", name, value, "a single minimum or a (min, max) tuple")
            if end is not None:
                params[key] = end
    x = float_input("signal.find_peaks", x)
    if x.ndim != 1:
        raise ValueError("`x` must be a 1-D array")
    params["rel_height"] = rel_height
    tables = []
    run_analysis("signal.find_peaks", x, "find-peaks", params, axis=-1, rate=None,
                 take=lambda channel, channels, table: tables.append(table), engine=engine, devices=devices)
    columns, = tables
    peaks = _indices(columns["index"])
    properties = {}
    if height is not None:
        properties["peak_heights"] = x[peaks].astype(np.float64)
    if threshold is not None:
        properties["left_thresholds"] = (x[peaks] - x[peaks - 1]).astype(np.float64)
        properties["right_thresholds"] = (x[peaks] - x[peaks + 1]).astype(np.float64)
    if prominence is not None or width is not None:
        properties["prominences"] = columns["prominence"]
        properties["left_bases"] = _indices(columns["left_base"])
        properties["right_bases"] = _indices(columns["right_base"])
    if width is not None:
        for key, column in (("widths", "width"), ("width_heights", "width_height"), ("left_ips", "left_ip"),
                            ("right_ips", "right_ip")):
            properties[key] = columns[column]
    return peaks, properties


# Designs: SciPy's band names, read as core's.
_BANDS = {**dict.fromkeys(("low", "lowpass", "lp", "l"), "lowpass"),
          **dict.fromkeys(("high", "highpass", "hp", "h"), "highpass"),
          **dict.fromkeys(("band", "bandpass", "bp", "pass"), "bandpass"),
          **dict.fromkeys(("bandstop", "stop", "bs", "bands"), "bandstop")}


def _sos2tf(sos, degree):
    """b and a of the sections' product (scipy.signal.sos2tf), of `degree` + 1 coefficients each (an
    odd order's first-order section adds a zero power that SciPy's b and a do not hold)."""
    b, a = np.array([1.0]), np.array([1.0])
    for section in sos:
        b, a = np.polymul(b, section[:3]), np.polymul(a, section[3:])
    return b[:degree + 1], a[:degree + 1]


def _iir(function, family, N, Wn, btype, analog, output, fs, rp=0.0, rs=0.0, norm="phase"):
    require_default(f"signal.{function}", "analog", analog, False)
    if output not in ("ba", "sos"):
        if output == "zpk":
            unsupported(f"signal.{function}", "output", output, "'ba' or 'sos'")
        raise ValueError(f"'{output}' is not a valid output form.")
    try:
        band = _BANDS[btype]
    except (KeyError, TypeError):
        raise ValueError(f"'{btype}' is an invalid bandtype for filter.") from None
    cutoffs = [float(w) for w in np.atleast_1d(np.asarray(Wn, dtype=np.float64))]
    rate = 0.0 if fs is None else float(fs)
    sos = _siglab.iir_design(family, int(N), cutoffs, band, rate, float(rp), float(rs), norm)
    return sos if output == "sos" else _sos2tf(sos, int(N) * len(cutoffs))


def butter(N, Wn, btype='low', analog=False, output='ba', fs=None):
    """Butterworth digital filter design (scipy.signal.butter): core's design.

    Parameters
    ----------
    N : int
        The order (1 to 32).
    Wn : float or (float, float)
        The cutoff(s): fractions of Nyquist, or Hz with fs.
    btype : {'lowpass', 'highpass', 'bandpass', 'bandstop'}, optional
        The band (SciPy's short names too).
    analog : False
        Analog designs are NotImplementedError.
    output : {'ba', 'sos'}, optional
        Numerator/denominator, or second-order sections ('zpk': NotImplementedError).
    fs : float, optional
        The sample rate in Hz.

    Returns
    -------
    b, a : ndarray, ndarray
        For output='ba'.
    sos : ndarray
        For output='sos'.
    """
    return _iir("butter", "butter", N, Wn, btype, analog, output, fs)


def cheby1(N, rp, Wn, btype='low', analog=False, output='ba', fs=None):
    """Chebyshev type I digital filter design (scipy.signal.cheby1): core's design.

    Parameters
    ----------
    N : int
        The order.
    rp : float
        The passband's ripple, dB.
    Wn, btype, analog, output, fs :
        As butter's.

    Returns
    -------
    b, a or sos : ndarray
        As butter's.
    """
    return _iir("cheby1", "cheby1", N, Wn, btype, analog, output, fs, rp=rp)


def cheby2(N, rs, Wn, btype='low', analog=False, output='ba', fs=None):
    """Chebyshev type II digital filter design (scipy.signal.cheby2): core's design.

    Parameters
    ----------
    N : int
        The order.
    rs : float
        The stopband's least attenuation, dB.
    Wn, btype, analog, output, fs :
        As butter's.

    Returns
    -------
    b, a or sos : ndarray
        As butter's.
    """
    return _iir("cheby2", "cheby2", N, Wn, btype, analog, output, fs, rs=rs)


def ellip(N, rp, rs, Wn, btype='low', analog=False, output='ba', fs=None):
    """Elliptic (Cauer) digital filter design (scipy.signal.ellip): core's design.

    Parameters
    ----------
    N : int
        The order.
    rp : float
        The passband's ripple, dB.
    rs : float
        The stopband's least attenuation, dB.
    Wn, btype, analog, output, fs :
        As butter's.

    Returns
    -------
    b, a or sos : ndarray
        As butter's.
    """
    return _iir("ellip", "ellip", N, Wn, btype, analog, output, fs, rp=rp, rs=rs)


def bessel(N, Wn, btype='low', analog=False, output='ba', norm='phase', fs=None):
    """Bessel/Thomson digital filter design (scipy.signal.bessel): core's design.

    Parameters
    ----------
    N : int
        The order (1 to 18).
    Wn, btype, analog, output, fs :
        As butter's.
    norm : {'phase', 'delay', 'mag'}, optional
        The cutoff's normalisation, as SciPy's.

    Returns
    -------
    b, a or sos : ndarray
        As butter's.
    """
    return _iir("bessel", "bessel", N, Wn, btype, analog, output, fs, norm=norm)


def iirnotch(w0, Q, fs=2.0):
    """Design a second-order IIR notch digital filter (scipy.signal.iirnotch): core's design.

    Parameters
    ----------
    w0 : float
        The frequency removed, in the units of fs (default: fractions of Nyquist).
    Q : float
        The quality factor, w0 over the -3 dB bandwidth.
    fs : float, optional
        The sample rate.

    Returns
    -------
    b, a : ndarray, ndarray
        The numerator and denominator (three coefficients each).
    """
    section = _siglab.notch_peak_section(float(w0), float(Q), False, float(fs))
    return section[:3].copy(), section[3:].copy()


_PASS_ZERO = {True: "true", False: "false", "lowpass": "lowpass", "highpass": "highpass", "bandpass": "bandpass",
              "bandstop": "bandstop"}


def firwin(numtaps, cutoff, width=None, window='hamming', pass_zero=True, scale=True, nyq=None, fs=None):
    """FIR filter design using the window method (scipy.signal.firwin): core's design.

    Parameters
    ----------
    numtaps : int
        The filter's length.
    cutoff : float or 1-D array_like
        The band edges: fractions of Nyquist, or Hz with fs.
    width : None
        A Kaiser design by transition width: NotImplementedError.
    window : str or ('kaiser', beta), optional
        hamming, hann, blackman, blackmanharris, nuttall, flattop, boxcar, bartlett or ('kaiser', beta).
    pass_zero : {True, False, 'lowpass', 'highpass', 'bandpass', 'bandstop'}, optional
        Whether the band at 0 passes.
    scale : True
        Only SciPy's default (the passband's centre scaled to 1).
    nyq : None
        SciPy's deprecated Nyquist: NotImplementedError (give fs).
    fs : float, optional
        The sample rate in Hz.

    Returns
    -------
    h : ndarray
        numtaps taps.
    """
    require_default("signal.firwin", "width", width, None)
    require_default("signal.firwin", "scale", scale, True)
    require_default("signal.firwin", "nyq", nyq, None)
    beta = 0.0
    if isinstance(window, tuple) and len(window) == 2 and window[0] == "kaiser":
        window, beta = "kaiser", float(window[1])
    elif not isinstance(window, str) or window == "kaiser":
        unsupported("signal.firwin", "window", window, "a window's name, or ('kaiser', beta)")
    key = bool(pass_zero) if isinstance(pass_zero, (bool, np.bool_)) else pass_zero
    if key not in _PASS_ZERO:
        raise ValueError(f"pass_zero must be True, False, 'bandpass', 'lowpass', 'highpass', or 'bandstop', "
                         f"got {pass_zero}")
    cutoffs = [float(c) for c in np.atleast_1d(np.asarray(cutoff, dtype=np.float64))]
    return _siglab.firwin_taps(int(numtaps), cutoffs, window, beta, _PASS_ZERO[key], 0.0 if fs is None else float(fs))


def _points(function, worN, whole):
    require_default(f"signal.{function}", "whole", whole, False)
    if isinstance(worN, (bool, np.bool_)) or not isinstance(worN, (int, np.integer)):
        unsupported(f"signal.{function}", "worN", worN, "a number of frequencies (an int)")
    return int(worN)


def freqz(b, a=1, worN=512, whole=False, plot=None, fs=2 * math.pi, include_nyquist=False):
    """Compute the frequency response of a digital filter (scipy.signal.freqz): core's response.

    Parameters
    ----------
    b, a : array_like
        The numerator and denominator coefficients.
    worN : int, optional
        The frequencies, from 0 up to (not including) Nyquist; an array of them is NotImplementedError.
    whole, plot, include_nyquist :
        Only SciPy's defaults (False, None, False).
    fs : float, optional
        The sample rate (default 2 pi: w in radians per sample).

    Returns
    -------
    w : ndarray
        The frequencies, in the units of fs.
    h : ndarray
        The complex response.
    """
    points = _points("freqz", worN, whole)
    require_default("signal.freqz", "plot", plot, None)
    require_default("signal.freqz", "include_nyquist", include_nyquist, False)
    w, h = _siglab.fir_response(coefficients("b", b), points, float(fs))
    a_values = coefficients("a", a)
    if a_values.size != 1 or a_values[0] != 1.0:
        h = h / _siglab.fir_response(a_values, points, float(fs))[1]
    return w, h


def sosfreqz(sos, worN=512, whole=False, fs=2 * math.pi):
    """Compute the frequency response of a filter in SOS format (scipy.signal.sosfreqz): core's response.

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)
        Second-order sections.
    worN : int, optional
        The frequencies, from 0 up to (not including) Nyquist.
    whole : False
        Only SciPy's default.
    fs : float, optional
        The sample rate (default 2 pi).

    Returns
    -------
    w : ndarray
        The frequencies, in the units of fs.
    h : ndarray
        The complex response.
    """
    points = _points("sosfreqz", worN, whole)
    return _siglab.sos_response(_sections(sos), points, float(fs))
