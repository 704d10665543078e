#include "siglab/io/signal_io.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "file_bytes.hpp"
#include "parallel_work.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/text_format.hpp"

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

FileFormat detectInputFormat(const std::string& path, Bytes bytes, const ReadOptions& options) {
  if (options.format != FileFormat::automatic) return options.format;
  if (options.rawType) return FileFormat::raw;
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

// The bytes of `values` as they lie in memory (little-endian on every host SigLab builds for).
template <typename T>
std::string_view asText(std::span<const T> values) {
  return {reinterpret_cast<const char*>(values.data()), values.size_bytes()};
}

}  // namespace

Signal readSignal(const std::string& path, const ReadOptions& options, const Progress& progress) {
  const FileBytes file(path);
  switch (detectInputFormat(path, file.bytes(), options)) {
    case FileFormat::npy:
      return Signal{parseNpy(file.bytes(), path, options.allowNonFinite, progress), std::nullopt, path};
    case FileFormat::raw:
      return Signal{parseRaw(file.bytes(), path, options.rawType.value_or(SampleType::f64), options.rawOffset,
                             options.allowNonFinite, progress),
                    std::nullopt, path};
    case FileFormat::wav:
      return parseWav(file.bytes(), path, options.channel, options.allowNonFinite, progress);
    case FileFormat::text:
    case FileFormat::automatic: break;
  }
  TextReadOptions text;
  text.column = options.column;
  text.skipHeader = options.skipHeader;
  text.allowNonFinite = options.allowNonFinite;
  return Signal{parseTextSignal(file.text(), path, text, progress), std::nullopt, path};
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
  auto write = [&](std::span<const std::string_view> pieces, const Progress& writing) {
    writeFileAtomically(path, pieces, writing, options.durability);
  };
  switch (options.format == FileFormat::automatic ? formatForOutput(path) : options.format) {
    case FileFormat::npy: {
      const std::string header = npyHeader(values.size());
      const std::string_view pieces[] = {header, asText(values)};
      return write(pieces, progress);
    }
    case FileFormat::raw: {
      if (options.rawType == SampleType::f64) return write({{asText(values)}}, progress);
      if (options.rawType != SampleType::f32) {
        throw std::invalid_argument("raw output is f64 or f32, not " + std::string(sampleTypeName(options.rawType)));
      }
      return write({{asText(std::span<const float>(toFloat32(values)))}}, progress);
    }
    case FileFormat::wav: return write({{asText(std::span<const std::byte>(encodeWavFloat(values, options.sampleRate, path)))}}, progress);
    case FileFormat::text:
    case FileFormat::automatic: break;
  }
  // Formatting takes most of the time; the rest is the write itself.
  const std::vector<std::string> pieces = formatTextPieces(values, options.textStyle, progressSlice(progress, 0.0, 0.7));
  const std::vector<std::string_view> views(pieces.begin(), pieces.end());
  write(views, progressSlice(progress, 0.7, 1.0));
}

std::vector<double> readTextSignal(const std::string& path) {
  ReadOptions options;
  options.format = FileFormat::text;
  return readSignal(path, options).samples;
}

void writeTextSignal(const std::string& path, std::span<const double> values) {
  WriteOptions options;
  options.format = FileFormat::text;
  writeSignal(path, values, options);
}

}  // namespace siglab
