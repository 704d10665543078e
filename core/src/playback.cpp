#include "siglab/playback.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "siglab/pipeline_run.hpp"
#include "siglab/sample_rate.hpp"

namespace siglab {
namespace {

constexpr std::int64_t kMostDown = 1024;

template <class T>
void put(std::byte* at, T value) {
  std::memcpy(at, &value, sizeof value);
}

}  // namespace

std::string playbackRefusal(std::optional<double> sampleRate) {
  if (!sampleRate || !isValidSampleRate(*sampleRate)) return "the signal has no sample rate to play it at";
  if (*sampleRate < kLowestAudioRate) {
    return "its rate, " + withSiPrefix(*sampleRate, "Hz") + ", is below the lowest audio rate (" +
           withSiPrefix(kLowestAudioRate, "Hz") + ")";
  }
  if (*sampleRate > kHighestAudioRate) {
    return "its rate, " + withSiPrefix(*sampleRate, "Hz") + ", is above the highest audio rate (" +
           withSiPrefix(kHighestAudioRate, "Hz") + ")";
  }
  return {};
}

ResampleFactors playbackFactors(double signalRate, double deviceRate) {
  const double ratio = deviceRate / signalRate;
  ResampleFactors best{std::max<std::int64_t>(1, std::llround(ratio)), 1};
  double bestError = std::abs(static_cast<double>(best.up) - ratio);
  for (std::int64_t down = 2; down <= kMostDown && bestError > 1e-9 * ratio; ++down) {
    const std::int64_t up = std::max<std::int64_t>(1, std::llround(ratio * static_cast<double>(down)));
    const double error = std::abs(static_cast<double>(up) / static_cast<double>(down) - ratio);
    if (error < bestError) {
      best = {up, down};
      bestError = error;
    }
  }
  const std::int64_t g = std::gcd(best.up, best.down);
  return {best.up / g, best.down / g};
}

std::size_t bytesPerSample(PlaybackFormat format) {
  switch (format) {
    case PlaybackFormat::UInt8: return 1;
    case PlaybackFormat::Int16: return 2;
    case PlaybackFormat::Int32:
    case PlaybackFormat::Float32: return 4;
  }
  return 4;
}

std::uint64_t encodeSamples(std::span<const double> samples, PlaybackFormat format, std::span<std::byte> out) {
  const std::size_t width = bytesPerSample(format);
  if (out.size() < samples.size() * width) throw std::invalid_argument("encodeSamples: the output is too small");
  std::uint64_t clipped = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    double v = samples[i];
    if (!(v >= -1.0 && v <= 1.0)) {
      ++clipped;
      v = std::isnan(v) ? 0.0 : std::clamp(v, -1.0, 1.0);
    }
    std::byte* at = out.data() + i * width;
    switch (format) {
      case PlaybackFormat::UInt8: put(at, static_cast<std::uint8_t>(std::lround(127.5 * v + 127.5))); break;
      case PlaybackFormat::Int16: put(at, static_cast<std::int16_t>(std::lround(v * 32767.0))); break;
      case PlaybackFormat::Int32: put(at, static_cast<std::int32_t>(std::llround(v * 2147483647.0))); break;
      case PlaybackFormat::Float32: put(at, static_cast<float>(v)); break;
    }
  }
  return clipped;
}

PlaybackClip preparePlayback(const std::vector<std::span<const double>>& channels, std::optional<double> signalRate,
                             std::uint64_t first, std::uint64_t last, const PlaybackDevice& device,
                             const BackendList& engines, const std::atomic<bool>* cancel) {
  if (const std::string refusal = playbackRefusal(signalRate); !refusal.empty()) {
    throw std::invalid_argument("cannot play: " + refusal);
  }
  if (channels.empty() || device.channels == 0 || !isValidSampleRate(device.sampleRate)) {
    throw std::invalid_argument("cannot play: no channels to play or none to play them on");
  }
  const std::uint64_t size = channels.front().size();
  if (first >= last || last > size) {
    throw std::invalid_argument("cannot play samples " + std::to_string(first) + " to " + std::to_string(last) +
                                " of a signal of " + std::to_string(size));
  }
  PlaybackClip clip;
  const auto longest = static_cast<std::uint64_t>(kLongestPlaybackSeconds * *signalRate);
  clip.shortened = last - first > longest;
  clip.first = first;
  clip.last = clip.shortened ? first + longest : last;
  clip.factors = playbackFactors(*signalRate, device.sampleRate);

  ChannelSource source;
  source.sampleRate = signalRate;
  for (const auto& c : channels) source.channels.push_back(c.subspan(first, clip.last - first));
  std::vector<SampleVector> resampled;
  if (clip.factors.up == 1 && clip.factors.down == 1) {
    for (const auto& c : source.channels) resampled.emplace_back(std::vector<double>(c.begin(), c.end()));
  } else {
    const std::string chain = "resample-poly " + std::to_string(clip.factors.up) + "," + std::to_string(clip.factors.down);
    PipelineOptions options;
    options.verify = false;  // the ear is the check; the stage's own tests verify it
    PipelineObserver observer;
    observer.cancel = cancel;
    resampled = runPipeline(parseChain(chain), source, MemorySink{}, engines, options, observer).output;
  }
  clip.frames = resampled.front().size();
  std::vector<double> interleaved(clip.frames * device.channels);
  for (std::size_t d = 0; d < device.channels; ++d) {
    const SampleVector& from = resampled[std::min(d, resampled.size() - 1)];
    for (std::uint64_t f = 0; f < clip.frames; ++f) interleaved[f * device.channels + d] = from[f];
  }
  clip.bytes.resize(interleaved.size() * bytesPerSample(device.format));
  clip.clipped = encodeSamples(interleaved, device.format, clip.bytes);
  return clip;
}

}  // namespace siglab
