#include "siglab/mapped_reading.hpp"

#include <algorithm>

namespace siglab {

ReadOptions mappedFileOptions(const MappedSignal& signal, const ReadOptions& opened) {
  if (!signal.fromCache()) return opened;
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  return raw;
}

Statistics mappedStatistics(const MappedSignal& signal, SampleRange range, const Progress& progress,
                            std::size_t blockSamples) {
  const std::span<const double> part = selectRange(signal.samples(), range);
  const std::size_t first = part.empty() ? 0 : static_cast<std::size_t>(part.data() - signal.samples().data());
  const std::size_t block = std::max<std::size_t>(blockSamples, 1);
  StatisticsAccumulator accumulator(first);
  for (std::size_t done = 0; done < part.size(); done += block) {
    progress.throwIfCancelled();
    const std::size_t n = std::min(block, part.size() - done);
    accumulator.add(part.subspan(done, n));
    signal.release(first + done, n);
    progress.report(static_cast<double>(done + n) / static_cast<double>(part.size()));
  }
  return accumulator.result();
}

}  // namespace siglab
