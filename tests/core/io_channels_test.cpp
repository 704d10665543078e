// Signals of several channels (issue 25 item 1): every format written and read back with its
// channels, in memory and block by block, and one channel byte for byte as writeSignal writes it.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>

#include "input_error.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/channel_sink.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using Planar = std::vector<std::vector<double>>;

std::vector<std::span<const double>> spansOf(const Planar& planar) { return {planar.begin(), planar.end()}; }

// `channels` channels of `frames` random values that every format holds exactly (float32 values:
// WAV's samples; the CSV is written in the shortest style that reads back the same double).
Planar randomChannels(std::size_t channels, std::size_t frames, std::mt19937_64& rng) {
  Planar planar(channels, std::vector<double>(frames));
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  for (auto& channel : planar) {
    for (double& v : channel) v = dist(rng);
  }
  return planar;
}

Planar toPlanar(const Channels& read) {
  Planar planar;
  for (const SampleVector& c : read.channels) planar.push_back(c.toVector());
  return planar;
}

using test::errorOf;

// How a file of each format is named and read back.
struct Format {
  std::string name;
  WriteOptions write;
  ReadOptions read;
};

std::vector<Format> formats(std::size_t channels) {
  std::vector<Format> all(5);
  all[0].name = "s.wav";
  all[1].name = "s.npy";
  all[2].name = "s.raw";
  all[2].read.rawType = SampleType::f64;
  all[3].name = "s32.raw";
  all[3].write.rawType = SampleType::f32;
  all[3].read.rawType = SampleType::f32;
  all[4].name = "s.csv";
  all[4].write.textStyle = TextStyle::shortest;
  for (Format& f : all) {
    f.read.rawChannels = channels;
    f.write.durability = Durability::buffered;  // no fsync: cheap tests
  }
  return all;
}

// Writes with a ChannelSink `blockFrames` frames at a time.
void writeBySink(const std::string& path, const Planar& planar, const WriteOptions& options, std::size_t blockFrames,
                 std::optional<std::uint64_t> known) {
  auto sink = openChannelSink(path, options, planar.size(), known);
  const std::size_t frames = planar.front().size();
  for (std::size_t first = 0; first < frames; first += blockFrames) {
    std::vector<std::span<const double>> block;
    for (const auto& c : planar) block.push_back(std::span(c).subspan(first, std::min(blockFrames, frames - first)));
    sink->write(block);
  }
  sink->commit();
}

// Reads with a ChannelStream `blockFrames` frames at a time.
Planar readByStream(const std::string& path, const ReadOptions& options, std::size_t blockFrames) {
  auto stream = openChannelStream(path, options, 4096);
  Planar planar(stream->channels());
  Planar block(stream->channels(), std::vector<double>(blockFrames));
  for (;;) {
    std::vector<std::span<double>> out(block.begin(), block.end());
    const std::size_t got = stream->read(out);
    for (std::size_t c = 0; c < planar.size(); ++c) planar[c].insert(planar[c].end(), block[c].begin(), block[c].begin() + static_cast<std::ptrdiff_t>(got));
    if (got < blockFrames) break;
  }
  EXPECT_EQ(stream->read(std::vector<std::span<double>>(planar.size())), 0u);
  EXPECT_DOUBLE_EQ(stream->fractionRead(), 1.0);
  return planar;
}

// Each binary format written with writeChannels and read back with readChannels.
void expectRoundTrip(std::size_t channels) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  for (std::size_t frames : {1, 2, 1000003}) {
    const Planar planar = randomChannels(channels, frames, rng);
    for (const Format& f : formats(channels)) {
      if (f.name == "s.csv" && frames > 2) continue;  // its own test: text is slower
      SCOPED_TRACE(f.name + " channels " + std::to_string(channels) + " frames " + std::to_string(frames) + " seed " +
                   std::to_string(seed));
      const std::string path = dir.file(f.name);
      writeChannels(path, spansOf(planar), f.write);
      const Channels read = readChannels(path, f.read);
      EXPECT_EQ(toPlanar(read), planar);
      EXPECT_EQ(read.sampleRate, f.name == "s.wav" ? std::optional(48000.0) : std::nullopt);
    }
  }
}

