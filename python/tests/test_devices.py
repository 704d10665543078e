"""siglab.filter's and siglab.compare's devices=: the GPUs the GPU engines run on, as --devices."""
import os
import subprocess

import numpy as np
import pytest

import siglab

GPU = any(e["name"] == "gpu-global" and not e["unavailable_reason"] for e in siglab.engines())
SPLIT_ENGINES = ["gpu-global", "gpu-constant", "gpu-shared", "gpu-tuned"]  # the same bits on any device list


def gpu_count():
    """The GPUs `siglab-cli devices` lists."""
    path = os.environ.get("SIGLAB_CLI")
    if not path:
        pytest.skip("SIGLAB_CLI is not set (ctest sets it)")
    listed = subprocess.run([path, "devices"], capture_output=True, text=True, check=False).stdout
    return sum(1 for line in listed.splitlines() if line.lstrip().startswith("GPU "))


@pytest.mark.parametrize("devices", ["x", "0,", "-1", "1;2", "", [], [0, -1], [0.0], [True], 1.5, {"a": 0}])
def test_a_bad_device_list_is_a_value_error_with_siglabs_message(rng, devices):
    x = rng.uniform(-1, 1, 100)
    with pytest.raises(ValueError, match="devices") as raised:
        siglab.filter(x, 5, devices=devices)
    message = str(raised.value)
    assert "Error" not in message and "std::" not in message  # SigLab's words, no C++ exception names
    with pytest.raises(ValueError, match="devices"):
        siglab.compare(x, 5, devices=devices, repeat=1)


def test_the_list_is_read_as_the_cli_reads_it(rng):
    x = rng.uniform(-1, 1, 100)
    with pytest.raises(ValueError, match=r'must be all or GPU numbers separated by commas \(such as 0,1\), not "0,x"'):
        siglab.filter(x, 5, devices="0,x")
    with pytest.raises(ValueError, match='not "0,-1"'):
        siglab.filter(x, 5, devices=[0, -1])


@pytest.mark.parametrize("devices", [None, "all", "0", "0,0", [0, 0], (0,)])
@pytest.mark.parametrize("n", [0, 1, 2, 4, 4097])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_any_valid_list_gives_the_same_result_as_none(rng, devices, n, dtype):
    x = rng.uniform(-100, 100, n).astype(dtype)
    expected = siglab.filter(x, 5, "reflect", engine="cpu-serial")
    result = siglab.filter(x, 5, "reflect", engine="cpu-serial", devices=devices)
    assert result.dtype == dtype and result.shape == (n,)
    assert np.array_equal(result.view(np.uint8), expected.view(np.uint8))
    y, used = siglab.filter(x, 5, "reflect", devices=devices, return_engine=True)  # auto: whatever runs here
    assert y.shape == (n,) and used


def test_compare_runs_each_engine_on_the_list(rng):
    x = rng.uniform(-100, 100, 5000)
    rows, reference = siglab.compare(x, 9, "wrap", engines=("cpu-serial", "gpu-global"), repeat=1, devices="0,0")
    assert [r["engine"] for r in rows] == ["cpu-serial", "gpu-global"]
    assert rows[0]["status"] == "ok"
    if GPU:
        assert rows[1]["status"] == "ok" and rows[1]["agrees"], rows[1]
    else:
        assert rows[1]["status"] == "unavailable" and rows[1]["message"]


@pytest.mark.skipif(GPU, reason="checks the message on a machine without a GPU")
def test_a_gpu_engine_named_without_a_gpu_says_why():
    with pytest.raises(ValueError, match="engine gpu-tuned cannot run this filter here"):
        siglab.filter(np.ones(10), 3, engine="gpu-tuned", devices="0,0")


@pytest.mark.skipif(not GPU, reason="no GPU")
def test_a_device_that_does_not_exist_is_named(rng):
    count = gpu_count()
    with pytest.raises(ValueError, match=f"names GPU {count}, which does not exist"):
        siglab.filter(rng.uniform(-1, 1, 10), 3, devices=[0, count])


@pytest.mark.skipif(not GPU, reason="no GPU")
@pytest.mark.parametrize("engine", SPLIT_ENGINES)
@pytest.mark.parametrize("mode", ["zero", "reflect", "wrap"])
def test_a_forced_split_gives_the_same_bits_as_one_gpu(rng, engine, mode):
    for n in [1, 4095, 4097, 100003]:
        x = rng.uniform(-100, 100, n)
        taps = rng.uniform(-1, 1, 31)
        one = siglab.filter(x, taps=taps, mode=mode, engine=engine)
        for devices in ["0,0", [0, 0, 0], "all"]:
            split = siglab.filter(x, taps=taps, mode=mode, engine=engine, devices=devices)
            assert np.array_equal(one.view(np.uint64), split.view(np.uint64)), (engine, n, devices)
