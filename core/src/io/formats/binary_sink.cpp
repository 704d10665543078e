#include "binary_sink.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "../channel_output.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/binary_formats.hpp"

namespace siglab {
namespace {

class BinarySink final : public ChannelSink {
 public:
  BinarySink(const std::string& path, SampleType type, bool npy, std::size_t channels,
             std::optional<std::uint64_t> knownFrames, Durability durability)
      : file_(path, durability, DirectOutput::spooled), type_(type), npy_(npy), channels_(channels),
        knownFrames_(knownFrames) {
    if (type != SampleType::f64 && type != SampleType::f32) {
      throw std::invalid_argument("raw output is f64 or f32, not " + std::string(sampleTypeName(type)));
    }
    if (npy_) file_.append(header(knownFrames.value_or(0)));
  }

  std::size_t channels() const override { return channels_; }
  void writeFrames(std::span<const std::span<const double>> block) override {
    frames_ += block.front().size();
    if (channels_ == 1 && type_ == SampleType::f64) {  // the samples' own bytes: no copy
      file_.append({reinterpret_cast<const char*>(block.front().data()), block.front().size() * sizeof(double)});
      return;
    }
    appendInterleaved(file_, block, type_);
  }
  void commit() override {
    if (npy_ && knownFrames_ != frames_) {
      const std::string fixed = header(frames_);
      if (fixed.size() != header(0).size()) throw std::logic_error("the .npy header changed size");
      file_.writeAt(0, fixed);
    }
    file_.commit();
  }

 private:
  std::string header(std::uint64_t frames) const {
    return channels_ == 1 ? npyHeader(frames) : npyHeader(frames, channels_);
  }

  AtomicFileWriter file_;
  SampleType type_;
  bool npy_;
  std::size_t channels_;
  std::optional<std::uint64_t> knownFrames_;
  std::uint64_t frames_ = 0;
};

}  // namespace

std::unique_ptr<ChannelSink> openBinarySink(const std::string& path, SampleType type, bool npy, std::size_t channels,
                                            std::optional<std::uint64_t> knownFrames, Durability durability) {
  return std::make_unique<BinarySink>(path, type, npy, channels, knownFrames, durability);
}

}  // namespace siglab
