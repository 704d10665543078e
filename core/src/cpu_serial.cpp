#include "siglab/cpu_serial.hpp"

#include <algorithm>
#include <stdexcept>

#include "cpu_engine.hpp"
#include "filter_kernels.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/work_progress.hpp"

namespace siglab {
namespace {

template <typename Acc, typename Sample>
void filterSerialAs(std::span<const Sample> in, const FilterSpec& spec, std::span<Sample> out,
                    const Progress& progress) {
  validate(spec);
  if (in.size() != out.size()) throw std::invalid_argument("filterSerial: input and output sizes differ");
  const std::vector<Acc> taps = detail::tapsAs<Acc>(spec);
  const std::size_t w = taps.size();
  const auto interior = [&](const Sample* x, Sample* y, std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i) y[i] = static_cast<Sample>(detail::interiorOutput(x + i, taps.data(), w));
  };
  // In stretches, each output still summed alone: the cuts change no bits, only when Cancel is seen.
  const auto n = static_cast<std::int64_t>(in.size());
  const std::int64_t stretch = detail::outputsPerCancelCheck(w);
  WorkProgress work(progress, static_cast<std::uint64_t>(n));
  for (std::int64_t begin = 0; begin < n; begin += stretch) {
    work.throwIfCancelled();
    const std::int64_t end = std::min(n, begin + stretch);
    detail::filterOutputs<Acc, Sample>(in, taps, spec.mode, out, begin, end, interior);
    work.add(static_cast<std::uint64_t>(end - begin));
  }
}

}  // namespace

void filterSerial(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const Progress& progress) {
  filterSerialAs<double>(in, spec, out, progress);
}

void filterSerial(std::span<const float> in, const FilterSpec& spec, std::span<float> out, const Progress& progress) {
  if (spec.accumulator == Accumulator::Float64) {
    filterSerialAs<double>(in, spec, out, progress);
  } else {
    filterSerialAs<float>(in, spec, out, progress);
  }
}

// The reference of every kind: the direct sum for correlations (Savitzky-Golay's interior
// included), medianFilterReference, sosfilt / sosfiltfilt.
std::string CpuSerialBackend::whyNot(const FilterSpec& /*spec*/, SampleType type) const {
  return whyNotSampleType(type);
}

FilterPass CpuSerialBackend::filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                    const RunOptions& /*options*/, const Progress& progress) {
  if (!spec.isCorrelation()) return detail::timedCpuPass({}, [&] { filterKindReference(in, spec, out, progress); });
  return detail::timedCpuPass({}, [&] { filterSerial(in, spec, out, progress); });
}

FilterPass CpuSerialBackend::filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                    const RunOptions& /*options*/, const Progress& progress) {
  if (!spec.isCorrelation()) return detail::timedCpuPass({}, [&] { filterKindReference(in, spec, out, progress); });
  return detail::timedCpuPass({}, [&] { filterSerial(in, spec, out, progress); });
}

}  // namespace siglab
