"""siglab.read and siglab.write: a round trip through every format core registers, channels,
rate and names, and outputs written as the CLI writes them (atomically, never over an input)."""
import os

import numpy as np
import pytest

import siglab

# Each registered format: its file name, the channels it holds, and how close a value reads back
# (0: exactly; lossy codecs and integer samples quantise).
WRITTEN = {
    "npy": ("x.npy", 3, 0.0),
    "wav": ("x.wav", 3, 0.0),
    "flac": ("x.flac", 3, 2.0 ** -14),
    "hdf5": ("x.h5", 3, 0.0),
    "mat": ("x.mat", 3, 0.0),
    "edf": ("x.edf", 3, 1e-3),  # 16-bit integers scaled to the signal's range
    "raw": ("x.raw", 1, 0.0),
    "text": ("x.txt", 1, 0.0),
}
# Formats core reads but does not write: made here with libsndfile (soundfile) to read them.
READ_ONLY = {"ogg": ("x.ogg", "OGG", "VORBIS", None), "aiff": ("x.aiff", "AIFF", "FLOAT", 0.0),
             "caf": ("x.caf", "CAF", "FLOAT", 0.0), "w64": ("x.w64", "W64", "FLOAT", 0.0),
             "au": ("x.au", "AU", "FLOAT", 0.0)}


def test_every_registered_format_is_covered():
    assert sorted(siglab.formats()) == sorted([*WRITTEN, *READ_ONLY])


def _tone(channels, n=4000):
    t = np.arange(n) / 8000.0
    return np.stack([0.5 * np.sin(2 * np.pi * (220 + 110 * c) * t) for c in range(channels)]).astype(np.float32) \
        .astype(np.float64)


def _assert_close(samples, x, tolerance):
    assert samples.shape == (x.shape if x.shape[0] > 1 else x.shape[1:]) and samples.dtype == np.float64
    if tolerance is None:  # lossy
        for got, want in zip(samples.reshape(x.shape), x):
            assert np.corrcoef(got, want)[0, 1] > 0.95
    else:
        np.testing.assert_allclose(samples.reshape(x.shape), x, rtol=0, atol=tolerance)


@pytest.mark.parametrize("name", WRITTEN)
def test_round_trip(tmp_path, name):
    file_name, channels, tolerance = WRITTEN[name]
    x = _tone(channels)
    path = tmp_path / file_name
    siglab.write(path, x if channels > 1 else x[0], rate=8000.0)
    options = {"raw": "f64", "rate": 8000.0} if name == "raw" else {"rate": 8000.0} if name in ("text", "npy", "mat") else {}
    samples, rate, names = siglab.read(path, **options)
    assert rate == 8000.0 and isinstance(names, list)
    _assert_close(samples, x, tolerance)
    assert os.listdir(tmp_path) == [file_name]  # no temporary left


@pytest.mark.parametrize("name", READ_ONLY)
def test_read_only_formats_are_read_and_refused_as_outputs(tmp_path, name):
    soundfile = pytest.importorskip("soundfile")
    file_name, container, subtype, tolerance = READ_ONLY[name]
    x = _tone(2)
    soundfile.write(tmp_path / file_name, x.T, 8000, format=container, subtype=subtype)
    samples, rate, _ = siglab.read(tmp_path / file_name)
    assert rate == 8000.0
    _assert_close(samples, x, tolerance)
    with pytest.raises(siglab.InputError, match="read, not written: name the output .npy"):
        siglab.write(tmp_path / ("new" + file_name), x)
    with pytest.raises(siglab.InputError, match="read, not written"):
        siglab.write(tmp_path / "new.npy", x, format=name)
    assert os.listdir(tmp_path) == [file_name]


def test_write_is_atomic_and_never_over_an_input(tmp_path):
    old = tmp_path / "out.npy"
    np.save(old, np.arange(3.0))
    with pytest.raises(ValueError):
        siglab.write(old, np.ones(5), inputs=[old])
    link = tmp_path / "link.npy"
    os.symlink(old, link)
    with pytest.raises(ValueError):
        siglab.write(link, np.ones(5), inputs=[old])
    with pytest.raises(siglab.InputError, match="holds one channel"):
        siglab.write(tmp_path / "out.txt", np.ones((2, 5)))
    assert np.array_equal(np.load(old), np.arange(3.0))
    assert sorted(os.listdir(tmp_path)) == ["link.npy", "out.npy"]
    siglab.write(old, np.ones(5))
    assert np.array_equal(np.load(old), np.ones(5))


def test_read_options_channels_and_refusals(tmp_path):
    csv = tmp_path / "x.csv"
    csv.write_text("left,right\n1,2\n3,4\n5,6\n")
    samples, rate, names = siglab.read(csv, skip_header=True, rate=2.0)
    assert samples.tolist() == [[1, 3, 5], [2, 4, 6]] and rate == 2.0 and names == ["left", "right"]
    one, _, _ = siglab.read(csv, skip_header=True, column=2)
    assert one.tolist() == [2, 4, 6]
    with pytest.raises(TypeError, match="unexpected keyword argument 'colum'"):
        siglab.read(csv, colum=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bitz'"):
        siglab.write(tmp_path / "y.wav", np.ones(4), bitz=16)
    with pytest.raises(ValueError, match="format must be one of"):
        siglab.read(csv, format="csv2")
    with pytest.raises(siglab.InputError, match="missing.wav"):
        siglab.read(tmp_path / "missing.wav")
    with pytest.raises(ValueError, match="1-D or channels x samples"):
        siglab.write(tmp_path / "y.npy", np.ones((2, 2, 2)))
    assert sorted(os.listdir(tmp_path)) == ["x.csv"]
