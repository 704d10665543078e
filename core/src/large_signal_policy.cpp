#include "siglab/large_signal_policy.hpp"

#include <unistd.h>

#include <algorithm>
#include <limits>

namespace siglab {

std::uint64_t physicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);
}

std::uint64_t float64BytesOf(std::uint64_t fileBytes, const ReadOptions& options) {
  if (!options.rawType) return fileBytes;
  const std::uint64_t data = fileBytes > options.rawOffset ? fileBytes - options.rawOffset : 0;
  return data / sampleSize(*options.rawType) * sizeof(double);
}

std::uint64_t mappingThresholdBytes(std::uint64_t physicalBytes) {
  return physicalBytes > 0 ? physicalBytes / kMappingFraction : std::numeric_limits<std::uint64_t>::max();
}

std::uint64_t samplesToCompareInMemory(std::uint64_t thresholdBytes) {
  return std::max<std::uint64_t>(thresholdBytes / sizeof(double), 1);
}

SampleRange compareRangeWithin(SampleRange visible, std::uint64_t maxSamples) {
  const std::uint64_t length = visible.end > visible.begin ? visible.end - visible.begin : 0;
  if (length <= maxSamples) return visible;
  const std::uint64_t begin = visible.begin + (length - maxSamples) / 2;
  return {begin, begin + maxSamples};
}

}  // namespace siglab
