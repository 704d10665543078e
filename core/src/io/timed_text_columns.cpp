// The columns of a time-stamped CSV (time_column.hpp): uniform stamps set the rate of the text
// columns read as usual; with ReadOptions::resampleTo, rows are read in order and each channel
// linearly interpolated onto the uniform grid from the first stamp to the last.
#include <algorithm>
#include <cmath>

#include "channel_readers.hpp"
#include "siglab/errors.hpp"
#include "siglab/sample_rate.hpp"
#include "text_columns.hpp"
#include "time_column.hpp"

namespace siglab {
namespace {

// Rows read one after another: the time stamp and the chosen columns' values.
class ResampledRows final : public ChannelStream {
 public:
  ResampledRows(std::unique_ptr<FileBytes> file, std::string path, const ReadOptions& options, std::size_t timeColumn,
                std::vector<std::size_t> columns, std::vector<std::string> names, const TimeAxis& axis)
      : file_(std::move(file)), path_(std::move(path)), timeColumn_(timeColumn), columns_(std::move(columns)),
        names_(std::move(names)), rate_(*options.resampleTo), first_(axis.first),
        frames_(static_cast<std::uint64_t>(std::floor(axis.last.since(axis.first) * rate_ + 1e-9)) + 1),
        before_(columns_.size()), after_(columns_.size()), scratch_(columns_.size()) {
    TextReadOptions split = textReadOptions(options);
    split.column = 1;
    body_ = locateTextBody(file_->text(), split);
    rest_ = body_.body;
    line_ = body_.firstLine;
    if (!nextRow(beforeTime_, before_) || !nextRow(afterTime_, after_)) {
      throw InputError(path_, "resampling needs at least two rows of time stamps");
    }
  }

  std::size_t channels() const override { return columns_.size(); }
  std::optional<std::uint64_t> knownFrames() const override { return frames_; }
  std::optional<double> sampleRate() const override { return rate_; }
  double fractionRead() const override { return frames_ == 0 ? 1.0 : static_cast<double>(next_) / static_cast<double>(frames_); }
  std::vector<std::string> channelNames() const override { return names_; }

 protected:
  std::size_t readFrames(std::span<const std::span<double>> out) override {
    std::size_t done = 0;
    for (; done < out.front().size() && next_ < frames_; ++done, ++next_) {
      const double t = static_cast<double>(next_) / rate_;
      double time = 0.0;
      while (afterTime_ < t && nextRow(time, scratch_)) {
        before_.swap(after_);
        after_.swap(scratch_);
        beforeTime_ = afterTime_;
        afterTime_ = time;
      }
      const double span = afterTime_ - beforeTime_;
      const double w = span > 0 ? std::clamp((t - beforeTime_) / span, 0.0, 1.0) : 0.0;
      for (std::size_t c = 0; c < columns_.size(); ++c) out[c][done] = before_[c] + w * (after_[c] - before_[c]);
    }
    return done;
  }

 private:
  // The next data row's time (seconds after the first stamp) and values; false at the end.
  bool nextRow(double& time, std::vector<double>& values) {
    while (!rest_.empty()) {
      const std::size_t eol = std::min(rest_.find('\n'), rest_.size());
      const std::string_view content = trimBlanks(rest_.substr(0, eol));
      rest_.remove_prefix(std::min(eol + 1, rest_.size()));
      const std::uint64_t line = line_++;
      if (content.empty() || content.front() == '#') continue;
      std::size_t fields = 0;
      time = parseTimeStamp(trimBlanks(textField(content, body_.separator, timeColumn_, fields).value_or("")),
                            body_.decimal).value_or(TimeStamp{}).since(first_);  // checked by scanTimeColumn
      for (std::size_t c = 0; c < columns_.size(); ++c) {
        const std::optional<std::string_view> field = textField(content, body_.separator, columns_[c], fields);
        if (!field || !parseTextNumber(trimBlanks(*field), body_.decimal, body_.allowNonFinite, values[c])) {
          throw InputError(path_, line, 1, "expected a number in column " + std::to_string(columns_[c]) + ", found " +
                                               (field ? quoteExcerpt(trimBlanks(*field)) : std::string("no such column")));
        }
      }
      return true;
    }
    return false;
  }

  std::unique_ptr<FileBytes> file_;
  std::string path_;
  std::size_t timeColumn_;
  std::vector<std::size_t> columns_;
  std::vector<std::string> names_;
  double rate_;
  TimeStamp first_;
  std::uint64_t frames_;
  TextBody body_;
  std::string_view rest_;
  std::uint64_t line_ = 1;
  std::uint64_t next_ = 0;
  double beforeTime_ = 0.0, afterTime_ = 0.0;
  std::vector<double> before_, after_, scratch_;
};

// The value columns streamed as plain text columns, the time column walked alongside them: each
// block's stamps pass the checks the first lines passed when they gave the rate, so a later
// irregular or falling stamp is the error naming its line, met while streaming; the file is read
// once, not scanned whole before the stream starts. Pages walked are released a window at a time.
class TimeCheckedColumns final : public ChannelStream {
 public:
  TimeCheckedColumns(std::unique_ptr<ChannelStream> values, std::unique_ptr<FileBytes> file, const ReadOptions& options,
                     std::size_t timeColumn, const std::string& path, std::size_t windowBytes)
      : values_(std::move(values)), file_(std::move(file)), body_(timeColumnBody(file_->text(), options)),
        checks_(body_, timeColumn, path, false), rest_(body_.body), line_(body_.firstLine),
        windowBytes_(std::max<std::size_t>(windowBytes, 1)) {}

