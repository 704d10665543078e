#include "edf_header.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab {
namespace {

constexpr std::size_t kMaxSignals = 4096;
constexpr std::uint64_t kMaxRecordBytes = std::uint64_t{256} << 20;

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\0')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\0')) text.remove_suffix(1);
  return text;
}

// Reads the header's fields in order, naming each in errors.
class FieldReader {
 public:
  FieldReader(Bytes file, const std::string& path) : file_(file), path_(path) {}

  std::string_view text(std::size_t width, const std::string& field) {
    if (at_ + width > file_.size()) {
      throw InputError(path_, "EDF header cut short: the file ends in " + field + " (byte " + std::to_string(at_) + ")");
    }
    const std::string_view value(reinterpret_cast<const char*>(file_.data()) + at_, width);
    at_ += width;
    return trimmed(value);
  }
  double number(std::size_t width, const std::string& field) {
    const std::string_view value = text(width, field);
    double result = 0.0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), result);
    if (value.empty() || error != std::errc() || end != value.data() + value.size() || !std::isfinite(result)) {
      throw InputError(path_, "EDF header: " + field + " is " + quoteExcerpt(value) + ", not a number");
    }
    return result;
  }
  std::int64_t integer(std::size_t width, const std::string& field) {
    const std::string_view value = text(width, field);
    std::int64_t result = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), result);
    if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
      throw InputError(path_, "EDF header: " + field + " is " + quoteExcerpt(value) + ", not a whole number");
    }
    return result;
  }
  void skip(std::size_t width) { at_ += width; }

 private:
  Bytes file_;
  const std::string& path_;
  std::size_t at_ = 0;
};

std::string signalName(const EdfHeader& header, std::size_t i) {
  std::string name = "signal " + std::to_string(i + 1);
  if (!header.signals[i].label.empty()) name += " (" + quoteExcerpt(header.signals[i].label) + ")";
  return name;
}

// Each signal's fields come field by field for all signals: every label, then every transducer, ...
void readSignalFields(FieldReader& fields, EdfHeader& header, const std::string& path) {
  std::vector<EdfSignal>& signals = header.signals;
  for (std::size_t i = 0; i < signals.size(); ++i) signals[i].label = fields.text(16, "the label of signal " + std::to_string(i + 1));
  for (std::size_t i = 0; i < signals.size(); ++i) fields.skip(80);  // transducer
  for (std::size_t i = 0; i < signals.size(); ++i) signals[i].unit = fields.text(8, "the physical dimension of " + signalName(header, i));
  for (std::size_t i = 0; i < signals.size(); ++i) signals[i].physicalMin = fields.number(8, "the physical minimum of " + signalName(header, i));
  for (std::size_t i = 0; i < signals.size(); ++i) signals[i].physicalMax = fields.number(8, "the physical maximum of " + signalName(header, i));
  for (std::size_t i = 0; i < signals.size(); ++i) signals[i].digitalMin = static_cast<double>(fields.integer(8, "the digital minimum of " + signalName(header, i)));
  for (std::size_t i = 0; i < signals.size(); ++i) signals[i].digitalMax = static_cast<double>(fields.integer(8, "the digital maximum of " + signalName(header, i)));
  for (std::size_t i = 0; i < signals.size(); ++i) fields.skip(80);  // prefiltering
  for (std::size_t i = 0; i < signals.size(); ++i) {
    const std::int64_t samples = fields.integer(8, "the samples a record of " + signalName(header, i));
    if (samples < 1 || static_cast<std::uint64_t>(samples) > kMaxRecordBytes / 2) {
      throw InputError(path, "EDF header: " + signalName(header, i) + " has " + std::to_string(samples) +
                                 " samples a record (1 to " + std::to_string(kMaxRecordBytes / 2) + ")");
    }
    signals[i].samplesPerRecord = static_cast<std::uint64_t>(samples);
  }
  for (std::size_t i = 0; i < signals.size(); ++i) {
    EdfSignal& s = signals[i];
    if (s.digitalMin < -32768 || s.digitalMax > 32767 || s.digitalMin >= s.digitalMax) {
      throw InputError(path, "EDF header: " + signalName(header, i) + " has digital minimum " + shortNumber(s.digitalMin) +
                                 " and maximum " + shortNumber(s.digitalMax) + " (they must rise within -32768..32767)");
    }
    if (s.physicalMin == s.physicalMax) {
      throw InputError(path, "EDF header: " + signalName(header, i) + " has the same physical minimum and maximum (" +
                                 shortNumber(s.physicalMin) + ")");
    }
    if (!std::isfinite(s.physical(-32768)) || !std::isfinite(s.physical(32767))) {
      throw InputError(path, "EDF header: the physical range of " + signalName(header, i) + " (" +
                                 shortNumber(s.physicalMin) + " to " + shortNumber(s.physicalMax) +
                                 ") scales its digital values beyond the largest number");
    }
    s.offsetInRecord = header.recordBytes;
    header.recordBytes += 2 * s.samplesPerRecord;
    if (header.recordBytes > kMaxRecordBytes) {
      throw InputError(path, "EDF header: a data record of more than " + std::to_string(kMaxRecordBytes >> 20) + " MiB");
    }
  }
}

