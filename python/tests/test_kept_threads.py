"""The module's work runs on threads kept from call to call (python/kept_threads.hpp): a later call
reuses the thread an earlier one ran on, calls from several Python threads at once each get a thread
of their own, and a forked child starts threads of its own."""
import multiprocessing
import os
import threading

import numpy as np
import scipy.signal

import siglab

SOS = scipy.signal.butter(4, [0.1, 0.3], btype="bandpass", output="sos")


def threads_of_this_process():
    return set(os.listdir("/proc/self/task"))


def test_calls_run_on_the_thread_an_earlier_call_left():
    # cpu-serial on a short signal: core itself starts no thread (its parallel engines may, on many
    # cores), so every thread seen during a call is the module's.
    x = np.random.default_rng(1).standard_normal(5000)
    pipeline = siglab.Pipeline("median 5")
    pipeline.run(x, engine="cpu-serial", progress=lambda phase, fraction: None)  # starts a kept thread where none was
    before = threads_of_this_process()
    for _ in range(5):
        seen = set()
        pipeline.run(x, engine="cpu-serial", progress=lambda phase, fraction: seen.update(threads_of_this_process()))
        assert seen and seen <= before, sorted(seen - before)
    assert threads_of_this_process() == before


def test_calls_from_several_threads_at_once_each_get_their_own_answer():
    rng = np.random.default_rng(2)
    signals = [rng.standard_normal(200_001 + k) for k in range(6)]
    results = [None] * len(signals)
    start = threading.Barrier(len(signals))

    def call(k):
        start.wait()
        results[k] = siglab.signal.sosfilt(SOS, signals[k])
    callers = [threading.Thread(target=call, args=(k,)) for k in range(len(signals))]
    for t in callers:
        t.start()
    for t in callers:
        t.join()
    for x, y in zip(signals, results):
        np.testing.assert_allclose(y, scipy.signal.sosfilt(SOS, x), rtol=1e-9, atol=1e-12)


def sosfilt_in_child(x):
    return siglab.signal.sosfilt(SOS, x)


def test_a_forked_child_runs_work_after_its_parent_has():
    x = np.random.default_rng(3).standard_normal(100_003)
    expected = siglab.signal.sosfilt(SOS, x)  # the parent's kept thread exists now; the child has none
    with multiprocessing.get_context("fork").Pool(1) as pool:
        np.testing.assert_array_equal(pool.apply(sosfilt_in_child, (x,)), expected)
