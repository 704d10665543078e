// Playback's producer side: the bytes handed to an audio device for a span of a signal, resampled
// by the resample-poly stage, channels laid over the device's, clipping counted, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "siglab/pipeline_run.hpp"
#include "siglab/playback.hpp"
#include "engine_test_support.hpp"

namespace siglab {
namespace {

const BackendList& engines() {
  static const BackendList list = test::cpuEngines();
  return list;
}

std::vector<double> ramp(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 0.5 * std::sin(0.01 * static_cast<double>(i));
  return v;
}

std::vector<float> floatsOf(const PlaybackClip& clip) {
  std::vector<float> f(clip.bytes.size() / sizeof(float));
  std::memcpy(f.data(), clip.bytes.data(), clip.bytes.size());
  return f;
}

TEST(Playback, FactorsAreTheRatesRatioReduced) {
  EXPECT_EQ(playbackFactors(44100, 48000).up, 160);
  EXPECT_EQ(playbackFactors(44100, 48000).down, 147);
  EXPECT_EQ(playbackFactors(8000, 48000).up, 6);
  EXPECT_EQ(playbackFactors(8000, 48000).down, 1);
  EXPECT_EQ(playbackFactors(48000, 48000).up, 1);
  EXPECT_EQ(playbackFactors(48000, 48000).down, 1);
  const ResampleFactors odd = playbackFactors(44101, 48000);  // no exact ratio with DOWN <= 1024
  EXPECT_LE(odd.down, 1024);
  EXPECT_NEAR(static_cast<double>(odd.up) / static_cast<double>(odd.down), 48000.0 / 44101.0, 1e-5);
}

TEST(Playback, SameRatePlaysTheRangeAsItIs) {
  const std::vector<double> x = ramp(1000);
  const PlaybackClip clip = preparePlayback({x}, 48000.0, 100, 300, {48000.0, 1, PlaybackFormat::Float32}, engines());
  EXPECT_EQ(clip.frames, 200u);
  const std::vector<float> f = floatsOf(clip);
  ASSERT_EQ(f.size(), 200u);
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f[i], static_cast<float>(x[100 + i])) << i;
  EXPECT_EQ(clip.clipped, 0u);
}

TEST(Playback, OtherRatesGoThroughTheResamplePolyStage) {
  const std::vector<double> x = ramp(3000);
  const PlaybackClip clip = preparePlayback({x}, 44100.0, 500, 2500, {48000.0, 1, PlaybackFormat::Float32}, engines());
  ChannelSource source{{std::span<const double>(x).subspan(500, 2000)}, 44100.0};
  const PipelineReport expected = runPipeline(parseChain("resample-poly 160,147"), source, MemorySink{}, engines());
  const std::vector<float> f = floatsOf(clip);
  ASSERT_EQ(f.size(), expected.output.front().size());
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f[i], static_cast<float>(expected.output.front()[i])) << i;
}

TEST(Playback, MonoPlaysOnEverySpeakerAndExtraChannelsAreDropped) {
  const std::vector<double> a(10, 0.25), b(10, -0.5), c(10, 0.75);
  const PlaybackClip mono = preparePlayback({a}, 8000.0, 0, 10, {8000.0, 2, PlaybackFormat::Int16}, engines());
  std::vector<std::int16_t> s(mono.bytes.size() / 2);
  std::memcpy(s.data(), mono.bytes.data(), mono.bytes.size());
  ASSERT_EQ(s.size(), 20u);
  EXPECT_EQ(s[0], 8192);
  EXPECT_EQ(s[1], 8192);
  const PlaybackClip three = preparePlayback({a, b, c}, 8000.0, 0, 10, {8000.0, 2, PlaybackFormat::Int16}, engines());
  std::memcpy(s.data(), three.bytes.data(), three.bytes.size());
  EXPECT_EQ(s[0], 8192);
  EXPECT_EQ(s[1], -16384);
}

TEST(Playback, ClippingIsCountedAndNaNIsSilence) {
  const std::vector<double> x{0.0, 1.5, -2.0, std::nan(""), 1.0};
  std::vector<std::byte> out(x.size() * 2);
  EXPECT_EQ(encodeSamples(x, PlaybackFormat::Int16, out), 3u);
  std::int16_t s[5];
  std::memcpy(s, out.data(), sizeof s);
  EXPECT_EQ(s[1], 32767);
  EXPECT_EQ(s[2], -32767);
  EXPECT_EQ(s[3], 0);
  std::vector<std::byte> bytes(x.size());
  encodeSamples(x, PlaybackFormat::UInt8, bytes);
  EXPECT_EQ(static_cast<int>(bytes[0]), 128);
  EXPECT_EQ(static_cast<int>(bytes[1]), 255);
  EXPECT_EQ(static_cast<int>(bytes[2]), 0);
}

TEST(Playback, RefusesSignalsWithoutAnAudioRateAndBadRanges) {
  const std::vector<double> x(100, 0.0);
  const PlaybackDevice device;
  EXPECT_NE(playbackRefusal(std::nullopt), "");
  EXPECT_NE(playbackRefusal(50.0).find("below"), std::string::npos);
  EXPECT_NE(playbackRefusal(10e6).find("above"), std::string::npos);
  EXPECT_EQ(playbackRefusal(44100.0), "");
  EXPECT_THROW(preparePlayback({x}, std::nullopt, 0, 100, device, engines()), std::invalid_argument);
  EXPECT_THROW(preparePlayback({x}, 8000.0, 50, 50, device, engines()), std::invalid_argument);
  EXPECT_THROW(preparePlayback({x}, 8000.0, 0, 101, device, engines()), std::invalid_argument);
}

TEST(Playback, ALongSpanPlaysItsFirstMinutes) {
  const std::vector<double> x(1200 * 1000 + 5, 0.0);  // 1200 s at 1 kHz
  const PlaybackClip clip = preparePlayback({x}, 1000.0, 0, x.size(), {1000.0, 1, PlaybackFormat::UInt8}, engines());
  EXPECT_TRUE(clip.shortened);
  EXPECT_EQ(clip.last, 600u * 1000u);
  EXPECT_EQ(clip.frames, 600u * 1000u);
}

}  // namespace
}  // namespace siglab
