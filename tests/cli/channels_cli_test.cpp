// Files of several channels through `filter`, `stats` and `spectrum` (issue 25 item 1): every
// channel of a stereo WAV, the columns of a CSV, an N x 2 .npy and interleaved raw runs in one
// run, in memory and streamed, each channel bit for bit the one-channel run of it (--channel K),
// into an output of the same format that keeps the channels; what cannot hold them is refused first.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "siglab/io/channel_io.hpp"
#include "siglab/io/signal_io.hpp"
#include "cli_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

namespace fs = std::filesystem;

using Outcome = test::CliOutcome;
using test::runCli;

// `channels` channels of `frames` float32 values (WAV holds them exactly; CSV in the shortest style).
std::vector<std::vector<double>> randomChannels(std::size_t channels, std::size_t frames) {
  std::mt19937_64 rng(25);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<std::vector<double>> planar(channels, std::vector<double>(frames));
  for (auto& channel : planar) {
    for (double& v : channel) v = dist(rng);
  }
  return planar;
}

struct Case {
  std::string input;    // file name in the temporary folder
  std::string options;  // how the CLI reads it
  ReadOptions read;     // how the test reads the outputs back (they have the input's format)
  std::size_t channels;
};

// Writes the case's input and checks that filtering every channel at once, in memory and streamed
// in blocks of 1 and 7, gives each channel the bits of the one-channel run of that channel.
void expectEveryChannelIsItsOwnRun(const Case& c, WriteOptions write = {}) {
  const test::TempDir dir;
  const std::string in = dir.file(c.input);
  const auto planar = randomChannels(c.channels, 200);
  write.textStyle = TextStyle::shortest;
  writeChannels(in, std::vector<std::span<const double>>(planar.begin(), planar.end()), write);
  const std::string extension = fs::path(c.input).extension().string();
  const std::string chain = " --chain \"mean 5; median 3\" ";
  const Outcome all = runCli("filter " + in + c.options + chain + "--stream never -o " + dir.file("all" + extension), dir);
  ASSERT_EQ(all.exitCode, 0) << all.err;
  EXPECT_NE(all.out.find("200 samples x " + std::to_string(c.channels) + " channels"), std::string::npos) << all.out;
  for (const std::string block : {"1", "7"}) {
    const std::string streamed = dir.file("streamed-" + block + extension);
    const Outcome run = runCli("filter " + in + c.options + chain + "--stream always --stream-block " + block + " -o " +
                                   streamed, dir);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(test::readFile(streamed) == test::readFile(dir.file("all" + extension))) << c.input << ", block " << block;
  }
  const Channels got = readChannels(dir.file("all" + extension), c.read);
  ASSERT_EQ(got.channels.size(), c.channels);
  for (std::size_t k = 1; k <= c.channels; ++k) {
    const std::string one = dir.file("one-" + std::to_string(k) + extension);
    const Outcome run = runCli("filter " + in + c.options + " --channel " + std::to_string(k) + chain + "-o " + one, dir);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    ReadOptions oneRead = c.read;
    oneRead.columns.clear();
    oneRead.rawChannels = 1;
    EXPECT_EQ(got.channels[k - 1].toVector(), readSignal(one, oneRead).samples.toVector()) << c.input << ", channel " << k;
  }
}

TEST(ChannelsCli, StereoWavEveryChannelInOneRun) {
  expectEveryChannelIsItsOwnRun({"in.wav", "", {}, 2}, WriteOptions{FileFormat::wav});
}

