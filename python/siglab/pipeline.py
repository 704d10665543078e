"""siglab.Pipeline: stages one after another, run by SigLab's core (the run siglab-cli filter uses).

    p = siglab.Pipeline("butter 4,0.1,0.3,bandpass zero-phase; median 5; detrend")   # a chain, as --chain
    p = siglab.Pipeline([("median", {"window": 5}), {"kind": "detrend"}])
    p = siglab.Pipeline([siglab.stage("median", window=5, mode="reflect"), siglab.stage("detrend")])
    p = siglab.Pipeline.load("chain.json")     # a pipeline file, as --pipeline; p.save(path) writes one
    y = p.run(x)                               # x: (N,), or (N, C) with the channels on the last axis
    y, report = p.run(x, report=True)          # what ran: per channel, per stage
    report = p.run_file("in.wav", "out.wav")   # streamed where it can be, the output atomic

Every stage kind, its parameters, their types, ranges and defaults come from SigLab's registry
(siglab.stage_kinds()); its checks and messages are core's: a stage that does not read, or cannot
run on the signal, is a ValueError naming the stage, before any work.
"""
import contextlib
import functools
import json
import warnings

import numpy as np

from . import _siglab

__all__ = ["Pipeline", "VerificationError", "stage", "stage_kinds"]


class VerificationError(RuntimeError):
    """A stage's result failed its verification against the reference formula: nothing is returned
    or written. The message names the stage, the channel and the engine."""


def stage_kinds():
    """Every stage kind: name, option (its one-stage option), summary, value_syntax, example and
    parameters (name, type, help, unit, min, max, choices, default, required, in_value)."""
    return _siglab.stage_kinds()


@functools.lru_cache(maxsize=None)
def _kinds_by_word():
    """The registry's kinds by name and by option, read once (the registry is fixed at build time;
    reading it each call was half of a small siglab.signal call's time)."""
    by_word = {}
    for kind in _siglab.stage_kinds():
        by_word.setdefault(kind["name"], kind)
        by_word.setdefault(kind["option"], kind)
    return by_word


def _kind(word):
    return _kinds_by_word().get(word)


def _json_value(value):
    """A parameter value as JSON holds it: NumPy scalars as Python's, paths as text."""
    if isinstance(value, np.generic):
        return value.item()
    if hasattr(value, "__fspath__"):
        return str(value.__fspath__())
    return value


def _stage_entry(kind, params):
    """{"kind": ..., parameter: value, ...} with Python's keyword spelling (zero_phase) read as the
    registry's (zero-phase); unknown names are passed on for core to refuse, naming them."""
    known = _kind(kind) if isinstance(kind, str) else None
    names = {p["name"].replace("-", "_"): p["name"] for p in known["parameters"]} if known else {}
    entry = {"kind": kind}
    for key, value in params.items():
        entry[names.get(key, key)] = _json_value(value)
    return entry


def stage(kind, **params):
    """One stage as Pipeline takes it: stage("median", window=5, mode="reflect"). Keywords are the
    kind's parameters (stage_kinds()), with '_' for '-' (zero_phase=True)."""
    return _stage_entry(kind, params)


def _entries(stages):
    entries = []
    for item in stages:
        if isinstance(item, dict):
            params = dict(item)
            kind = params.pop("kind", None)
            entries.append(_stage_entry(kind, params) if kind is not None else params)
        elif isinstance(item, (tuple, list)) and len(item) in (1, 2) and isinstance(item[0], str):
            entries.append(_stage_entry(item[0], dict(item[1]) if len(item) == 2 else {}))
        else:
            raise ValueError(f"a stage is a dict such as {{'kind': 'median', 'window': 5}} or a pair such as "
                             f"('median', {{'window': 5}}), not {item!r}")
    return entries


def _channels(x):
    """x's channels as contiguous float64 arrays (no copy for a contiguous 1-D float64 x), whether x
    is 1-D, and its dtype."""
    array = np.asarray(x)
    if array.dtype not in (np.float64, np.float32):
        raise ValueError(f"x must hold float64 or float32 samples, not {array.dtype}")
    if array.ndim == 1:
        if not array.flags.c_contiguous:
            warnings.warn("x is not contiguous: SigLab filters a contiguous copy of it", stacklevel=4)
        return [np.ascontiguousarray(array, dtype=np.float64)], True, array.dtype
    if array.ndim == 2:
        if array.shape[1] == 0:
            raise ValueError(f"x has no channels (shape {array.shape}; channels are on the last axis)")
        return [np.ascontiguousarray(array[:, c], dtype=np.float64) for c in range(array.shape[1])], False, array.dtype
    raise ValueError(f"x must be one-dimensional, or two-dimensional with the channels on the last axis (N x C), "
                     f"not of shape {array.shape}")


