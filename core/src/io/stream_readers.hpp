#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "binary_layout.hpp"
#include "file_bytes.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/sample_stream.hpp"

namespace siglab {

// Raw and .npy samples of one channel, read with pread as asked for.
std::unique_ptr<SampleStream> openBinarySampleStream(std::unique_ptr<FileBytes> file, const std::string& path,
                                                     BinaryLayout layout, bool allowNonFinite);
// Text, parsed a window of whole lines at a time (`pathGiven` opens a stream read in part again).
std::unique_ptr<SampleStream> openTextSampleStream(std::unique_ptr<FileBytes> file, const std::string& pathGiven,
                                                   const std::string& path, const ReadOptions& options,
                                                   std::size_t windowBytes);
// The last `count` samples of a text or binary file (empty where the tail is malformed: the full
// read names the error).
std::vector<double> readTextTail(const FileBytes& file, const std::string& path, const ReadOptions& options,
                                 std::size_t count);
std::vector<double> readBinaryTail(const FileBytes& file, const std::string& path, const BinaryLayout& layout,
                                   bool allowNonFinite, std::size_t count);

// A WAV file's `channel` (1-based) through libsndfile, block by block (parseWav's checks and values).
std::unique_ptr<SampleStream> openWavStream(std::unique_ptr<FileBytes> file, const std::string& path,
                                            std::size_t channel, bool allowNonFinite);
// Every channel of a WAV file, block by block; `sampleRate`, where set, replaces the file's.
std::unique_ptr<ChannelStream> openWavChannelStream(std::unique_ptr<FileBytes> file, const std::string& path,
                                                    bool allowNonFinite, std::optional<double> sampleRate);
// Where a WAV file's frames lie in it, for a view that reads them in place (readWavFrames).
struct WavDataLayout {
  std::uint64_t frames = 0;
  double sampleRate = 0.0;
  std::uint64_t dataOffset = 0;  // bytes before the first frame
  std::uint64_t frameBytes = 0;  // bytes a frame holds, all channels
};
// Checks the file as parseWav does (header, truncation, channel: InputError); nullopt for an
// encoding whose frames are not a fixed number of bytes each (ADPCM, ...) or a data chunk not found.
std::optional<WavDataLayout> locateWavData(Bytes file, const std::string& path, std::size_t channel);
// readWavFrames with one libsndfile handle kept open between calls: a seek and a read, no header
// parse, for the many small reads of a plot. One thread at a time.
class WavFrameReader {
 public:
  WavFrameReader(Bytes file, const std::string& path, std::size_t channel);
  ~WavFrameReader();
  void read(std::uint64_t first, std::span<double> out);

 private:
  class Stream;
  std::unique_ptr<Stream> stream_;
};
// What a WAV file's header says, without checking its data; nullopt when libsndfile cannot open it.
struct WavShape {
  std::size_t channels = 0;
  double sampleRate = 0.0;
};
std::optional<WavShape> wavShape(Bytes file);
// Its last `count` samples of `channel`.
std::vector<double> readWavTail(const FileBytes& file, const std::string& path, std::size_t channel, std::size_t count);

}  // namespace siglab
