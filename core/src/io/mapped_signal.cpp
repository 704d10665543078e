#include "siglab/io/mapped_signal.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "binary_layout.hpp"
#include "dataset_formats.hpp"
#include "file_bytes.hpp"
#include "signal_format.hpp"
#include "parallel_work.hpp"
#include "planar_frames.hpp"
#include "stream_readers.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/sample_sink.hpp"
#include "siglab/io/sample_stream.hpp"

namespace siglab {
namespace {

namespace fs = std::filesystem;

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::uint64_t hashBytes(const std::byte* p, std::size_t n, std::uint64_t seed) {
  std::uint64_t h = mix(seed ^ n);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    h = mix(h ^ word) + i;
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, p + i, n - i);
  return mix(h ^ tail);
}

// A 64-bit hash of the file's bytes, in 4 MiB pieces on every core (pages let go behind).
std::uint64_t contentHash(const FileBytes& file) {
  constexpr std::size_t kPiece = std::size_t{4} << 20;
  const auto bytes = file.bytes();
  const std::size_t pieces = (bytes.size() + kPiece - 1) / kPiece;
  std::vector<std::uint64_t> hashes(pieces);
  runParallel(pieces, [&](std::size_t i) {
    const std::size_t first = i * kPiece, n = std::min(kPiece, bytes.size() - first);
    hashes[i] = hashBytes(bytes.data() + first, n, i);
    file.release(first, n);
  });
  std::uint64_t h = mix(bytes.size());
  for (std::uint64_t piece : hashes) h = mix(h ^ piece);
  return h;
}

// The layout of several channels and the one picked (empty for one, so that older cache names stay valid).
std::string channelsKey(const ReadOptions& o) {
  std::string key = o.rawChannels == 1 ? "" : ":r" + std::to_string(o.rawChannels);
  for (const std::size_t column : o.columns) key += ":c" + std::to_string(column);
  return key + (o.oneChannel ? ":o" : "");
}

std::string optionsKey(const ReadOptions& o) {
  return std::string(o.format.name()) + ":" + std::to_string(o.column) + ":" + (o.skipHeader ? "h" : "") +
         ":" + (o.rawType ? std::string(sampleTypeName(*o.rawType)) : "") + ":" + std::to_string(o.rawOffset) + ":" +
         std::to_string(o.channel) + ":" + (o.allowNonFinite ? "n" : "") + (o.decimal == ',' ? ":c" : "") +
         channelsKey(o);
}

// The dataset of an HDF5/MAT file (empty otherwise, so that older cache names stay valid).
std::string datasetKey(const std::string& dataset, const std::string& rateAttribute) {
  return dataset.empty() && rateAttribute.empty() ? "" : ":d" + dataset + ":a" + rateAttribute;
}

std::string hex(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

// The caches beyond `maxBytes`, oldest use first, are removed (never `keep`).
void pruneCaches(const fs::path& folder, const fs::path& keep, std::uint64_t maxBytes) {
  struct Entry {
    fs::path path;
    fs::file_time_type used;
    std::uint64_t bytes;
  };
  std::vector<Entry> entries;
  std::uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.path().extension() != ".f64" || !e.is_regular_file(ec)) continue;
    entries.push_back({e.path(), e.last_write_time(ec), e.file_size(ec)});
    total += entries.back().bytes;
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (total <= maxBytes) break;
    if (e.path == keep) continue;
    if (fs::remove(e.path, ec)) total -= e.bytes;
  }
}

// Where one channel of a .npy or raw file lies: `data.count` samples of `data.type` from
// `data.offset`, `stride` bytes apart, of `channels` interleaved (or, Fortran order, one after another).
struct ChannelLayout {
  BinaryLayout data;
  std::uint64_t stride = 0;
  std::size_t channels = 1;
};

// options.channel of a file of `channels`: checked where it picks one (several, or oneChannel), 0-based.
std::size_t channelIndex(const ReadOptions& options, std::size_t channels, const std::string& path) {
  if (channels == 1 && !options.oneChannel) return 0;
  if (options.channel < 1 || options.channel > channels) throw missingChannel(path, options.channel, channels);
  return options.channel - 1;
}

