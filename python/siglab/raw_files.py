"""Raw little-endian sample files as dask arrays, read and written chunk by chunk by the workers
(nothing larger than a chunk is ever in one process's memory); the written file appears only
once complete, and never over an input."""
import contextlib
import os
import signal

import dask.array as da
import numpy as np

from . import _siglab


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
    any order), as safely as siglab-cli writes: the file is refused where it is one of `inputs`
    (the same path, a hard link or a symlink: SigLab's own output checks), and the chunks go to a
    temporary beside it that commit() renames over it once every chunk is written; discard()
    removes the temporary and leaves the old file as it was. As a context manager (create() on
    entry): commit() when the block ends normally, discard() on any exception.

        with RawFileTarget("out.f64", "<f8", x.shape[0], inputs=["in.f64"]) as target:
            da.store(y, target, lock=False)
    """

    def __init__(self, path, dtype, count, inputs=()):
        self.path, self.dtype, self.shape = str(path), np.dtype(dtype), (count,)
        self.inputs = [str(p) for p in inputs]
        self._output = None  # the temporary's owner, in this process only (not sent to workers)
        self._temporary = None

    def create(self):
        """Checks the output and makes the temporary, with its final size."""
        self._output = _siglab.OutputFile(self.path, self.inputs)
        self._temporary = self._output.temporary_path
        os.truncate(self._temporary, self.shape[0] * self.dtype.itemsize)
        return self

    def commit(self):
        """Renames the complete temporary over the file (after da.store has returned)."""
        self._output.commit()
        self._output = None

    def discard(self):
        """Removes the temporary; the file stays as it was."""
        if self._output is not None:
            self._output.discard()
            self._output = None

    def __enter__(self):
        return self.create() if self._output is None else self

    def __exit__(self, error_type, error, traceback):
        if error_type is None:
            self.commit()
        else:
            self.discard()

    def __getstate__(self):
        return {**self.__dict__, "_output": None}

    def __setitem__(self, key, value):
        (where,) = key if isinstance(key, tuple) else (key,)
        data = np.ascontiguousarray(value, dtype=self.dtype).tobytes()
        fd = os.open(self._temporary, os.O_WRONLY)  # no O_CREAT: a discarded temporary stays gone
        try:
            os.pwrite(fd, data, where.start * self.dtype.itemsize)
        finally:
            os.close(fd)


class Interrupted(BaseException):
    """SIGINT, SIGTERM or SIGHUP while stop_on_signals() was active. A BaseException, as
    KeyboardInterrupt, so that `except Exception` does not swallow it."""

    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.name = signal.Signals(signum).name
        self.exit_code = 128 + signum  # siglab-cli's: 130, 143, 129


@contextlib.contextmanager
def stop_on_signals():
    """While active (on the main thread), SIGINT, SIGTERM and SIGHUP raise Interrupted where the
    main thread is, so that `with` blocks (a RawFileTarget's) clean up; as in siglab-cli, a second
    signal ends the process at once."""
    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def interrupt(signum, frame):
        for s in signals:
            signal.signal(s, signal.SIG_DFL)
        raise Interrupted(signum)

    previous = {s: signal.signal(s, interrupt) for s in signals}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
