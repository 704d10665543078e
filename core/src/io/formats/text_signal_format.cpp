// Text: one number a line (the seed's format), or the columns of a CSV/TSV, one a channel. The
// fallback for bytes no other format recognises; no rate.
#include <algorithm>
#include <cstdint>

#include "../channel_output.hpp"
#include "../channel_readers.hpp"
#include "../parallel_work.hpp"
#include "../signal_format.hpp"
#include "../text_parse.hpp"
#include "../text_probe.hpp"
#include "../time_column.hpp"
#include "siglab/io/text_format.hpp"

namespace siglab {
namespace {

// One channel a line: each block formatted on all cores in pieces, written in order (writeTextFile's way).
class TextLinesSink final : public ChannelSink {
 public:
  TextLinesSink(const std::string& path, TextStyle style, Durability durability)
      : file_(path, durability, DirectOutput::spooled), style_(style) {}

  std::size_t channels() const override { return 1; }
  void writeFrames(std::span<const std::span<const double>> block) override {
    const std::span<const double> values = block.front();
    constexpr std::size_t kValuesPerPiece = 1 << 15;
    if (values.size() <= kValuesPerPiece) {  // one piece: no threads to start
      text_.clear();
      format(values, text_);
      file_.append(text_);
      return;
    }
    const std::size_t pieces = (values.size() + kValuesPerPiece - 1) / kValuesPerPiece;
    produceInParallelConsumeInOrder(
        pieces,
        [&](std::size_t i, std::string& text) {
          text.clear();
          format(values.subspan(i * kValuesPerPiece, std::min(kValuesPerPiece, values.size() - i * kValuesPerPiece)), text);
        },
        [&](std::size_t, const std::string& text) { file_.append(text); });
  }
  void commit() override { file_.commit(); }

 private:
  void format(std::span<const double> values, std::string& text) const {
    style_ == TextStyle::seed ? appendSeedFormat(values, text) : appendShortestFormat(values, text);
  }

  AtomicFileWriter file_;
  TextStyle style_;
  std::string text_;
};

// Several channels: CSV, one line a frame.
class CsvSink final : public ChannelSink {
 public:
  CsvSink(const std::string& path, TextStyle style, Durability durability, std::size_t channels)
      : file_(path, durability, DirectOutput::spooled), style_(style), channels_(channels) {}

  std::size_t channels() const override { return channels_; }
  void writeFrames(std::span<const std::span<const double>> block) override { appendCsvLines(file_, block, style_); }
  void commit() override { file_.commit(); }

 private:
  AtomicFileWriter file_;
  TextStyle style_;
  std::size_t channels_;
};

ReadOptions oneChannel(const ReadOptions& options) {
  ReadOptions one = options;
  one.oneChannel = true;
  return one;
}

class TextFormat final : public SignalFormat {
 public:
  std::string_view name() const override { return "text"; }
  std::string_view description() const override { return "Text"; }
  std::vector<std::string_view> extensions() const override { return {".txt", ".dat", ".csv", ".tsv"}; }
  bool holdsChannels() const override { return true; }  // as CSV columns
  bool hasRate() const override { return false; }
  std::vector<std::string> openFilters() const override {
    return {"Text, one number a line (*.txt *.dat)", "CSV or TSV (*.csv *.tsv)"};
  }
  std::string saveFilter(std::size_t channels) const override {
    return channels > 1 ? "CSV, a column a channel (*.csv)" : "Text, one number a line (*.txt);;CSV (*.csv)";
  }
  bool readsStreamsInPart() const override { return true; }

  Signal read(const FileBytes& file, const std::string& path, const ReadOptions& options,
              const Progress& progress) const override {
    if (findTimeColumn(file.text(), options) > 0) {  // time stamps: a channel of the columns beside them
      const std::unique_ptr<ChannelStream> channel = openTextColumns(file, file.name() == "standard input" ? "-" : file.name(), path,
                                                                       oneChannel(options), kWindowBytes);
      return readWholeChannel(*channel, path, options, progress);
    }
    return Signal{parseTextSignal(file.text(), path, textReadOptions(options), progress), std::nullopt, path};
  }
  std::unique_ptr<SampleStream> openSamples(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                            const ReadOptions& options) const override {
    if (findTimeColumn(file->text(), options) > 0) {
      return oneChannelAsSamples(openTextColumns(*file, source.pathGiven, source.path, oneChannel(options), source.windowBytes));
    }
    return openTextSampleStream(std::move(file), source.pathGiven, source.path, options, source.windowBytes);
  }
  std::unique_ptr<ChannelStream> openChannels(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                              const ReadOptions& options) const override {
    return openTextColumns(*file, source.pathGiven, source.path, options, source.windowBytes);
  }
  std::optional<std::vector<double>> readTail(const FileBytes& file, const std::string& path, const ReadOptions& options,
                                              std::size_t count) const override {
    return readTextTail(file, path, options, count);
  }
  void probe(const FileBytes&, std::string_view head, FileProbe& probe) const override { probeTextHead(head, probe); }
  bool needsReadChoices(const FileProbe& probe) const override {
    return probe.binary || probe.header || probe.columns > 1 || probe.decimal != '.';
  }
  void suggestReadOptions(const FileProbe& probe, ReadOptions& options) const override {
    if (probe.binary) {  // raw samples, probably
      options.format = FileFormat::raw;
      options.rawType = SampleType::f64;
      return;
    }
    options.skipHeader = probe.header;
    options.decimal = probe.decimal;
    if (probe.columns > 1) options.column = probe.header ? probe.columns : 1;
  }

  bool writes() const override { return true; }
  void checkChannels(const std::string& path, std::size_t channels) const override { requireTextHolds(path, channels); }
  std::unique_ptr<ChannelSink> openSink(const std::string& path, const WriteOptions& options, std::size_t channels,
                                        std::optional<std::uint64_t>) const override {
    checkHolds(path, channels, options);
    if (channels == 1) return std::make_unique<TextLinesSink>(path, options.textStyle, options.durability);
    requireTextHolds(path, channels);
    return std::make_unique<CsvSink>(path, options.textStyle, options.durability, channels);
  }
  void append(AtomicFileWriter& file, std::span<const std::span<const double>> channels, const WriteOptions& options,
              const Progress& progress) const override {
    checkHolds(file.path(), channels.size(), options);
    if (channels.size() == 1) return appendTextLines(file, channels.front(), options.textStyle, progress);
    requireTextHolds(file.path(), channels.size());
    appendCsvLines(file, channels, options.textStyle, progress);
  }

 private:
  static constexpr std::size_t kWindowBytes = std::size_t{32} << 20;
};

}  // namespace

const SignalFormat& textFormat() {
  static const TextFormat format;
  return format;
}

}  // namespace siglab
