"""SigLab's pipelines over Dask arrays: chunked, halo-overlapped work on many processes or machines.

    import dask.array as da, siglab, siglab.dask
    y = siglab.dask.run(siglab.Pipeline("median 5; mean 3"), x)  # x: (N,) or (N, C); y: lazy, same chunks
    y = siglab.dask.filter(x, window=5, mode="reflect")           # siglab.filter's keywords

Each chunk runs through the pipeline with its neighbours' samples around it (dask.array.map_overlap)
as deep as the pipeline's history (Pipeline.history: the sum of its stages'), as a signal of its
own; the chunks at the signal's ends see its real ends (or, when every stage wraps, each other's).
Every output kept reads only samples its block holds, so the result has the same bits as
Pipeline.run on the whole signal (for engines whose result does not depend on where a signal
starts: cpu-parallel, cpu-serial, the GPU correlations). A stage whose output depends on the whole
signal (butter, detrend, decimate with its IIR filter) runs only on an array of one chunk along
the samples. A pipeline that changes the rate (resample_poly, upfirdn, decimate with ftype fir)
runs in blocks that start at multiples of its period (Pipeline.history), with its history in
input samples around each, and its output chunks are the input's scaled by up / down.
"""
import math

import dask.array as da
import numpy as np

import siglab
from siglab import _one_stage


def _overlapped(x, reach, run_block, dtype):
    """x's blocks through run_block with `reach`'s halos (Pipeline.history), trimmed back to x's chunks
    (scaled by the rate where the pipeline changes it)."""
    if x.ndim not in (1, 2):
        raise ValueError(f"x must be one-dimensional, or two-dimensional with the channels on the last axis (N x C), "
                         f"not of shape {x.shape}")
    if x.ndim == 2:
        x = x.rechunk({1: -1})  # a block holds every channel of its samples
    n = x.shape[0]
    if n == 0:
        return x.astype(dtype)
    one_chunk = len(x.chunks[0]) == 1
    if reach["whole_only"] and not one_chunk:
        raise ValueError(f"{reach['whole_only']}: Dask runs such a pipeline only on an array of one chunk along "
                         f"the samples (x.rechunk({{0: -1}}))")
    if (reach.get("up", 1), reach.get("down", 1)) != (1, 1) or reach.get("outputs", n) != n:
        return _rate_changed(x, reach, run_block, dtype)
    depth = max(reach["before"], reach["after"])
    if depth == 0 or one_chunk:
        return x.map_blocks(run_block, dtype=dtype)
    if n <= 2 * depth + 1:  # no longer than a window: in one task, with the pipeline's own ends
        return x.rechunk({0: -1}).map_blocks(run_block, dtype=dtype).rechunk(x.chunks)
    chunks = x.chunks
    if min(x.chunks[0]) < depth:  # map_overlap needs each chunk at least as long as the halo
        x = x.rechunk({0: max(depth, max(x.chunks[0]))})
    boundary = "periodic" if reach["circular"] else "none"
    depths = {0: depth, 1: 0} if x.ndim == 2 else {0: depth}
    boundaries = {0: boundary, 1: "none"} if x.ndim == 2 else {0: boundary}
    out = x.map_overlap(run_block, depth=depths, boundary=boundaries, trim=True, dtype=dtype)
    return out.rechunk(chunks)


def _aligned_starts(chunks, period, shortest, n):
    """The chunks' starts moved to the nearest multiple of `period`, none closer than `shortest` to
    the one before (0 first): a block and its halos then span at most three chunks."""
    starts, at = [0], 0
    for size in chunks[:-1]:
        at += size
        start = period * round(at / period)
        if start - starts[-1] >= shortest and n - start >= shortest:
            starts.append(start)
    return starts


