#include "siglab/mapped_reading.hpp"

#include <algorithm>
#include <vector>

namespace siglab {

ReadOptions mappedFileOptions(const MappedSignal& signal, const ReadOptions& opened) {
  if (!signal.fromCache()) {
    ReadOptions one = opened;  // a mapped signal is the one channel it was opened with
    one.oneChannel = true;
    return one;
  }
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  return raw;
}

Statistics mappedStatistics(const MappedSignal& signal, SampleRange range, const Progress& progress,
                            std::size_t blockSamples) {
  range = checkedRange(signal.size(), range);
  const std::size_t first = range.begin, length = range.end - range.begin;
  // A converted signal's blocks are read into a buffer: 512 KiB at most.
  const std::size_t most = signal.converted() ? std::size_t{1} << 16 : blockSamples;
  const std::size_t block = std::max<std::size_t>(std::min(blockSamples, most), 1);
  std::vector<double> converted(signal.converted() ? std::min(block, length) : 0);
  StatisticsAccumulator accumulator(first);
  for (std::size_t done = 0; done < length; done += block) {
    progress.throwIfCancelled();
    const std::size_t n = std::min(block, length - done);
    if (signal.converted()) {
      signal.read(first + done, std::span(converted).first(n));
      accumulator.add(std::span<const double>(converted).first(n));
    } else {
      accumulator.add(signal.samples().subspan(first + done, n));
    }
    signal.release(first + done, n);
    progress.report(static_cast<double>(done + n) / static_cast<double>(length));
  }
  return accumulator.result();
}

}  // namespace siglab
