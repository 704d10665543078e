// Audio through libsndfile besides WAV (issue 26): read by content with every channel and the
// file's rate, in memory and streamed; FLAC and 64-bit WAV written; cut-off and damaged files are
// errors, never shorter signals; cross-checked against python3-soundfile where installed.
#include <gtest/gtest.h>
#include <sndfile.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "siglab/errors.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/channel_sink.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::TempDir;
using test::writeFile;

struct AudioCase {
  const char* name;
  int format;  // libsndfile's major | subtype
};
const AudioCase kReadCases[] = {
    {"flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_24},  {"vorbis", SF_FORMAT_OGG | SF_FORMAT_VORBIS},
    {"opus", SF_FORMAT_OGG | SF_FORMAT_OPUS},     {"aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_16},
    {"caf", SF_FORMAT_CAF | SF_FORMAT_FLOAT},     {"w64", SF_FORMAT_W64 | SF_FORMAT_DOUBLE},
    {"au", SF_FORMAT_AU | SF_FORMAT_PCM_16},
};

std::vector<double> randomFrames(std::size_t frames, std::size_t channels, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.9, 0.9);
  std::vector<double> v(frames * channels);
  for (double& x : v) x = u(rng);
  return v;
}

// A file written by libsndfile itself, the fixture's independent writer.
void writeAudio(const std::string& path, int format, std::size_t channels, const std::vector<double>& interleaved) {
  SF_INFO info{};
  info.samplerate = 48000;
  info.channels = static_cast<int>(channels);
  info.format = format;
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  ASSERT_NE(file, nullptr) << sf_strerror(nullptr);
  const auto frames = static_cast<sf_count_t>(interleaved.size() / channels);
  EXPECT_EQ(sf_writef_double(file, interleaved.data(), frames), frames);
  sf_close(file);
}

// What libsndfile decodes of `path`, planar.
std::vector<std::vector<double>> decoded(const std::string& path) {
  SF_INFO info{};
  SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
  if (!file) return {};
  std::vector<double> all(static_cast<std::size_t>(info.frames * info.channels));
  sf_readf_double(file, all.data(), info.frames);
  sf_close(file);
  std::vector<std::vector<double>> planar(static_cast<std::size_t>(info.channels));
  for (std::size_t i = 0; i < all.size(); ++i) planar[i % planar.size()].push_back(all[i]);
  return planar;
}

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void expectInputError(const std::string& path, const std::string& fragment) {
  try {
    readChannels(path);
    FAIL() << path << " was read";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find(fragment), std::string::npos) << what;
  }
  try {  // streamed, too: an error, not a shorter signal
    const auto stream = openChannelStream(path);
    std::vector<std::vector<double>> block(stream->channels(), std::vector<double>(1000));
    std::vector<std::span<double>> spans(block.begin(), block.end());
    while (stream->read(spans) > 0) {
    }
    FAIL() << path << " was streamed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(Audio, EveryFormatAndChannelCountIsReadByContentWithItsRate) {
  TempDir dir;
  for (const AudioCase& c : kReadCases) {
    for (std::size_t channels = 1; channels <= 3; ++channels) {
      SCOPED_TRACE(std::string(c.name) + " x" + std::to_string(channels));
      const std::string path = dir.file(std::string(c.name) + std::to_string(channels) + ".dat");  // no audio extension
      writeAudio(path, c.format, channels, randomFrames(3000, channels, 7));
      const std::vector<std::vector<double>> expected = decoded(path);
      const Channels read = readChannels(path);
      ASSERT_EQ(read.channels.size(), channels);
      EXPECT_EQ(read.sampleRate, 48000.0);
      for (std::size_t k = 0; k < channels; ++k) {
        ASSERT_EQ(read.channels[k].toVector(), expected[k]) << "channel " << k + 1;
      }
      ReadOptions second;
      second.channel = channels;
      second.oneChannel = true;
      EXPECT_EQ(readSignal(path, second).samples.toVector(), expected.back());
      EXPECT_EQ(readSignalTail(path, second, 100),
                std::vector<double>(expected.back().end() - 100, expected.back().end()));
      // Streamed in small blocks: the same values.
      const auto stream = openChannelStream(path);
      std::vector<std::vector<double>> got(channels);
      std::vector<std::vector<double>> block(channels, std::vector<double>(77));
      std::vector<std::span<double>> spans(block.begin(), block.end());
      while (const std::size_t n = stream->read(spans)) {
        for (std::size_t k = 0; k < channels; ++k) got[k].insert(got[k].end(), block[k].begin(), block[k].begin() + n);
      }
      EXPECT_EQ(got, expected);
    }
  }
}

TEST(Audio, FlacAndWav64RoundTripEveryChannelCountInMemoryAndStreamedAlike) {
  TempDir dir;
  for (const unsigned bits : {16u, 24u, 64u}) {
    for (std::size_t channels = 1; channels <= 3; ++channels) {
      SCOPED_TRACE(std::to_string(bits) + " bits x" + std::to_string(channels));
      std::vector<std::vector<double>> planar(channels);
      const std::vector<double> frames = randomFrames(5000, channels, 11);
      for (std::size_t i = 0; i < frames.size(); ++i) planar[i % channels].push_back(frames[i]);
      std::vector<std::span<const double>> spans(planar.begin(), planar.end());
      const std::string ext = bits == 64 ? ".wav" : ".flac";
      const std::string whole = dir.file("whole" + ext), streamed = dir.file("streamed" + ext);
      WriteOptions options;
      options.bits = bits;
      options.sampleRate = 44100;
      writeChannels(whole, spans, options);
      const auto sink = openChannelSink(streamed, options, channels);
      for (std::size_t first = 0; first < 5000; first += 999) {
        std::vector<std::span<const double>> block;
        for (const auto& p : planar) block.emplace_back(p.data() + first, std::min<std::size_t>(999, 5000 - first));
        sink->write(block);
      }
      sink->commit();
      EXPECT_EQ(readBytes(whole), readBytes(streamed));
      const Channels back = readChannels(whole);
      ASSERT_EQ(back.channels.size(), channels);
      EXPECT_EQ(back.sampleRate, 44100.0);
      const double step = bits == 64 ? 0.0 : std::ldexp(1.0, -static_cast<int>(bits - 1));
      for (std::size_t k = 0; k < channels; ++k) {
        ASSERT_EQ(back.channels[k].size(), 5000u);
        for (std::size_t i = 0; i < 5000; ++i) ASSERT_NEAR(back.channels[k][i], planar[k][i], step) << i;
      }
    }
  }
}

TEST(Audio, ASampleWidthTheFormatLacksIsRefusedNamingTheFile) {
  TempDir dir;
  const std::vector<double> values{0.1, 0.2};
  WriteOptions options;
  options.bits = 16;
  EXPECT_THROW(writeSignal(dir.file("out.npy"), values, options), InputError);
  options.bits = 32;
  EXPECT_THROW(writeSignal(dir.file("out.flac"), values, options), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.flac")));
}

TEST(Audio, CutOffAndDamagedFilesAreErrorsNotShorterSignals) {
  TempDir dir;
  for (const AudioCase& c : kReadCases) {
    SCOPED_TRACE(c.name);
    const std::string whole = dir.file(std::string(c.name) + ".whole");
    writeAudio(whole, c.format, 2, randomFrames(20000, 2, 3));
    const std::string bytes = readBytes(whole);
    const std::string cut = dir.file(std::string(c.name) + "-cut.dat");
    writeFile(cut, bytes.substr(0, bytes.size() * 2 / 3));
    expectInputError(cut, "");
  }
  // An Ogg stream cut exactly at a page boundary is a valid-looking shorter stream but for its end flag.
  const std::string ogg = dir.file("vorbis.whole");
  const std::string bytes = readBytes(ogg);
  const std::size_t lastPage = bytes.rfind("OggS");
  ASSERT_NE(lastPage, std::string::npos);
  writeFile(dir.file("page-cut.ogg"), bytes.substr(0, lastPage));
  expectInputError(dir.file("page-cut.ogg"), "cut short");
  // A damaged FLAC frame.
  std::string flac = readBytes(dir.file("flac.whole"));
  for (std::size_t i = flac.size() / 2; i < flac.size() / 2 + 64; ++i) flac[i] = static_cast<char>(flac[i] ^ 0x5A);
  writeFile(dir.file("damaged.flac"), flac);
  expectInputError(dir.file("damaged.flac"), "FLAC");
  // A damaged Ogg page in the middle (its checksum fails: libogg drops it).
  std::string vorbis = bytes;
  vorbis[vorbis.size() / 2] = static_cast<char>(vorbis[vorbis.size() / 2] ^ 0xFF);
  writeFile(dir.file("damaged.ogg"), vorbis);
  expectInputError(dir.file("damaged.ogg"), "Ogg");
}

// python3-soundfile (Debian) reads what SigLab writes, and SigLab reads what it writes, the same.
TEST(Audio, SoundfileReadsSigLabsFlacAndSigLabReadsSoundfilesFiles) {
  if (std::system("/usr/bin/python3 -c 'import soundfile, numpy' 2>/dev/null") != 0) {
    GTEST_SKIP() << "python3-soundfile is not installed (scripts/setup.sh installs it)";
  }
  TempDir dir;
  std::vector<std::vector<double>> planar(2);
  const std::vector<double> frames = randomFrames(4000, 2, 5);
  for (std::size_t i = 0; i < frames.size(); ++i) planar[i % 2].push_back(frames[i]);
  std::vector<std::span<const double>> spans(planar.begin(), planar.end());
  writeChannels(dir.file("siglab.flac"), spans);
  const std::string script =
      "import soundfile as sf, numpy as np, sys\n"
      "d = sys.argv[1]\n"
      "x, rate = sf.read(d + '/siglab.flac')\n"
      "np.save(d + '/siglab-by-soundfile.npy', x)\n"
      "assert rate == 48000\n"
      "y = np.random.default_rng(1).uniform(-0.9, 0.9, (3000, 3))\n"
      "sf.write(d + '/soundfile.flac', y, 22050, subtype='PCM_16')\n"
      "sf.write(d + '/soundfile.ogg', y, 22050, subtype='VORBIS')\n"
      "for name in ('soundfile.flac', 'soundfile.ogg'):\n"
      "    z, r = sf.read(d + '/' + name)\n"
      "    np.save(d + '/' + name + '.npy', z)\n";
  writeFile(dir.file("check.py"), script);
  ASSERT_EQ(std::system(("/usr/bin/python3 " + dir.file("check.py") + " " + dir.path().string()).c_str()), 0);
  EXPECT_EQ(readChannels(dir.file("siglab-by-soundfile.npy")).channels, readChannels(dir.file("siglab.flac")).channels);
  for (const char* name : {"soundfile.flac", "soundfile.ogg"}) {
    SCOPED_TRACE(name);
    const Channels ours = readChannels(dir.file(name));
    const Channels theirs = readChannels(dir.file(std::string(name) + ".npy"));
    EXPECT_EQ(ours.sampleRate, 22050.0);
    ASSERT_EQ(ours.channels.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      ASSERT_EQ(ours.channels[k].size(), theirs.channels[k].size());
      for (std::size_t i = 0; i < ours.channels[k].size(); ++i) {
        ASSERT_NEAR(ours.channels[k][i], theirs.channels[k][i], 1e-6) << i;  // float decoders: the same within float32
      }
    }
  }
}

}  // namespace
}  // namespace siglab
