"""Pipeline.run_file's progress (a callback of the whole run's fraction and samples, or tqdm) and
its cancel: a real SIGINT during the run, sent by another process, stops core's work through its
cancel hook, leaves no output and no temporary, and re-raises KeyboardInterrupt."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import siglab


@pytest.mark.parametrize("stream", ["always", "never"])
def test_progress_gives_the_whole_runs_fraction_and_samples_on_this_thread(tmp_path, rng, stream):
    x = rng.standard_normal(300_001)
    x.tofile(tmp_path / "in.f64")
    seen = []
    siglab.Pipeline("median 5").run_file(tmp_path / "in.f64", tmp_path / "out.npy", raw="f64", stream=stream,
                                         block_samples=1 << 14,
                                         progress=lambda f, n: seen.append((f, n, threading.get_ident())))
    fractions = [f for f, _, _ in seen]
    assert len(seen) >= 3 and fractions == sorted(fractions) and fractions[-1] == 1.0
    assert all(thread == threading.get_ident() for _, _, thread in seen)
    assert seen[-1][1] == x.size and all(n == int(f * x.size) for f, n, _ in seen[:-1])
    np.testing.assert_array_equal(np.load(tmp_path / "out.npy"), siglab.Pipeline("median 5").run(x))


def test_progress_of_a_text_file_has_no_sample_count_and_a_bad_progress_is_refused(tmp_path):
    (tmp_path / "in.txt").write_text("".join(f"{v}\n" for v in range(1000)))
    seen = []
    siglab.Pipeline("mean 3").run_file(tmp_path / "in.txt", tmp_path / "out.txt", progress=lambda f, n: seen.append(n))
    assert seen and set(seen) == {None}
    with pytest.raises(ValueError, match="progress must be"):
        siglab.Pipeline("mean 3").run_file(tmp_path / "in.txt", tmp_path / "out2.txt", progress="bar")
    assert not (tmp_path / "out2.txt").exists()


def test_tqdm_shows_a_bar_of_samples(tmp_path, capsys):
    pytest.importorskip("tqdm")
    np.arange(50_000.0).tofile(tmp_path / "in.f64")
    siglab.Pipeline("mean 3").run_file(tmp_path / "in.f64", tmp_path / "out.f64", raw="f64", progress="tqdm")
    bar = capsys.readouterr().err
    assert "100%" in bar and "50.0k/50.0k" in bar


CHILD = textwrap.dedent("""
    import signal, sys, siglab
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as an interactive Python has it (a shell's
    folder = sys.argv[1]                                       # background job starts with SIGINT ignored)
    try:
        siglab.Pipeline("median 3").run_file(folder + "/in.f64", folder + "/out.f64", raw="f64", progress=lambda f, n: 0)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(3)
    print("finished", flush=True)
""")


def _has_open(pid, path, seconds=20):
    """Waits until process `pid` has `path` open (then it is inside run_file: core opens the input)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if any(os.path.realpath(f"/proc/{pid}/fd/{fd}") == str(path) for fd in os.listdir(f"/proc/{pid}/fd")):
                return True
        except OSError:
            pass
        time.sleep(0.01)
    return False


def test_sigint_during_run_file_leaves_nothing_and_raises_keyboard_interrupt(tmp_path):
    # The input is a FIFO the test holds open for writing and never closes: the run cannot end
    # before the signal, whatever the machine's speed; only the cancel can end core's wait for input.
    fifo = tmp_path / "in.f64"
    os.mkfifo(fifo)
    (tmp_path / "out.f64").write_bytes(b"old")
    feed = os.open(fifo, os.O_RDWR)  # a writer that never blocks, so the FIFO has one when core opens it
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    guard = threading.Timer(30, child.kill)  # a hang fails the test instead of stopping the suite
    guard.start()
    try:
        os.write(feed, np.zeros(1 << 12).tobytes())
        assert _has_open(child.pid, os.path.realpath(fifo)), "the run never opened its input"
        time.sleep(0.05)  # well inside core's wait for the rest of the input
        child.send_signal(signal.SIGINT)  # as Ctrl-C sends it
        out, _ = child.communicate(timeout=30)
    finally:
        guard.cancel()
        os.close(feed)
        if child.poll() is None:
            child.kill()
    assert out.strip() == "interrupted" and child.returncode == 3
    assert sorted(os.listdir(tmp_path)) == ["in.f64", "out.f64"]
    assert (tmp_path / "out.f64").read_bytes() == b"old"
