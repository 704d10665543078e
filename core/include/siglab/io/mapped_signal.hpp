#pragma once
// Signals viewed without loading them: float64 samples straight from a file's mapping, or a WAV
// file's samples converted as they are read from its mapping. A text file (or any other format) is
// parsed once, streamed, into a float64 cache file that is mapped instead, found again by its
// content's hash next time. A file of several channels is viewed one channel at a time.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#include "siglab/io/signal_io.hpp"
#include "siglab/progress.hpp"

namespace siglab {

class FileBytes;
class WavFrameReader;

/// A signal file viewed through its mapping, its samples read as they are touched.
class MappedSignal {
 public:
  ~MappedSignal();
  MappedSignal(const MappedSignal&) = delete;
  MappedSignal& operator=(const MappedSignal&) = delete;

  // The samples, read from the page cache as they are touched; empty for a converted signal (a
  // WAV file, or one channel of float64 frames of several), whose samples only read() gives.
  std::span<const double> samples() const { return samples_; }
  std::size_t size() const { return size_; }
  bool converted() const { return wavChannel_ != 0 || stride_ != sizeof(double); }
  // The file's channels (what readChannels reads of it) and the one mapped, 1-based.
  std::size_t channels() const { return channels_; }
  std::size_t channel() const { return channel_; }
  // Samples [first, first + out.size()) into `out`: copied (up to 256 KiB by pread, not through
  // the mapping's faults; gathered from their frames), or converted from the WAV file's encoding
  // exactly as readSignal converts it. Safe on several threads at once; throws std::out_of_range
  // past the end.
  void read(std::size_t first, std::span<double> out) const;
  std::optional<double> sampleRate() const { return sampleRate_; }
  const std::string& mappedPath() const { return mappedPath_; }  // the file itself or its cache
  bool fromCache() const { return fromCache_; }

  // Lets go of the resident pages holding samples [first, first + count), rounded out to 2 MiB,
  // the largest folio one read maps (they are read again when touched): whoever scans the signal,
  // or reads a few samples of it, calls it behind itself to keep resident memory bounded.
  void release(std::size_t first, std::size_t count) const;

  // Opens channel options.channel of `path` (of what readChannels reads with `options`; a file
  // of one channel: the file) for viewing: raw float64 (at an offset that is a multiple of 8,
  // interleaved channels too) and .npy '<f8' files (N x C in either order) are mapped as they
  // are, WAV files (PCM 8/16/24/32-bit, float, double) converted as read; every other file goes
  // through cacheAsFloat64 into `cacheFolder`, a cache file a channel. A channel the file lacks
  // is an InputError naming the file.
  static std::unique_ptr<MappedSignal> open(const std::string& path, const ReadOptions& options,
                                            const std::string& cacheFolder, const Progress& progress = {});

 private:
  MappedSignal() = default;
  std::unique_ptr<FileBytes> file_;
  std::span<const double> samples_;
  std::size_t size_ = 0;
  std::size_t dataOffset_ = 0;  // bytes of the file before sample 0
  std::size_t stride_ = sizeof(double);  // bytes from one sample to the next (a WAV file's frame)
  std::size_t wavChannel_ = 0;  // 1-based; 0: the samples are float64 in place
  std::size_t channel_ = 1;
  std::size_t channels_ = 1;
  mutable std::mutex smallReadsMutex_;
  mutable std::unique_ptr<WavFrameReader> smallReads_;  // a plot's many short reads share one handle
  std::optional<double> sampleRate_;
  std::string mappedPath_;
  bool fromCache_ = false;
};

// What MappedSignal::open takes to map channel `channel` (1-based) of the file `options` read:
// `options` picking that one channel (oneChannel).
ReadOptions mappedChannelOptions(ReadOptions options, std::size_t channel);

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
