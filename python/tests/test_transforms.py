"""siglab.signal.hilbert, correlate and istft against SciPy on the same arguments: awkward sizes,
axis, dtypes, non-contiguous input, and the refusals."""
import numpy as np
import pytest
import scipy.signal

from siglab import signal


def assert_like_scipy(got, expected, rtol=1e-9):
    assert got.shape == expected.shape and got.dtype == expected.dtype, (got.shape, got.dtype, expected.shape,
                                                                         expected.dtype)
    scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * scale)


@pytest.mark.parametrize("n", [1, 2, 7, 64, 1001])
def test_hilbert_matches_scipy_at_awkward_sizes(rng, n):
    x = rng.standard_normal(n)
    assert_like_scipy(signal.hilbert(x), scipy.signal.hilbert(x), rtol=1e-12)


def test_hilbert_axis_dtypes_n_and_non_contiguous_input(rng):
    x = rng.standard_normal((3, 257))
    assert_like_scipy(signal.hilbert(x), scipy.signal.hilbert(x), rtol=1e-12)
    assert_like_scipy(signal.hilbert(x.T, axis=0), scipy.signal.hilbert(x.T, axis=0), rtol=1e-12)
    assert_like_scipy(signal.hilbert(x[:, ::2]), scipy.signal.hilbert(x[:, ::2]), rtol=1e-12)
    for n in (100, 300):  # cut and padded
        assert_like_scipy(signal.hilbert(x, N=n), scipy.signal.hilbert(x, N=n), rtol=1e-12)
    assert_like_scipy(signal.hilbert(x.astype(np.float32)), scipy.signal.hilbert(x.astype(np.float32)), rtol=1e-5)
    ints = rng.integers(-5, 5, 50)
    assert_like_scipy(signal.hilbert(ints), scipy.signal.hilbert(ints), rtol=1e-12)
    with pytest.raises(ValueError, match="x must be real"):
        signal.hilbert(x + 1j)
    with pytest.raises(ValueError, match="N must be positive"):
        signal.hilbert(x, N=0)


@pytest.mark.parametrize("n, m", [(1, 1), (5, 3), (3, 5), (100, 7), (7, 100), (1000, 64), (64, 64)])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_correlate_matches_scipy_at_awkward_sizes(rng, n, m, mode):
    x, t = rng.standard_normal(n), rng.standard_normal(m)
    assert_like_scipy(signal.correlate(x, t, mode), scipy.signal.correlate(x, t, mode), rtol=1e-12)


def test_correlate_dtypes_non_contiguous_input_and_refusals(rng):
    x, t = rng.standard_normal(301), rng.standard_normal(13)
    for method in ("auto", "direct"):
        assert_like_scipy(signal.correlate(x[::2], t, method=method), scipy.signal.correlate(x[::2], t), rtol=1e-12)
    x32, t32 = x.astype(np.float32), t.astype(np.float32)
    assert_like_scipy(signal.correlate(x32, t32, "same"), scipy.signal.correlate(x32, t32, "same"), rtol=1e-5)
    assert_like_scipy(signal.correlate(x32, t, "same"), scipy.signal.correlate(x32, t, "same"), rtol=1e-12)
    assert_like_scipy(signal.correlate(np.arange(9), t), scipy.signal.correlate(np.arange(9), t), rtol=1e-12)
    for mode in ("full", "same", "valid"):  # the FFT path, against SciPy's own FFT path
        assert_like_scipy(signal.correlate(x, t, mode, method="fft"), scipy.signal.correlate(x, t, mode, method="fft"),
                          rtol=1e-12)
    with pytest.raises(NotImplementedError, match="input of dtype"):
        signal.correlate(np.arange(9), np.arange(3))
    with pytest.raises(NotImplementedError, match="1-D"):
        signal.correlate(np.ones((2, 3)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="same dimensionality"):
        signal.correlate(x, np.ones((2, 2)))
    with pytest.raises(ValueError, match="Acceptable mode flags"):
        signal.correlate(x, t, "middle")


@pytest.mark.parametrize("n, nperseg, noverlap", [(1000, 64, None), (777, 33, 20), (50, 16, 8), (4097, 256, 200)])
def test_istft_inverts_scipys_stft_as_scipy_does(rng, n, nperseg, noverlap):
    x = rng.standard_normal(n)
    _, _, z = scipy.signal.stft(x, nperseg=nperseg, noverlap=noverlap)
    t_got, got = signal.istft(z, nperseg=nperseg, noverlap=noverlap)
    t_exp, expected = scipy.signal.istft(z, nperseg=nperseg, noverlap=noverlap)
    assert_like_scipy(got, expected, rtol=1e-10)
    np.testing.assert_allclose(t_got, t_exp)


@pytest.mark.filterwarnings("ignore:NOLA condition failed")  # SciPy's, of boundary=False's first sample (0 there)
def test_istft_axes_windows_scaling_dtypes_and_refusals(rng):
    x = rng.standard_normal((2, 600))
    _, _, z = scipy.signal.stft(x, fs=50.0, window="hamming", nperseg=50, scaling="psd")
    got = signal.istft(z, fs=50.0, window="hamming", scaling="psd")
    expected = scipy.signal.istft(z, fs=50.0, window="hamming", scaling="psd")
    assert_like_scipy(got[1], expected[1], rtol=1e-10)
    moved = np.moveaxis(z, -1, 0)  # frames first: time_axis=0, freq_axis=-1
    assert_like_scipy(signal.istft(moved, fs=50.0, window="hamming", scaling="psd", time_axis=0, freq_axis=-1)[1],
                      scipy.signal.istft(moved, fs=50.0, window="hamming", scaling="psd", time_axis=0,
                                         freq_axis=-1)[1], rtol=1e-10)
    z32 = z.astype(np.complex64)
    assert_like_scipy(signal.istft(z32[..., ::1])[1], scipy.signal.istft(z32)[1], rtol=1e-5)
    assert_like_scipy(signal.istft(z[0, :, ::2], boundary=False)[1], scipy.signal.istft(z[0, :, ::2], boundary=False)[1],
                      rtol=1e-10)
    with pytest.raises(NotImplementedError, match="input_onesided"):
        signal.istft(z, input_onesided=False)
    with pytest.raises(NotImplementedError, match="window"):
        signal.istft(z, window="kaiser")
    with pytest.raises(ValueError, match="at least 2d"):
        signal.istft(z[0, 0])
    with pytest.raises(ValueError, match="noverlap"):
        signal.istft(z, nperseg=16, noverlap=16)
