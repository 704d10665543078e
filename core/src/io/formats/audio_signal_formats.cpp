// The audio formats libsndfile decodes besides WAV: each one entry of the table below (its name,
// magic bytes, extensions, and the check of a container cut short that libsndfile does not make),
// registered with one line in format_list.cpp. Every channel is read, at the file's own rate; the
// GUI's mapped view reads them through its float64 cache (their frames are compressed or not
// one read each). FLAC is also written, as 16- or 24-bit integers.
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <functional>

#include "../audio_containers.hpp"
#include "../planar_frames.hpp"
#include "../signal_format.hpp"
#include "../sndfile_memory.hpp"
#include "../sndfile_reader.hpp"
#include "../sndfile_streams.hpp"
#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab {
namespace {

bool startsWith(Bytes head, std::string_view magic, std::size_t at = 0) {
  return head.size() >= at + magic.size() && std::memcmp(head.data() + at, magic.data(), magic.size()) == 0;
}

struct AudioKind {
  std::string_view name;         // FileFormat's name
  std::string_view description;  // "FLAC audio"
  std::vector<std::string_view> extensions;
  std::function<bool(Bytes)> recognises;
  std::function<std::optional<std::string>(Bytes)> cutShort;  // what is missing, where libsndfile does not say
  int writeFormat = 0;           // libsndfile's major format where SigLab writes it, else 0
};

// An encoder (FLAC) of `channels` channels at options' rate and width, writing through `io`.
// Integers are clipped to [-1, 1) and quantised.
SndfileHandle openEncoder(SF_VIRTUAL_IO& io, void* user, const std::string& path, const WriteOptions& options,
                          std::size_t channels, int format, const std::string& what) {
  const double rate = options.sampleRate;
  if (!(rate >= 1.0 && rate <= 655350.0) || rate != static_cast<double>(static_cast<int>(rate))) {
    throw InputError(path, "cannot write " + what + ": the sample rate must be a whole number of Hz up to 655350, got " +
                               shortNumber(rate));
  }
  SF_INFO info{};
  info.samplerate = static_cast<int>(rate);
  info.channels = static_cast<int>(channels);
  info.format = format | (options.bits == 16 ? SF_FORMAT_PCM_16 : SF_FORMAT_PCM_24);
  SndfileHandle sound(sf_open_virtual(&io, SFM_WRITE, &info, user));
  if (!sound) throw InputError(path, "cannot write " + what + ": " + sf_strerror(nullptr));
  sf_command(sound.get(), SFC_SET_CLIPPING, nullptr, SF_TRUE);  // beyond [-1, 1): the extreme, never wrapped
  return sound;
}

// Planar frames into the encoder, interleaved a block at a time.
void encodeFrames(SNDFILE* sound, std::span<const std::span<const double>> channels, std::vector<double>& interleaved,
                  const std::string& path, const std::string& what) {
  const std::size_t frames = channels.front().size();
  const std::size_t blockFrames = std::max<std::size_t>(1, (std::size_t{1} << 16) / channels.size());
  for (std::size_t first = 0; first < frames; first += blockFrames) {
    const std::size_t n = std::min(blockFrames, frames - first);
    interleaved.resize(n * channels.size());
    interleaveFrames(channels, first, n, interleaved.data());
    if (sf_writef_double(sound, interleaved.data(), static_cast<sf_count_t>(n)) != static_cast<sf_count_t>(n)) {
      throw InputError(path, "cannot write " + what + ": " + sf_strerror(sound));
    }
  }
}

void closeEncoder(SndfileHandle& sound, const std::string& path, const std::string& what) {
  if (sf_close(sound.release()) != 0) throw InputError(path, "cannot write " + what + ": the encoder failed");
}

// Block by block into the atomic temporary file (libsndfile goes back to its header at the end).
class SndfileSink final : public ChannelSink {
 public:
  SndfileSink(const std::string& path, const WriteOptions& options, std::size_t channels, int format, std::string what)
      : target_{AtomicFileWriter(path, options.durability, DirectOutput::spooled)}, io_(TemporaryFileIo::io()),
        channels_(channels), path_(path), what_(std::move(what)),
        sound_(openEncoder(io_, &target_, path, options, channels, format, what_)) {}

  std::size_t channels() const override { return channels_; }
  void writeFrames(std::span<const std::span<const double>> block) override {
    encodeFrames(sound_.get(), block, interleaved_, path_, what_);
  }
  void commit() override {
    closeEncoder(sound_, path_, what_);
    target_.file.commit();
  }

 private:
  TemporaryFileIo target_;
  SF_VIRTUAL_IO io_;
  std::size_t channels_;
  std::string path_;
  std::string what_;
  SndfileHandle sound_;
  std::vector<double> interleaved_;
};

class AudioFormat final : public SignalFormat {
 public:
  explicit AudioFormat(AudioKind kind) : kind_(std::move(kind)) {}

  std::string_view name() const override { return kind_.name; }
  std::string_view description() const override { return kind_.description; }
  std::vector<std::string_view> extensions() const override { return kind_.extensions; }
  bool holdsChannels() const override { return true; }
  bool hasRate() const override { return true; }
  bool recognises(Bytes head) const override { return kind_.recognises(head); }
  std::string saveFilter(std::size_t channels) const override {
    return writes() ? SignalFormat::saveFilter(channels).replace(0, kind_.description.size(),
                                                                 std::string(kind_.description) + ", 16 or 24-bit")
                    : std::string();
  }

