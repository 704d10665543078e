#pragma once
#include <cublas_v2.h>

#include <string>

#include "stream.hpp"

namespace siglab::cuda {

// cuBLAS, opened at run time (dlopen) so that SigLab starts and runs everything else where the
// library is missing; problem() then says why the cuBLAS rungs cannot run.
class CublasLibrary {
 public:
  static const CublasLibrary& instance();
  const std::string& problem() const { return problem_; }

  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetMathMode) setMathMode = nullptr;
  decltype(&cublasSetStream_v2) setStream = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;

 private:
  CublasLibrary();
  std::string problem_;
};

// A cuBLAS handle with one math mode, its work queued on `stream`. Throws std::runtime_error naming the failed call.
class CublasHandle {
 public:
  CublasHandle(const CublasLibrary& library, cublasMath_t mode, StreamView stream);
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  ~CublasHandle();

  // Row-major C (m x n) = A (m x k) B (k x n): column-major C^T = B^T A^T, so B goes first.
  void sgemmRowMajor(const float* d_a, const float* d_b, float* d_c, int m, int n, int k) const;

 private:
  const CublasLibrary& library_;
  cublasHandle_t handle_ = nullptr;
};

}  // namespace siglab::cuda
