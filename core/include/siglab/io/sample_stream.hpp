#pragma once
// Signals read block by block with bounded memory, for files larger than memory: the streaming
// filter and statistics read through this instead of readSignal.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "siglab/io/signal_io.hpp"

namespace siglab {

/// A signal read block by block, in memory that does not grow with the file.
class SampleStream {
 public:
  virtual ~SampleStream() = default;

  // Fills `out` with the next samples and returns how many; fewer than out.size() only at the
  // end, 0 once there is nothing left. Throws InputError as readSignal does (the file, the line
  // or sample, what was wrong), also when the file changed while it was read.
  virtual std::size_t read(std::span<double> out) = 0;

  // The number of samples where the format says it up front (.npy, raw, WAV); nullopt for text.
  virtual std::optional<std::uint64_t> knownSize() const = 0;
  virtual std::optional<double> sampleRate() const { return std::nullopt; }
  // How far through the file the stream is, 0..1, for progress.
  virtual double fractionRead() const = 0;
};

inline constexpr std::uint64_t kAllSamples = UINT64_MAX;

// Opens `path` as readSignal would read it (the same formats, options and checks), without
// reading its samples yet. At most about `windowBytes` of the file are resident at a time.
// A reader that needs only the first `samplesNeeded` samples says so: a stream (a pipe, a FIFO,
// standard input) of text or raw samples is then read only as far as they take (text: as parsed,
// so a reader that stops reading stops the stream's), not to its end; .npy and WAV whole.
std::unique_ptr<SampleStream> openSampleStream(const std::string& path, const ReadOptions& options = {},
                                               std::size_t windowBytes = std::size_t{32} << 20,
                                               std::uint64_t samplesNeeded = kAllSamples);

// The size of the file `path` names, in bytes; standard input ("-") and pipes are read to their
// end into a temporary file first, as every reader of them does (so they can be read again).
std::uint64_t inputSizeBytes(const std::string& path);

// The last `count` samples of the signal (all of it when it is shorter), read without reading the
// rest where the format allows (binary formats seek; text is parsed backwards from its end). A
// malformed tail gives what could be read: the full read reports the error in its place.
std::vector<double> readSignalTail(const std::string& path, const ReadOptions& options, std::size_t count);

}  // namespace siglab
