#include "fftw_plans.hpp"

#include <map>
#include <mutex>
#include <new>
#include <utility>

namespace siglab::detail {
namespace {

enum class Direction { forward, inverse };

// Every plan made, by direction and length. At exit the plans are destroyed and FFTW's planner
// freed (fftw_cleanup), so a leak checker sees nothing left behind.
struct PlanCache {
  std::mutex mutex;
  std::map<std::pair<Direction, std::size_t>, fftw_plan> plans;

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
fftw_plan cachedPlan(Direction direction, std::size_t n) {
  PlanCache& cache = planCache();
  const std::lock_guard lock(cache.mutex);
  auto found = cache.plans.find({direction, n});
  if (found != cache.plans.end()) return found->second;
  auto real = makeFftwArray<double>(n);
  auto complex = makeFftwArray<fftw_complex>(n / 2 + 1);
  const int size = static_cast<int>(n);
  fftw_plan plan = direction == Direction::forward
                       ? fftw_plan_dft_r2c_1d(size, real.get(), complex.get(), FFTW_ESTIMATE)
                       : fftw_plan_dft_c2r_1d(size, complex.get(), real.get(), FFTW_ESTIMATE);
  if (!plan) throw std::bad_alloc();
  cache.plans.emplace(std::pair{direction, n}, plan);
  return plan;
}

}  // namespace

fftw_plan realForwardPlan(std::size_t n) { return cachedPlan(Direction::forward, n); }

fftw_plan realInversePlan(std::size_t n) { return cachedPlan(Direction::inverse, n); }

}  // namespace siglab::detail
