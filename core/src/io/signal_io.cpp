#include "siglab/io/signal_io.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <stdexcept>

#include "channel_readers.hpp"
#include "dataset_formats.hpp"
#include "file_bytes.hpp"
#include "signal_format.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/text_format.hpp"
#include "siglab/sample_rate.hpp"
#include "text_parse.hpp"

namespace siglab {
namespace {

Signal parseFile(const FileBytes& file, const std::string& path, const ReadOptions& options, const Progress& progress) {
  return inputFormat(path, file.bytes(), options).read(file, path, options, progress);
}

}  // namespace

Signal readSignal(const std::string& path, const ReadOptions& options, const Progress& progress) {
  if (readsThroughChannels(path, options)) {  // a layout of several channels, or an HDF5/MAT file: pick one
    ReadOptions one = options;
    one.oneChannel = true;
    Channels read = readChannels(path, one, progress);
    return Signal{std::move(read.channels.front()), read.sampleRate, std::move(read.sourcePath)};
  }
  if (options.sampleRate) checkSampleRate(*options.sampleRate);
  const FileBytes file(path);
  try {
    Signal signal = parseFile(file, file.name(), options, progress);
    file.throwIfChanged();
    if (options.sampleRate) signal.sampleRate = options.sampleRate;
    return signal;
  } catch (const InputError&) {
    file.throwIfChanged();  // a file cut short while parsed: that, not the parse error it caused
    throw;
  }
}

void writeSignal(const std::string& path, std::span<const double> values, const WriteOptions& options,
                 const Progress& progress) {
  if (const std::span<const double> one[] = {values}; writeDatasetFile(path, one, options, progress)) return;
  AtomicFileWriter file(path, options.durability);
  appendSignal(file, values, options, progress);
  file.commit();
}

void appendSignal(AtomicFileWriter& file, std::span<const double> values, const WriteOptions& options,
                  const Progress& progress) {
  const std::span<const double> one[] = {values};
  outputFormat(file.path(), options).append(file, one, options, progress);
}

std::vector<double> readTextSignal(const std::string& path) {
  ReadOptions options;
  options.format = FileFormat::text;
  return readSignal(path, options).samples.toVector();
}

void writeTextSignal(const std::string& path, std::span<const double> values) {
  WriteOptions options;
  options.format = FileFormat::text;
  writeSignal(path, values, options);
}

}  // namespace siglab