TEST(Channels, EveryFormatRoundTripsOneChannel) { expectRoundTrip(1); }
TEST(Channels, EveryFormatRoundTripsTwoChannels) { expectRoundTrip(2); }
TEST(Channels, EveryFormatRoundTripsThreeChannels) { expectRoundTrip(3); }

TEST(Channels, CsvRoundTripsEveryColumnInBothTextStyles) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::string path = dir.file("s.csv");
  const Planar large = randomChannels(2, 1000003, rng);
  WriteOptions shortest;
  shortest.textStyle = TextStyle::shortest;
  writeChannels(path, spansOf(large), shortest);
  EXPECT_EQ(toPlanar(readChannels(path)), large) << "seed " << seed;
  // The seed's style writes 16 decimals: values with fewer read back exactly.
  Planar dyadic(3, std::vector<double>(7));
  for (std::size_t c = 0; c < 3; ++c) {
    for (std::size_t f = 0; f < 7; ++f) dyadic[c][f] = (static_cast<double>(f) - 3.0 * static_cast<double>(c)) / 1024.0;
  }
  writeChannels(path, spansOf(dyadic));
  EXPECT_EQ(test::readFile(path).substr(0, 78),
            "0.0000000000000000,-0.0029296875000000,-0.0058593750000000\n0.0009765625000000,");
  EXPECT_EQ(toPlanar(readChannels(path)), dyadic);
}

// Each format through a ChannelSink and a ChannelStream, `block` frames at a time (and 7 at a time).
void expectSinkAndStreamAgree(const std::vector<std::size_t>& lengths, std::size_t block,
                              const std::vector<std::size_t>& channelCounts = {1, 2, 3}) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  for (std::size_t channels : channelCounts) {
    for (std::size_t frames : lengths) {
      const Planar planar = randomChannels(channels, frames, rng);
      for (const Format& f : formats(channels)) {
        // Long: text is slower (its round trip is tested above), and f64 raw is .npy's code without the header.
        if ((f.name == "s.csv" || f.name == "s.raw") && frames > 1000) continue;
        SCOPED_TRACE(f.name + " channels " + std::to_string(channels) + " frames " + std::to_string(frames) +
                     " seed " + std::to_string(seed));
        const std::string whole = dir.file("whole-" + f.name);
        const std::string streamed = dir.file("streamed-" + f.name);
        writeChannels(whole, spansOf(planar), f.write);
        const bool known = frames % 2 == 0;  // the .npy header written first, or fixed up at commit
        writeBySink(streamed, planar, f.write, block, known ? std::optional<std::uint64_t>(frames) : std::nullopt);
        EXPECT_EQ(test::readFile(streamed), test::readFile(whole));
        EXPECT_EQ(readByStream(streamed, f.read, block), planar);
        if (frames <= 1000) {
          EXPECT_EQ(readByStream(streamed, f.read, 7), planar);
        }
      }
    }
  }
}

TEST(Channels, SinkAndStreamFrameByFrameGiveWriteChannelsBytesAndValues) {
  expectSinkAndStreamAgree({1, 2, 7, 1000}, 1);
}

TEST(Channels, SinkAndStreamOfSevenFramesAtATimeGiveWriteChannelsBytesAndValues) {
  expectSinkAndStreamAgree({1, 6, 1000}, 7);
}

TEST(Channels, SinkAndStreamOfAMillionFramesGiveWriteChannelsBytesAndValues) {
  expectSinkAndStreamAgree({1000003}, 65537, {3});  // one channel: SampleSink's and SampleStream's own tests
}