// A Butterworth (sections, streamed serially, zero phase) then a median on a stereo WAV with
// --stream always: each channel the bits of its one-channel run, streamed too.
TEST(ChannelsCli, StreamedSectionsChainOnStereoWavIsEachChannelsOwnRun) {
  const test::TempDir dir;
  const std::string in = dir.file("in.wav");
  const auto planar = randomChannels(2, 200);
  writeChannels(in, std::vector<std::span<const double>>(planar.begin(), planar.end()), WriteOptions{FileFormat::wav});
  const std::string chain = " --chain \"butter 2,0.2 zero-phase; median 3\" --stream always --stream-block 7 ";
  const Outcome all = runCli("filter " + in + chain + "-o " + dir.file("all.npy"), dir);
  ASSERT_EQ(all.exitCode, 0) << all.err;
  EXPECT_NE(all.err.find("streams serially (unbounded history)"), std::string::npos) << all.err;
  const Channels got = readChannels(dir.file("all.npy"));
  ASSERT_EQ(got.channels.size(), 2u);
  for (std::size_t k = 1; k <= 2; ++k) {
    const std::string one = dir.file("one-" + std::to_string(k) + ".npy");
    const Outcome run = runCli("filter " + in + " --channel " + std::to_string(k) + chain + "-q -o " + one, dir);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(got.channels[k - 1].toVector(), readSignal(one).samples.toVector()) << "channel " << k;
  }
}

TEST(ChannelsCli, CsvColumnsEveryChannelInOneRun) {
  ReadOptions read;
  read.columns = {1, 2, 3};
  expectEveryChannelIsItsOwnRun({"in.csv", "", read, 3});
}

TEST(ChannelsCli, CsvColumnsNamed) {
  const test::TempDir dir;
  const auto planar = randomChannels(3, 50);
  writeChannels(dir.file("in.csv"), std::vector<std::span<const double>>(planar.begin(), planar.end()),
                WriteOptions{FileFormat::automatic, TextStyle::shortest});
  const Outcome run = runCli("filter " + dir.file("in.csv") + " --columns 3,1 --median 3 -q -o " + dir.file("out.npy"), dir);
  ASSERT_EQ(run.exitCode, 0) << run.err;
  const Channels got = readChannels(dir.file("out.npy"));
  ASSERT_EQ(got.channels.size(), 2u);
  ASSERT_EQ(runCli("filter " + dir.file("in.csv") + " --column 3 --median 3 -q -o " + dir.file("3.npy"), dir).exitCode, 0);
  EXPECT_EQ(got.channels[0].toVector(), readSignal(dir.file("3.npy")).samples.toVector());
  const Outcome both = runCli("filter " + dir.file("in.csv") + " --column 2 --columns 3 --median 3 -o " + dir.file("x.npy"), dir);
  EXPECT_EQ(both.exitCode, 2);
  EXPECT_NE(both.err.find("--columns"), std::string::npos) << both.err;
}

TEST(ChannelsCli, NpyOfTwoColumnsEveryChannelInOneRun) { expectEveryChannelIsItsOwnRun({"in.npy", "", {}, 2}); }

TEST(ChannelsCli, InterleavedRawEveryChannelInOneRun) {
  ReadOptions read;
  read.rawType = SampleType::f64;
  read.rawChannels = 2;
  expectEveryChannelIsItsOwnRun({"in.raw", " --raw f64 --channels 2", read, 2});
}

