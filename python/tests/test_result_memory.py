"""siglab.filter's new result arrays: from one large page (2 MiB) up they are SigLab's own
2 MiB-aligned memory, owned by the array's base; they must behave as NumPy's own arrays do."""
import gc

import numpy as np
import pytest
import scipy.ndimage
import scipy.signal

import siglab

LARGE_PAGE = 2 << 20


def sizes_around_a_large_page(dtype):
    page = LARGE_PAGE // np.dtype(dtype).itemsize
    return [page - 1, page, page + 1, 3 * page + 7]


def rss_bytes():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS in /proc/self/status")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_new_result_is_correct_writable_contiguous_and_large_ones_are_aligned_and_owned_by_their_base(rng, dtype):
    for n in sizes_around_a_large_page(dtype):
        x = rng.uniform(0.5, 1.5, n).astype(dtype)
        reference = np.full(n, np.nan, dtype=dtype)
        siglab.filter(x, window=5, mode="reflect", engine="cpu-serial", out=reference)
        for engine in ("cpu-serial", "cpu-parallel"):
            y = siglab.filter(x, window=5, mode="reflect", engine=engine)
            assert y.dtype == dtype and y.shape == (n,), (engine, n)
            assert y.flags.c_contiguous and y.flags.writeable and y.flags.aligned
            assert np.array_equal(y, reference), (engine, n)
            if n * np.dtype(dtype).itemsize >= LARGE_PAGE:
                assert not y.flags.owndata and y.base is not None  # the base (a capsule) frees it
                assert y.ctypes.data % LARGE_PAGE == 0
            else:
                assert y.flags.owndata  # NumPy's own allocation below one large page
        np.testing.assert_allclose(y, scipy.ndimage.uniform_filter1d(x, 5, mode="reflect"),
                                   rtol=1e-5 if dtype == np.float32 else 1e-12)


def test_a_result_outlives_its_input_and_a_view_keeps_it_alive(rng):
    n = 3 * LARGE_PAGE // 8 + 5
    x = rng.uniform(0.5, 1.5, n)
    expected = scipy.ndimage.uniform_filter1d(x, 7, mode="nearest")
    y = siglab.filter(x, window=7, mode="nearest")
    tail = y[-1000:]
    del x, y
    gc.collect()
    others = [siglab.filter(rng.uniform(0.5, 1.5, n), window=7) for _ in range(3)]  # memory that may reuse y's
    np.testing.assert_allclose(tail, expected[-1000:], rtol=1e-12)
    assert tail.base is not None
    del others


def test_a_new_result_can_be_written_reused_as_out_and_filtered_again(rng):
    n = LARGE_PAGE // 8 + 3
    x = rng.uniform(0.5, 1.5, n)
    y = siglab.filter(x, window=3)
    y[:] = 2.0
    assert y.sum() == 2.0 * n
    again = siglab.filter(x, window=3, out=y)  # out= takes SigLab's memory as any other array
    assert again is y or np.shares_memory(again, y)
    assert np.array_equal(y, siglab.filter(x, window=3, engine="cpu-serial"))
    z = siglab.filter(y, window=3, mode="wrap")  # and a result is an input as any other
    np.testing.assert_allclose(z, scipy.ndimage.uniform_filter1d(y, 3, mode="wrap"), rtol=1e-12)


def test_out_writes_into_the_callers_array_without_a_new_one(rng):
    n = 2 * LARGE_PAGE // 8 + 1
    x = rng.uniform(0.5, 1.5, n)
    out = np.full(n, np.nan)
    result = siglab.filter(x, window=5, out=out)
    assert result is out or (np.shares_memory(result, out) and result.ctypes.data == out.ctypes.data)
    assert np.array_equal(out, siglab.filter(x, window=5, engine="cpu-serial"))


