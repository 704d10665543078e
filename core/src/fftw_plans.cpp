#include "fftw_plans.hpp"

#include <map>
#include <mutex>
#include <new>
#include <utility>

namespace siglab::detail {
namespace {

std::mutex planMutex;

// FFTW_ESTIMATE: a plan costs microseconds and leaves the arrays alone.
template <typename Make>
fftw_plan cachedPlan(std::map<std::size_t, fftw_plan>& cache, std::size_t n, Make make) {
  const std::lock_guard lock(planMutex);
  auto found = cache.find(n);
  if (found != cache.end()) return found->second;
  auto real = makeFftwArray<double>(n);
  auto complex = makeFftwArray<fftw_complex>(n / 2 + 1);
  fftw_plan plan = make(static_cast<int>(n), real.get(), complex.get());
  if (!plan) throw std::bad_alloc();
  cache.emplace(n, plan);
  return plan;
}

}  // namespace

fftw_plan realForwardPlan(std::size_t n) {
  static std::map<std::size_t, fftw_plan> cache;
  return cachedPlan(cache, n, [](int size, double* real, fftw_complex* complex) {
    return fftw_plan_dft_r2c_1d(size, real, complex, FFTW_ESTIMATE);
  });
}

fftw_plan realInversePlan(std::size_t n) {
  static std::map<std::size_t, fftw_plan> cache;
  return cachedPlan(cache, n, [](int size, double* real, fftw_complex* complex) {
    return fftw_plan_dft_c2r_1d(size, complex, real, FFTW_ESTIMATE);
  });
}

}  // namespace siglab::detail
