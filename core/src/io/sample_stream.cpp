#include "siglab/io/sample_stream.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "binary_layout.hpp"
#include "channel_readers.hpp"
#include "file_bytes.hpp"
#include "signal_format.hpp"
#include "siglab/io/dataset_files.hpp"
#include "sample_conversion.hpp"
#include "siglab/errors.hpp"
#include "stream_readers.hpp"
#include "text_parse.hpp"

namespace siglab {
namespace {

// Raw and .npy: samples read with pread and converted, as many as asked for at a time.
class BinaryStream final : public SampleStream {
 public:
  BinaryStream(std::unique_ptr<FileBytes> file, std::string path, BinaryLayout layout, bool allowNonFinite)
      : file_(std::move(file)), path_(std::move(path)), layout_(layout), allowNonFinite_(allowNonFinite) {}

  std::size_t read(std::span<double> out) override {
    const std::size_t size = sampleSize(layout_.type);
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), layout_.count - next_));
    if (n == 0) return 0;
    const std::uint64_t at = layout_.offset + next_ * size;
    try {
      // pread rather than the mapping: a page fault for every 4 KiB costs more than the copy.
      if (layout_.type == SampleType::f64) {
        file_->readAt(at, std::as_writable_bytes(out.first(n)));
        if (!allowNonFinite_) requireFinite(out.first(n), path_, next_);
      } else {
        bytes_.resize(n * size);
        file_->readAt(at, bytes_);
        convertSamplesInto(bytes_, layout_.type, out.first(n), next_, path_, allowNonFinite_);
      }
      next_ += n;
      if (next_ == layout_.count) throwIfChangedAt(next_ - n);
    } catch (const InputError&) {
      throwIfChangedAt(next_);
      throw;
    }
    return n;
  }
  std::optional<std::uint64_t> knownSize() const override { return layout_.count; }
  double fractionRead() const override {
    return layout_.count == 0 ? 1.0 : static_cast<double>(next_) / static_cast<double>(layout_.count);
  }

 private:
  // A file cut short or rewritten while streamed: said with the first sample of the read it spoiled.
  void throwIfChangedAt(std::uint64_t sample) const {
    try {
      file_->throwIfChanged();
    } catch (const InputError&) {
      throw InputError(path_, "the file changed while it was being read, at sample " + std::to_string(sample + 1) +
                                  " (another program is writing it): try again");
    }
  }

  std::unique_ptr<FileBytes> file_;
  std::string path_;
  BinaryLayout layout_;
  bool allowNonFinite_;
  std::uint64_t next_ = 0;
  std::vector<std::byte> bytes_;
};

// Text: parsed a window of whole lines at a time on all cores, with the in-memory reader's code,
// so the values and every error message (its line counted from the file's start) are the same.
// A stream read only in part (FileBytes::cutShort) is parsed up to its last whole line, and read
// further only when those lines are used up.
class TextStream final : public SampleStream {
 public:
  TextStream(std::unique_ptr<FileBytes> file, std::string source, std::string path, const ReadOptions& options,
             std::size_t windowBytes)
      : file_(std::move(file)), source_(std::move(source)), path_(std::move(path)),
        windowBytes_(std::max<std::size_t>(windowBytes, 1)) {
    for (;;) {
      layout_ = locateTextBody(wholeLines(), textReadOptions(options));
      if (layout_.settled || !file_->cutShort()) break;
      readFurther();
    }
    bodyOffset_ = static_cast<std::size_t>(layout_.body.data() - file_->text().data());
    line_ = layout_.firstLine;
  }

  std::size_t read(std::span<double> out) override {
    std::size_t filled = 0;
    while (filled < out.size()) {
      if (pendingAt_ == pending_.size() && !parseNextWindow()) break;
      const std::size_t n = std::min(out.size() - filled, pending_.size() - pendingAt_);
      std::copy_n(pending_.begin() + static_cast<std::ptrdiff_t>(pendingAt_), n, out.begin() + static_cast<std::ptrdiff_t>(filled));
      pendingAt_ += n;
      filled += n;
    }
    return filled;
  }
  std::optional<std::uint64_t> knownSize() const override { return std::nullopt; }
  double fractionRead() const override {
    return layout_.body.empty() ? 1.0 : static_cast<double>(position_) / static_cast<double>(layout_.body.size());
  }

