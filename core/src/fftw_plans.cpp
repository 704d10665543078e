#include "fftw_plans.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <new>
#include <tuple>
#include <utility>

#if defined(_OPENMP) && defined(SIGLAB_FFTW_THREADS)
#include <omp.h>
#endif

namespace siglab::detail {
namespace {

// forwardUnaligned: real to complex, planned for any input's alignment (a caller's samples);
// complexInverse: complex to complex backward, in place.
enum class Direction { forward, inverse, forwardUnaligned, inverseUnaligned, complexInverse };

// Every plan made, by direction and length. At exit the plans are destroyed and FFTW's planner
// freed (fftw_cleanup), so a leak checker sees nothing left behind.
struct PlanCache {
  std::mutex mutex;
  std::map<std::tuple<Direction, std::size_t, bool>, fftw_plan> plans;  // by direction, length, threaded

#if defined(_OPENMP) && defined(SIGLAB_FFTW_THREADS)
  PlanCache() { fftw_init_threads(); }
#endif
  ~PlanCache() {
    for (auto& entry : plans) fftw_destroy_plan(entry.second);
    fftw_cleanup();
  }
};

PlanCache& planCache() {
  static PlanCache cache;
  return cache;
}

// FFTW_ESTIMATE: a plan costs microseconds and leaves the arrays alone.
fftw_plan cachedPlan(Direction direction, std::size_t n, bool threaded = false) {
  PlanCache& cache = planCache();
  const std::lock_guard lock(cache.mutex);
  auto found = cache.plans.find({direction, n, threaded});
  if (found != cache.plans.end()) return found->second;
  auto real = makeFftwArray<double>(n);
  auto complex = makeFftwArray<fftw_complex>(direction == Direction::complexInverse ? n : n / 2 + 1);
  const int size = static_cast<int>(n);
#if defined(_OPENMP) && defined(SIGLAB_FFTW_THREADS)
  fftw_plan_with_nthreads(threaded ? std::max(1, omp_get_max_threads()) : 1);
#endif
  fftw_plan plan = nullptr;
  switch (direction) {
    case Direction::forward: plan = fftw_plan_dft_r2c_1d(size, real.get(), complex.get(), FFTW_ESTIMATE); break;
    case Direction::inverse: plan = fftw_plan_dft_c2r_1d(size, complex.get(), real.get(), FFTW_ESTIMATE); break;
    case Direction::forwardUnaligned:
      plan = fftw_plan_dft_r2c_1d(size, real.get(), complex.get(), FFTW_ESTIMATE | FFTW_UNALIGNED);
      break;
    case Direction::inverseUnaligned:
      plan = fftw_plan_dft_c2r_1d(size, complex.get(), real.get(), FFTW_ESTIMATE | FFTW_UNALIGNED);
      break;
    case Direction::complexInverse:
      plan = fftw_plan_dft_1d(size, complex.get(), complex.get(), FFTW_BACKWARD, FFTW_ESTIMATE);
      break;
  }
#if defined(_OPENMP) && defined(SIGLAB_FFTW_THREADS)
  fftw_plan_with_nthreads(1);
#endif
  if (!plan) throw std::bad_alloc();
  cache.plans.emplace(std::tuple{direction, n, threaded}, plan);
  return plan;
}

}  // namespace

fftw_plan realForwardPlan(std::size_t n) { return cachedPlan(Direction::forward, n); }

fftw_plan realInversePlan(std::size_t n) { return cachedPlan(Direction::inverse, n); }

fftw_plan realForwardUnalignedPlan(std::size_t n, bool threaded) {
  return cachedPlan(Direction::forwardUnaligned, n, threaded);
}

fftw_plan realInverseUnalignedPlan(std::size_t n, bool threaded) {
  return cachedPlan(Direction::inverseUnaligned, n, threaded);
}

fftw_plan realForwardPlanFor(const double* in, std::size_t n, bool threaded) {
  const bool aligned = fftw_alignment_of(const_cast<double*>(in)) == 0;
  return cachedPlan(aligned ? Direction::forward : Direction::forwardUnaligned, n, threaded);
}

fftw_plan realInversePlanFor(const double* out, std::size_t n, bool threaded) {
  const bool aligned = fftw_alignment_of(const_cast<double*>(out)) == 0;
  return cachedPlan(aligned ? Direction::inverse : Direction::inverseUnaligned, n, threaded);
}

fftw_plan complexInversePlan(std::size_t n, bool threaded) { return cachedPlan(Direction::complexInverse, n, threaded); }

}  // namespace siglab::detail
