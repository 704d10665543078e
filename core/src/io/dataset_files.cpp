// What HDF5 and MAT files share, whichever libraries this SigLab was built with: recognising them,
// FILE:NAME, choosing the dataset, and the way to their readers and writers.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <numeric>

#include "channel_readers.hpp"
#include "dataset_formats.hpp"
#include "planar_frames.hpp"
#include "siglab/errors.hpp"

namespace siglab {
namespace {

constexpr char kHdf5Signature[] = "\x89HDF\r\n\x1a\n";

bool hasAt(std::span<const std::byte> bytes, std::size_t at, std::string_view text) {
  return bytes.size() >= at + text.size() && std::memcmp(bytes.data() + at, text.data(), text.size()) == 0;
}

bool isRegularFile(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

std::string lowerExtension(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

bool isHdf5Extension(const std::string& extension) {
  return extension == ".h5" || extension == ".hdf5" || extension == ".he5" || extension == ".hdf";
}

enum class OutputKind { none, hdf5, mat };

// An output named FILE.h5[:NAME] or FILE.mat[:NAME]: split at the first ':' after such a name.
OutputKind outputKind(const std::string& path, DatasetPath& split) {
  split = {path, {}};
  for (std::size_t colon = path.find(':'); ; colon = path.find(':', colon + 1)) {
    const std::string file = colon == std::string::npos ? path : path.substr(0, colon);
    const std::string extension = lowerExtension(file);
    if (isHdf5Extension(extension) || extension == ".mat") {
      if (colon != std::string::npos) split = {file, path.substr(colon + 1)};
      return extension == ".mat" ? OutputKind::mat : OutputKind::hdf5;
    }
    if (colon == std::string::npos) return OutputKind::none;
  }
}

std::string joinedName(const std::string& path, const std::string& fromPath, const std::string& fromOptions) {
  if (!fromPath.empty() && !fromOptions.empty() && fromPath != fromOptions) {
    throw InputError(path, "two datasets named: \"" + fromPath + "\" after the file name and \"" + fromOptions +
                               "\" by --dataset");
  }
  return fromPath.empty() ? fromOptions : fromPath;
}

// The library that reads a dataset file of `kind`, for messages.
const char* libraryOf(DatasetFileKind kind) { return kind == DatasetFileKind::mat5 ? "matio" : "HDF5"; }

std::vector<DatasetEntry> listDatasetsOf(const std::string& file, DatasetFileKind kind) {
  switch (kind) {
    case DatasetFileKind::hdf5: return listHdf5Datasets(file);
    case DatasetFileKind::mat73: return listHdf5Datasets(file, Hdf5Layout::matlab);
    case DatasetFileKind::mat5: return listMatVariables(file);
    case DatasetFileKind::none: break;
  }
  if (!isRegularFile(file)) throw InputError(file, "no such file (or not a regular file)");
  throw InputError(file, "neither an HDF5 nor a MATLAB .mat file");
}

std::unique_ptr<ChannelStream> openDatasetFile(const std::string& file, const ReadOptions& named, DatasetFileKind kind) {
  switch (kind) {
    case DatasetFileKind::hdf5: return openHdf5ChannelStream(file, named);
    case DatasetFileKind::mat73: return openHdf5ChannelStream(file, named, Hdf5Layout::matlab);
    case DatasetFileKind::mat5: return openMatChannelStream(file, named);
    case DatasetFileKind::none: break;
  }
  throw InputError(file, "a dataset (\"" + named.dataset + "\") is named, but the file is neither HDF5 nor "
                               "MATLAB .mat");
}

}  // namespace

DatasetFileKind datasetFileKind(std::span<const std::byte> start) {
  const std::string_view signature(kHdf5Signature, 8);
  if (hasAt(start, 0, "MATLAB 7.3 MAT-file") && hasAt(start, 512, signature)) return DatasetFileKind::mat73;
  if (hasAt(start, 0, "MATLAB 5.0 MAT-file") && (hasAt(start, 126, "IM") || hasAt(start, 126, "MI"))) {
    return DatasetFileKind::mat5;
  }
  for (const std::size_t at : {0, 512, 1024}) {  // the superblock may follow a user block
    if (hasAt(start, at, signature)) return DatasetFileKind::hdf5;
  }
  return DatasetFileKind::none;
}

DatasetFileKind datasetFileKindOf(const std::string& path) {
  if (path == "-" || !isRegularFile(path)) return DatasetFileKind::none;  // never take bytes from a stream
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return DatasetFileKind::none;
  std::byte start[1032];
  const ssize_t got = ::pread(fd, start, sizeof start, 0);
  ::close(fd);
  return got > 0 ? datasetFileKind(std::span(start, static_cast<std::size_t>(got))) : DatasetFileKind::none;
}

DatasetPath splitDatasetPath(const std::string& path) {
  if (path == "-" || ::access(path.c_str(), F_OK) == 0) return {path, {}};
  for (std::size_t colon = path.find(':'); colon != std::string::npos; colon = path.find(':', colon + 1)) {
    std::string file = path.substr(0, colon);
    if (isRegularFile(file)) return {std::move(file), path.substr(colon + 1)};
  }
  return {path, {}};
}

std::string datasetOutputFile(const std::string& path) {
  DatasetPath split;
  outputKind(path, split);
  return split.file;
}

bool readsThroughChannels(const std::string& path, const ReadOptions& options) {
  return picksOneOfSeveral(options) || readsAsDataset(path, options);
}

bool readsAsDataset(const std::string& path, const ReadOptions& options) {
  return options.format == FileFormat::automatic && !options.rawType &&
         (!options.dataset.empty() || isDatasetInput(path));
}

bool writeDatasetFile(const std::string& path, std::span<const std::span<const double>> channels,
                      const WriteOptions& options, const Progress& progress) {
  const std::size_t frames = commonFrames(channels, "writeDatasetFile");
  const std::unique_ptr<ChannelSink> sink = openDatasetSink(path, options, channels.size());
  if (!sink) return false;
  constexpr std::size_t kBlockFrames = 1 << 16;
  std::vector<std::span<const double>> block(channels.size());
  for (std::size_t first = 0; first < frames; first += kBlockFrames) {
    progress.throwIfCancelled();
    const std::size_t n = std::min(kBlockFrames, frames - first);
    for (std::size_t c = 0; c < channels.size(); ++c) block[c] = channels[c].subspan(first, n);
    sink->write(block);
    progress.report(static_cast<double>(first + n) / static_cast<double>(frames));
  }
  sink->commit();
  return true;
}

std::vector<DatasetEntry> listDatasets(const std::string& path) {
  const std::string file = splitDatasetPath(path).file;
  const DatasetFileKind kind = datasetFileKindOf(file);
  if (kind == DatasetFileKind::none) return listDatasetsOf(file, kind);  // throws, saying why
  return listInChild(file, libraryOf(kind), [&] { return listDatasetsOf(file, kind); });
}

bool isDatasetInput(const std::string& path) { return datasetFileKindOf(splitDatasetPath(path).file) != DatasetFileKind::none; }

bool isDatasetOutput(const std::string& path, const WriteOptions& options) {
  if (options.format != FileFormat::automatic) return false;
  DatasetPath split;
  return outputKind(path, split) != OutputKind::none;
}

std::unique_ptr<ChannelStream> openDatasetChannelStream(const std::string& pathGiven, const ReadOptions& options) {
  const DatasetPath split = splitDatasetPath(pathGiven);
  ReadOptions named = options;
  named.dataset = joinedName(split.file, split.dataset, options.dataset);
  const DatasetFileKind kind = datasetFileKindOf(split.file);
  // HDF5 (and MAT 7.3) is read in a child process whole (hdf5_reader.cpp); a MAT v5 file's
  // headers are read in one first, and its samples in another (mat_reader.cpp).
  if (kind == DatasetFileKind::mat5) readHeadersInChild(split.file, libraryOf(kind), [&] { listMatVariables(split.file); });
  return openDatasetFile(split.file, named, kind);
}

std::unique_ptr<ChannelSink> openDatasetSink(const std::string& path, const WriteOptions& options, std::size_t channels) {
  if (options.format != FileFormat::automatic) return nullptr;
  DatasetPath split;
  const OutputKind kind = outputKind(path, split);
  if (kind == OutputKind::none) return nullptr;
  WriteOptions named = options;
  named.dataset = joinedName(split.file, split.dataset, options.dataset);
  return kind == OutputKind::mat ? openMatSink(split.file, named, channels) : openHdf5Sink(split.file, named, channels);
}

const DatasetEntry& chooseDataset(const std::vector<DatasetEntry>& entries, const std::string& wanted,
                                  const std::string& path, const char* word) {
  const std::string plural = std::string(word) + "s";
  if (wanted.empty()) {
    if (entries.size() == 1) return entries.front();
    if (entries.empty()) throw InputError(path, "holds no numeric 1-D or 2-D " + plural);
    throw InputError(path, "holds several numeric " + plural + ": name one as " + path + ":NAME (" +
                               describeDatasets(entries) + ")");
  }
  const auto same = [&](const DatasetEntry& e) {
    return e.name == wanted || (e.name.front() == '/' && e.name.substr(1) == wanted);
  };
  if (const auto found = std::find_if(entries.begin(), entries.end(), same); found != entries.end()) return *found;
  throw InputError(path, std::string(word) + " \"" + wanted + "\" not found" +
                             (entries.empty() ? ": the file holds no numeric 1-D or 2-D " + plural
                                              : "; the numeric " + plural + " are " + describeDatasets(entries)));
}

std::string datasetLabel(const DatasetEntry& entry) {
  std::string shape;
  for (const std::uint64_t d : entry.shape) shape += (shape.empty() ? "" : " x ") + std::to_string(d);
  return entry.name + ": " + shape + " " + entry.type + " (" + std::to_string(entry.channels) +
         (entry.channels == 1 ? " channel of " : " channels of ") + std::to_string(entry.frames) + " samples)";
}

std::string describeDatasets(const std::vector<DatasetEntry>& entries) {
  std::string text;
  for (const DatasetEntry& e : entries) {
    if (!text.empty()) text += ", ";
    std::string shape;
    for (const std::uint64_t d : e.shape) shape += (shape.empty() ? "" : " x ") + std::to_string(d);
    text += "\"" + e.name + "\" (" + shape + " " + e.type + ")";
  }
  return text;
}

std::vector<std::size_t> datasetChannelsToKeep(const ReadOptions& options, std::uint64_t channels,
                                               const std::string& where) {
  constexpr std::uint64_t kMaxChannels = 1024;  // as the other formats: more is an array the wrong way round
  if (options.oneChannel) {
    if (options.channel < 1 || options.channel > channels) throw missingChannel(where, options.channel, channels);
    return {options.channel - 1};
  }
  if (channels > kMaxChannels) {
    throw InputError(where, "has " + std::to_string(channels) + " channels (columns), more than the " +
                                std::to_string(kMaxChannels) + " SigLab reads at once (samples go down the rows: "
                                "transpose it), or pick one with --channel");
  }
  std::vector<std::size_t> all(channels);
  std::iota(all.begin(), all.end(), std::size_t{0});
  return all;
}

}  // namespace siglab