def _sample_type(dtype, default):
    dtype = np.dtype(default if dtype is None else dtype)
    if dtype == np.float64:
        return "f64"
    if dtype == np.float32:
        return "f32"
    raise ValueError(f"dtype must be float64 or float32, not {dtype}")


def _check_out(out, x, dtype):
    """Refuses, before any work, an out= the result cannot be written into as it is."""
    if not isinstance(out, np.ndarray):
        raise ValueError(f"out must be a NumPy array, not {type(out).__name__}")
    if np.may_share_memory(out, x):
        raise ValueError("out must not overlap x (SigLab's engines do not filter in place)")
    shape = np.shape(x)
    if out.dtype != dtype or out.shape != shape or not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"out must be a writeable, contiguous array of the result's dtype and shape ({np.dtype(dtype)}, "
                         f"{shape}), not {out.dtype} {out.shape}"
                         f"{'' if out.flags.c_contiguous else ', not contiguous'}"
                         f"{'' if out.flags.writeable else ', read-only'}")


class Pipeline:
    """Stages one after another: a chain (str), a list of stages (dicts or (kind, params) pairs),
    or Pipeline.load(path). .chain is its chain text, .stages its stages as dicts (every parameter
    with its value), and a Pipeline pickles (Dask sends it to its workers)."""

    def __init__(self, stages):
        if isinstance(stages, Pipeline):
            self._native = stages._native
        elif isinstance(stages, _siglab.NativePipeline):
            self._native = stages
        elif isinstance(stages, str):
            self._native = _siglab.NativePipeline.from_chain(stages)
        else:
            document = {"siglab-pipeline": 1, "stages": _entries(stages)}
            self._native = _siglab.NativePipeline.from_json(json.dumps(document), "siglab.Pipeline")

    @classmethod
    def load(cls, path):
        """The pipeline in a pipeline file (JSON, as the GUI saves it and siglab-cli's --pipeline reads it)."""
        return cls(_siglab.NativePipeline.load(str(path)))

    def save(self, path):
        """Writes the pipeline file atomically (an old file stays whole until the new one is complete)."""
        self._native.save(str(path))

    @property
    def chain(self):
        return self._native.chain_text()

    @property
    def stages(self):
        return json.loads(self._native.to_json())["stages"]

    def __len__(self):
        return len(self.stages)

    def __repr__(self):
        return f"siglab.Pipeline({self.chain!r})"

    def __eq__(self, other):
        return isinstance(other, Pipeline) and self._native.to_json() == other._native.to_json()

    def __reduce__(self):
        return _from_json, (self._native.to_json(),)

    def history(self, samples, rate=None):
        """How far an output reads into the input for a signal of `samples` samples: before and
        after (the stages' sum, in input samples), circular (every stage wraps at the ends),
        whole_only (why the pipeline runs only on the whole signal, naming the stage; empty when
        blocks give its bits), up and down (outputs per input: up / down, the rate changes'
        product), period (input samples between the places a block may start at, so that every
        stage computes its outputs at the whole signal's phase) and outputs (the result's length)."""
        return self._native.reach(int(samples), rate)

    def _engines(self, engine):
        count = len(self.stages)
        if isinstance(engine, str):
            return [engine] * count
        engines = list(engine)
        if len(engines) != count or not all(isinstance(e, str) for e in engines):
            raise ValueError(f"engine must be a name or one name per stage ({count}), not {engine!r}")
        return engines

    def run(self, x, *, engine="auto", rate=None, dtype=None, verify=True, progress=None, devices=None, out=None,
            report=False):
        """x through every stage, in memory: a new array of x's shape, float64 (float32 for float32
        x or dtype=np.float32: the engines then run in float32).

        engine: "auto" (core's rule, falling back as siglab-cli does) or an engine's name, for every
        stage, or a list of one per stage. rate: the sample rate in Hz (stages with cutoffs in Hz
        need it; x.rate for a siglab.Signal). verify: check each stage's result against the
        reference formula (VerificationError if one fails). progress: progress(phase, fraction),
        called on this thread; an exception from it, or Ctrl-C, cancels the run. devices: the GPUs,
        as filter()'s. out: an array to write the result into, as NumPy's out= (x's shape, the
        result's dtype, C-contiguous, writeable, not overlapping x; checked before any work): one
        float64 channel is written there by the last stage itself, and a new result is made the
        same way, without a copy. report=True returns (result, report): report["channels"][c][k]
        says stage k's engine on channel c, why, its times (ms) and its verification.
        The GIL is released while the stages run."""
        result, described = self._run(x, engine=engine, rate=rate, dtype=dtype, verify=verify, progress=progress,
                                      devices=devices, out=out)
        return (result, described) if report else result

    def _run(self, x, *, engine="auto", rate=None, dtype=None, verify=True, progress=None, devices=None, out=None):
        channels, one_d, x_dtype = _channels(x)
        if rate is None:
            rate = getattr(x, "rate", None)
        sample_type = _sample_type(dtype, x_dtype)
        if out is not None:
            _check_out(out, x, np.float32 if sample_type == "f32" else np.float64)
        result, described = self._native.run(channels, rate, self._engines(engine), sample_type, verify, progress,
                                             devices, out, one_d)
        if not described["passed"]:
            raise VerificationError(described["failure"])
        return result, described

    def run_file(self, in_path, out_path, *, column=0, skip_header=False, raw=None, offset=0, channel=1,
                 allow_nonfinite=False, rate=None, stream="auto", block_samples=None, engine="auto",
                 dtype=np.float64, verify=True, progress=None, devices=None):
        """in_path through every stage into out_path, as siglab-cli filter --chain does: read as
        read_signal reads it, streamed block by block where the result is the in-memory one's bits
        (stream="auto"; "always", "never"), in bounded memory, `block_samples` outputs a block
        (None: core's default). out_path (its format by extension) appears only complete and
        verified: a stage that cannot run, a failed check, an error or Ctrl-C (KeyboardInterrupt,
        raised once the run has stopped) leaves no output, no temporary, and an old file as it was.

        progress: None; a callable progress(fraction, samples): the whole run's fraction done
        (0 to 1, reading, filtering and writing together) and the input samples it stands for
        (None where the file does not say its length before it is read: text, a pipe), called on
        this thread; an exception from it cancels the run; or True / "tqdm": a tqdm bar (where
        tqdm is installed; else a warning and no bar). The run itself goes on without the GIL.
        Returns the report (see run())."""
        read = {"column": column, "skip_header": skip_header, "raw": raw, "offset": offset, "channel": channel,
                "allow_nonfinite": allow_nonfinite, "rate": rate}
        with _file_progress(progress, _siglab.NativePipeline.input_samples(str(in_path), read)) as report:
            described = self._native.run_file(str(in_path), str(out_path), read, stream, block_samples,
                                              self._engines(engine),
                                              _sample_type(dtype, np.float64), verify, report, devices)
        if not described["passed"]:
            raise VerificationError(described["failure"])
        return described


