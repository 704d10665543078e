// Welch's method on every core: each thread detrends, windows and transforms whole segments with
// the one cached FFTW plan, summing |X_k|^2 into its own row; the rows are added at the end.
#include <algorithm>
#include <cstdint>

#include "fftw_plans.hpp"
#include "siglab/spectrum.hpp"
#include "siglab/work_progress.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace siglab {
namespace {

int threadCount() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

int threadIndex() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

// The segment's mean, from 8 independent partial sums (vectorised; error <= (n/8 + 3) u sum|x|).
double segmentMean(const double* x, std::size_t n) {
  double partial[8] = {};
  std::size_t j = 0;
  for (; j + 8 <= n; j += 8) {
    for (int lane = 0; lane < 8; ++lane) partial[lane] += x[j + static_cast<std::size_t>(lane)];
  }
  for (; j < n; ++j) partial[0] += x[j];
  const double sum = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + ((partial[4] + partial[5]) + (partial[6] + partial[7]));
  return sum / static_cast<double>(n);
}

}  // namespace

Spectrum welch(std::span<const double> x, const WelchOptions& options, const Progress& progress) {
  validate(options, x.size());
  const std::size_t n = options.segment, bins = frequencyCount(options);
  const std::size_t step = n - options.overlapOrDefault();
  const auto segments = static_cast<std::int64_t>(segmentCount(options, x.size()));
  const std::vector<double> window = spectrumWindow(options.window, n);
  const bool detrend = options.detrend == Detrend::constant;
  const fftw_plan plan = detail::realForwardPlan(n);

  // Fewer than 64 segments take microseconds: not worth waking threads for.
  const int threads = segments < 64 ? 1 : static_cast<int>(std::min<std::int64_t>(threadCount(), segments));
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(threads), std::vector<double>(bins, 0.0));
  WorkProgress work(progress, static_cast<std::uint64_t>(segments));
  constexpr std::int64_t kReportEvery = 64;  // segments between a thread's reports and looks at Cancel
#pragma omp parallel num_threads(threads)
  {
    auto frame = detail::makeFftwArray<double>(n);
    auto transform = detail::makeFftwArray<fftw_complex>(bins);
    std::vector<double>& row = rows[static_cast<std::size_t>(threadIndex())];
    std::int64_t unreported = 0;
    bool stopped = false;  // an OpenMP loop cannot break: a cancelled thread skips the rest
#pragma omp for schedule(static)
    for (std::int64_t s = 0; s < segments; ++s) {
      if (stopped) continue;
      if (++unreported == kReportEvery) {
        work.add(static_cast<std::uint64_t>(unreported));
        unreported = 0;
        stopped = work.cancelled();
      }
      const double* segment = x.data() + static_cast<std::size_t>(s) * step;
      const double mean = detrend ? segmentMean(segment, n) : 0.0;
      for (std::size_t j = 0; j < n; ++j) frame[j] = (segment[j] - mean) * window[j];
      fftw_execute_dft_r2c(plan, frame.get(), transform.get());
      for (std::size_t k = 0; k < bins; ++k) row[k] += transform[k][0] * transform[k][0] + transform[k][1] * transform[k][1];
    }
  }
  work.throwIfCancelled();
  progress.report(1.0);
  std::vector<double> sums(bins, 0.0);
  for (const auto& row : rows) {
    for (std::size_t k = 0; k < bins; ++k) sums[k] += row[k];
  }
  finishPower(sums, options, static_cast<std::size_t>(segments));
  return Spectrum{spectrumFrequencies(options), std::move(sums)};
}

}  // namespace siglab
