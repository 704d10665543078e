"""Type stubs for siglab.ndimage: SciPy's signatures, plus keyword-only engine and devices."""
from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__: list[str]

def correlate1d(input: ArrayLike, weights: ArrayLike, axis: int = ..., output: None = ..., mode: str = ...,
        cval: float = ..., origin: int = ..., *, engine: str | Sequence[str] = ...,
        devices: str | Sequence[int] | None = ...) -> NDArray[np.floating]: ...
def uniform_filter1d(input: ArrayLike, size: int, axis: int = ..., output: None = ..., mode: str = ...,
        cval: float = ..., origin: int = ..., *, engine: str | Sequence[str] = ...,
        devices: str | Sequence[int] | None = ...) -> NDArray[np.floating]: ...
def gaussian_filter1d(input: ArrayLike, sigma: float, axis: int = ..., order: int = ..., output: None = ...,
        mode: str = ..., cval: float = ..., truncate: float = ..., *, radius: int | None = ...,
        engine: str | Sequence[str] = ..., devices: str | Sequence[int] | None = ...) -> NDArray[np.floating]: ...
def median_filter(input: ArrayLike, size: int = ..., footprint: None = ..., output: None = ..., mode: str = ...,
        cval: float = ..., origin: int = ..., *, engine: str | Sequence[str] = ...,
        devices: str | Sequence[int] | None = ...) -> NDArray[np.floating]: ...
