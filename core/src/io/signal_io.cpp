#include "siglab/io/signal_io.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <stdexcept>

#include "channel_readers.hpp"
#include "dataset_formats.hpp"
#include "file_bytes.hpp"
#include "input_format.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/text_format.hpp"
#include "siglab/sample_rate.hpp"
#include "text_parse.hpp"

namespace siglab {
namespace {

std::string lowerExtension(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

bool startsWith(Bytes bytes, std::string_view prefix, std::size_t at = 0) {
  return bytes.size() >= at + prefix.size() && std::memcmp(bytes.data() + at, prefix.data(), prefix.size()) == 0;
}

// The bytes of contiguous `values` as they lie in memory (little-endian on every host SigLab builds for).
template <typename Contiguous>
std::string_view asText(const Contiguous& values) {
  return {reinterpret_cast<const char*>(std::data(values)), std::size(values) * sizeof(*std::data(values))};
}

Signal parseFile(const FileBytes& file, const std::string& path, const ReadOptions& options, const Progress& progress) {
  switch (detectInputFormat(path, file.bytes(), options)) {
    case FileFormat::npy:
      return Signal{parseNpy(file.bytes(), path, options.allowNonFinite, progress, options.hostMemory), std::nullopt, path};
    case FileFormat::raw:
      return Signal{parseRaw(file.bytes(), path, options.rawType.value_or(SampleType::f64), options.rawOffset,
                             options.allowNonFinite, progress, options.hostMemory),
                    std::nullopt, path};
    case FileFormat::wav:
      return parseWav(file.bytes(), path, options.channel, options.allowNonFinite, progress, options.hostMemory);
    case FileFormat::text:
    case FileFormat::automatic: break;
  }
  return Signal{parseTextSignal(file.text(), path, textReadOptions(options), progress), std::nullopt, path};
}

}  // namespace

FileFormat detectInputFormat(const std::string& path, Bytes bytes, const ReadOptions& options) {
  if (options.format != FileFormat::automatic) return options.format;
  if (options.rawType) return FileFormat::raw;
  if (datasetFileKind(bytes) != DatasetFileKind::none) {  // a regular one went to openDatasetChannelStream
    throw InputError(path, "an HDF5 or MATLAB file, which SigLab reads from a file by name, not from standard input or "
                           "a pipe: save it to a file first");
  }
  if (startsWith(bytes, "\x93NUMPY")) return FileFormat::npy;
  if ((startsWith(bytes, "RIFF") || startsWith(bytes, "RF64")) && startsWith(bytes, "WAVE", 8)) return FileFormat::wav;
  const std::string extension = lowerExtension(path);
  if (extension == ".npy") return FileFormat::npy;
  if (extension == ".wav") return FileFormat::wav;
  if (extension == ".raw" || extension == ".bin") {
    throw InputError(path, "a raw binary file: name its sample type (--raw f64|f32|i16|i32)");
  }
  return FileFormat::text;
}

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

FileFormat formatForOutput(const std::string& path) {
  const std::string extension = lowerExtension(path);
  if (extension == ".npy") return FileFormat::npy;
  if (extension == ".wav") return FileFormat::wav;
  if (extension == ".raw" || extension == ".bin") return FileFormat::raw;
  return FileFormat::text;
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
  const std::string& path = file.path();
  auto write = [&](std::initializer_list<std::string_view> pieces) {
    appendPieces(file, std::span(pieces.begin(), pieces.size()), progress);
  };
  switch (options.format == FileFormat::automatic ? formatForOutput(path) : options.format) {
    case FileFormat::npy: return write({npyHeader(values.size()), asText(values)});
    case FileFormat::raw:
      if (options.rawType == SampleType::f64) return write({asText(values)});
      if (options.rawType == SampleType::f32) return write({asText(toFloat32(values))});
      throw std::invalid_argument("raw output is f64 or f32, not " + std::string(sampleTypeName(options.rawType)));
    case FileFormat::wav: return write({asText(encodeWavFloat(values, options.sampleRate, path))});
    case FileFormat::text:
    case FileFormat::automatic: break;
  }
  appendTextLines(file, values, options.textStyle, progress);
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
