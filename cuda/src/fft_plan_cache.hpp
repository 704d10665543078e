#pragma once
// The one cuFFT plan cache: a plan takes longer to make than the transforms of a 10M-sample signal,
// so plans are kept between runs, per device and shape. A plan is lent to one user at a time (a
// lease sets its stream; two parts on one device never share a plan) and returns to the cache when
// the lease ends. cuFFT errors throw: a failed allocation as OutOfDeviceMemory, the rest as CufftError.
#include <cufft.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "cuda_check.hpp"
#include "stream.hpp"

namespace siglab::cuda {

class CufftError : public std::runtime_error {
 public:
  CufftError(cufftResult code, const char* call)
      : std::runtime_error("cuFFT error " + std::to_string(static_cast<int>(code)) + " in " + call), code_(code) {}
  cufftResult code() const { return code_; }

 private:
  cufftResult code_;
};

void checkCufft(cufftResult code, const char* call, const char* file, int line);

}  // namespace siglab::cuda

#define SIGLAB_CUFFT_TRY(call) ::siglab::cuda::checkCufft((call), #call, __FILE__, __LINE__)

namespace siglab::cuda {

// A batched 1-D double-precision plan: `batch` transforms of n points, D2Z (inputs n apart, outputs
// n / 2 + 1 apart) or Z2D (the reverse).
struct FftShape {
  int n = 0;
  int batch = 1;
  cufftType type = CUFFT_D2Z;
  bool operator==(const FftShape&) const = default;
};

class FftPlanCache;

// A plan of the cache on the current device, for this lease's holder alone; its work goes on `stream`.
class FftPlan {
 public:
  FftPlan(const FftShape& shape, StreamView stream);
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;
  FftPlan(FftPlan&&) noexcept;
  FftPlan& operator=(FftPlan&&) noexcept;
  ~FftPlan();
  cufftHandle get() const;
  const FftShape& shape() const;

  struct Held;  // a cuFFT handle with its device and shape

 private:
  std::unique_ptr<Held> held_;
};

}  // namespace siglab::cuda