  std::size_t channels() const override { return values_->channels(); }
  std::optional<std::uint64_t> knownFrames() const override { return values_->knownFrames(); }
  std::optional<double> sampleRate() const override { return values_->sampleRate(); }
  double fractionRead() const override { return values_->fractionRead(); }
  std::vector<std::string> channelNames() const override { return values_->channelNames(); }

 protected:
  std::size_t readFrames(std::span<const std::span<double>> out) override {
    const std::size_t got = values_->read(out);
    checkRows(got);
    return got;
  }

 private:
  void checkRows(std::size_t rows) {
    while (rows > 0 && !rest_.empty()) {
      const std::size_t eol = std::min(rest_.find('\n'), rest_.size());
      const std::string_view content = trimBlanks(rest_.substr(0, eol));
      rest_.remove_prefix(std::min(eol + 1, rest_.size()));
      const std::uint64_t line = line_++;
      if (content.empty() || content.front() == '#') continue;
      checks_.check(line, content);
      --rows;
    }
    const auto walked = static_cast<std::size_t>(rest_.data() - file_->text().data());
    if (walked - released_ >= windowBytes_ || rest_.empty()) {
      file_->release(released_, walked - released_);
      released_ = walked;
    }
  }

  std::unique_ptr<ChannelStream> values_;
  std::unique_ptr<FileBytes> file_;
  TextBody body_;
  TimeStampChecks checks_;
  std::string_view rest_;
  std::uint64_t line_;
  std::size_t windowBytes_;
  std::size_t released_ = 0;
};

// The first rows give the rate of a stream checked as it goes (TimeCheckedColumns).
constexpr std::uint64_t kRateRows = 4096;

}  // namespace

std::vector<std::string> textHeaderNames(std::string_view text, const ReadOptions& options,
                                         std::span<const std::size_t> columns) {
  if (!options.skipHeader) return {};
  TextReadOptions withHeader = textReadOptions(options);
  withHeader.column = 1;
  const TextBody body = locateTextBody(text, withHeader);  // its separator, from the first line after the header
  withHeader.skipHeader = false;
  std::string_view rest = locateTextBody(text, withHeader).body;  // starts at the header
  while (!rest.empty()) {
    const std::size_t eol = std::min(rest.find('\n'), rest.size());
    const std::string_view header = trimBlanks(rest.substr(0, eol));
    rest.remove_prefix(std::min(eol + 1, rest.size()));
    if (header.empty() || header.front() == '#') continue;
    std::vector<std::string> names;
    for (const std::size_t column : columns) {
      std::size_t fields = 0;
      std::string_view name = column == 0 ? header : trimBlanks(textField(header, body.separator, column, fields).value_or(""));
      if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
      names.emplace_back(name);
    }
    return names;
  }
  return {};
}

std::unique_ptr<ChannelStream> openTimedTextColumns(const FileBytes& file, const std::string& pathGiven,
                                                    const std::string& path, const ReadOptions& options,
                                                    std::size_t timeColumn, std::size_t windowBytes) {
  if (options.resampleTo) checkSampleRate(*options.resampleTo);
  ReadOptions values = options;
  values.timeColumn = 0;
  values.resampleTo.reset();
  std::vector<std::size_t> columns;
  for (const std::size_t column : textColumnsToRead(file.text(), values, path)) {
    if (column != timeColumn) columns.push_back(column);
  }
  if (columns.empty() || columns.front() == 0) {
    throw InputError(path, "no column of numbers besides the time stamps in column " + std::to_string(timeColumn));
  }
  std::vector<std::size_t> kept;
  for (const std::size_t c : channelsToKeep(options, columns.size(), path)) kept.push_back(columns[c]);
  if (options.resampleTo) {  // the grid runs to the last stamp: the whole column is read first
    const TimeAxis axis = scanTimeColumn(file.text(), options, timeColumn, path, true);
    std::vector<std::string> names = textHeaderNames(file.text(), options, kept);
    return std::make_unique<ResampledRows>(std::make_unique<FileBytes>(pathGiven), path, options, timeColumn,
                                           std::move(kept), std::move(names), axis);
  }
  const TimeAxis head = scanTimeColumn(file.text(), options, timeColumn, path, false, kRateRows);
  values.columns = kept;
  values.oneChannel = false;
  if (!values.sampleRate) values.sampleRate = head.uniformRate;
  return std::make_unique<TimeCheckedColumns>(openPlainTextColumns(file, pathGiven, path, values, windowBytes),
                                              std::make_unique<FileBytes>(pathGiven), options, timeColumn, path,
                                              windowBytes);
}

}  // namespace siglab