  Signal read(const FileBytes& file, const std::string& path, const ReadOptions& options,
              const Progress& progress) const override {
    checkWhole(file.bytes(), path);
    return readSndfileSignal(file, path, what(), options, progress);
  }
  std::unique_ptr<SampleStream> openSamples(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                            const ReadOptions& options) const override {
    checkWhole(file->bytes(), source.path);
    return openSndfileSamples(std::move(file), source.path, what(), options);
  }
  std::unique_ptr<ChannelStream> openChannels(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                              const ReadOptions& options) const override {
    checkWhole(file->bytes(), source.path);
    return openSndfileChannels(std::move(file), source.path, what(), options);
  }
  std::optional<std::vector<double>> readTail(const FileBytes& file, const std::string& path, const ReadOptions& options,
                                              std::size_t count) const override {
    return readSndfileTail(file, path, what(), options, count);
  }
  void probe(const FileBytes& file, std::string_view, FileProbe& probe) const override {
    const std::optional<SndfileShape> shape = sndfileShape(file.bytes());
    if (!shape) return;
    probe.wavChannels = shape->channels;
    if (shape->sampleRate > 0) probe.wavSampleRate = shape->sampleRate;
  }
  bool needsReadChoices(const FileProbe& probe) const override { return probe.wavChannels > 1; }

  bool writes() const override { return kind_.writeFormat != 0; }
  std::vector<unsigned> sampleWidths() const override { return writes() ? std::vector<unsigned>{16, 24} : std::vector<unsigned>{}; }
  std::string writeNote(const WriteOptions& options) const override {
    if (!writes()) return {};
    const unsigned bits = options.bits == 0 ? 24 : options.bits;
    return std::string(kind_.description) + " holds " + std::to_string(bits) +
           "-bit integers: each sample is rounded to a step of 2^-" + std::to_string(bits - 1) +
           " and values beyond [-1, 1) are clipped (write .wav, .npy or .raw to keep every bit)";
  }
  std::unique_ptr<ChannelSink> openSink(const std::string& path, const WriteOptions& options, std::size_t channels,
                                        std::optional<std::uint64_t>) const override {
    checkHolds(path, channels, options);
    return std::make_unique<SndfileSink>(path, options, channels, kind_.writeFormat, what());
  }
  void append(AtomicFileWriter& file, std::span<const std::span<const double>> channels, const WriteOptions& options,
              const Progress& progress) const override {
    checkHolds(file.path(), channels.size(), options);
    std::vector<std::byte> bytes;  // compressed: encoded in memory, then written on
    MemoryFile memory{{}, &bytes};
    SF_VIRTUAL_IO io = memoryIo();
    SndfileHandle sound = openEncoder(io, &memory, file.path(), options, channels.size(), kind_.writeFormat, what());
    std::vector<double> interleaved;
    encodeFrames(sound.get(), channels, interleaved, file.path(), what());
    closeEncoder(sound, file.path(), what());
    const std::string_view pieces[] = {{reinterpret_cast<const char*>(bytes.data()), bytes.size()}};
    appendPieces(file, pieces, progress);
  }

 private:
  std::string what() const { return std::string(kind_.description); }
  void checkWhole(Bytes bytes, const std::string& path) const {
    if (!kind_.cutShort) return;
    if (const std::optional<std::string> missing = kind_.cutShort(bytes)) {
      throw InputError(path, what() + " file: " + *missing);
    }
  }

  AudioKind kind_;
};

}  // namespace

const SignalFormat& flacFormat() {
  static const AudioFormat format({"flac", "FLAC audio", {".flac"}, [](Bytes h) { return startsWith(h, "fLaC"); },
                                   nullptr, SF_FORMAT_FLAC});
  return format;
}

const SignalFormat& oggFormat() {
  static const AudioFormat format({"ogg", "Ogg audio (Vorbis, Opus)", {".ogg", ".oga", ".opus"},
                                   [](Bytes h) { return startsWith(h, "OggS"); }, oggCutShort, 0});
  return format;
}

const SignalFormat& aiffFormat() {
  static const AudioFormat format({"aiff", "AIFF audio", {".aiff", ".aif", ".aifc"},
                                   [](Bytes h) {
                                     return startsWith(h, "FORM") && (startsWith(h, "AIFF", 8) || startsWith(h, "AIFC", 8));
                                   },
                                   aiffCutShort, 0});
  return format;
}

const SignalFormat& cafFormat() {
  static const AudioFormat format({"caf", "Core Audio (CAF)", {".caf"}, [](Bytes h) { return startsWith(h, "caff"); },
                                   cafCutShort, 0});
  return format;
}

const SignalFormat& w64Format() {
  static const AudioFormat format({"w64", "Sony Wave64", {".w64"},
                                   [](Bytes h) { return startsWith(h, "riff") && startsWith(h, "wave", 24); },
                                   w64CutShort, 0});
  return format;
}

const SignalFormat& auFormat() {
  static const AudioFormat format({"au", "Sun/NeXT audio", {".au", ".snd"},
                                   [](Bytes h) { return startsWith(h, ".snd") || startsWith(h, "dns."); }, auCutShort, 0});
  return format;
}

}  // namespace siglab