 private:
  // The text up to its last whole line where the stream may have more, else all of it.
  std::string_view wholeLines() const {
    const std::string_view text = file_->text();
    return file_->cutShort() ? text.substr(0, text.rfind('\n') + 1) : text;  // npos + 1: none
  }

  // Reads the stream on: at least as much again as it holds (64 KiB at first, a window at most).
  void readFurther() {
    const std::uint64_t held = file_->bytes().size();
    file_ = std::make_unique<FileBytes>(source_, held + std::clamp<std::uint64_t>(held, 64 << 10, windowBytes_));
  }

  // Parses the next window of whole lines into pending_; false at the end of the file.
  bool parseNextWindow() {
    while (position_ == layout_.body.size() && file_->cutShort()) {
      readFurther();
      layout_.body = wholeLines().substr(bodyOffset_);
    }
    const std::string_view body = layout_.body;
    if (position_ == body.size()) {
      if (valuesSeen_ == 0) {
        throw InputError(path_, file_->text().empty() ? "the file is empty: expected one number per line"
                                                     : "no numbers found: expected one number per line");
      }
      return false;
    }
    std::size_t stop = body.size();
    if (body.size() - position_ > windowBytes_) {
      const std::size_t newline = body.find('\n', position_ + windowBytes_ - 1);
      if (newline != std::string_view::npos) stop = newline + 1;
    }
    const std::string_view piece = body.substr(position_, stop - position_);
    try {
      pending_ = parseTextPiece(piece, layout_, line_, path_, std::size_t{1} << 20, {});
      if (stop == body.size()) file_->throwIfChanged();
    } catch (const InputError&) {
      file_->throwIfChanged();  // a file cut short while parsed: that, not the parse error it caused
      throw;
    }
    pendingAt_ = 0;
    line_ += countTextLines(piece);
    file_->release(static_cast<std::size_t>(piece.data() - file_->text().data()), piece.size());
    position_ = stop;
    valuesSeen_ += pending_.size();
    return true;
  }

  std::unique_ptr<FileBytes> file_;
  std::string source_;  // as given to openSampleStream, to open it again
  std::string path_;
  std::size_t windowBytes_;
  TextBody layout_;
  std::size_t bodyOffset_ = 0;  // where layout_.body starts in the file
  std::uint64_t line_ = 1;
  std::size_t position_ = 0;  // in layout_.body
  SampleVector pending_;
  std::size_t pendingAt_ = 0;
  std::uint64_t valuesSeen_ = 0;
};

}  // namespace

// The last `count` values of a text file: whole lines parsed from ever larger windows at its end.
std::vector<double> readTextTail(const FileBytes& file, const std::string& path, const ReadOptions& options,
                                 std::size_t count) {
  const TextBody layout = locateTextBody(file.text(), textReadOptions(options));
  const std::string_view body = layout.body;
  for (std::size_t window = std::max<std::size_t>(count * 32, 1 << 16);; window *= 4) {
    std::size_t start = body.size() > window ? body.size() - window : 0;
    if (start > 0) start = body.find('\n', start - 1) + 1;  // a whole first line
    SampleVector values;
    try {
      values = parseTextPiece(body.substr(start), layout, layout.firstLine, path, std::size_t{1} << 20, {});
    } catch (const InputError&) {
      return {};  // the full read names the line
    }
    if (values.size() >= count || start == 0) {
      return std::vector<double>(values.end() - static_cast<std::ptrdiff_t>(std::min(count, values.size())),
                                 values.end());
    }
  }
}

