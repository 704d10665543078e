#include "siglab/io/sample_sink.hpp"

#include "siglab/io/channel_sink.hpp"
#include "dataset_formats.hpp"
#include "signal_format.hpp"
#include <cstdint>

namespace siglab {
namespace {

// One channel of the format's ChannelSink: the bytes writeSignal writes.
class OneChannelSampleSink final : public SampleSink {
 public:
  explicit OneChannelSampleSink(std::unique_ptr<ChannelSink> sink) : sink_(std::move(sink)) {}
  void write(std::span<const double> values) override {
    const std::span<const double> one[] = {values};
    sink_->write(one);
  }
  void commit() override { sink_->commit(); }

 private:
  std::unique_ptr<ChannelSink> sink_;
};

}  // namespace

std::unique_ptr<SampleSink> openSampleSink(const std::string& path, const WriteOptions& options,
                                           std::optional<std::uint64_t> knownCount) {
  if (auto dataset = openDatasetSink(path, options, 1)) {  // FILE.h5:NAME, FILE.mat:NAME
    return std::make_unique<OneChannelSampleSink>(std::move(dataset));
  }
  return std::make_unique<OneChannelSampleSink>(outputFormat(path, options).openSink(path, options, 1, knownCount));
}

}  // namespace siglab
