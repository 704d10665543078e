"""SigLab's filter over Dask arrays: chunked, halo-overlapped work on many processes or machines.

    import dask.array as da, siglab.dask
    y = siglab.dask.filter(x, window=5, mode="reflect")   # x: a 1-D dask array; y: lazy, same chunks

Each chunk is filtered by SigLab with its neighbours' samples around it (dask.array.map_overlap,
depth W//2); the signal's own ends are padded with the boundary rule first, so every output sums
exactly the samples, in exactly the order, that an in-memory SigLab filter sums: the result has the
same bits as siglab.filter (and siglab-cli filter) on the whole signal.
"""
import dask.array as da
import numpy as np

import siglab

# SigLab's boundary modes as numpy.pad modes (scipy's reflect is numpy's symmetric, and so on).
_PAD_MODES = {"zero": "constant", "reflect": "symmetric", "mirror": "reflect", "nearest": "edge", "wrap": "wrap"}


def _window(window, taps, gaussian):
    """The number of taps SigLab will use (checked with SigLab's messages), for the halo depth."""
    siglab.filter(np.zeros(1), window=window, taps=taps, gaussian=gaussian, engine="cpu-serial")
    if taps is not None:
        return np.asarray(taps).size
    if gaussian is not None:
        return 2 * int(np.floor(4.0 * float(gaussian) + 0.5)) + 1
    return window


def filter(x, window=5, mode="zero", *, taps=None, gaussian=None, engine="cpu-parallel"):
    """A lazy dask array: x filtered as siglab.filter would filter it whole.

    engine: a bit-identical engine (cpu-parallel, cpu-serial, a GPU engine) gives the same bits as
    the whole signal filtered at once; cpu-running restarts its sums at every chunk (within its
    tolerance, not bit-identical)."""
    if mode not in _PAD_MODES:
        raise ValueError(f"mode must be one of {', '.join(_PAD_MODES)}, not {mode!r}")
    if x.ndim != 1:
        raise ValueError(f"x must be one-dimensional, not of shape {x.shape}")
    depth = _window(window, taps, gaussian) // 2
    if x.shape[0] == 0:
        return x

    def filter_whole(block, block_mode=mode):
        return siglab.filter(block, window=window, mode=block_mode, taps=taps, gaussian=gaussian, engine=engine)

    if depth == 0:  # one tap: every output is its own sample's, chunks need no neighbours
        return x.map_blocks(filter_whole, dtype=x.dtype)
    if x.shape[0] <= 2 * depth + 1:  # no longer than a window: in one task, with SigLab's own ends
        return x.rechunk(x.shape[0]).map_blocks(filter_whole, dtype=x.dtype)
    # The signal's ends padded with the boundary rule; then each block, with its neighbours'
    # samples around it, keeps only the outputs whose windows lie inside it.
    padded = da.pad(x, depth, mode=_PAD_MODES[mode])
    if min(padded.chunks[0]) < depth:  # map_overlap needs each chunk at least as long as the halo
        padded = padded.rechunk(max(depth, max(padded.chunks[0])))
    out = padded.map_overlap(lambda b: filter_whole(b, "zero"), depth=depth, boundary="none", trim=True,
                             dtype=x.dtype)
    return out[depth:depth + x.shape[0]].rechunk(x.chunks)
