// A file of several channels larger than memory is viewed one channel at a time: MappedSignal maps
// channel K of every multi-channel format (WAV, interleaved raw and 2-D .npy with a stride, or
// in place for a Fortran-order .npy; CSV and other sample types through a cache file a channel)
// and gives readChannels' samples for it.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>

#include "shared_helpers.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/mapped_signal.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/mapped_reading.hpp"
#include "siglab/stream_statistics.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

constexpr std::size_t kFrames = 3001;

std::vector<double> mappedSamples(const MappedSignal& mapped) {
  std::vector<double> all(mapped.size());
  mapped.read(0, all);
  return all;
}

using test::filesIn;

class MappedChannels : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::uint64_t seed = test::freshSeed();
    trace_ = "seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)";
    rng_.seed(seed);
    for (std::size_t c = 0; c < 3; ++c) channels_.push_back(test::randomSignal(kFrames, rng_));
  }
  std::vector<std::span<const double>> spans() const { return {channels_.begin(), channels_.end()}; }

  // Each channel K of `path` mapped against readChannels of the whole file (with `options`): the
  // same samples, the file's channel count, mapped in place or through a cache file as said.
  void expectEveryChannelAsReadChannels(const std::string& path, const ReadOptions& options, bool inPlace) {
    SCOPED_TRACE(path);
    const Channels want = readChannels(path, options);
    ASSERT_GT(want.channels.size(), 1u);
    const std::string cache = dir_.file("cache" + std::to_string(++caches_));
    for (std::size_t k = 1; k <= want.channels.size(); ++k) {
      SCOPED_TRACE("channel " + std::to_string(k));
      const ReadOptions one = mappedChannelOptions(options, k);
      const auto mapped = MappedSignal::open(path, one, cache);
      EXPECT_EQ(mapped->channel(), k);
      EXPECT_EQ(mapped->channels(), want.channels.size());
      EXPECT_EQ(mapped->fromCache(), !inPlace);
      ASSERT_EQ(mapped->size(), want.channels[k - 1].size());
      const std::vector<double> got = mappedSamples(*mapped);
      EXPECT_TRUE(std::ranges::equal(got, want.channels[k - 1])) << "channel " << k << " as readChannels reads it";
      if (mapped->size() > 10) {  // a short read past the start, as a plot's cursor does
        std::vector<double> few(5);
        mapped->read(7, few);
        EXPECT_TRUE(std::ranges::equal(few, std::span(want.channels[k - 1]).subspan(7, 5)));
      }
      // Its file read again as a stream (statistics, Apply) gives the same channel.
      const auto stream = openSampleStream(mapped->mappedPath(), mappedFileOptions(*mapped, one));
      EXPECT_EQ(streamStatistics(*stream).sum, mappedStatistics(*mapped).sum);
      mapped->release(0, mapped->size());
    }
    EXPECT_EQ(filesIn(cache), inPlace ? 0u : want.channels.size()) << "a cache file a channel, or none";
  }

  test::TempDir dir_;
  std::mt19937_64 rng_;
  std::string trace_;
  std::vector<std::vector<double>> channels_;
  int caches_ = 0;
};

TEST_F(MappedChannels, AWavFileMapsEachChannelWithItsFrameStride) {
  SCOPED_TRACE(trace_);
  test::writeRandomPcm16Wav(dir_.file("in.wav"), 3, kFrames, rng_);
  expectEveryChannelAsReadChannels(dir_.file("in.wav"), {}, true);
}

TEST_F(MappedChannels, AnInterleavedRawFloat64FileMapsEachChannelInPlaceWithAStride) {
  SCOPED_TRACE(trace_);
  writeChannels(dir_.file("in.raw"), spans(), WriteOptions{FileFormat::raw});
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  raw.rawChannels = 3;
  expectEveryChannelAsReadChannels(dir_.file("in.raw"), raw, true);
}

TEST_F(MappedChannels, AnInterleavedRawFileOfAnotherTypeGoesThroughACacheFileAChannel) {
  SCOPED_TRACE(trace_);
  std::vector<float> interleaved;
  for (std::size_t i = 0; i < kFrames; ++i) {
    for (const auto& channel : channels_) interleaved.push_back(static_cast<float>(channel[i]));
  }
  std::ofstream(dir_.file("in.f32"), std::ios::binary)
      .write(reinterpret_cast<const char*>(interleaved.data()), static_cast<std::streamsize>(interleaved.size() * 4));
  ReadOptions raw;
  raw.rawType = SampleType::f32;
  raw.rawChannels = 3;
  expectEveryChannelAsReadChannels(dir_.file("in.f32"), raw, false);
}

TEST_F(MappedChannels, ATwoDimensionalNpyMapsEachColumnInPlaceInCOrderAndFortranOrder) {
  SCOPED_TRACE(trace_);
  writeChannels(dir_.file("in.npy"), spans());
  expectEveryChannelAsReadChannels(dir_.file("in.npy"), {}, true);

  std::string fortran = npyHeaderForShape(std::string(1, '(').append(std::to_string(kFrames)).append(", 3)"));
  fortran.replace(fortran.find("False"), 5, "True ");
  for (const auto& channel : channels_) {
    fortran.append(reinterpret_cast<const char*>(channel.data()), channel.size() * sizeof(double));
  }
  std::ofstream(dir_.file("fortran.npy"), std::ios::binary)
      .write(fortran.data(), static_cast<std::streamsize>(fortran.size()));
  expectEveryChannelAsReadChannels(dir_.file("fortran.npy"), {}, true);
}

TEST_F(MappedChannels, ACsvOfSeveralColumnsGoesThroughACacheFileAColumn) {
  SCOPED_TRACE(trace_);
  writeChannels(dir_.file("in.csv"), spans());
  expectEveryChannelAsReadChannels(dir_.file("in.csv"), {}, false);
  ReadOptions two;
  two.columns = {3, 1};
  expectEveryChannelAsReadChannels(dir_.file("in.csv"), two, false);
}

TEST_F(MappedChannels, WithoutAChannelPickedTheFirstIsMappedAndOnePastTheLastIsRefused) {
  SCOPED_TRACE(trace_);
  writeChannels(dir_.file("in.npy"), spans());
  writeChannels(dir_.file("in.csv"), spans());
  for (const std::string name : {"in.npy", "in.csv"}) {
    const auto first = MappedSignal::open(dir_.file(name), {}, dir_.file("cache"));
    EXPECT_EQ(first->channel(), 1u) << name;
    EXPECT_EQ(first->channels(), 3u) << name;
    EXPECT_TRUE(std::ranges::equal(mappedSamples(*first), readChannels(dir_.file(name)).channels[0])) << name;
    try {
      MappedSignal::open(dir_.file(name), mappedChannelOptions({}, 4), dir_.file("cache"));
      ADD_FAILURE() << name << ": channel 4 of 3 was mapped";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(dir_.file(name)), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("channel 4"), std::string::npos) << e.what();
    }
  }
}

TEST_F(MappedChannels, AFileOfOneChannelIsOneChannelMappedAsBefore) {
  SCOPED_TRACE(trace_);
  writeSignal(dir_.file("in.npy"), channels_[0]);
  const auto mapped = MappedSignal::open(dir_.file("in.npy"), {}, dir_.file("cache"));
  EXPECT_EQ(mapped->channels(), 1u);
  EXPECT_EQ(mapped->channel(), 1u);
  EXPECT_FALSE(mapped->converted()) << "float64 in place, contiguous";
  EXPECT_TRUE(std::ranges::equal(mapped->samples(), channels_[0]));
}

}  // namespace
}  // namespace siglab
