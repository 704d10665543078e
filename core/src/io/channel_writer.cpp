#include <algorithm>
#include <stdexcept>
#include <vector>

#include "channel_output.hpp"
#include "csv_rows.hpp"
#include "dataset_formats.hpp"
#include "parallel_work.hpp"
#include "planar_frames.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/channel_io.hpp"
#include "signal_format.hpp"

namespace siglab {

void requireTextHolds(const std::string& path, std::size_t channels) {
  if (channels > 1 && lowerExtension(path) != ".csv") {
    throw InputError(path, "the text format holds one channel, not " + std::to_string(channels) +
                               ": name the output .csv (one line a frame), .npy, .wav or .raw");
  }
}

void checkOutputHoldsChannels(const std::string& path, const WriteOptions& options, std::size_t channels) {
  if (isDatasetOutput(path, options)) return;  // HDF5 and MAT hold any number
  outputFormat(path, options).checkHolds(path, channels, options);
}

void appendInterleaved(AtomicFileWriter& file, std::span<const std::span<const double>> channels, SampleType type,
                       const Progress& progress) {
  if (type != SampleType::f64 && type != SampleType::f32) {
    throw std::invalid_argument("raw output is f64 or f32, not " + std::string(sampleTypeName(type)));
  }
  const std::size_t frames = commonFrames(channels, "appendInterleaved");
  const std::size_t blockFrames = std::max<std::size_t>(1, (std::size_t{1} << 16) / channels.size());
  std::vector<double> block;
  std::vector<float> narrow;
  for (std::size_t first = 0; first < frames; first += blockFrames) {
    progress.throwIfCancelled();
    const std::size_t n = std::min(blockFrames, frames - first);
    block.resize(n * channels.size());
    interleaveFrames(channels, first, n, block.data());
    if (type == SampleType::f64) {
      file.append({reinterpret_cast<const char*>(block.data()), block.size() * sizeof(double)});
    } else {
      narrow.assign(block.begin(), block.end());
      file.append({reinterpret_cast<const char*>(narrow.data()), narrow.size() * sizeof(float)});
    }
    progress.report(static_cast<double>(first + n) / static_cast<double>(frames));
  }
}

void appendCsvLines(AtomicFileWriter& file, std::span<const std::span<const double>> channels, TextStyle style,
                    const Progress& progress) {
  const std::size_t frames = commonFrames(channels, "appendCsvLines");
  const std::size_t framesPerPiece = std::max<std::size_t>(1, (std::size_t{1} << 15) / channels.size());
  const std::size_t pieces = (frames + framesPerPiece - 1) / framesPerPiece;
  if (pieces <= 1) {  // one piece: no threads to start
    std::string text;
    appendCsvRows(channels, 0, frames, style, text);
    file.append(text);
    return;
  }
  produceInParallelConsumeInOrder(
      pieces,
      [&](std::size_t i, std::string& text) {
        text.clear();
        const std::size_t first = i * framesPerPiece;
        appendCsvRows(channels, first, std::min(framesPerPiece, frames - first), style, text);
      },
      [&](std::size_t i, const std::string& text) {
        progress.throwIfCancelled();
        file.append(text);
        progress.report(static_cast<double>(i + 1) / static_cast<double>(pieces));
      });
  progress.throwIfCancelled();
}

void appendChannels(AtomicFileWriter& file, std::span<const std::span<const double>> channels,
                    const WriteOptions& options, const Progress& progress) {
  commonFrames(channels, "appendChannels");
  if (channels.empty()) throw std::invalid_argument("appendChannels: no channels");
  outputFormat(file.path(), options).append(file, channels, options, progress);
}

void writeChannels(const std::string& path, std::span<const std::span<const double>> channels,
                   const WriteOptions& options, const Progress& progress) {
  commonFrames(channels, "writeChannels");
  if (writeDatasetFile(path, channels, options, progress)) return;
  if (channels.size() > 1) checkOutputHoldsChannels(path, options, channels.size());
  AtomicFileWriter file(path, options.durability);
  appendChannels(file, channels, options, progress);
  file.commit();
}

std::vector<std::span<const double>> channelSpans(const Channels& channels) {
  return {channels.channels.begin(), channels.channels.end()};
}

}  // namespace siglab
