"""siglab.read and siglab.write: every signal file format SigLab registers (siglab.formats()),
read with its channels, rate and channel names, and written atomically after the checks
siglab-cli makes of an output (an old file stays whole until the new one is complete; an output
that is one of the inputs is refused before anything is written)."""
import os

import numpy as np

from . import _siglab

__all__ = ["read", "write", "formats"]


def formats():
    """The names of every signal file format, as read()'s and write()'s format= takes them."""
    return _siglab.signal_formats()


def read(path, **options):
    """Reads a signal file: (samples, rate, names).

    Parameters
    ----------
    path : str or os.PathLike
        The file; its format comes from its bytes (or format=).
    **options
        The reader's options, as siglab-cli's: format (a name from formats()), column, columns,
        skip_header, decimal, raw (the sample type of a raw file: "f64", "f32", "i16", ...),
        offset, raw_channels, channel (1-based: that channel only), allow_nonfinite, rate (Hz,
        for files that do not state it), dataset (HDF5/MAT), time_column, resample_to,
        edf_signals, rate_attribute. Any other keyword is a TypeError naming it.

    Returns
    -------
    samples : ndarray
        float64: 1-D for one channel, else channels x samples.
    rate : float or None
        The sample rate in Hz, where the file or rate= gives it.
    names : list of str
        The channels' names where the file has them (EDF labels, a CSV header), else empty.

    Examples
    --------
    >>> import numpy as np, siglab, tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> siglab.write(os.path.join(folder, "two.wav"), np.array([[0.5, -0.25], [0.125, 0.0]]), rate=8000)
    >>> samples, rate, names = siglab.read(os.path.join(folder, "two.wav"))
    >>> samples.shape, rate
    ((2, 2), 8000.0)
    """
    return tuple(_siglab.read_file(os.fspath(path), options))


def write(path, array, rate=None, format=None, *, inputs=(), **options):
    """Writes samples to a signal file, atomically, as siglab-cli writes its outputs.

    Parameters
    ----------
    path : str or os.PathLike
        The file; its format by its extension (or format=).
    array : array_like
        1-D (one channel), or channels x samples.
    rate : float, optional
        The sample rate in Hz (default: array.rate for a siglab.Signal; formats that store a rate
        otherwise get 48000).
    format : str, optional
        A name from formats().
    inputs : sequence of paths, keyword-only
        Files the output must not be (the same path, a hard link or a symlink): refused first.
    **options
        bits (WAV 32/64, FLAC 16/24), raw (the sample type of a raw file: "f64" or "f32"), text
        ("shortest", the default: every value reads back to itself; "seed": printf's %2.16f),
        dataset and rate_attribute (HDF5/MAT). Any other keyword is a TypeError naming it.
    """
    samples = np.asarray(array)
    if samples.dtype.kind not in "biuf":
        raise ValueError(f"siglab.write: the samples must be real numbers, not {samples.dtype}")
    if samples.ndim == 1:
        samples = samples[np.newaxis]
    elif samples.ndim != 2:
        raise ValueError(f"siglab.write: the samples must be 1-D or channels x samples, not of shape {samples.shape}")
    if rate is None:
        rate = getattr(array, "rate", None)
    given = {**options, "rate": rate}
    if format is not None:
        given["format"] = format
    _siglab.write_file(os.fspath(path), np.ascontiguousarray(samples, dtype=np.float64), given,
                       [os.fspath(p) for p in inputs])
