// HDF5 and MATLAB .mat as registered formats: recognised by content, listed in the dialogs, chosen
// by --format or an output's extension. Their libraries read files by name, so a regular file (and
// FILE:NAME) is opened by openDatasetChannelStream before any FileBytes (dataset_files.cpp); what
// reaches these classes as bytes is a stream, which is refused by name.
#include <sys/stat.h>

#include "../channel_readers.hpp"
#include "../dataset_formats.hpp"
#include "../signal_format.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/channel_io.hpp"
#include <cstdint>

namespace siglab {
namespace {

bool isRegularFile(const std::string& path) {
  struct stat info {};
  return path != "-" && ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

class DatasetFormat : public SignalFormat {
 public:
  bool holdsChannels() const override { return true; }
  bool hasRate() const override { return true; }

  Signal read(const FileBytes& file, const std::string& path, const ReadOptions& options,
              const Progress& progress) const override {
    requireFile(file.name(), path);
    ReadOptions one = options;
    one.format = FileFormat::automatic;
    one.oneChannel = true;
    Channels read = readChannels(file.name(), one, progress);
    return Signal{std::move(read.channels.front()), read.sampleRate, path};
  }
  std::unique_ptr<SampleStream> openSamples(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                            const ReadOptions& options) const override {
    requireFile(source.pathGiven, source.path);
    file.reset();
    ReadOptions one = options;
    one.format = FileFormat::automatic;
    return openOneChannelStream(source.pathGiven, one, source.windowBytes);
  }
  std::unique_ptr<ChannelStream> openChannels(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                              const ReadOptions& options) const override {
    requireFile(source.pathGiven, source.path);
    file.reset();
    return openDatasetChannelStream(source.pathGiven, options);
  }

  bool writes() const override { return true; }
  void checkChannels(const std::string&, std::size_t) const override {}  // any number
  void append(AtomicFileWriter& file, std::span<const std::span<const double>>, const WriteOptions&,
              const Progress&) const override {
    throw InputError(file.path(), std::string(description()) + " is written by filter, generate and the GUI's Save, "
                                                               "not by this command");
  }

 private:
  void requireFile(const std::string& pathGiven, const std::string& path) const {
    if (!isRegularFile(pathGiven)) {
      throw InputError(path, "an " + std::string(description()) + " file, which SigLab reads from a file by name, not "
                                                                  "from standard input or a pipe: save it to a file first");
    }
  }
};

class Hdf5Format final : public DatasetFormat {
 public:
  std::string_view name() const override { return "hdf5"; }
  std::string_view description() const override { return "HDF5"; }
  std::vector<std::string_view> extensions() const override { return {".h5", ".hdf5", ".he5"}; }
  bool recognises(Bytes head) const override { return datasetFileKind(head) == DatasetFileKind::hdf5; }
  std::unique_ptr<ChannelSink> openSink(const std::string& path, const WriteOptions& options, std::size_t channels,
                                        std::optional<std::uint64_t>) const override {
    return openHdf5Sink(path, options, channels);
  }
};

class MatFormat final : public DatasetFormat {
 public:
  std::string_view name() const override { return "mat"; }
  std::string_view description() const override { return "MATLAB"; }
  std::vector<std::string_view> extensions() const override { return {".mat"}; }
  bool recognises(Bytes head) const override {
    const DatasetFileKind kind = datasetFileKind(head);
    return kind == DatasetFileKind::mat5 || kind == DatasetFileKind::mat73;
  }
  std::unique_ptr<ChannelSink> openSink(const std::string& path, const WriteOptions& options, std::size_t channels,
                                        std::optional<std::uint64_t>) const override {
    return openMatSink(path, options, channels);
  }
};

}  // namespace

const SignalFormat& hdf5Format() {
  static const Hdf5Format format;
  return format;
}

const SignalFormat& matFormat() {
  static const MatFormat format;
  return format;
}

}  // namespace siglab