TEST(Channels, OneChannelIsWriteSignalsBytes) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  Planar one = randomChannels(1, 1001, rng);
  one[0][3] = 1e300;  // WAV: 64-bit samples
  for (const std::string name : {"a.wav", "a.npy", "a.raw", "a.txt", "a.csv", "a"}) {
    WriteOptions other;
    other.rawType = SampleType::f32;
    other.textStyle = TextStyle::shortest;
    for (WriteOptions options : {WriteOptions{}, other}) {
      options.durability = Durability::buffered;
      SCOPED_TRACE(name);
      writeSignal(dir.file("signal-" + name), one[0], options);
      writeChannels(dir.file("channels-" + name), spansOf(one), options);
      writeBySink(dir.file("sink-" + name), one, options, 100, std::nullopt);
      const std::string expected = test::readFile(dir.file("signal-" + name));
      EXPECT_FALSE(expected.empty());
      EXPECT_EQ(test::readFile(dir.file("channels-" + name)), expected);
      EXPECT_EQ(test::readFile(dir.file("sink-" + name)), expected);
    }
  }
}

TEST(Channels, NoFramesAreWrittenAndRefusedOnReadingAsEmptySignalsAre) {
  test::TempDir dir;
  const Planar empty(2);
  for (const Format& f : formats(2)) {
    SCOPED_TRACE(f.name);
    const std::string path = dir.file(f.name);
    writeChannels(path, spansOf(empty), f.write);
    writeBySink(dir.file("sink-" + f.name), empty, f.write, 1, std::nullopt);
    EXPECT_EQ(test::readFile(dir.file("sink-" + f.name)), test::readFile(path));
    const std::string error = errorOf([&] { readChannels(path, f.read); });
    EXPECT_EQ(error.rfind(path + ": ", 0), 0u) << error;
    EXPECT_TRUE(error.find("no samples") != std::string::npos || error.find("empty") != std::string::npos ||
                error.find("no f") != std::string::npos)
        << error;
  }
  EXPECT_NE(test::readFile(dir.file("s.npy")).find("'shape': (0, 2)"), std::string::npos);
}

TEST(Channels, StereoWavReadsAsTwoChannelsAndChannelPicksOne) {
  std::mt19937_64 rng(7);
  test::TempDir dir;
  const std::string path = dir.file("stereo.wav");
  test::writeRandomPcm16Wav(path, 2, 1001, rng);
  ReadOptions second;
  second.channel = 2;
  const Channels both = readChannels(path);
  ASSERT_EQ(both.channels.size(), 2u);
  EXPECT_EQ(both.frames(), 1001u);
  EXPECT_EQ(both.sampleRate, 8000.0);
  EXPECT_EQ(both.channels[0], readSignal(path).samples.toVector());
  EXPECT_EQ(both.channels[1], readSignal(path, second).samples.toVector());
  second.oneChannel = true;
  const Channels picked = readChannels(path, second);
  ASSERT_EQ(picked.channels.size(), 1u);
  EXPECT_EQ(picked.channels[0], both.channels[1].toVector());
  EXPECT_EQ(readByStream(path, {}, 7), toPlanar(both));
}

