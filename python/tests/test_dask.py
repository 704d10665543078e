"""siglab.dask: the chunked filter against siglab.filter on the whole signal, bit for bit; raw
outputs that appear only once complete and never over an input."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

import siglab  # noqa: E402
import siglab.dask  # noqa: E402
from siglab.raw_files import Interrupted, RawFileTarget, read_raw, stop_on_signals  # noqa: E402

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


@pytest.mark.parametrize("chain", ["median 5; mean 3 mode reflect; savgol 7,2", "median 5 mode wrap; gaussian 1.5 mode wrap",
                                   "mean 1; median 3 mode nearest"])
def test_a_chunked_pipeline_has_the_bits_of_run_on_1d_and_n_by_c(rng, chain):
    pipeline = siglab.Pipeline(chain)
    x = rng.uniform(-100, 100, (1001, 2))
    expected = pipeline.run(x)
    with dask.config.set(scheduler="synchronous"):
        for chunks in (5, 100, 1001):
            assert same_bits(siglab.dask.run(pipeline, da.from_array(x, chunks=(chunks, 1))).compute(), expected), chunks
            one = np.ascontiguousarray(x[:, 1])
            assert same_bits(siglab.dask.run(chain, da.from_array(one, chunks=chunks)).compute(), pipeline.run(one))
        for n in (7, 13):  # no longer than the chain's reach: in one task
            assert same_bits(siglab.dask.run(pipeline, da.from_array(x[:n], chunks=(3, 2))).compute(), pipeline.run(x[:n]))


def test_a_pipeline_that_reads_the_whole_signal_runs_on_one_chunk_only(rng):
    x = rng.uniform(-1, 1, 300)
    with dask.config.set(scheduler="synchronous"):
        pipeline = siglab.Pipeline("median 5; detrend")
        assert same_bits(siglab.dask.run(pipeline, da.from_array(x, chunks=300)).compute(), pipeline.run(x))
        with pytest.raises(ValueError, match=r"stage 2 \(detrend\) depends on the whole signal.*one chunk"):
            siglab.dask.run(pipeline, da.from_array(x, chunks=100))
        with pytest.raises(ValueError, match=r"stage 1 \(median\) wraps around the signal's ends and stage 2"):
            siglab.dask.run("median 5 mode wrap; mean 3", da.from_array(x, chunks=100))


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
        with RawFileTarget(tmp_path / "dask.raw", "<f8", x.shape[0], inputs=[source]) as target:
            da.store(siglab.dask.filter(x, window=7, mode="mirror"), target, lock=False)
    assert (tmp_path / "dask.raw").read_bytes() == (tmp_path / "cli.raw").read_bytes()


def block_doing(action, at=5):
    """A map_blocks function that does `action` at block `at` and passes the blocks through."""
    def block(values, block_info=None):
        if block_info[0]["chunk-location"] == (at,):
            action()
        return values
    return block


# Issue 24: scripts/dask-filter.py in.f64 in.f64 left in.f64 all zeros.
def test_an_output_that_is_an_input_is_refused(tmp_path):
    source = tmp_path / "in.f64"
    np.arange(100.0).tofile(source)
    (tmp_path / "link.f64").symlink_to("in.f64")
    os.link(source, tmp_path / "hard.f64")
    for name in ("in.f64", "link.f64", "hard.f64"):
        with pytest.raises(ValueError, match="is the input"):
            RawFileTarget(tmp_path / name, "<f8", 100, inputs=[source]).create()
    assert source.read_bytes() == np.arange(100.0).tobytes()
    assert sorted(os.listdir(tmp_path)) == ["hard.f64", "in.f64", "link.f64"]


def test_the_script_refuses_to_write_over_its_input(tmp_path):
    source = tmp_path / "in.f64"
    np.arange(100.0).tofile(source)
    script = Path(__file__).resolve().parents[2] / "scripts" / "dask-filter.py"
    result = subprocess.run([sys.executable, script, source, source], capture_output=True, text=True, check=False)
    assert result.returncode == 2, result.stderr
    assert "is the input" in result.stderr
    assert source.read_bytes() == np.arange(100.0).tobytes()
    assert os.listdir(tmp_path) == ["in.f64"]


def fail_at_block_5():
    raise RuntimeError("block 5")


def test_the_old_file_stays_until_every_block_is_written(tmp_path):
    output = tmp_path / "out.f64"
    output.write_bytes(b"old")
    x = da.from_array(np.arange(1000.0), chunks=100)
    with dask.config.set(scheduler="synchronous"):
        with pytest.raises(RuntimeError, match="block 5"):
            with RawFileTarget(output, "<f8", 1000) as target:
                da.store(x.map_blocks(block_doing(fail_at_block_5), dtype=x.dtype), target, lock=False)
        assert output.read_bytes() == b"old"
        assert os.listdir(tmp_path) == ["out.f64"], "the temporary is removed"
        with RawFileTarget(output, "<f8", 1000) as target:
            da.store(x, target, lock=False)
            assert output.read_bytes() == b"old", "not before commit"
    assert output.read_bytes() == np.arange(1000.0).tobytes()
    assert os.listdir(tmp_path) == ["out.f64"]


def test_a_signal_part_way_leaves_the_old_file(tmp_path):
    output = tmp_path / "out.f64"
    output.write_bytes(b"old")
    x = da.from_array(np.arange(1000.0), chunks=100)
    handler = signal.getsignal(signal.SIGTERM)
    with dask.config.set(scheduler="synchronous"), pytest.raises(Interrupted) as raised:
        with stop_on_signals(), RawFileTarget(output, "<f8", 1000) as target:
            da.store(x.map_blocks(block_doing(lambda: os.kill(os.getpid(), signal.SIGTERM)), dtype=x.dtype), target,
                     lock=False)
    assert raised.value.exit_code == 143
    assert output.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["out.f64"], "the temporary is removed"
    assert signal.getsignal(signal.SIGTERM) is handler


def test_run_file_has_the_bits_of_the_in_memory_run_and_writes_atomically(tmp_path, rng):
    source, output = tmp_path / "in.f64", tmp_path / "out.raw"
    x = rng.uniform(-1, 1, 100_003)
    x.astype("<f8").tofile(source)
    pipeline = siglab.Pipeline("median 5; mean 3; gaussian 1.5")
    output.write_bytes(b"old")
    with dask.config.set(scheduler="threads"):
        assert siglab.dask.run_file(pipeline, source, output, chunk_samples=7_001) == x.size
    assert same_bits(np.fromfile(output, "<f8"), pipeline.run(x, engine="cpu-parallel"))
    assert sorted(os.listdir(tmp_path)) == ["in.f64", "out.raw"]
    with dask.config.set(scheduler="synchronous"):
        assert siglab.dask.run_file(pipeline, source, output, chunk_samples=7_001, out_dtype=np.float32) == x.size
        assert same_bits(np.fromfile(output, "<f4"), pipeline.run(x, engine="cpu-parallel", dtype=np.float32))
        with pytest.raises(ValueError, match="is the input"):
            siglab.dask.run_file(pipeline, source, source)
        with pytest.raises(ValueError, match="detrend"):  # a stage of the whole signal: refused before any output
            siglab.dask.run_file(siglab.Pipeline("detrend"), source, output, chunk_samples=7_001)
    assert sorted(os.listdir(tmp_path)) == ["in.f64", "out.raw"]
    assert np.fromfile(source, "<f8").tobytes() == x.tobytes()


@pytest.mark.parametrize("stages", [[("resample-poly", {"up": 3, "down": 2})], [("resample-poly", {"up": 2, "down": 5})],
                                    [("decimate", {"q": 4, "ftype": "fir"})],
                                    [("median", {"window": 5}), ("decimate", {"q": 3, "ftype": "fir"}),
                                     ("resample-poly", {"up": 3, "down": 2}), ("mean", {"window": 3})],
                                    "upfirdn"])
def test_a_rate_changing_pipeline_runs_in_blocks_with_the_bits_of_run(rng, tmp_path, stages):
    if stages == "upfirdn":
        taps = tmp_path / "taps.txt"
        taps.write_text("".join(f"{v!r}\n" for v in rng.uniform(-1, 1, 24)))
        stages = [("upfirdn", {"file": str(taps), "up": 2, "down": 3})]
    pipeline = siglab.Pipeline(stages)
    x = rng.uniform(-100, 100, (1003, 2))
    expected = pipeline.run(x)
    with dask.config.set(scheduler="synchronous"):
        for chunks in (7, 100, 1003):  # awkward sizes: none a multiple of the period
            y = siglab.dask.run(pipeline, da.from_array(x, chunks=(chunks, 1)))
            assert y.shape == expected.shape
            assert same_bits(y.compute(), expected), chunks
        one = np.ascontiguousarray(x[:, 0])
        assert same_bits(siglab.dask.run(pipeline, da.from_array(one, chunks=33)).compute(), pipeline.run(one))


def test_a_rate_change_that_reads_the_whole_signal_runs_on_one_chunk_only(rng):
    x = rng.uniform(-1, 1, 300)
    pipeline = siglab.Pipeline("decimate 4")  # the IIR filter, zero phase
    with dask.config.set(scheduler="synchronous"):
        assert same_bits(siglab.dask.run(pipeline, da.from_array(x, chunks=300)).compute(), pipeline.run(x))
        with pytest.raises(ValueError, match=r"stage 1 \(decimate\) depends on the whole signal.*one chunk"):
            siglab.dask.run(pipeline, da.from_array(x, chunks=100))
