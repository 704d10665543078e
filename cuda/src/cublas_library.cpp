#include "cublas_library.hpp"

#include <dlfcn.h>

#include <stdexcept>
#include <type_traits>

namespace siglab::cuda {
namespace {

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed with cuBLAS status " + std::to_string(static_cast<int>(status)));
  }
}

}  // namespace

const CublasLibrary& CublasLibrary::instance() {
  static const CublasLibrary library;
  return library;
}

CublasLibrary::CublasLibrary() {
  const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
  void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept open for the process's life
  if (!handle) {
    const char* error = dlerror();
    problem_ = "cuBLAS is not installed (" + (error ? std::string(error) : name) + ")";
    return;
  }
  auto resolve = [&](auto& function, const char* symbol) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(handle, symbol));
    if (!function && problem_.empty()) problem_ = name + " lacks " + symbol;
  };
  resolve(create, "cublasCreate_v2");
  resolve(destroy, "cublasDestroy_v2");
  resolve(setMathMode, "cublasSetMathMode");
  resolve(setStream, "cublasSetStream_v2");
  resolve(sgemm, "cublasSgemm_v2");
}

CublasHandle::CublasHandle(const CublasLibrary& library, cublasMath_t mode, StreamView stream) : library_(library) {
  if (!library.problem().empty()) throw std::runtime_error(library.problem());
  check(library.create(&handle_), "cublasCreate");
  try {
    check(library.setMathMode(handle_, mode), "cublasSetMathMode");
    check(library.setStream(handle_, stream.get()), "cublasSetStream");
  } catch (...) {
    library.destroy(handle_);
    throw;
  }
}

CublasHandle::~CublasHandle() {
  if (handle_) library_.destroy(handle_);
}

void CublasHandle::sgemmRowMajor(const float* d_a, const float* d_b, float* d_c, int m, int n, int k) const {
  const float one = 1.0f, zero = 0.0f;
  check(library_.sgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, d_b, n, d_a, k, &zero, d_c, n),
        "cublasSgemm");
}

}  // namespace siglab::cuda