// The file holds exactly the records the header says (-1: as many whole records as it holds).
void checkRecordCount(EdfHeader& header, std::int64_t claimed, std::uint64_t fileBytes, const std::string& path) {
  const std::uint64_t dataBytes = fileBytes - header.headerBytes;
  if (claimed == -1) {
    header.records = dataBytes / header.recordBytes;
    if (dataBytes % header.recordBytes != 0) {
      throw InputError(path, "EDF data cut short: record " + std::to_string(header.records + 1) + " holds " +
                                 std::to_string(dataBytes % header.recordBytes) + " of its " +
                                 std::to_string(header.recordBytes) + " bytes");
    }
    return;
  }
  if (claimed < -1) throw InputError(path, "EDF header: the number of data records is " + std::to_string(claimed));
  header.records = static_cast<std::uint64_t>(claimed);
  const std::uint64_t held = dataBytes / header.recordBytes;
  if (held < header.records) {
    throw InputError(path, "EDF data cut short: the header says " + std::to_string(header.records) +
                               " data records, the file ends in record " + std::to_string(held + 1) + " (it holds " +
                               std::to_string(dataBytes) + " bytes of the " +
                               std::to_string(header.records * header.recordBytes) + " they need)");
  }
  if (dataBytes != header.records * header.recordBytes) {
    throw InputError(path, "EDF record count inconsistent: the header says " + std::to_string(header.records) +
                               " data records of " + std::to_string(header.recordBytes) + " bytes, the file holds " +
                               std::to_string(dataBytes) + " bytes of data");
  }
}

std::string rateText(double hz) { return shortNumber(hz) + " Hz"; }

}  // namespace

bool looksLikeEdf(Bytes head) {
  constexpr std::string_view kVersion = "0       ";
  if (head.size() < kEdfFixedHeaderBytes) return false;
  if (std::string_view(reinterpret_cast<const char*>(head.data()), kVersion.size()) != kVersion) return false;
  for (std::size_t i = 0; i < kEdfFixedHeaderBytes; ++i) {
    const auto c = static_cast<unsigned char>(head[i]);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

EdfHeader parseEdfHeader(Bytes file, const std::string& path) {
  FieldReader fields(file, path);
  EdfHeader header;
  fields.skip(8 + 80 + 80 + 8 + 8);  // version, patient, recording, start date and time
  const std::int64_t headerBytes = fields.integer(8, "the number of header bytes");
  fields.skip(44);  // reserved ("EDF+C", "EDF+D")
  const std::int64_t records = fields.integer(8, "the number of data records");
  header.recordSeconds = fields.number(8, "the duration of a data record");
  const std::int64_t count = fields.integer(4, "the number of signals");
  if (count < 1 || static_cast<std::size_t>(count) > kMaxSignals) {
    throw InputError(path, "EDF header: " + std::to_string(count) + " signals (1 to " + std::to_string(kMaxSignals) + ")");
  }
  if (!(header.recordSeconds > 0.0)) {
    throw InputError(path, "EDF header: the duration of a data record is " + shortNumber(header.recordSeconds) +
                               " s (it must be more than 0)");
  }
  header.signals.resize(static_cast<std::size_t>(count));
  header.headerBytes = kEdfFixedHeaderBytes + kEdfSignalHeaderBytes * header.signals.size();
  if (headerBytes != static_cast<std::int64_t>(header.headerBytes)) {
    throw InputError(path, "EDF header: the number of header bytes is " + std::to_string(headerBytes) + ", but " +
                               std::to_string(count) + " signals need " + std::to_string(header.headerBytes));
  }
  if (file.size() < header.headerBytes) {
    throw InputError(path, "EDF header cut short: it needs " + std::to_string(header.headerBytes) + " bytes, the file has " +
                               std::to_string(file.size()));
  }
  readSignalFields(fields, header, path);
  checkRecordCount(header, records, file.size(), path);
  return header;
}

std::vector<std::size_t> chooseEdfSignals(const EdfHeader& header, const std::vector<std::string>& wanted,
                                          const std::string& path) {
  std::vector<std::size_t> chosen;
  for (const std::string& name : wanted) {
    std::size_t index = 0;
    const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), index);
    if (error == std::errc() && end == name.data() + name.size() && index >= 1 && index <= header.signals.size()) {
      chosen.push_back(index - 1);
      continue;
    }
    std::size_t i = 0;
    while (i < header.signals.size() && header.signals[i].label != trimmed(name)) ++i;
    if (i == header.signals.size()) {
      std::string labels;
      for (std::size_t j = 0; j < header.signals.size(); ++j) labels += (j ? ", " : "") + signalName(header, j);
      throw InputError(path, "EDF signal " + quoteExcerpt(name) + " not found: the file has " + labels);
    }
    chosen.push_back(i);
  }
  if (wanted.empty()) {
    for (std::size_t i = 0; i < header.signals.size(); ++i) {
      if (!header.signals[i].annotations()) chosen.push_back(i);
    }
    if (chosen.empty()) throw InputError(path, "EDF file holds annotations only, no signal");
  }
  for (const std::size_t i : chosen) {
    if (header.signals[i].annotations()) {
      throw InputError(path, "EDF " + signalName(header, i) + " holds EDF+ annotations, not samples");
    }
  }
  for (const std::size_t i : chosen) {
    if (header.signals[i].samplesPerRecord != header.signals[chosen.front()].samplesPerRecord) {
      std::string rates;
      for (const std::size_t j : chosen) rates += (rates.empty() ? "" : ", ") + signalName(header, j) + " " + rateText(header.rateOf(header.signals[j]));
      throw InputError(path, "EDF signals of different rates (" + rates + "): choose signals of one rate with --signals");
    }
  }
  return chosen;
}

