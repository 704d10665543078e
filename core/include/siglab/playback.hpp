#pragma once
// What a front-end hands an audio device to play a span of a signal: the samples of [first, last),
// resampled to the device's rate by the resample-poly stage (through runPipeline), the signal's
// channels laid over the device's, and converted to its sample format with the clipped samples
// counted. No audio API here: the GUI's Qt Multimedia sink only plays the bytes.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "siglab/filter_backend.hpp"

namespace siglab {

enum class PlaybackFormat { UInt8, Int16, Int32, Float32 };

struct PlaybackDevice {
  double sampleRate = 48000.0;
  std::size_t channels = 2;
  PlaybackFormat format = PlaybackFormat::Int16;
};

// Rates that sound: a signal below or above them is refused (it has no audio rate).
inline constexpr double kLowestAudioRate = 1000.0;
inline constexpr double kHighestAudioRate = 768000.0;
// The longest span played at once; a longer one plays its first this many seconds.
inline constexpr double kLongestPlaybackSeconds = 600.0;

// Why a signal of this rate cannot be played ("has no sample rate", "... 50 Hz is below 1 kHz"),
// or empty when it can.
std::string playbackRefusal(std::optional<double> sampleRate);

// The resample-poly factors taking `signalRate` to `deviceRate`: exact where a ratio with DOWN
// at most 1024 is (44.1 kHz to 48 kHz: 160/147), else the nearest such ratio. {1, 1}: same rate.
struct ResampleFactors {
  std::int64_t up = 1;
  std::int64_t down = 1;
};
ResampleFactors playbackFactors(double signalRate, double deviceRate);

// Encodes `samples` (full scale [-1, 1]) in `format` into `out` (sizeof of the format each);
// returns how many were outside [-1, 1] and clipped (NaN plays as 0 and counts too).
std::uint64_t encodeSamples(std::span<const double> samples, PlaybackFormat format, std::span<std::byte> out);
std::size_t bytesPerSample(PlaybackFormat format);

struct PlaybackClip {
  std::vector<std::byte> bytes;  // interleaved frames in the device's format
  std::uint64_t frames = 0;
  std::uint64_t clipped = 0;     // samples clipped to full scale
  ResampleFactors factors;
  std::uint64_t first = 0;       // the signal's samples played: [first, last)
  std::uint64_t last = 0;
  bool shortened = false;        // the span was longer than kLongestPlaybackSeconds
};

// Samples [first, last) of `channels` (planar, one length) at `signalRate` for `device`: device
// channel d plays signal channel min(d, C - 1) (a mono signal on every speaker). Throws
// std::invalid_argument for a refused rate, an empty or out-of-range span; StageError, Cancelled
// from the resampling run.
PlaybackClip preparePlayback(const std::vector<std::span<const double>>& channels, std::optional<double> signalRate,
                             std::uint64_t first, std::uint64_t last, const PlaybackDevice& device,
                             const BackendList& engines, const std::atomic<bool>* cancel = nullptr);

}  // namespace siglab
