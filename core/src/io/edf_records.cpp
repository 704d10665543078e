#include "edf_records.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "channel_readers.hpp"
#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab {
namespace {

std::int16_t littleEndian16(const std::byte* at) {
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(std::to_integer<unsigned>(at[0]) |
                                                              (std::to_integer<unsigned>(at[1]) << 8)));
}

class EdfChannels final : public ChannelStream {
 public:
  EdfChannels(const FileBytes& file, std::unique_ptr<FileBytes> owned, std::string path, EdfHeader header,
              std::vector<std::size_t> signals, std::optional<double> sampleRate, std::size_t windowBytes)
      : file_(file), owned_(std::move(owned)), path_(std::move(path)), header_(std::move(header)),
        signals_(std::move(signals)), samplesPerRecord_(header_.signals[signals_.front()].samplesPerRecord),
        sampleRate_(sampleRate ? *sampleRate : header_.rateOf(header_.signals[signals_.front()])),
        recordsAtOnce_(std::clamp<std::uint64_t>(windowBytes / header_.recordBytes, 1,
                                                 std::max<std::uint64_t>(1, (std::uint64_t{1} << 20) / samplesPerRecord_))),
        decoded_(signals_.size()) {}

  std::size_t channels() const override { return signals_.size(); }
  std::optional<std::uint64_t> knownFrames() const override { return header_.records * samplesPerRecord_; }
  std::optional<double> sampleRate() const override { return sampleRate_; }
  double fractionRead() const override {
    return header_.records == 0 ? 1.0 : static_cast<double>(nextRecord_) / static_cast<double>(header_.records);
  }
  std::vector<std::string> channelNames() const override {
    std::vector<std::string> names;
    for (const std::size_t s : signals_) names.push_back(header_.signals[s].label);
    return names;
  }
  std::vector<std::string> channelUnits() const override {
    std::vector<std::string> units;
    for (const std::size_t s : signals_) units.push_back(header_.signals[s].unit);
    return units;
  }

 protected:
  std::size_t readFrames(std::span<const std::span<double>> out) override {
    const std::size_t wanted = out.front().size();
    std::size_t done = 0;
    while (done < wanted) {
      if (position_ == decodedFrames_ && !decodeNextRecords()) break;
      const std::size_t n = std::min(wanted - done, decodedFrames_ - position_);
      for (std::size_t c = 0; c < signals_.size(); ++c) {
        std::copy_n(decoded_[c].begin() + static_cast<std::ptrdiff_t>(position_), n, out[c].begin() + static_cast<std::ptrdiff_t>(done));
      }
      position_ += n;
      done += n;
    }
    return done;
  }

 private:
  bool decodeNextRecords() {
    if (nextRecord_ == header_.records) return false;
    const std::uint64_t count = std::min(recordsAtOnce_, header_.records - nextRecord_);
    raw_.resize(static_cast<std::size_t>(count * header_.recordBytes));
    file_.readAt(header_.headerBytes + nextRecord_ * header_.recordBytes, raw_);
    decodedFrames_ = static_cast<std::size_t>(count * samplesPerRecord_);
    for (std::size_t c = 0; c < signals_.size(); ++c) {
      const EdfSignal& signal = header_.signals[signals_[c]];
      std::vector<double>& values = decoded_[c];
      values.resize(decodedFrames_);
      for (std::uint64_t r = 0; r < count; ++r) {
        const std::byte* samples = raw_.data() + r * header_.recordBytes + signal.offsetInRecord;
        for (std::uint64_t i = 0; i < samplesPerRecord_; ++i) {
          values[r * samplesPerRecord_ + i] = signal.physical(littleEndian16(samples + 2 * i));
        }
      }
    }
    nextRecord_ += count;
    position_ = 0;
    return true;
  }

  const FileBytes& file_;
  std::unique_ptr<FileBytes> owned_;
  std::string path_;
  EdfHeader header_;
  std::vector<std::size_t> signals_;
  std::uint64_t samplesPerRecord_;
  double sampleRate_;
  std::uint64_t recordsAtOnce_;
  std::uint64_t nextRecord_ = 0;
  std::vector<std::byte> raw_;
  std::vector<std::vector<double>> decoded_;
  std::size_t decodedFrames_ = 0;
  std::size_t position_ = 0;
};

// Record durations tried, in order: whole seconds first, as EDF writers usually choose.
constexpr double kRecordSeconds[] = {1, 0.5, 0.25, 0.2, 0.1, 2, 5, 10, 0.05, 0.04, 0.02, 0.01, 0.005, 0.004, 0.002, 0.001};

std::int16_t quantise(double value, double low, double step) {
  const double digital = std::round((value - low) / step) - 32768.0;
  return static_cast<std::int16_t>(std::clamp(digital, -32768.0, 32767.0));
}

}  // namespace

