// Lookups over the registry (format_list.cpp): by name, by content, by extension; the file dialog
// filters; and the defaults of SignalFormat's optional parts.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <stdexcept>

#include "siglab/errors.hpp"
#include "siglab/io/signal_formats.hpp"
#include "signal_format.hpp"

namespace siglab {

std::string lowerExtension(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

namespace {

const SignalFormat* formatWithExtension(const std::string& path) {
  const std::string extension = lowerExtension(path);
  if (extension.empty()) return nullptr;
  for (const SignalFormat* format : signalFormats()) {
    const auto extensions = format->extensions();
    if (std::find(extensions.begin(), extensions.end(), extension) != extensions.end()) return format;
  }
  return nullptr;
}

std::string patterns(const SignalFormat& format) {
  std::string text;
  for (const std::string_view extension : format.extensions()) {
    text += text.empty() ? "*" : " *";
    text += extension;
  }
  return text;
}

}  // namespace

const SignalFormat* findSignalFormat(std::string_view name) {
  for (const SignalFormat* format : signalFormats()) {
    if (format->name() == name) return format;
  }
  return nullptr;
}

const SignalFormat& signalFormat(FileFormat format) {
  if (format.isAutomatic()) throw std::invalid_argument("signalFormat: automatic names no format");
  if (const SignalFormat* found = findSignalFormat(format.name())) return *found;
  throw std::invalid_argument("no signal format named \"" + std::string(format.name()) + "\"");
}

const SignalFormat& inputFormat(const std::string& path, Bytes bytes, const ReadOptions& options) {
  if (!options.format.isAutomatic()) return signalFormat(options.format);
  if (options.rawType) return signalFormat(FileFormat::raw);
  for (const SignalFormat* format : signalFormats()) {
    if (format->recognises(bytes)) return *format;
  }
  if (const SignalFormat* format = formatWithExtension(path)) {
    format->checkChosenByExtension(path);
    return *format;
  }
  return signalFormat(FileFormat::text);
}

const SignalFormat& outputFormat(const std::string& path, const WriteOptions& options) {
  const SignalFormat* format = options.format.isAutomatic() ? formatWithExtension(path) : &signalFormat(options.format);
  if (!format) return signalFormat(FileFormat::text);
  if (!format->writes()) {  // a format read only: refused, not text under its name
    std::string writable;
    for (const SignalFormat* f : signalFormats()) {
      if (f->writes() && !f->extensions().empty()) writable += (writable.empty() ? "" : ", ") + std::string(f->extensions().front());
    }
    throw InputError(path, std::string(format->description()) + " files are read, not written: name the output " + writable);
  }
  return *format;
}

FileFormat formatForOutput(const std::string& path) { return outputFormat(path, WriteOptions{}).id(); }

// --- SignalFormat's defaults.

std::vector<std::string> SignalFormat::openFilters() const {
  return {std::string(description()) + " (" + patterns(*this) + ")"};
}

std::string SignalFormat::saveFilter(std::size_t channels) const {
  if (!writes() || (channels > 1 && !holdsChannels())) return {};
  return std::string(description()) + " (" + patterns(*this) + ")";
}

std::optional<std::vector<double>> SignalFormat::readTail(const FileBytes&, const std::string&, const ReadOptions&,
                                                          std::size_t) const {
  return std::nullopt;
}

void SignalFormat::probe(const FileBytes&, std::string_view, FileProbe&) const {}

void SignalFormat::checkHolds(const std::string& path, std::size_t channels, const WriteOptions& options) const {
  if (!writes()) throw InputError(path, "SigLab does not write " + std::string(description()) + " files");
  const std::vector<unsigned> widths = sampleWidths();
  if (options.bits != 0 && std::find(widths.begin(), widths.end(), options.bits) == widths.end()) {
    std::string choices;
    for (const SignalFormat* format : signalFormats()) {
      for (const unsigned w : format->sampleWidths()) {
        choices += (choices.empty() ? "" : ", ") + std::string(format->description()) + " " + std::to_string(w);
      }
    }
    throw InputError(path, std::string(description()) + " has no " + std::to_string(options.bits) +
                               "-bit samples to choose (--bits: " + choices + ")");
  }
  checkChannels(path, channels);
}

void SignalFormat::checkChannels(const std::string& path, std::size_t channels) const {
  if (channels > 1 && !holdsChannels()) {
    throw InputError(path, std::string(description()) + " holds one channel, not " + std::to_string(channels));
  }
}

std::unique_ptr<ChannelSink> SignalFormat::openSink(const std::string& path, const WriteOptions& options,
                                                    std::size_t channels, std::optional<std::uint64_t>) const {
  checkHolds(path, channels, options);
  throw std::logic_error("the format " + std::string(name()) + " writes but has no sink");
}

void SignalFormat::append(AtomicFileWriter& file, std::span<const std::span<const double>> channels,
                          const WriteOptions& options, const Progress&) const {
  checkHolds(file.path(), channels.size(), options);
  throw std::logic_error("the format " + std::string(name()) + " writes but cannot append");
}

// --- What front-ends see.

std::vector<std::string_view> signalFormatNames() {
  std::vector<std::string_view> names;
  for (const SignalFormat* format : signalFormats()) names.push_back(format->name());
  return names;
}

std::optional<FileFormat> signalFormatNamed(std::string_view name) {
  if (name == "automatic") return FileFormat::automatic;
  if (const SignalFormat* format = findSignalFormat(name)) return format->id();
  return std::nullopt;
}

std::string outputNote(const std::string& path, const WriteOptions& options) {
  return outputFormat(path, options).writeNote(options);
}

std::string_view signalFormatDescription(FileFormat format) {
  return format.isAutomatic() ? std::string_view("automatic") : signalFormat(format).description();
}

std::string openFileFilters() {
  std::string all, each;
  for (const SignalFormat* format : signalFormats()) {
    if (!all.empty()) all += ' ';
    all += patterns(*format);
    for (const std::string& filter : format->openFilters()) each += filter + ";;";
  }
  return "Signal files (" + all + ");;" + each + "All files (*)";
}

std::string saveFileFilters(std::size_t channels, std::string_view preferredExtension) {
  std::vector<const SignalFormat*> order(signalFormats().begin(), signalFormats().end());
  std::stable_sort(order.begin(), order.end(), [&](const SignalFormat* a, const SignalFormat* b) {
    const auto rank = [&](const SignalFormat* f) {
      const auto extensions = f->extensions();
      if (std::find(extensions.begin(), extensions.end(), preferredExtension) != extensions.end()) return 0;
      return channels > 1 && !f->holdsChannels() ? 2 : 1;
    };
    return rank(a) < rank(b);
  });
  std::string filters;
  for (const SignalFormat* format : order) {
    const std::string filter = format->saveFilter(channels);
    if (filter.empty()) continue;
    if (!filters.empty()) filters += ";;";
    filters += filter;
  }
  return filters;
}

}  // namespace siglab