def test_dropped_results_give_their_memory_back(rng):
    x = rng.uniform(0.5, 1.5, 4 * LARGE_PAGE // 8)  # 8 MiB results
    siglab.filter(x)
    before = rss_bytes()
    for _ in range(64):  # 512 MiB in all if none were given back
        siglab.filter(x)
    assert rss_bytes() - before < 64 << 20


def test_dropped_results_are_kept_for_the_next_of_their_size_until_release_memory(rng):
    x = rng.uniform(0.5, 1.5, 8 * LARGE_PAGE // 8)  # 16 MiB results
    siglab.release_memory()
    held = [siglab.filter(x) for _ in range(6)]  # 96 MiB, every page written
    addresses = {a.ctypes.data for a in held}
    del held
    gc.collect()
    kept = rss_bytes()
    again = siglab.filter(x)
    assert again.ctypes.data in addresses  # a kept block serves the next result of its size
    del again
    siglab.release_memory()
    assert kept - rss_bytes() > 64 << 20  # the kept blocks' pages went back to the kernel


def test_time_engine_times_reused_new_and_vector_results(rng):
    x = rng.uniform(0.5, 1.5, 1000)
    out = np.full(x.size, np.nan)
    for result in ("reuse", "new", "vector"):
        timing = siglab._siglab.time_engine(x, out, 5, "zero", "cpu-parallel", 0, 2, result)
        assert 0 <= timing["min_ms"] <= timing["median_ms"] <= timing["max_ms"]
    assert np.array_equal(out, siglab.filter(x, window=5, engine="cpu-serial"))
    with pytest.raises(ValueError, match="result must be reuse, new or vector"):
        siglab._siglab.time_engine(x, out, 5, "zero", "cpu-parallel", 0, 2, "cached")
    with pytest.raises(ValueError, match="out must be writeable and of x's size"):
        siglab._siglab.time_engine(x, None, 5, "zero", "cpu-parallel", 0, 2, "reuse")


def test_analysis_results_come_from_cores_memory_sink_not_a_file(rng, monkeypatch):
    # spectrogram, stft, find_peaks and hilbert are handed their matrix or table by core in memory:
    # no temporary folder or file is made (a system without one runs them alike).
    import tempfile

    def no_temporaries(*args, **kwargs):
        raise AssertionError("an analysis went through a temporary file")
    monkeypatch.setattr(tempfile, "TemporaryDirectory", no_temporaries)
    monkeypatch.setattr(tempfile, "mkstemp", no_temporaries)
    x = rng.standard_normal(5000)
    f, t, s = siglab.signal.spectrogram(x, nperseg=128)
    assert s.shape == (f.size, t.size) and s.flags.writeable and s.base is not None
    assert siglab.signal.stft(x, nperseg=64)[2].dtype == np.complex128
    peaks, properties = siglab.signal.find_peaks(x, prominence=1.0, wlen=31)
    assert peaks.size > 0 and properties["prominences"].shape == peaks.shape
    assert siglab.signal.hilbert(x).shape == x.shape


@pytest.mark.parametrize("function", ["stft", "spectrogram"])
def test_a_complex_matrix_is_cores_own_result_not_a_copy(rng, function):
    """stft and a complex spectrogram come back in NumPy's complex128 layout as core wrote them
    (its 2 MiB-aligned result, handed over), not assembled again from two planes."""
    x = rng.standard_normal(1 << 18)
    options = {"nperseg": 256} if function == "stft" else {"nperseg": 256, "mode": "complex"}
    z = getattr(siglab.signal, function)(x, **options)[2]
    np.testing.assert_allclose(z, getattr(scipy.signal, function)(x, **options)[2], rtol=1e-9, atol=1e-12)
    assert z.dtype == np.complex128 and z.nbytes >= LARGE_PAGE
    root = z
    while isinstance(root.base, np.ndarray):
        root = root.base
    assert not root.flags.owndata and root.ctypes.data % LARGE_PAGE == 0


def test_find_peaks_properties_are_cores_table_columns_handed_over_without_a_copy(rng):
    x = rng.standard_normal(200_000)
    peaks, properties = siglab.signal.find_peaks(x, prominence=1.0, wlen=101)
    prominences = properties["prominences"]
    assert not prominences.flags.owndata and prominences.base is not None  # core's column, its capsule frees it
    expected_peaks, expected = scipy.signal.find_peaks(x, prominence=1.0, wlen=101)
    assert np.array_equal(peaks, expected_peaks) and peaks.dtype == expected_peaks.dtype
    for key, values in expected.items():
        assert properties[key].dtype == values.dtype
        np.testing.assert_allclose(properties[key], values, rtol=1e-12)
