"""scipy.signal's hilbert, correlate and istft (SciPy 1.10's signatures) through core: hilbert and
correlate as stages of a siglab.Pipeline, istft as core's inverse of the stft stage."""
import numpy as np

from . import _siglab
from ._scipy_calls import coefficient_files, coefficients, float_input, run_analysis, run_stage, unsupported

_SEGMENT_WINDOWS = ("tukey", "hann", "hamming", "blackman", "boxcar")


def hilbert(x, N=None, axis=-1, *, engine="auto", devices=None):
    """Compute the analytic signal, using the Hilbert transform (scipy.signal.hilbert).

    Parameters
    ----------
    x : array_like
        The real signal (float64 or float32; integers are read as float64).
    N : int, optional
        The transform's length: x cut or padded with zeros to N samples along axis
        (default: x.shape[axis]).
    axis : int, optional
        The axis transformed; every other axis is a channel.
    engine : {"auto", "cpu-parallel", "cpu-serial"}, keyword-only
        The hilbert stage's engine.
    devices : keyword-only
        As sosfilt's.

    Returns
    -------
    xa : ndarray
        The analytic signal, complex (complex64 for float32 x), of N samples along axis.

    Examples
    --------
    >>> import numpy as np
    >>> from siglab import signal
    >>> xa = signal.hilbert(np.cos(2 * np.pi * np.arange(64) / 16))
    >>> bool(np.allclose(np.abs(xa), 1.0))
    True
    """
    array = np.asarray(x)
    if np.iscomplexobj(array):
        raise ValueError("x must be real.")
    x = float_input("signal.hilbert", array)
    if x.ndim == 0:
        raise ValueError("siglab.signal.hilbert: x must have at least one dimension")
    n = x.shape[axis] if N is None else int(N)
    if n <= 0:
        raise ValueError("N must be positive.")
    moved = np.moveaxis(x, axis, -1)
    if n != moved.shape[-1]:  # fft(x, N): x cut to N samples, or zeros after it
        padded = np.zeros((*moved.shape[:-1], n), dtype=x.dtype)
        keep = min(n, moved.shape[-1])
        padded[..., :keep] = moved[..., :keep]
        moved = padded
    dtype = np.complex64 if x.dtype == np.float32 else np.complex128
    result = []

    def take(channel, channels, planes):  # samples x (re, im): complex128's own layout
        analytic = planes.view(np.complex128).reshape(-1)
        if channels == 1 and dtype == np.complex128:
            result.append(analytic[np.newaxis])
            return
        if not result:
            result.append(np.empty((channels, analytic.shape[0]), dtype=dtype))
        result[0][channel] = analytic

    _, leading = run_analysis("signal.hilbert", moved, "hilbert", {}, axis=-1, rate=None, take=take, engine=engine,
                              devices=devices)
    return np.moveaxis(result[0].reshape(*leading, n), -1, axis)


def correlate(in1, in2, mode='full', method='auto', *, engine="auto", devices=None):
    """Cross-correlate two 1-D signals (scipy.signal.correlate): the correlate stage, the matched
    filter of in2 slid along in1.

    Parameters
    ----------
    in1 : array_like, 1-D
        The signal (float64 or float32; integers are read as float64 unless both are integers).
    in2 : array_like, 1-D
        The template.
    mode : {'full', 'valid', 'same'}, optional
        full: every overlap (N + M - 1); valid: |N - M| + 1; same: N, centred as SciPy's.
    method : {'auto', 'direct', 'fft'}, optional
        'direct' sums every output; 'fft' transforms both with FFTW, within
        16 eps (log2 L + 1) ||in1|| ||in2|| of the direct sums; 'auto' takes the FFT where SciPy's
        choose_conv_method would.
    engine : keyword-only
        "auto" or an engine's name (cpu-serial and cpu-parallel give the same bits).
    devices : keyword-only
        As sosfilt's.

    Returns
    -------
    correlate : ndarray
        The correlation, in NumPy's result type of in1 and in2 (float32 for two float32 inputs).

    Examples
    --------
    >>> from siglab import signal
    >>> signal.correlate([1.0, 2.0, 3.0], [0.0, 1.0, 0.5])
    array([0.5, 2. , 3.5, 3. , 0. ])
    """
    if mode not in ("full", "valid", "same"):
        raise ValueError("Acceptable mode flags are 'valid', 'same', or 'full'.")
    if method not in ("auto", "direct", "fft"):
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")
    first, template = np.asarray(in1), np.asarray(in2)
    if first.ndim != template.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if first.ndim != 1:
        unsupported("signal.correlate", "inputs of dimension", first.ndim, "SigLab correlates 1-D signals")
    if first.dtype.kind in "biu" and template.dtype.kind in "biu":
        unsupported("signal.correlate", "input of dtype", str(np.result_type(first, template)),
                    "SciPy returns integers here; SigLab correlates floats (pass in1.astype(float))")
    x = float_input("signal.correlate", first)
    if template.dtype.kind == "c":
        unsupported("signal.correlate", "in2 of dtype", str(template.dtype), "SigLab correlates real signals")
    if x.size == 0 or template.size == 0:
        raise ValueError("siglab.signal.correlate: in1 and in2 must hold at least one value each")
    dtype = np.dtype(np.float32) if np.result_type(x, template) == np.float32 else np.dtype(np.float64)
    with coefficient_files(in2=coefficients("in2", template)) as files:
        return run_stage("signal.correlate", x, "correlate", {"file": files["in2"], "mode": mode, "method": method},
                         axis=-1, dtype=dtype, engine=engine, devices=devices)