// options.channel of a .npy or raw file; nullopt for a raw file that is not whole frames (its
// stream reader says why).
std::optional<ChannelLayout> binaryChannel(FileFormat format, Bytes bytes, const std::string& path,
                                           const ReadOptions& options) {
  ChannelLayout one;
  if (format == FileFormat::npy) {
    const NpyArray array = locateNpyArray(bytes, path);
    const std::uint64_t size = sampleSize(array.data.type);
    const std::size_t k = channelIndex(options, static_cast<std::size_t>(array.columns), path);
    one.channels = static_cast<std::size_t>(array.columns);
    one.data = {array.data.type, array.rows, array.data.offset + k * size * (array.fortran ? array.rows : 1)};
    one.stride = array.fortran ? size : size * array.columns;
    return one;
  }
  const SampleType type = options.rawType.value_or(SampleType::f64);
  const BinaryLayout all = locateRawData(bytes.size(), path, type, options.rawOffset);
  if (all.count % options.rawChannels != 0) return std::nullopt;
  const std::uint64_t size = sampleSize(all.type);
  const std::size_t k = channelIndex(options, options.rawChannels, path);
  one.channels = options.rawChannels;
  one.data = {all.type, all.count / options.rawChannels, all.offset + k * size};
  one.stride = size * options.rawChannels;
  return one;
}

// The channels readChannels reads of `path` with `options`, whichever one they pick; 1 where
// its header or first line cannot say (the cache's read then says why).
std::size_t channelsOf(const std::string& path, ReadOptions options) {
  options.oneChannel = false;
  try {
    return channelCount(path, options);
  } catch (const InputError&) {
    return 1;
  }
}

}  // namespace

ReadOptions mappedChannelOptions(ReadOptions options, std::size_t channel) {
  options.oneChannel = true;
  options.channel = channel;
  return options;
}

std::string defaultCacheFolder() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return (fs::path(xdg) / "siglab").string();
  if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".cache" / "siglab").string();
  return (fs::temp_directory_path() / "siglab-cache").string();
}

CachedSignal cacheAsFloat64(const std::string& input, const ReadOptions& options, const std::string& folder,
                            const Progress& progress, std::uint64_t maxBytes) {
  std::uint64_t hash = 0;
  {
    const DatasetPath named = splitDatasetPath(input);  // an HDF5/MAT file: its bytes, and the dataset in the key
    const FileBytes file(named.file);
    const std::string key = optionsKey(options) + datasetKey(named.dataset.empty() ? options.dataset : named.dataset,
                                                             options.rateAttribute);
    hash = mix(contentHash(file) ^ hashBytes(reinterpret_cast<const std::byte*>(key.data()), key.size(), 7));
  }
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw InputError(folder, "cannot create the cache folder: " + ec.message());
  const std::string prefix = hex(hash) + "-";
  CachedSignal cached;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || e.path().extension() != ".f64") continue;
    cached.path = e.path().string();
    cached.samples = e.file_size(ec) / sizeof(double);
    const std::string rate = name.substr(prefix.size(), name.size() - prefix.size() - 4);
    if (rate != "norate") cached.sampleRate = std::strtod(rate.c_str(), nullptr);
    cached.reused = true;
    fs::last_write_time(e.path(), fs::file_time_type::clock::now(), ec);  // most recently used
    pruneCaches(folder, cached.path, maxBytes);
    return cached;
  }
  const auto stream = openSampleStream(input, options);
  const auto rate = stream->sampleRate();
  char rateText[32] = "norate";
  if (rate) std::snprintf(rateText, sizeof rateText, "%.17g", *rate);
  cached.path = (fs::path(folder) / (prefix + rateText + ".f64")).string();
  cached.sampleRate = rate;
  WriteOptions raw;
  raw.format = FileFormat::raw;
  raw.durability = Durability::buffered;
  const auto sink = openSampleSink(cached.path, raw, stream->knownSize());
  std::vector<double> block(std::size_t{1} << 20);
  while (const std::size_t n = stream->read(block)) {
    progress.throwIfCancelled();
    sink->write(std::span(block).first(n));
    cached.samples += n;
    progress.report(stream->fractionRead());
  }
  sink->commit();
  pruneCaches(folder, cached.path, maxBytes);
  return cached;
}

MappedSignal::~MappedSignal() = default;

void MappedSignal::release(std::size_t first, std::size_t count) const {
  if (count == 0) return;
  // The whole 2 MiB stretches of the file around the samples: one read maps the page cache's whole
  // folio (up to 2 MiB, aligned in the file, on ext4 with large folios), so rounding inward, or to
  // pages, would leave it resident. The mapping is read-only: letting go of a neighbour's pages
  // costs at most a page fault.
  constexpr std::size_t page = std::size_t{2} << 20;
  const std::size_t begin = (dataOffset_ + first * stride_) / page * page;
  const std::size_t end = std::min((dataOffset_ + (first + count) * stride_ + page - 1) / page * page,
                                   (file_->bytes().size() + page - 1) / page * page);
  if (end > begin) file_->release(begin, end - begin);
}