std::string formatEdfHeader(const EdfHeader& header, const std::string& path) {
  std::string out;
  const auto field = [&](std::string_view value, std::size_t width, const char* what) {
    if (value.size() > width) {
      throw InputError(path, std::string("cannot write EDF: ") + what + " " + quoteExcerpt(value) + " is longer than " +
                                 std::to_string(width) + " characters");
    }
    out.append(value);
    out.append(width - value.size(), ' ');
  };
  field("0", 8, "the version");
  field("X X X X", 80, "the patient");
  field("Startdate X X X X", 80, "the recording");
  field("01.01.85", 8, "the start date");
  field("00.00.00", 8, "the start time");
  field(std::to_string(header.headerBytes), 8, "the header size");
  field("", 44, "the reserved field");
  field(std::to_string(header.records), 8, "the number of records");
  field(shortNumber(header.recordSeconds), 8, "the record duration");
  field(std::to_string(header.signals.size()), 4, "the number of signals");
  for (const EdfSignal& s : header.signals) field(s.label, 16, "the label");
  for (std::size_t i = 0; i < header.signals.size(); ++i) field("", 80, "the transducer");
  for (const EdfSignal& s : header.signals) field(s.unit, 8, "the physical dimension");
  for (const EdfSignal& s : header.signals) field(edfNumber(s.physicalMin), 8, "the physical minimum");
  for (const EdfSignal& s : header.signals) field(edfNumber(s.physicalMax), 8, "the physical maximum");
  for (const EdfSignal& s : header.signals) field(std::to_string(static_cast<int>(s.digitalMin)), 8, "the digital minimum");
  for (const EdfSignal& s : header.signals) field(std::to_string(static_cast<int>(s.digitalMax)), 8, "the digital maximum");
  for (std::size_t i = 0; i < header.signals.size(); ++i) field("", 80, "the prefiltering");
  for (const EdfSignal& s : header.signals) field(std::to_string(s.samplesPerRecord), 8, "the samples a record");
  for (std::size_t i = 0; i < header.signals.size(); ++i) field("", 32, "the reserved field");
  return out;
}

std::string edfNumber(double value) {
  char text[32];
  for (int digits = 8; digits >= 1; --digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::string_view(text).size() <= 8) return text;
  }
  return text;
}

std::string edfBound(double value, bool lower) {
  double tried = value;
  double step = 0.0;
  for (int attempt = 0; attempt < 64; ++attempt) {
    const std::string text = edfNumber(tried);
    const double read = std::strtod(text.c_str(), nullptr);
    if (lower ? read <= value : read >= value) return text;
    // Doubling: a step below the field's last printed digit (-149.703 for -149.70300182) rounds back
    // to the same text, so a fixed step could never get past it.
    step = std::max(2 * step, 2 * std::max({std::abs(read - value), std::abs(value) * 1e-7, 1e-300}));
    tried += lower ? -step : step;
  }
  return edfNumber(lower ? -1e99 : 1e99);  // not reached for finite values
}

}  // namespace siglab
