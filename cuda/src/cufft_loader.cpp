// cuFFT loaded when first used, not linked: siglab and siglab-cli (and the .deb) must start on
// machines without CUDA's libraries, Debian has no cuFFT package for the package to depend on, and
// this toolkit ships no static cuFFT. These are the only cuFFT entry points SigLab calls; each
// forwards to the library, or fails with CUFFT_NOT_SUPPORTED (the caller's message names the call)
// where libcufft cannot be loaded. cuBLAS is loaded the same way (cublas_library.cpp).
#include <cufft.h>
#include <dlfcn.h>

#include <string>

namespace {

void* cufftSymbol(const char* name) {
  static void* const library = [] {
    const std::string file = "libcufft.so." + std::to_string(CUFFT_VER_MAJOR);
    return dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept open for the process's life
  }();
  return library ? dlsym(library, name) : nullptr;
}

template <class Function>
Function* resolve(const char* name) {
  return reinterpret_cast<Function*>(cufftSymbol(name));
}

}  // namespace

extern "C" {

cufftResult CUFFTAPI cufftPlanMany(cufftHandle* plan, int rank, int* n, int* inembed, int istride, int idist,
                                   int* onembed, int ostride, int odist, cufftType type, int batch) {
  static auto* const function = resolve<decltype(cufftPlanMany)>("cufftPlanMany");
  return function ? function(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch)
                  : CUFFT_NOT_SUPPORTED;
}

cufftResult CUFFTAPI cufftExecD2Z(cufftHandle plan, cufftDoubleReal* idata, cufftDoubleComplex* odata) {
  static auto* const function = resolve<decltype(cufftExecD2Z)>("cufftExecD2Z");
  return function ? function(plan, idata, odata) : CUFFT_NOT_SUPPORTED;
}

cufftResult CUFFTAPI cufftExecZ2D(cufftHandle plan, cufftDoubleComplex* idata, cufftDoubleReal* odata) {
  static auto* const function = resolve<decltype(cufftExecZ2D)>("cufftExecZ2D");
  return function ? function(plan, idata, odata) : CUFFT_NOT_SUPPORTED;
}

cufftResult CUFFTAPI cufftSetStream(cufftHandle plan, cudaStream_t stream) {
  static auto* const function = resolve<decltype(cufftSetStream)>("cufftSetStream");
  return function ? function(plan, stream) : CUFFT_NOT_SUPPORTED;
}

cufftResult CUFFTAPI cufftDestroy(cufftHandle plan) {
  static auto* const function = resolve<decltype(cufftDestroy)>("cufftDestroy");
  return function ? function(plan) : CUFFT_NOT_SUPPORTED;
}

}  // extern "C"