def _istft_window(window):
    if isinstance(window, tuple) and len(window) == 2 and window[0] == "tukey":
        return "tukey", float(window[1])
    if isinstance(window, str) and window in _SEGMENT_WINDOWS:
        return window, 0.5
    unsupported("signal.istft", "window", window, f"one of {', '.join(_SEGMENT_WINDOWS)} or ('tukey', alpha)")


def istft(Zxx, fs=1.0, window='hann', nperseg=None, noverlap=None, nfft=None, input_onesided=True, boundary=True,
          time_axis=-1, freq_axis=-2, scaling='spectrum'):
    """Perform the inverse Short Time Fourier transform (scipy.signal.istft): core's inverse of
    the stft stage, which refuses (ValueError) where SciPy only warns that NOLA fails.

    Parameters
    ----------
    Zxx : array_like
        The STFT, at least 2-D (complex64 gives float32 samples).
    fs : float, optional
        The sample rate.
    window : str or ('tukey', alpha), optional
        tukey, hann, hamming, blackman or boxcar, as stft's; arrays are NotImplementedError.
    nperseg, noverlap, nfft : int, optional
        As stft's (nperseg: 2 (frequencies - 1); noverlap: nperseg // 2; nfft: nperseg).
    input_onesided : True
        Only one-sided input (NotImplementedError otherwise).
    boundary : bool, optional
        Whether stft's boundary zeros are removed.
    time_axis, freq_axis : int, optional
        Where the frames and the frequencies lie in Zxx.
    scaling : {'spectrum', 'psd'}, optional
        As stft's.

    Returns
    -------
    t : ndarray
        The samples' times.
    x : ndarray
        The signal, its samples where time_axis was.

    Examples
    --------
    >>> import numpy as np
    >>> from siglab import signal
    >>> x = np.sin(np.arange(1000) / 10)
    >>> f, t, Z = signal.stft(x, nperseg=64)
    >>> t, y = signal.istft(Z, nperseg=64)
    >>> bool(np.allclose(y[:1000], x))
    True
    """
    if input_onesided is not True:
        unsupported("signal.istft", "input_onesided", input_onesided, "only SciPy's default True")
    if scaling not in ("spectrum", "psd"):
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    if fs is None or np.ndim(fs) != 0:
        unsupported("signal.istft", "fs", fs, "a sample rate in Hz")
    Z = np.asarray(Zxx)
    if Z.ndim < 2:
        raise ValueError('Input stft must be at least 2d!')
    freq_axis, time_axis = int(freq_axis) % Z.ndim, int(time_axis) % Z.ndim
    if freq_axis == time_axis:
        raise ValueError('Must specify differing time and frequency axes!')
    name, alpha = _istft_window(window)
    dtype = np.float32 if Z.dtype in (np.complex64, np.float32) else np.float64
    spectra = np.moveaxis(Z, (freq_axis, time_axis), (-1, -2))  # (..., frames, frequencies)
    leading = spectra.shape[:-2]
    rows = spectra.reshape(-1, *spectra.shape[-2:])
    signals = []
    for row in rows:
        planes = np.empty((row.shape[0], 2, row.shape[1]))
        planes[:, 0, :] = row.real
        planes[:, 1, :] = row.imag if np.iscomplexobj(row) else 0.0
        signals.append(_siglab.istft(planes, name, alpha, None if nperseg is None else int(nperseg),
                                     None if noverlap is None else int(noverlap), None if nfft is None else int(nfft),
                                     bool(boundary), scaling == "psd", float(fs)))
    length = signals[0].shape[0] if signals else 0
    x = np.empty((len(signals), length), dtype=dtype)
    for k, samples in enumerate(signals):
        x[k] = samples
    x = x.reshape(*leading, length)
    if x.ndim > 1 and time_axis != Z.ndim - 1:  # SciPy puts the samples where the frames were
        x = np.moveaxis(x, -1, time_axis - 1 if freq_axis < time_axis else time_axis)
    return np.arange(length) / float(fs), x
