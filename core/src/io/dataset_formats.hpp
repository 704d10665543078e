#pragma once
// The readers and writers of HDF5 and MATLAB files (hdf5_*.cpp, mat_*.cpp; *_absent.cpp where
// the library is missing), for openChannelStream and openChannelSink.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <sys/types.h>

#include "siglab/io/channel_sink.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/dataset_files.hpp"
#include "siglab/io/sample_sink.hpp"
#include "stored_chunks.hpp"

namespace siglab {

// How a MATLAB 7.3 variable lies in its HDF5 dataset: dimensions reversed (column-major).
enum class Hdf5Layout { plain, matlab };

// The dataset options.dataset names (else the file's only numeric one) of HDF5 file `path`, block by
// block; options.oneChannel picks options.channel. The rate: options.sampleRate, else the dataset's
// attribute options.rateAttribute (else the first of rate, fs, sampling_rate, sample_rate present).
std::unique_ptr<ChannelStream> openHdf5ChannelStream(const std::string& path, const ReadOptions& options,
                                                     Hdf5Layout layout = Hdf5Layout::plain);
std::vector<DatasetEntry> listHdf5Datasets(const std::string& path, Hdf5Layout layout = Hdf5Layout::plain);

// A MATLAB v5 file's variable (options.dataset, else its only numeric one), read whole with matio.
std::unique_ptr<ChannelStream> openMatChannelStream(const std::string& path, const ReadOptions& options);
std::vector<DatasetEntry> listMatVariables(const std::string& path);

// Writers: float64 N (one channel) or N x C, HDF5 chunked with the rate in attribute
// options.rateAttribute (default "rate"); MAT v5 (v7.3 beyond v5's 2 GiB a variable) as an N x C matrix.
std::unique_ptr<ChannelSink> openHdf5Sink(const std::string& path, const WriteOptions& options, std::size_t channels);
std::unique_ptr<ChannelSink> openMatSink(const std::string& path, const WriteOptions& options, std::size_t channels);

// Shared by both: the entry `wanted` names (with or without HDF5's leading '/'), else the only one;
// InputError naming the file and listing what it holds otherwise. `word`: "dataset" or "variable".
const DatasetEntry& chooseDataset(const std::vector<DatasetEntry>& entries, const std::string& wanted,
                                  const std::string& path, const char* word);
// "'/a' (1000 x 2 float64), '/b' (...)" for messages.
std::string describeDatasets(const std::vector<DatasetEntry>& entries);
// The 0-based channels to read of `channels` (all, or options.channel), as the other formats.
std::vector<std::size_t> datasetChannelsToKeep(const ReadOptions& options, std::uint64_t channels,
                                               const std::string& where);

// Opens the dataset file `path` names (splitDatasetPath, options.dataset) by its kind.
std::unique_ptr<ChannelStream> openDatasetChannelStream(const std::string& path, const ReadOptions& options);
// The sink for an output named FILE.h5[:NAME] / FILE.mat[:NAME] (by extension), else nullptr.
std::unique_ptr<ChannelSink> openDatasetSink(const std::string& path, const WriteOptions& options, std::size_t channels);
// Whether `path` (possibly FILE:NAME) is an HDF5 or MAT input / names an HDF5 or MAT output.
bool isDatasetInput(const std::string& path);
bool isDatasetOutput(const std::string& path, const WriteOptions& options);
// Whether the readers take `path` with `options` through openDatasetChannelStream: automatic
// format, no --raw, and an HDF5/MAT file or a dataset named.
bool readsAsDataset(const std::string& path, const ReadOptions& options);
// writeChannels and writeSignal for an HDF5/MAT output (block by block, progress, cancel); false,
// having done nothing, for any other output.
bool writeDatasetFile(const std::string& path, std::span<const std::span<const double>> channels,
                      const WriteOptions& options, const Progress& progress);

// fork() with no other thread inside libhdf5 (its lock held across the fork; the child starts
// with a lock of its own): the child may call the library. Plain fork() without HDF5.
pid_t forkOutsideHdf5();

// Runs `readHeaders` (what the library does first with the file `path`) in a child process: a
// crash, a hang past the time limit, or running out of its memory limit there is an InputError
// naming `path` and `library` ("HDF5", "matio"). An exception `readHeaders` throws is not: the
// caller reads the file itself next and meets it there.
void readHeadersInChild(const std::string& path, const char* library, const std::function<void()>& readHeaders);

// Runs `readSamples` (the library reading `count` samples of the file `path`, handed to its sink block
// by block, converted to float64) in a child process, as readHeadersInChild does, and returns them,
// passed up a pipe: the library reads the samples outside this process too. An InputError it throws
// is thrown here, as it was; the time limit grows with the samples' size.
// For tests (DatasetChildFault::crashReadingSamples, crashReadingLaterSamples): a child process
// aborts here, where the library starts on the samples (`first`: their first block).
void samplesAboutToBeRead(bool first = true);
using SampleBlockSink = std::function<void(std::span<const double>)>;
std::vector<double> readSamplesInChild(const std::string& path, const char* library, std::size_t count,
                                       const std::function<void(const SampleBlockSink&)>& readSamples);

// What `list` (the library listing the file `path`'s datasets) returns, listed in a child process
// as readHeadersInChild reads: nothing of the file is parsed in this process.
std::vector<DatasetEntry> listInChild(const std::string& path, const char* library,
                                      const std::function<std::vector<DatasetEntry>()>& list);

// A dataset whose chunks the child sends as the file stores them, for this process to decode
// (stored_chunks.hpp), instead of its samples decoded by the library.
class StoredChunkSource {
 public:
  virtual ~StoredChunkSource() = default;
  virtual const StoredChunkLayout& storedLayout() const = 0;
  virtual std::span<const std::size_t> keptChannels() const = 0;
  // The chunk at file-order `offset` as stored into `bytes`; returns the filters it skipped (a mask).
  virtual std::uint32_t readStoredChunk(const std::array<std::uint64_t, 2>& offset, std::vector<unsigned char>& bytes) = 0;
};

// A stream opened by a library, and the file and dataset it reads (FILE:NAME) for messages;
// `storedChunks` (the stream's own, or null) where its chunks can be sent as stored.
struct NamedChannelStream {
  std::unique_ptr<ChannelStream> stream;
  std::string where;
  StoredChunkSource* storedChunks = nullptr;
};
// A ChannelStream read in a child process: `open` (the library opening `path` with `options`)
// runs there, and its frames come up a pipe a block at a time, this process checking their counts,
// its rate and (unless options.allowNonFinite) that they are finite. A crash, a hang or running out
// of memory there is an InputError naming the file, at the open or at the read that meets it; its
// waits end with Cancelled when the work is cancelled. Without a child (the fuzz targets' setting,
// or no process could be made) `open` runs here.
std::unique_ptr<ChannelStream> openChannelStreamInChild(const std::string& path, const char* library,
                                                        const ReadOptions& options,
                                                        const std::function<NamedChannelStream(const ReadOptions&)>& open);

}  // namespace siglab
