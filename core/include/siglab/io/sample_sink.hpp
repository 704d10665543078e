#pragma once
// Signals written block by block, for results larger than memory. The file appears only at
// commit(), atomically, as writeSignal's does; the bytes are the same as writeSignal would write.
// Standard output, a pipe or a device gets them all at commit() too, from an unlinked temporary
// file (DirectOutput::spooled), never a partial result.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "siglab/io/signal_io.hpp"

namespace siglab {

/// A signal written block by block; its file appears only at commit().
class SampleSink {
 public:
  virtual ~SampleSink() = default;  // without commit(): nothing is left behind, the old file stays
  virtual void write(std::span<const double> values) = 0;
  virtual void commit() = 0;
};

// A sink for `path` in the format `options` (or its extension) names. `knownCount`, where the
// input says it, lets .npy write its header first; otherwise the header is fixed up at commit().
std::unique_ptr<SampleSink> openSampleSink(const std::string& path, const WriteOptions& options = {},
                                           std::optional<std::uint64_t> knownCount = std::nullopt);

}  // namespace siglab
