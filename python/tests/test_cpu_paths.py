"""The CPU paths issue 28's targets went through: find_peaks on long signals (scanned and measured on
every core, its index columns converted where core wrote them), uniform_filter1d's and lfilter's
default engines; each against SciPy at awkward sizes, on signals with ties and plateaus."""
import numpy as np
import pytest
import scipy.ndimage
import scipy.signal

from siglab import ndimage, signal


def _signals(rng, n):
    noise = rng.standard_normal(n)
    flat = np.repeat(np.round(rng.standard_normal(n // 50 + 1) * 2), 50)[:n]  # plateaus crossing any cut
    return {"noise": noise, "ties": np.round(noise * 3) / 10, "plateaus": flat}


@pytest.mark.parametrize("conditions", [{"prominence": 1.0, "wlen": 101}, {"prominence": 0.5, "wlen": 7},
                                        {"width": 2.0, "wlen": 31}, {"height": 0.5, "distance": 4}])
def test_find_peaks_on_a_long_signal_is_scipys(rng, conditions):
    for name, x in _signals(rng, (1 << 20) + 7).items():
        if "distance" in conditions and name != "noise":
            continue  # SciPy orders equal peaks by NumPy's unstable argsort there
        peaks, properties = signal.find_peaks(x, **conditions)
        expected_peaks, expected = scipy.signal.find_peaks(x, **conditions)
        assert np.array_equal(peaks, expected_peaks), name
        assert sorted(properties) == sorted(expected)
        for key, values in expected.items():
            assert properties[key].dtype == values.dtype, key
            np.testing.assert_array_equal(properties[key], values, err_msg=f"{name}: {key}")


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 50, 101, 102])
def test_find_peaks_shorter_than_the_window_is_scipys(rng, n):
    for name, x in _signals(rng, n).items():
        peaks, properties = signal.find_peaks(x, prominence=0.1, wlen=101)
        expected_peaks, expected = scipy.signal.find_peaks(x, prominence=0.1, wlen=101)
        assert np.array_equal(peaks, expected_peaks) and peaks.dtype == expected_peaks.dtype, name
        for key, values in expected.items():
            assert properties[key].dtype == values.dtype, key
            np.testing.assert_array_equal(properties[key], values, err_msg=f"{name}: {key}")


def test_find_peaks_indices_are_cores_columns_converted_where_they_lie(rng):
    # A copy of each index column (peaks, left and right bases) was a new array's page faults.
    peaks, properties = signal.find_peaks(rng.standard_normal(100_000), prominence=1.0, wlen=101)
    for values in (peaks, properties["left_bases"], properties["right_bases"]):
        assert values.dtype == np.intp and not values.flags.owndata and values.base is not None


@pytest.mark.parametrize("mode", ["reflect", "nearest", "mirror", "wrap", "constant"])
def test_uniform_filter1d_is_scipys_and_the_serial_engines_bits_at_awkward_sizes(rng, mode):
    for n in (0, 1, 2, 25, 50, 51, 52, 101, 4099, (1 << 18) + 3):
        x = rng.uniform(-10, 10, n)
        got = ndimage.uniform_filter1d(x, 51, mode=mode)
        expected = scipy.ndimage.uniform_filter1d(x, 51, mode=mode)
        scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-9 * scale)
        assert np.array_equal(got, ndimage.uniform_filter1d(x, 51, mode=mode, engine="cpu-serial")), n
