"""Raw little-endian sample files as dask arrays, read and written chunk by chunk by the workers
(nothing larger than a chunk is ever in one process's memory)."""
import os

import dask.array as da
import numpy as np


def read_raw(path, dtype="<f8", chunk_samples=1 << 23, offset=0):
    """A lazy dask array over the samples of a raw file, each chunk read by the task that needs it."""
    dtype = np.dtype(dtype)
    count = (os.path.getsize(path) - offset) // dtype.itemsize
    chunks = tuple(min(chunk_samples, count - start) for start in range(0, count, chunk_samples)) or (0,)

    def read_chunk(block_info=None):
        (start, stop), = block_info[None]["array-location"]
        with open(path, "rb") as file:
            file.seek(offset + start * dtype.itemsize)
            return np.fromfile(file, dtype=dtype, count=stop - start).astype(dtype.newbyteorder("="), copy=False)

    return da.map_blocks(read_chunk, chunks=(chunks,), dtype=dtype.newbyteorder("="))


class RawFileTarget:
    """A da.store target that writes each chunk at its place in a raw file (pwrite: any worker,
    any order). The file must exist with its final size first: see create()."""

    def __init__(self, path, dtype, count):
        self.path, self.dtype, self.shape = str(path), np.dtype(dtype), (count,)

    def create(self):
        with open(self.path, "wb") as file:
            file.truncate(self.shape[0] * self.dtype.itemsize)
        return self

    def __setitem__(self, key, value):
        (where,) = key if isinstance(key, tuple) else (key,)
        data = np.ascontiguousarray(value, dtype=self.dtype).tobytes()
        fd = os.open(self.path, os.O_WRONLY)
        try:
            os.pwrite(fd, data, where.start * self.dtype.itemsize)
        finally:
            os.close(fd)