std::unique_ptr<ChannelStream> openEdfChannelStream(const FileBytes& file, std::unique_ptr<FileBytes> owned,
                                                    const std::string& path, const ReadOptions& options,
                                                    std::size_t windowBytes) {
  EdfHeader header = parseEdfHeader(file.bytes(), path);
  const std::vector<std::size_t> chosen = chooseEdfSignals(header, options.edfSignals, path);
  std::vector<std::size_t> signals;
  for (const std::size_t i : channelsToKeep(options, chosen.size(), path)) signals.push_back(chosen[i]);
  return std::make_unique<EdfChannels>(file, std::move(owned), path, std::move(header), std::move(signals),
                                       options.sampleRate, windowBytes);
}

EdfRecordPlan planEdfRecords(double rate, std::uint64_t frames, const std::string& path) {
  std::optional<EdfRecordPlan> fits;
  for (const double seconds : kRecordSeconds) {
    const double samples = rate * seconds;
    if (samples < 1 || samples > 1e7 || std::abs(samples - std::round(samples)) > 1e-9 * samples) continue;
    EdfRecordPlan plan{static_cast<std::uint64_t>(std::round(samples)), 0, seconds};
    plan.records = (frames + plan.samplesPerRecord - 1) / plan.samplesPerRecord;
    if (frames % plan.samplesPerRecord == 0) return plan;
    if (!fits) fits = plan;
  }
  if (!fits) {
    throw InputError(path, "cannot write EDF at " + shortNumber(rate) + " Hz: its data records (of 1, 0.5, ..., 0.001 s) "
                               "must each hold a whole number of samples");
  }
  return *fits;
}

void writeEdf(AtomicFileWriter& out, double rate, std::uint64_t frames, std::span<const double> low,
              std::span<const double> high, const EdfLabels& fields, const EdfFrameSource& fill) {
  const std::size_t channels = low.size();
  const EdfRecordPlan plan = planEdfRecords(rate, frames, out.path());
  EdfHeader header;
  header.headerBytes = kEdfFixedHeaderBytes + kEdfSignalHeaderBytes * channels;
  header.records = plan.records;
  header.recordSeconds = plan.recordSeconds;
  std::vector<double> lows(channels), steps(channels);
  for (std::size_t c = 0; c < channels; ++c) {
    EdfSignal signal;
    signal.label = fields.labels.at(c);
    signal.unit = fields.units.at(c);
    signal.digitalMin = -32768;
    signal.digitalMax = 32767;
    const double spread = high[c] > low[c] ? 0.0 : std::max(1.0, std::abs(low[c]));  // a constant: a range around it
    signal.physicalMin = std::strtod(edfBound(low[c] - spread, true).c_str(), nullptr);
    signal.physicalMax = std::strtod(edfBound(high[c] + spread, false).c_str(), nullptr);
    signal.samplesPerRecord = plan.samplesPerRecord;
    lows[c] = signal.physicalMin;
    steps[c] = signal.gain();
    header.signals.push_back(signal);
  }
  out.append(formatEdfHeader(header, out.path()));
  const std::uint64_t spr = plan.samplesPerRecord;
  const std::uint64_t recordsAtOnce = std::max<std::uint64_t>(1, (std::uint64_t{1} << 16) / spr);
  std::vector<std::vector<double>> planar(channels);
  std::vector<std::span<double>> block(channels);
  std::string bytes;
  for (std::uint64_t record = 0; record < plan.records; record += recordsAtOnce) {
    const std::uint64_t count = std::min(recordsAtOnce, plan.records - record);
    const std::uint64_t first = record * spr;
    const std::uint64_t available = std::min(count * spr, frames - first);
    for (std::size_t c = 0; c < channels; ++c) {
      planar[c].assign(static_cast<std::size_t>(count * spr), 0.0);  // past the last frame: zeros
      block[c] = std::span(planar[c]).first(static_cast<std::size_t>(available));
    }
    fill(first, block);
    bytes.resize(static_cast<std::size_t>(count * spr * channels * 2));
    char* at = bytes.data();
    for (std::uint64_t r = 0; r < count; ++r) {
      for (std::size_t c = 0; c < channels; ++c) {
        for (std::uint64_t i = 0; i < spr; ++i) {
          const double value = r * spr + i < available ? planar[c][r * spr + i] : lows[c] + 32768 * steps[c];
          const auto digital = static_cast<std::uint16_t>(quantise(value, lows[c], steps[c]));
          *at++ = static_cast<char>(digital & 0xff);
          *at++ = static_cast<char>(digital >> 8);
        }
      }
    }
    out.append(bytes);
  }
}

}  // namespace siglab
