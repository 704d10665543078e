#pragma once
// SIGLAB_HD marks index maths that both the CPU engine and the CUDA kernels use, so the host can
// unit-test exactly what the device runs. Plain C++ compilers see nothing.
#if defined(__CUDACC__)
#define SIGLAB_HD __host__ __device__ __forceinline__
#else
#define SIGLAB_HD inline
#endif
