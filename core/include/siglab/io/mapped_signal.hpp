#pragma once
// Signals viewed without loading them: float64 samples straight from a file's mapping. A text file
// (or any other format) is parsed once, streamed, into a float64 cache file that is mapped instead,
// found again by its content's hash next time.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "siglab/io/signal_io.hpp"
#include "siglab/progress.hpp"

namespace siglab {

class FileBytes;

class MappedSignal {
 public:
  ~MappedSignal();
  MappedSignal(const MappedSignal&) = delete;
  MappedSignal& operator=(const MappedSignal&) = delete;

  // The samples, read from the page cache as they are touched.
  std::span<const double> samples() const { return samples_; }
  std::optional<double> sampleRate() const { return sampleRate_; }
  const std::string& mappedPath() const { return mappedPath_; }  // the file itself or its cache
  bool fromCache() const { return fromCache_; }

  // Lets go of the resident pages holding samples [first, first + count), rounded out to 2 MiB,
  // the largest folio one read maps (they are read again when touched): whoever scans the signal,
  // or reads a few samples of it, calls it behind itself to keep resident memory bounded.
  void release(std::size_t first, std::size_t count) const;

  // Opens `path` for viewing: raw float64 (at an offset that is a multiple of 8) and .npy '<f8'
  // files are mapped as they are; every other file goes through cacheAsFloat64 into `cacheFolder`.
  static std::unique_ptr<MappedSignal> open(const std::string& path, const ReadOptions& options,
                                            const std::string& cacheFolder, const Progress& progress = {});

 private:
  MappedSignal() = default;
  std::unique_ptr<FileBytes> file_;
  std::span<const double> samples_;
  std::optional<double> sampleRate_;
  std::string mappedPath_;
  bool fromCache_ = false;
};

// $XDG_CACHE_HOME/siglab, else $HOME/.cache/siglab.
std::string defaultCacheFolder();

struct CachedSignal {
  std::string path;                  // a raw float64 file
  std::uint64_t samples = 0;
  std::optional<double> sampleRate;  // WAV's
  bool reused = false;               // found from an earlier run
};

// `input` as a raw float64 file in `folder`, named by a hash of its content, its size and the read
// options; parsed with the streaming reader (bounded memory) and written atomically, or reused when
// present. Then removes the least recently used caches while the folder holds more than `maxBytes`.
CachedSignal cacheAsFloat64(const std::string& input, const ReadOptions& options, const std::string& folder,
                            const Progress& progress = {}, std::uint64_t maxBytes = std::uint64_t{64} << 30);

}  // namespace siglab