TEST(Channels, AChannelOrColumnTheFileLacksNamesTheFileAndWhatItHas) {
  test::TempDir dir;
  const Planar two(2, std::vector<double>{1.0, 2.0, 3.0, 4.0});
  ReadOptions third;
  third.oneChannel = true;
  third.channel = 3;
  for (const std::string name : {"a.wav", "a.npy"}) {
    writeChannels(dir.file(name), spansOf(two));
    EXPECT_EQ(errorOf([&] { readChannels(dir.file(name), third); }),
              dir.file(name) + ": channel 3 asked for, but the file has 2 channels");
  }
  writeChannels(dir.file("a.raw"), spansOf(two));
  third.rawType = SampleType::f64;
  third.rawChannels = 2;
  EXPECT_EQ(errorOf([&] { readChannels(dir.file("a.raw"), third); }),
            dir.file("a.raw") + ": channel 3 asked for, but the file has 2 channels");
  third.rawChannels = 3;
  EXPECT_EQ(errorOf([&] { readChannels(dir.file("a.raw"), third); }),
            dir.file("a.raw") + ": the 8 samples are not a whole number of frames of 3 channels (2 samples left over)");

  test::writeFile(dir.file("t.csv"), "# comment\nt,a,b\n1,2,3\n4,5,6\n");
  ReadOptions columns;
  columns.skipHeader = true;
  columns.columns = {3, 4};
  EXPECT_EQ(errorOf([&] { readChannels(dir.file("t.csv"), columns); }),
            dir.file("t.csv") + ":3:1: column 4 asked for, but the file has 3 columns (separated by ',')");
  columns.columns = {3, 1};
  EXPECT_EQ(toPlanar(readChannels(dir.file("t.csv"), columns)), (Planar{{3.0, 6.0}, {1.0, 4.0}}));
  columns.oneChannel = true;
  columns.channel = 3;
  EXPECT_EQ(errorOf([&] { readChannels(dir.file("t.csv"), columns); }),
            dir.file("t.csv") + ": channel 3 asked for, but the file has 2 channels");
}

TEST(Channels, CsvReadsEveryNumericColumnUnlessColumnsAreChosen) {
  test::TempDir dir;
  const std::string path = dir.file("t.csv");
  test::writeFile(path, "name;x;y\nfirst;1,5;2\nsecond;3;4,25\n");
  ReadOptions options;
  options.skipHeader = true;
  options.decimal = ',';
  EXPECT_EQ(toPlanar(readChannels(path, options)), (Planar{{1.5, 3.0}, {2.0, 4.25}}));
  options.column = 3;  // today's one column stays one channel
  EXPECT_EQ(toPlanar(readChannels(path, options)), (Planar{{2.0, 4.25}}));
  test::writeFile(path, "1\n2\n");
  EXPECT_EQ(toPlanar(readChannels(path)), (Planar{{1.0, 2.0}}));
  test::writeFile(path, "1 2\n3 x\n");
  EXPECT_EQ(errorOf([&] { readChannels(path); }), path + ":2:3: expected a number, found \"x\"");
  test::writeFile(path, "time,value\n1,2\n");  // a header not skipped: today's message
  EXPECT_EQ(errorOf([&] { readChannels(path); }).rfind(path + ":1:1: expected a number", 0), 0u);
}

TEST(Channels, TextOtherThanCsvHoldsOneChannelAndSaysSo) {
  test::TempDir dir;
  const Planar two(2, std::vector<double>{1.0});
  for (const std::string name : {"a.txt", "a"}) {
    const std::string path = dir.file(name);
    test::writeFile(path, "old\n");
    const std::string expected =
        path + ": the text format holds one channel, not 2: name the output .csv (one line a frame), .npy, .wav or .raw";
    EXPECT_EQ(errorOf([&] { writeChannels(path, spansOf(two)); }), expected);
    EXPECT_EQ(errorOf([&] { openChannelSink(path, {}, 2); }), expected);
    EXPECT_EQ(test::readFile(path), "old\n");
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 2);  // no temporaries left
}