def _rate_changed(x, reach, run_block, dtype):
    """A rate-changing pipeline over x's chunks: each block starts at a multiple of the period (where
    every stage's phase is the whole signal's), runs with the history around it as a signal of its
    own, and keeps the outputs of its own input samples: start x up / down on (the last block: to
    the end of the whole signal's outputs)."""
    n, up, down, period = x.shape[0], reach["up"], reach["down"], reach["period"]
    before = period * math.ceil(reach["before"] / period)  # a block's halo keeps it at a multiple of the period
    after = reach["after"] + period
    starts = [0] if reach["whole_only"] else _aligned_starts(x.chunks[0], period, max(before, after, period), n)
    ends = starts[1:] + [n]
    x = x.rechunk({0: tuple(end - start for start, end in zip(starts, ends))})
    channels = tuple((c,) for c in x.shape[1:])
    pieces = []
    for start, end in zip(starts, ends):
        first = max(0, start - before)
        last = n if end == n else min(n, end + after)
        keep_from = (start - first) * up // down
        count = (end * up // down if end < n else reach["outputs"]) - start * up // down

        def kept(block, keep_from=keep_from, count=count):
            return run_block(block)[keep_from:keep_from + count]

        pieces.append(x[first:last].rechunk({0: -1}).map_blocks(kept, chunks=((count,), *channels), dtype=dtype))
    return da.concatenate(pieces, axis=0)


def _result_dtype(x, dtype):
    return np.dtype(np.float32) if np.dtype(dtype or x.dtype) == np.float32 else np.dtype(np.float64)


def run(pipeline, x, *, engine="cpu-parallel", rate=None, dtype=None, verify=True):
    """A lazy dask array: x run through `pipeline` (a siglab.Pipeline or what it takes) as
    Pipeline.run would run it whole. x: 1-D, or 2-D with the channels on the last axis (chunked
    along the samples only). engine: as Pipeline.run's; cpu-running and the FFT engines restart at
    every block (within their tolerance, not bit-identical). A pipeline that changes the rate gives
    chunks scaled by it (Pipeline.history's up / down)."""
    pipeline = siglab.Pipeline(pipeline)
    reach = pipeline.history(x.shape[0], rate)

    def run_block(block):
        return pipeline.run(block, engine=engine, rate=rate, dtype=dtype, verify=verify)

    return _overlapped(x, reach, run_block, _result_dtype(x, dtype))


def filter(x, window=5, mode="zero", *, taps=None, gaussian=None, engine="cpu-parallel"):
    """A lazy dask array: x (1-D) filtered as siglab.filter would filter it whole (its keywords)."""
    if x.ndim != 1:
        raise ValueError(f"x must be one-dimensional, not of shape {x.shape}")
    with _one_stage(window, mode, taps, gaussian) as pipeline:
        reach = pipeline.history(x.shape[0])

    def run_block(block):
        return siglab.filter(block, window=window, mode=mode, taps=taps, gaussian=gaussian, engine=engine)

    return _overlapped(x, reach, run_block, _result_dtype(x, None))


def run_file(pipeline, in_path, out_path, *, dtype="<f8", offset=0, chunk_samples=1 << 23, engine="cpu-parallel",
             rate=None, out_dtype=None, verify=True):
    """Runs a raw file through `pipeline` with Dask (on the scheduler in use: threads, processes or
    a cluster's workers), chunk by chunk as run() runs an array, into the raw file `out_path`
    (little-endian float64, or float32 for out_dtype=np.float32), written as siglab-cli writes an
    output: refused before any work where it is the input (the same path, a hard link or a
    symlink); the chunks go to a temporary beside it, renamed over it once every chunk is written;
    an error, SIGINT, SIGTERM or SIGHUP (raised as siglab.raw_files.Interrupted) leaves no output
    and an old file as it was. dtype, offset: the input's samples, as read_raw reads them. No
    process holds more than a few chunks. Returns the samples written."""
    from .raw_files import RawFileTarget, read_raw, stop_on_signals

    x = read_raw(in_path, dtype=dtype, chunk_samples=chunk_samples, offset=offset)
    y = run(pipeline, x, engine=engine, rate=rate, dtype=out_dtype, verify=verify)
    with stop_on_signals(), RawFileTarget(out_path, y.dtype.newbyteorder("<"), y.shape[0], inputs=[in_path]) as target:
        da.store(y, target, lock=False)
    return y.shape[0]
