#include "siglab/markers.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/json_number.hpp"

namespace siglab {
namespace {

constexpr const char* kSecondsHeader = "time_s,label,end_s";
constexpr const char* kSamplesHeader = "sample,label,end_sample";
constexpr std::size_t kLongestLabel = 1000;

std::string quoted(const std::string& label) {
  if (label.find_first_of(",\"\r\n") == std::string::npos) return label;
  std::string out = "\"";
  for (const char c : label) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(double value) {
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out.precision(17);
  out << value;
  return out.str();
}

// One CSV line's fields (RFC 4180 quotes; a quoted field does not span lines here).
std::vector<std::string> fields(const std::string& line, const std::string& path, std::uint64_t lineNumber) {
  std::vector<std::string> out(1);
  bool inQuotes = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (inQuotes) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        inQuotes = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      inQuotes = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  if (inQuotes) throw InputError(path, lineNumber, line.size(), "a quoted label is not closed");
  return out;
}

double parsed(const std::string& text, const std::string& path, std::uint64_t line, const char* what) {
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double value = 0;
  in >> value;
  if (!in || !(in >> std::ws).eof() || !std::isfinite(value)) {
    throw InputError(path, line, 0, std::string(what) + " \"" + text.substr(0, 40) + "\" is not a finite number");
  }
  return value;
}

// Seconds times the rate lands a rounding error off the sample it was written from (120 / 44100 s
// reads back as 119.99999999999999): within a millionth of a sample, it is that sample.
double onSample(double index) {
  const double nearest = std::round(index);
  return std::abs(index - nearest) < 1e-6 ? nearest : index;
}

}  // namespace

SampleRange spanBetween(double first, double last, std::size_t size) {
  if (size == 0) return {0, 0};
  const double top = static_cast<double>(size - 1);
  const double low = std::clamp(std::round(std::min(first, last)), 0.0, top);
  const double high = std::clamp(std::round(std::max(first, last)), 0.0, top);
  return {static_cast<std::size_t>(low), static_cast<std::size_t>(high) + 1};
}

SampleRange rangeOf(const Marker& marker, std::size_t size) {
  return spanBetween(marker.at, marker.end.value_or(marker.at), size);
}

std::string markersToCsv(const std::vector<Marker>& markers, std::optional<double> sampleRate) {
  const bool seconds = sampleRate && *sampleRate > 0;
  const auto unit = [&](double at) { return number(seconds ? at / *sampleRate : at); };
  std::string out = std::string(seconds ? kSecondsHeader : kSamplesHeader) + "\n";
  for (const Marker& marker : markers) {
    out += unit(marker.at) + "," + quoted(marker.label) + "," + (marker.end ? unit(*marker.end) : std::string()) + "\n";
  }
  return out;
}

std::vector<Marker> markersFromCsv(const std::string& text, std::optional<double> sampleRate,
                                   const std::string& path) {
  std::istringstream in(text);
  std::string line;
  std::uint64_t lineNumber = 0;
  std::optional<bool> seconds;
  std::vector<Marker> markers;
  while (std::getline(in, line)) {
    ++lineNumber;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (!seconds) {
      if (line == kSecondsHeader) {
        if (!sampleRate || *sampleRate <= 0) {
          throw InputError(path, lineNumber, 1, "times in seconds need the signal's sample rate: set one first");
        }
        seconds = true;
      } else if (line == kSamplesHeader) {
        seconds = false;
      } else {
        throw InputError(path, lineNumber, 1, "expected the header \"" + std::string(kSecondsHeader) + "\" or \"" +
                                                  kSamplesHeader + "\", found \"" + line.substr(0, 40) + "\"");
      }
      continue;
    }
    const std::vector<std::string> row = fields(line, path, lineNumber);
    if (row.size() < 2 || row.size() > 3) {
      throw InputError(path, lineNumber, 0, "expected 2 or 3 fields (time, label, end), found " + std::to_string(row.size()));
    }
    if (row[1].size() > kLongestLabel) {
      throw InputError(path, lineNumber, 0, "the label is longer than " + std::to_string(kLongestLabel) + " characters");
    }
    const double scale = *seconds ? *sampleRate : 1.0;
    Marker marker{onSample(parsed(row[0], path, lineNumber, "the time") * scale), row[1], std::nullopt};
    if (row.size() == 3 && !row[2].empty()) {
      marker.end = onSample(parsed(row[2], path, lineNumber, "the end") * scale);
      if (*marker.end < marker.at) throw InputError(path, lineNumber, 0, "the region ends before it starts");
    }
    markers.push_back(std::move(marker));
  }
  if (!seconds) throw InputError(path, "empty: expected the header \"" + std::string(kSecondsHeader) + "\"");
  return markers;
}

void saveMarkersCsv(const std::string& path, const std::vector<Marker>& markers, std::optional<double> sampleRate) {
  writeFileAtomically(path, markersToCsv(markers, sampleRate));
}

std::vector<Marker> loadMarkersCsv(const std::string& path, std::optional<double> sampleRate) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot be opened for reading");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path, "could not be read");
  return markersFromCsv(text.str(), sampleRate, path);
}

std::vector<Marker> peakMarkers(const BlockReader& read, std::size_t size, const PeakOptions& options,
                                std::size_t limit) {
  constexpr std::size_t kBlock = std::size_t{1} << 16;
  PeakFinder finder(options, size);
  std::vector<double> block(kBlock);
  std::vector<Marker> markers;
  const auto collect = [&] {
    for (const PeakRow& peak : finder.take()) {
      if (markers.size() == limit) {
        throw std::length_error("more than " + std::to_string(limit) +
                                " peaks: ask for a higher prominence, height or distance");
      }
      markers.push_back({static_cast<double>(peak.index), "peak", std::nullopt});
    }
  };
  for (std::size_t first = 0; first < size; first += kBlock) {
    const std::span<double> out(block.data(), std::min(kBlock, size - first));
    read(first, out);
    finder.feed(out);
    collect();
  }
  finder.finish();
  collect();
  return markers;
}

nlohmann::json markersToJson(const std::vector<Marker>& markers) {
  nlohmann::json out = nlohmann::json::array();
  for (const Marker& marker : markers) {
    nlohmann::json item{{"at", jsonNumber(marker.at)}, {"label", marker.label}};
    if (marker.end) item["end"] = jsonNumber(*marker.end);
    out.push_back(std::move(item));
  }
  return out;
}

std::vector<Marker> markersFromJson(const nlohmann::json& json, const std::string& path) {
  const auto fail = [&](const std::string& key, const std::string& what) {
    throw InputError(path, "session key \"" + key + "\": " + what);
  };
  if (!json.is_array()) fail("markers", "expected an array");
  std::vector<Marker> markers;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const std::string key = "markers[" + std::to_string(i) + "]";
    const nlohmann::json& item = json[i];
    if (!item.is_object()) fail(key, "expected an object");
    if (!item.contains("at") || !item["at"].is_number()) fail(key + ".at", "expected a number");
    if (!item.contains("label") || !item["label"].is_string()) fail(key + ".label", "expected a string");
    Marker marker{item["at"].get<double>(), item["label"].get<std::string>(), std::nullopt};
    if (item.contains("end")) {
      if (!item["end"].is_number()) fail(key + ".end", "expected a number");
      marker.end = item["end"].get<double>();
      if (*marker.end < marker.at) fail(key + ".end", "the region ends before it starts");
    }
    markers.push_back(std::move(marker));
  }
  return markers;
}

}  // namespace siglab
