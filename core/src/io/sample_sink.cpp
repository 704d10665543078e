#include "siglab/io/sample_sink.hpp"

#include "dataset_formats.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "parallel_work.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/text_format.hpp"
#include "stream_writers.hpp"

namespace siglab {
namespace {

template <typename Contiguous>
std::string_view bytesOf(const Contiguous& values) {
  return {reinterpret_cast<const char*>(std::data(values)), std::size(values) * sizeof(*std::data(values))};
}

// Text: each block formatted on all cores in pieces, written in order (writeTextFile's way).
class TextSink final : public SampleSink {
 public:
  TextSink(const std::string& path, TextStyle style, Durability durability) : file_(path, durability, DirectOutput::spooled), style_(style) {}

  void write(std::span<const double> values) override {
    constexpr std::size_t kValuesPerPiece = 1 << 15;
    if (values.size() <= kValuesPerPiece) {  // one piece: no threads to start
      text_.clear();
      style_ == TextStyle::seed ? appendSeedFormat(values, text_) : appendShortestFormat(values, text_);
      file_.append(text_);
      return;
    }
    const std::size_t pieces = (values.size() + kValuesPerPiece - 1) / kValuesPerPiece;
    produceInParallelConsumeInOrder(
        pieces,
        [&](std::size_t i, std::string& text) {
          const auto slice = values.subspan(i * kValuesPerPiece, std::min(kValuesPerPiece, values.size() - i * kValuesPerPiece));
          text.clear();
          style_ == TextStyle::seed ? appendSeedFormat(slice, text) : appendShortestFormat(slice, text);
        },
        [&](std::size_t, const std::string& text) { file_.append(text); });
  }
  void commit() override { file_.commit(); }

 private:
  AtomicFileWriter file_;
  TextStyle style_;
  std::string text_;
};

// Raw f64 or f32, and .npy (raw f64 behind a header that is fixed up at commit when the count
// was not known: the header of writeSignal is 128 bytes for every count, so it fits in place).
class BinarySink final : public SampleSink {
 public:
  BinarySink(const std::string& path, SampleType type, bool npy, std::optional<std::uint64_t> knownCount,
             Durability durability)
      : file_(path, durability, DirectOutput::spooled), type_(type), npy_(npy), knownCount_(knownCount) {
    if (type != SampleType::f64 && type != SampleType::f32) {
      throw std::invalid_argument("raw output is f64 or f32, not " + std::string(sampleTypeName(type)));
    }
    if (npy_) file_.append(npyHeader(knownCount.value_or(0)));
  }

  void write(std::span<const double> values) override {
    if (type_ == SampleType::f64) {
      file_.append(bytesOf(values));
    } else {
      file_.append(bytesOf(toFloat32(values)));
    }
    count_ += values.size();
  }
  void commit() override {
    if (npy_ && knownCount_ != count_) {
      const std::string header = npyHeader(count_);
      if (header.size() != npyHeader(0).size()) throw std::logic_error("the .npy header changed size");
      file_.writeAt(0, header);
    }
    file_.commit();
  }

 private:
  AtomicFileWriter file_;
  SampleType type_;
  bool npy_;
  std::optional<std::uint64_t> knownCount_;
  std::uint64_t count_ = 0;
};

}  // namespace

std::unique_ptr<SampleSink> openSampleSink(const std::string& path, const WriteOptions& options,
                                           std::optional<std::uint64_t> knownCount) {
  if (auto dataset = openDatasetSampleSink(path, options)) return dataset;
  switch (options.format == FileFormat::automatic ? formatForOutput(path) : options.format) {
    case FileFormat::npy:
      return std::make_unique<BinarySink>(path, SampleType::f64, true, knownCount, options.durability);
    case FileFormat::raw:
      return std::make_unique<BinarySink>(path, options.rawType, false, knownCount, options.durability);
    case FileFormat::wav: return openWavSink(path, options.sampleRate, options.durability);
    case FileFormat::text:
    case FileFormat::automatic: break;
  }
  return std::make_unique<TextSink>(path, options.textStyle, options.durability);
}

}  // namespace siglab
