#include <gtest/gtest.h>
#include <sndfile.h>
#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <thread>
#include <limits>

#include "siglab/errors.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/sample_sink.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// Writes a WAV file with libsndfile: `frames` interleaved frames of `channels`, in `subtype`.
template <typename T>
void writeWav(const std::string& path, int subtype, int channels, const std::vector<T>& interleaved, int rate = 8000) {
  SF_INFO info{};
  info.samplerate = rate;
  info.channels = channels;
  info.format = SF_FORMAT_WAV | subtype;
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  ASSERT_NE(file, nullptr) << sf_strerror(nullptr);
  const auto frames = static_cast<sf_count_t>(interleaved.size() / static_cast<std::size_t>(channels));
  sf_count_t written = 0;
  if constexpr (std::is_same_v<T, short>) written = sf_writef_short(file, interleaved.data(), frames);
  if constexpr (std::is_same_v<T, int>) written = sf_writef_int(file, interleaved.data(), frames);
  if constexpr (std::is_same_v<T, float>) written = sf_writef_float(file, interleaved.data(), frames);
  if constexpr (std::is_same_v<T, double>) written = sf_writef_double(file, interleaved.data(), frames);
  EXPECT_EQ(written, frames);
  sf_close(file);
}

Signal readWav(const std::string& path, std::size_t channel = 1) {
  ReadOptions options;
  options.channel = channel;
  return readSignal(path, options);
}