TEST(Channels, NpyOfCOrFortranOrderAndRawInterleavedPickOneChannelForReadSignal) {
  test::TempDir dir;
  const Planar planar{{1.0, 2.0, 3.0}, {-1.0, -2.0, -3.0}};
  writeChannels(dir.file("c.npy"), spansOf(planar));
  // The same array in Fortran order: channel after channel.
  std::string fortran = npyHeaderForShape("(3, 2)");
  fortran.replace(fortran.find("False"), 5, "True ");
  for (const auto& c : planar) fortran.append(reinterpret_cast<const char*>(c.data()), c.size() * sizeof(double));
  test::writeFile(dir.file("f.npy"), fortran);
  EXPECT_EQ(toPlanar(readChannels(dir.file("c.npy"))), planar);
  EXPECT_EQ(toPlanar(readChannels(dir.file("f.npy"))), planar);
  EXPECT_EQ(readByStream(dir.file("f.npy"), {}, 2), planar);
  // readSignal keeps its one-dimensional .npy and its messages.
  EXPECT_EQ(errorOf([&] { readSignal(dir.file("c.npy")); }),
            dir.file("c.npy") + ": .npy array has shape \"(3, 2)\": expected one dimension, (N,) or (N, 1)");
  test::writeFile(dir.file("3d.npy"), npyHeaderForShape("(1, 1, 1)") + std::string(8, '\0'));
  EXPECT_EQ(errorOf([&] { readChannels(dir.file("3d.npy")); }),
            dir.file("3d.npy") + ": .npy array has shape \"(1, 1, 1)\": expected (N,) or (N, C): N frames of C channels");
  // A header's channel count is bounded: one frame of 2000 channels is a transposed array.
  std::string wide = npyHeaderForShape("(1, 2000)");
  for (int c = 0; c < 2000; ++c) {
    const double v = c;
    wide.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  test::writeFile(dir.file("wide.npy"), wide);
  EXPECT_EQ(errorOf([&] { readChannels(dir.file("wide.npy")); }),
            dir.file("wide.npy") + ": the file has 2000 channels, more than the 1024 SigLab reads at once (a .npy "
                                   "array is N frames x C channels: save arr.T); pick one channel");
  ReadOptions last;
  last.oneChannel = true;
  last.channel = 2000;
  EXPECT_EQ(toPlanar(readChannels(dir.file("wide.npy"), last)), (Planar{{1999.0}}));
  // Raw frames of two channels: readSignal reads ReadOptions::channel of them.
  writeChannels(dir.file("i.raw"), spansOf(planar));
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  raw.rawChannels = 2;
  raw.channel = 2;
  EXPECT_EQ(readSignal(dir.file("i.raw"), raw).samples, planar[1]);
}

TEST(Channels, WavOfSeveralChannelsWidensTo64BitAsTheOneChannelWriterDoes) {
  test::TempDir dir;
  Planar planar{{0.5, 0.25, 0.125}, {1.0, 1e300, -2.0}};
  const std::string whole = dir.file("w.wav"), streamed = dir.file("s.wav");
  writeChannels(whole, spansOf(planar));
  writeBySink(streamed, planar, {}, 1, std::nullopt);
  EXPECT_EQ(test::readFile(streamed), test::readFile(whole));
  EXPECT_EQ(toPlanar(readChannels(whole)), planar);
  planar[0][0] = 0.1;  // rounded as a 32-bit sample before the wide one comes: refused, nothing written
  EXPECT_NE(errorOf([&] { writeBySink(dir.file("r.wav"), planar, {}, 1, std::nullopt); }).find("was rounded"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.wav")));
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

TEST(Channels, EveryOneChannelReaderPicksTheChannelOfRawFramesOrCsvColumns) {
  test::TempDir dir;
  const Planar planar{{1.0, 2.0, 3.0, 4.0}, {-1.0, -2.0, -3.0, -4.0}};
  WriteOptions shortest;
  shortest.textStyle = TextStyle::shortest;
  writeChannels(dir.file("i.raw"), spansOf(planar));
  writeChannels(dir.file("i.csv"), spansOf(planar), shortest);
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  raw.rawChannels = 2;
  raw.channel = 2;
  ReadOptions csv;
  csv.columns = {2, 1};
  for (const auto& [name, options] : {std::pair{"i.raw", raw}, std::pair{"i.csv", csv}}) {
    SCOPED_TRACE(name);
    const std::string path = dir.file(name);
    EXPECT_EQ(readSignal(path, options).samples, planar[1]);
    EXPECT_EQ(readSignalTail(path, options, 3), (std::vector<double>{-2.0, -3.0, -4.0}));
    std::vector<double> streamed(5);
    EXPECT_EQ(openSampleStream(path, options)->read(streamed), 4u);
    streamed.resize(4);
    EXPECT_EQ(streamed, planar[1]);
  }
}

}  // namespace
}  // namespace siglab