TEST(ChannelsCli, RawChannelsNeedsRaw) {
  const test::TempDir dir;
  writeSignal(dir.file("in.npy"), std::vector<double>(20, 1.0));
  const Outcome run = runCli("filter " + dir.file("in.npy") + " --channels 2 --median 3 -o " + dir.file("o.npy"), dir);
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_NE(run.err.find("--channels"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--raw"), std::string::npos) << run.err;
}

std::string writeStereoWav(const test::TempDir& dir) {
  const auto planar = randomChannels(2, 100);
  const std::string in = dir.file("in.wav");
  writeChannels(in, std::vector<std::span<const double>>(planar.begin(), planar.end()), WriteOptions{FileFormat::wav});
  return in;
}

TEST(ChannelsCli, TextOutputOfTwoChannelsIsRefusedBeforeAnyWork) {
  const test::TempDir dir;
  const std::string in = writeStereoWav(dir);
  test::writeFile(dir.file("old.txt"), "1\n");
  for (const std::string stream : {"never", "always"}) {
    const Outcome run = runCli("filter " + in + " --chain \"mean 5\" --stream " + stream + " -o " + dir.file("old.txt"), dir);
    EXPECT_EQ(run.exitCode, 3) << run.err;
    EXPECT_NE(run.err.find(dir.file("old.txt") + ": the text format holds one channel, not 2"), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("engine"), std::string::npos) << run.err;  // no stage ran
    EXPECT_EQ(test::readFile(dir.file("old.txt")), "1\n");
  }
  const Outcome csv = runCli("filter " + in + " --chain \"mean 5\" -q -o " + dir.file("out.csv"), dir);
  EXPECT_EQ(csv.exitCode, 0) << csv.err;
}

TEST(ChannelsCli, AChannelTheFileLacksIsRefusedNamingTheCount) {
  const test::TempDir dir;
  const std::string in = writeStereoWav(dir);
  for (const std::string& command : {"filter " + in + " --median 3 -o " + dir.file("o.npy"), "stats " + in,
                                    "spectrum " + in + " -o " + dir.file("s.csv")}) {
    const Outcome run = runCli(command + " --channel 3", dir);
    EXPECT_EQ(run.exitCode, 3) << command;
    EXPECT_NE(run.err.find(in + ": channel 3 asked for, but the file has 2 channels"), std::string::npos) << run.err;
  }
  EXPECT_FALSE(fs::exists(dir.file("o.npy")));
  EXPECT_FALSE(fs::exists(dir.file("s.csv")));
}

TEST(ChannelsCli, StatsPerChannel) {
  const test::TempDir dir;
  const std::string in = writeStereoWav(dir);
  const Outcome both = runCli("stats -q " + in, dir);
  ASSERT_EQ(both.exitCode, 0) << both.err;
  const Outcome first = runCli("stats -q --channel 1 " + in, dir);
  const Outcome second = runCli("stats -q --channel 2 " + in, dir);
  EXPECT_EQ(both.out, "channel: 1\n" + first.out + "\nchannel: 2\n" + second.out);
  const Outcome json = runCli("stats -q --json " + in, dir);
  ASSERT_EQ(json.exitCode, 0) << json.err;
  EXPECT_EQ(std::count(json.out.begin(), json.out.end(), '\n'), 2) << json.out;
  EXPECT_NE(json.out.find("\"channel\":2"), std::string::npos) << json.out;
}

// A file's channel names (a CSV header's here) name the channels in `stats` and `filter`'s
// reports and become an EDF output's labels.
TEST(ChannelsCli, ReportsAndEdfLabelsNameChannelsByTheFilesNames) {
  const test::TempDir dir;
  std::string csv = "pressure,temperature\n";
  for (int i = 0; i < 64; ++i) csv += std::to_string(i % 7) + "," + std::to_string(i % 5) + "\n";
  test::writeFile(dir.file("in.csv"), csv);
  const Outcome stats = runCli("stats -q --skip-header " + dir.file("in.csv"), dir);
  ASSERT_EQ(stats.exitCode, 0) << stats.err;
  EXPECT_NE(stats.out.find("channel: 1 (pressure)\n"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("channel: 2 (temperature)\n"), std::string::npos) << stats.out;
  const Outcome json = runCli("stats -q --json --skip-header " + dir.file("in.csv"), dir);
  ASSERT_EQ(json.exitCode, 0) << json.err;
  EXPECT_NE(json.out.find("\"channel\":2"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"name\":\"temperature\""), std::string::npos) << json.out;
  const Outcome filter = runCli("filter --skip-header --rate 8 --median 3 " + dir.file("in.csv") + " -o " + dir.file("out.edf"), dir);
  ASSERT_EQ(filter.exitCode, 0) << filter.err;
  EXPECT_NE((filter.out + filter.err).find("channel 2 (temperature)"), std::string::npos) << filter.out << filter.err;
  EXPECT_EQ(readChannels(dir.file("out.edf")).names, (std::vector<std::string>{"pressure", "temperature"}));
}

TEST(ChannelsCli, SpectrumOfSeveralChannelsAsksForOne) {
  const test::TempDir dir;
  const std::string in = writeStereoWav(dir);
  const Outcome run = runCli("spectrum " + in + " --segment 32 -o " + dir.file("s.csv"), dir);
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_NE(run.err.find(in + " has 2 channels"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--channel"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(dir.file("s.csv")));
  EXPECT_EQ(runCli("spectrum " + in + " --channel 2 --segment 32 -o " + dir.file("s.csv"), dir).exitCode, 0);
}

}  // namespace
}  // namespace siglab