void MappedSignal::read(std::size_t first, std::span<double> out) const {
  if (first > size_ || out.size() > size_ - first) throw std::out_of_range("MappedSignal::read: outside the signal");
  if (out.empty()) return;
  if (!converted()) {
    // A short read by pread: a fault on the mapping reads megabytes around it (MADV_SEQUENTIAL and
    // the kernel's read-around), a pread about what it asks for, so a view's scattered reads (a
    // preview's probes, a spectrogram's frames, a readout) cost kilobytes each, not the file.
    constexpr std::size_t kShortReadBytes = std::size_t{256} << 10;
    if (out.size() * sizeof(double) <= kShortReadBytes) {
      return file_->readAt(dataOffset_ + first * sizeof(double), std::as_writable_bytes(out));
    }
    std::memcpy(out.data(), samples_.data() + first, out.size() * sizeof(double));
    return;
  }
  if (wavChannel_ == 0) {  // float64 frames of several channels: one sample of each
    const std::byte* frame = file_->bytes().data() + dataOffset_ + first * stride_;
    for (double& value : out) {
      std::memcpy(&value, frame, sizeof(double));
      frame += stride_;
    }
    return;
  }
  constexpr std::size_t kSmallRead = 4096;  // shorter reads share a handle, longer ones open their own
  if (out.size() > kSmallRead) return readWavFrames(file_->bytes(), mappedPath_, wavChannel_, first, out);
  const std::lock_guard lock(smallReadsMutex_);
  if (!smallReads_) smallReads_ = std::make_unique<WavFrameReader>(file_->bytes(), mappedPath_, wavChannel_);
  smallReads_->read(first, out);
}

std::unique_ptr<MappedSignal> MappedSignal::open(const std::string& path, const ReadOptions& options,
                                                 const std::string& cacheFolder, const Progress& progress) {
  if (options.rawChannels == 0) throw std::invalid_argument("a raw file has at least one channel");
  // Every other file: parsed once into a float64 cache, one channel a cache file (the others are not
  // parsed, and each is found again by its options), which is mapped instead.
  const auto openCached = [&](std::size_t channels) {
    const ReadOptions picked = channels > 1 ? mappedChannelOptions(options, options.channel) : options;
    const CachedSignal cached = cacheAsFloat64(path, picked, cacheFolder, progress);
    ReadOptions raw;
    raw.rawType = SampleType::f64;
    std::unique_ptr<MappedSignal> mapped = open(cached.path, raw, cacheFolder, progress);
    mapped->sampleRate_ = cached.sampleRate;
    mapped->fromCache_ = true;
    mapped->channels_ = channels;
    mapped->channel_ = channels > 1 ? options.channel : 1;
    return mapped;
  };
  // An HDF5/MAT dataset is never float64 in place that SigLab could find without the library.
  if (readsAsDataset(path, options)) return openCached(channelsOf(path, options));
  std::unique_ptr<MappedSignal> signal(new MappedSignal());
  auto file = std::make_unique<FileBytes>(path);
  const FileFormat format = inputFormat(path, file->bytes(), options).id();
  if (format == FileFormat::wav) {
    if (const auto wav = locateWavData(file->bytes(), path, options.channel)) {
      signal->size_ = static_cast<std::size_t>(wav->frames);
      signal->dataOffset_ = static_cast<std::size_t>(wav->dataOffset);
      signal->stride_ = static_cast<std::size_t>(wav->frameBytes);
      signal->wavChannel_ = options.channel;
      signal->channel_ = options.channel;
      signal->channels_ = wav->channels;
      signal->sampleRate_ = wav->sampleRate;
      signal->file_ = std::move(file);
      signal->mappedPath_ = path;
      return signal;
    }
  }
  std::optional<ChannelLayout> direct;
  if (format == FileFormat::npy || format == FileFormat::raw) {
    direct = binaryChannel(format, file->bytes(), path, options);
  }
  if (direct && direct->data.type == SampleType::f64 && direct->data.offset % alignof(double) == 0) {
    signal->size_ = static_cast<std::size_t>(direct->data.count);
    signal->dataOffset_ = static_cast<std::size_t>(direct->data.offset);
    signal->stride_ = static_cast<std::size_t>(direct->stride);
    if (signal->stride_ == sizeof(double)) {  // contiguous: the samples in place
      signal->samples_ = {reinterpret_cast<const double*>(file->bytes().data() + direct->data.offset), signal->size_};
    }
    signal->channels_ = direct->channels;
    signal->channel_ = direct->channels > 1 ? options.channel : 1;
    signal->file_ = std::move(file);
    signal->mappedPath_ = path;
    return signal;
  }
  file.reset();
  return openCached(direct ? direct->channels : channelsOf(path, options));
}

}  // namespace siglab
