"""siglab.dask: the chunked filter against siglab.filter on the whole signal, bit for bit."""
import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

import siglab  # noqa: E402
import siglab.dask  # noqa: E402
from siglab.raw_files import RawFileTarget, read_raw  # noqa: E402

MODES = ["zero", "reflect", "mirror", "nearest", "wrap"]


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


@pytest.mark.parametrize("mode", MODES)
def test_chunked_filter_has_the_bits_of_the_whole_filter(rng, mode):
    x = rng.uniform(-100, 100, 1001)
    taps = rng.uniform(-1, 1, 9)
    expected = siglab.filter(x, taps=taps, mode=mode, engine="cpu-serial")
    with dask.config.set(scheduler="synchronous"):
        for chunks in (7, 100, 333, 1001):
            result = siglab.dask.filter(da.from_array(x, chunks=chunks), taps=taps, mode=mode).compute()
            assert same_bits(result, expected), (mode, chunks)
        for n in (0, 1, 3, 9, 10):  # shorter than or as long as a window: filtered in one task
            short = x[:n]
            result = siglab.dask.filter(da.from_array(short, chunks=2), taps=taps, mode=mode).compute()
            assert same_bits(result, siglab.filter(short, taps=taps, mode=mode)), (mode, n)


def test_mean_gaussian_one_tap_and_float32(rng):
    x = rng.uniform(-1, 1, 500).astype(np.float32)
    with dask.config.set(scheduler="synchronous"):
        for kwargs in ({"window": 1}, {"window": 5, "mode": "reflect"}, {"gaussian": 3.0, "mode": "wrap"}):
            result = siglab.dask.filter(da.from_array(x, chunks=64), **kwargs).compute()
            assert same_bits(result, siglab.filter(x, **kwargs)), kwargs


def test_bad_arguments_use_siglabs_messages():
    x = da.zeros(10, chunks=5)
    with pytest.raises(ValueError, match="odd"):
        siglab.dask.filter(x, window=4)
    with pytest.raises(ValueError, match="mode must be one of"):
        siglab.dask.filter(x, mode="sideways")


def test_local_cluster_filters_a_raw_file_like_siglab_cli(tmp_path, rng, cli):
    distributed = pytest.importorskip("distributed")
    source = tmp_path / "in.f64"
    rng.uniform(-1, 1, 200_003).astype("<f8").tofile(source)
    result = cli("filter", source, "--raw", "f64", "-o", tmp_path / "cli.raw", "--window", "7", "--mode", "mirror")
    assert result.returncode == 0, result.stderr
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="512MiB",
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        x = read_raw(source, chunk_samples=30_000)
        target = RawFileTarget(tmp_path / "dask.raw", "<f8", x.shape[0]).create()
        da.store(siglab.dask.filter(x, window=7, mode="mirror"), target, lock=False)
    assert (tmp_path / "dask.raw").read_bytes() == (tmp_path / "cli.raw").read_bytes()