std::string wavError(const std::string& path, std::size_t channel = 1) {
  try {
    readWav(path, channel);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Wav, ReadsPcm16ScaledToUnitRangeWithItsSampleRate) {
  test::TempDir dir;
  writeWav(dir.file("a.wav"), SF_FORMAT_PCM_16, 1, std::vector<short>{-32768, 0, 16384, 32767}, 44100);
  const Signal s = readWav(dir.file("a.wav"));
  EXPECT_EQ(s.samples, (std::vector<double>{-1.0, 0.0, 0.5, 32767.0 / 32768.0}));
  EXPECT_EQ(s.sampleRate, 44100.0);
  EXPECT_EQ(s.sourcePath, dir.file("a.wav"));
}

TEST(Wav, ReadsPcm24And32) {
  test::TempDir dir;
  // libsndfile's int interface holds 24-bit samples in the top bits.
  const std::vector<int> values = {-(1 << 30), 256 * 3, 1 << 29};
  writeWav(dir.file("a24.wav"), SF_FORMAT_PCM_24, 1, values);
  writeWav(dir.file("a32.wav"), SF_FORMAT_PCM_32, 1, std::vector<int>{-2147483647 - 1, 7, 1 << 30});
  EXPECT_EQ(readWav(dir.file("a24.wav")).samples, (std::vector<double>{-0.5, 768.0 / 2147483648.0, 0.25}));
  EXPECT_EQ(readWav(dir.file("a32.wav")).samples, (std::vector<double>{-1.0, 7.0 / 2147483648.0, 0.5}));
}

TEST(Wav, ReadsFloatAndDoubleExactlyAndPicksTheChannel) {
  test::TempDir dir;
  writeWav(dir.file("f.wav"), SF_FORMAT_FLOAT, 2, std::vector<float>{0.125f, -3.5f, 0.25f, 7.0f, 0.5f, 1e-3f});
  EXPECT_EQ(readWav(dir.file("f.wav"), 1).samples, (std::vector<double>{0.125, 0.25, 0.5}));
  EXPECT_EQ(readWav(dir.file("f.wav"), 2).samples, (std::vector<double>{-3.5, 7.0, static_cast<double>(1e-3f)}));
  const std::vector<double> precise = {0.1, -1e-300, 12345.678901234567};
  writeWav(dir.file("d.wav"), SF_FORMAT_DOUBLE, 1, precise);
  EXPECT_EQ(readWav(dir.file("d.wav")).samples, precise);
}

TEST(Wav, ErrorsForNoSamplesAMissingChannelGarbageAndNonFiniteSamples) {
  test::TempDir dir;
  writeWav(dir.file("empty.wav"), SF_FORMAT_PCM_16, 1, std::vector<short>{});
  EXPECT_EQ(wavError(dir.file("empty.wav")), dir.file("empty.wav") + ": the WAV file holds no samples");
  writeWav(dir.file("stereo.wav"), SF_FORMAT_PCM_16, 2, std::vector<short>{1, 2});
  EXPECT_EQ(wavError(dir.file("stereo.wav"), 3), dir.file("stereo.wav") + ": channel 3 asked for, but the file has 2 channels");
  test::writeFile(dir.file("junk.wav"), "RIFF\x10\0\0\0WAVEjunkjunk");
  EXPECT_TRUE(wavError(dir.file("junk.wav")).starts_with(dir.file("junk.wav") + ": not a readable WAV file: ")) << wavError(dir.file("junk.wav"));
  test::writeFile(dir.file("zero.wav"), "");
  EXPECT_EQ(wavError(dir.file("zero.wav")), dir.file("zero.wav") + ": the file is empty: expected a WAV file");
  writeWav(dir.file("nan.wav"), SF_FORMAT_FLOAT, 1, std::vector<float>{1.0f, std::numeric_limits<float>::quiet_NaN()});
  EXPECT_EQ(wavError(dir.file("nan.wav")), dir.file("nan.wav") + ": sample 2 is NaN: expected finite numbers");
}

TEST(Wav, TruncatedDataIsAnErrorNotAShortSignal) {
  test::TempDir dir;
  std::vector<short> values(1000, 5);
  writeWav(dir.file("full.wav"), SF_FORMAT_PCM_16, 1, values);
  const std::string full = test::readFile(dir.file("full.wav"));
  test::writeFile(dir.file("cut.wav"), full.substr(0, full.size() - 500));
  EXPECT_TRUE(wavError(dir.file("cut.wav")).starts_with(dir.file("cut.wav") + ": truncated WAV file")) << wavError(dir.file("cut.wav"));
}

// RF64 states its data's size in its ds64 chunk: a file cut short there is an error naming the
// bytes missing, never a shorter signal (issue 24: 49974 of 100000 samples, exit 0), whether read
// whole or streamed; so is a RIFF WAV of every sample encoding.
TEST(Wav, TruncatedRf64AndEveryEncodingSayHowMuchIsMissing) {
  test::TempDir dir;
  const std::vector<float> values(100000, 0.25f);
  SF_INFO info{};
  info.samplerate = 8000;
  info.channels = 1;
  info.format = SF_FORMAT_RF64 | SF_FORMAT_FLOAT;
  SNDFILE* rf64 = sf_open(dir.file("full.wav").c_str(), SFM_WRITE, &info);
  ASSERT_NE(rf64, nullptr) << sf_strerror(nullptr);
  ASSERT_EQ(sf_writef_float(rf64, values.data(), 100000), 100000);
  sf_close(rf64);
  const std::string full = test::readFile(dir.file("full.wav"));
  ASSERT_EQ(full.substr(0, 4), "RF64");
  ASSERT_EQ(readWav(dir.file("full.wav")).samples.size(), 100000u);
  test::writeFile(dir.file("cut.wav"), full.substr(0, full.size() - 200104));
  const std::string expected = dir.file("cut.wav") + ": truncated WAV file: its data chunk lacks its last 200104 bytes";
  EXPECT_EQ(wavError(dir.file("cut.wav")), expected);
  try {
    openSampleStream(dir.file("cut.wav"));
    ADD_FAILURE() << "a truncated RF64 file was streamed";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
  for (const int subtype : {SF_FORMAT_PCM_U8, SF_FORMAT_PCM_16, SF_FORMAT_PCM_24, SF_FORMAT_PCM_32, SF_FORMAT_FLOAT,
                            SF_FORMAT_DOUBLE}) {
    writeWav(dir.file("riff.wav"), subtype, 2, std::vector<double>(2000, 0.5));
    const std::string riff = test::readFile(dir.file("riff.wav"));
    test::writeFile(dir.file("riff-cut.wav"), riff.substr(0, riff.size() - 17));
    EXPECT_EQ(wavError(dir.file("riff-cut.wav")),
              dir.file("riff-cut.wav") + ": truncated WAV file: its data chunk lacks its last 17 bytes") << subtype;
  }
}

TEST(Wav, WritesFloatSamplesWithTheSampleRate) {
  test::TempDir dir;
  const std::vector<double> values = {0.1, -0.75, 3.0};
  WriteOptions options;
  options.sampleRate = 22050;
  writeSignal(dir.file("out.wav"), values, options);
  const Signal back = readWav(dir.file("out.wav"));
  EXPECT_EQ(back.samples, (std::vector<double>{static_cast<double>(0.1f), -0.75, 3.0}));
  EXPECT_EQ(back.sampleRate, 22050.0);
  options.sampleRate = 0.5;
  EXPECT_THROW(writeSignal(dir.file("bad.wav"), values, options), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.wav")));
}

// Finite values beyond float32 (issue 24: 1e300 was written as +inf, exit 0) make a 64-bit float
// WAV file that reads back exactly.
TEST(Wav, ValuesBeyondFloat32RoundTripThroughA64BitWav) {
  test::TempDir dir;
  const std::vector<double> values = {1e300, -0.1, -1e300, 3.5e38};
  writeSignal(dir.file("wide.wav"), values);
  EXPECT_EQ(readWav(dir.file("wide.wav")).samples, values);
  const std::vector<double> narrow = {0.5, -3.0, std::numeric_limits<float>::max()};
  writeSignal(dir.file("narrow.wav"), narrow);
  EXPECT_EQ(readWav(dir.file("narrow.wav")).samples, narrow);
  const auto subtype = [](const std::string& path) {
    SF_INFO info{};
    SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
    if (file) sf_close(file);
    return info.format & SF_FORMAT_SUBMASK;
  };
  EXPECT_EQ(subtype(dir.file("wide.wav")), SF_FORMAT_DOUBLE);
  EXPECT_EQ(subtype(dir.file("narrow.wav")), SF_FORMAT_FLOAT);
}

// Writes `values` through a WAV sink in blocks of `block` samples and commits.
void writeStreamedWav(const std::string& path, const std::vector<double>& values, std::size_t block) {
  WriteOptions options;
  options.sampleRate = 8000;
  const auto sink = openSampleSink(path, options);
  for (std::size_t first = 0; first < values.size(); first += block) {
    sink->write(std::span(values).subspan(first, std::min(block, values.size() - first)));
  }
  sink->commit();
}

std::string inMemoryWav(const std::vector<double>& values) {
  const std::vector<std::byte> bytes = encodeWavFloat(values, 8000, "memory.wav");
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// A WAV written block by block becomes 64-bit at the first value beyond float32 (issue 24: it
// refused), wherever that value comes: the same bytes as the whole signal written at once, read
// back exactly. The samples before it are float32 values (widened exactly); those after are not.
TEST(Wav, AStreamedWavSwitchesTo64BitAsTheWholeSignalWrittenAtOnce) {
  test::TempDir dir;
  std::vector<double> exact(70000);  // past the 2^16 samples widened at a time
  for (std::size_t i = 0; i < exact.size(); ++i) exact[i] = static_cast<double>(i % 977) * 0.25 - 100.0;
  const std::vector<std::vector<double>> signals = {
      {1e300, 2.0, 0.1, -1e-300},                       // first
      {2.0, -0.5, 3.0, 0.75, -1e300},                  // last
      {1.5, -2.0, 4.0, 8.0, 0.5, 1e300, 0.1, -3.5e38, 7.0},  // in a later block, inexact values after it
  };
  for (const std::vector<double>& values : signals) {
    for (const std::size_t block : {std::size_t{1}, std::size_t{3}, values.size()}) {
      SCOPED_TRACE("signal of " + std::to_string(values.size()) + ", blocks of " + std::to_string(block));
      const std::string path = dir.file("streamed.wav");
      writeStreamedWav(path, values, block);
      EXPECT_EQ(test::readFile(path), inMemoryWav(values));
      EXPECT_EQ(readWav(path).samples, values);
    }
  }
  std::vector<double> late = exact;
  late.push_back(1e300);
  late.push_back(0.1);
  writeStreamedWav(dir.file("late.wav"), late, 4096);
  EXPECT_EQ(test::readFile(dir.file("late.wav")), inMemoryWav(late));
  EXPECT_EQ(readWav(dir.file("late.wav")).samples, late);
  writeStreamedWav(dir.file("narrow.wav"), exact, 4096);  // no value beyond float32: 32-bit as before
  EXPECT_EQ(test::readFile(dir.file("narrow.wav")), inMemoryWav(exact));
}

// The same switch where the output is a pipe (here a FIFO named .wav): its spool is rewritten, and
// the reader gets the in-memory writer's bytes once, whole.
TEST(Wav, AStreamedWavIntoAPipeSwitchesTo64Bit) {
  test::TempDir dir;
  const std::string fifo = dir.file("pipe.wav");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = test::readFile(fifo); });
  const std::vector<double> values = {0.5, 2.0, -1e300, 0.1};
  try {
    writeStreamedWav(fifo, values, 1);
  } catch (const InputError& e) {
    ADD_FAILURE() << e.what();  // the reader still ends: the pipe is closed
  }
  reader.join();
  EXPECT_EQ(received, inMemoryWav(values));
}

// A sample float32 rounded is already written when a value beyond float32 comes: widening would not
// give it back, so the value is refused, both samples named, and nothing is published.
TEST(Wav, AStreamedWavRefusesToWidenARoundedSample) {
  test::TempDir dir;
  WriteOptions options;
  options.sampleRate = 8000;
  const auto sink = openSampleSink(dir.file("out.wav"), options);
  sink->write(std::vector<double>{0.5, 0.1});
  try {
    sink->write(std::vector<double>{1e300});
    ADD_FAILURE() << "a rounded sample was widened";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(": cannot write WAV: sample 3 (1e+300) is beyond 32-bit float samples, and "
                                         "sample 2 (0.1), written block by block before it as a 32-bit one, was rounded"),
              std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.wav")));
}

// The random-access reader a mapped view uses gives readSignal's values bit for bit, for every
// encoding and channel, at runs of awkward sizes (0, 1, odd, across libsndfile's 2^16-frame blocks).
TEST(Wav, FramesReadInPiecesAreReadSignalsValuesBitForBit) {
  test::TempDir dir;
  std::mt19937_64 rng(13);
  std::uniform_int_distribution<int> anyInt(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  std::uniform_real_distribution<double> anyReal(-3.0, 3.0);
  struct Encoding {
    const char* name;
    int subtype;
  };
  const Encoding encodings[] = {{"u8", SF_FORMAT_PCM_U8},  {"pcm16", SF_FORMAT_PCM_16}, {"pcm24", SF_FORMAT_PCM_24},
                                {"pcm32", SF_FORMAT_PCM_32}, {"float", SF_FORMAT_FLOAT},   {"double", SF_FORMAT_DOUBLE}};
  for (const Encoding& encoding : encodings) {
    for (const int channels : {1, 3}) {
      for (const std::size_t frames : {std::size_t{1}, std::size_t{7}, std::size_t{70001}}) {
        const std::string path = dir.file(std::string(encoding.name) + "-" + std::to_string(channels) + "-" +
                                          std::to_string(frames) + ".wav");
        const std::size_t n = frames * static_cast<std::size_t>(channels);
        if (encoding.subtype == SF_FORMAT_FLOAT || encoding.subtype == SF_FORMAT_DOUBLE) {
          std::vector<double> values(n);
          for (double& v : values) v = anyReal(rng);
          writeWav(path, encoding.subtype, channels, values);
        } else {
          std::vector<int> values(n);
          for (int& v : values) v = anyInt(rng);
          writeWav(path, encoding.subtype, channels, values);
        }
        const std::string bytes = test::readFile(path);
        const Bytes file(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
        for (int channel = 1; channel <= channels; ++channel) {
          const SampleVector whole = readWav(path, static_cast<std::size_t>(channel)).samples;
          ASSERT_EQ(whole.size(), frames);
          const std::pair<std::size_t, std::size_t> runs[] = {
              {0, 0}, {0, 1}, {frames - 1, 1}, {frames, 0}, {0, frames}, {frames / 3, frames / 2}, {frames / 2, (frames + 1) / 2}};
          for (const auto& [first, count] : runs) {
            std::vector<double> out(count, std::numeric_limits<double>::quiet_NaN());
            readWavFrames(file, path, static_cast<std::size_t>(channel), first, out);
            // An empty run's data() is null, which memcmp may not be given even for no bytes.
            EXPECT_TRUE(count == 0 || std::memcmp(out.data(), whole.data() + first, count * sizeof(double)) == 0)
                << path << " channel " << channel << " frames [" << first << ", " << first + count << ")";
          }
        }
        std::vector<double> past(2);
        EXPECT_THROW(readWavFrames(file, path, 1, frames - 1, past), std::out_of_range) << path;
        EXPECT_THROW(readWavFrames(file, path, static_cast<std::size_t>(channels) + 1, 0, past), InputError) << path;
      }
    }
  }
}

}  // namespace
}  // namespace siglab