@contextlib.contextmanager
def _file_progress(progress, total):
    """The native run's progress(phase, fraction) for run_file's progress=: the caller's
    progress(fraction, samples), a tqdm bar (closed afterwards), or None."""
    if progress is None or progress is False:
        yield None
        return
    if progress is True or progress == "tqdm":
        try:
            from tqdm import tqdm
        except ImportError:
            warnings.warn("progress=\"tqdm\" needs tqdm, which is not installed: the run shows no progress",
                          stacklevel=4)
            yield None
            return
        bar = tqdm(total=total if total is not None else 1.0, unit=" samples" if total is not None else "",
                   unit_scale=True)
        try:
            def advance(fraction, samples):
                bar.update((samples if samples is not None else fraction) - bar.n)

            yield lambda phase, fraction: advance(fraction, _samples_done(fraction, total))
        finally:
            bar.close()
        return
    if not callable(progress):
        raise ValueError(f"progress must be None, a callable progress(fraction, samples), True or \"tqdm\", "
                         f"not {progress!r}")
    yield lambda phase, fraction: progress(fraction, _samples_done(fraction, total))


def _samples_done(fraction, total):
    return None if total is None else min(total, int(fraction * total))


def _from_json(text):
    return Pipeline(_siglab.NativePipeline.from_json(text, "siglab.Pipeline"))
