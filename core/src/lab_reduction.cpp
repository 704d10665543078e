#include "siglab/lab_reduction.hpp"

namespace siglab {
namespace {

template <class In, class Acc>
LadderRung timedSum(std::span<const In> values, const MeasureOptions& options, Acc& sum) {
  LadderRung rung;
  rung.name = "cpu-serial-sum";
  rung.description = "one CPU core adds the values in order: the serial loop the GPU rungs parallelise";
  rung.work = static_cast<double>(values.size_bytes());
  rung.time = measure(
                  [&] {
                    return timeOnHost([&] {
                      Acc total = 0;
                      for (const In v : values) total += v;
                      sum = total;
                    });
                  },
                  options)
                  .total;
  return rung;
}

}  // namespace

LadderRung sumOnCpu(std::span<const std::int32_t> values, const MeasureOptions& options, std::int64_t& sum) {
  return timedSum(values, options, sum);
}

LadderRung sumOnCpu(std::span<const double> values, const MeasureOptions& options, double& sum) {
  return timedSum(values, options, sum);
}

}  // namespace siglab