namespace {

// The last `count` samples of a whole stream (a format without a cheaper way, or a layout of
// several channels: no seeking yet).
std::vector<double> readTailByStreaming(const std::string& path, const ReadOptions& options, std::size_t count) {
  const auto stream = openSampleStream(path, options);
  std::vector<double> tail, block(std::max<std::size_t>(count, 1 << 16));
  try {
    while (const std::size_t got = stream->read(block)) {
      tail.insert(tail.end(), block.begin(), block.begin() + static_cast<std::ptrdiff_t>(got));
      if (tail.size() > count) tail.erase(tail.begin(), tail.end() - static_cast<std::ptrdiff_t>(count));
    }
  } catch (const InputError&) {
    return {};  // the full read says what is wrong
  }
  return tail;
}

}  // namespace

namespace {

// The bytes of a stream worth reading for its first `samples` samples: exactly those of raw
// samples, a first 64 KiB of text (read on as parsed), all of it where that cannot be said.
std::uint64_t streamBytesFor(std::uint64_t samples, const ReadOptions& options) {
  if (samples == kAllSamples) return kAllSamples;
  const bool raw = options.format == FileFormat::raw || (options.format == FileFormat::automatic && options.rawType);
  if (!raw) return 64 << 10;
  const std::uint64_t size = sampleSize(options.rawType.value_or(SampleType::f64));
  if (samples > (kAllSamples - options.rawOffset) / size) return kAllSamples;
  return options.rawOffset + samples * size;
}

}  // namespace

std::unique_ptr<SampleStream> openBinarySampleStream(std::unique_ptr<FileBytes> file, const std::string& path,
                                                     BinaryLayout layout, bool allowNonFinite) {
  return std::make_unique<BinaryStream>(std::move(file), path, layout, allowNonFinite);
}

std::unique_ptr<SampleStream> openTextSampleStream(std::unique_ptr<FileBytes> file, const std::string& pathGiven,
                                                   const std::string& path, const ReadOptions& options,
                                                   std::size_t windowBytes) {
  return std::make_unique<TextStream>(std::move(file), pathGiven, path, options, windowBytes);
}

std::unique_ptr<SampleStream> openSampleStream(const std::string& pathGiven, const ReadOptions& options,
                                               std::size_t windowBytes, std::uint64_t samplesNeeded) {
  if (readsThroughChannels(pathGiven, options)) return openOneChannelStream(pathGiven, options, windowBytes);
  auto file = std::make_unique<FileBytes>(pathGiven, streamBytesFor(samplesNeeded, options));
  const std::string path = pathGiven == "-" ? "standard input" : pathGiven;  // as FileBytes names it
  const SignalFormat& format = inputFormat(path, file->bytes(), options);
  if (file->cutShort() && !format.readsStreamsInPart()) {
    file = std::make_unique<FileBytes>(pathGiven);  // a header says the size: the whole stream
  }
  return format.openSamples(std::move(file), StreamSource{pathGiven, path, windowBytes}, options);
}

std::uint64_t inputSizeBytes(const std::string& path) {
  return FileBytes(splitDatasetPath(path).file).bytes().size();  // FILE.h5:NAME: the file's (compressed) size
}

std::vector<double> readBinaryTail(const FileBytes& file, const std::string& path, const BinaryLayout& layout,
                                   bool allowNonFinite, std::size_t count) {
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(count, layout.count));
  const std::size_t size = sampleSize(layout.type);
  std::vector<double> values(n);
  try {
    convertSamplesInto(file.bytes().subspan(layout.offset + (layout.count - n) * size, n * size), layout.type, values,
                       layout.count - n, path, allowNonFinite);
  } catch (const InputError&) {
    return {};
  }
  return values;
}

std::vector<double> readSignalTail(const std::string& path, const ReadOptions& options, std::size_t count) {
  if (readsThroughChannels(path, options)) return readTailByStreaming(path, options, count);
  std::optional<std::vector<double>> tail;
  {
    const FileBytes file(path);
    tail = inputFormat(path, file.bytes(), options).readTail(file, path, options, count);
  }
  return tail ? std::move(*tail) : readTailByStreaming(path, options, count);
}

}  // namespace siglab
