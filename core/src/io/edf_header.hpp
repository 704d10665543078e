#pragma once
// EDF and EDF+ (European Data Format): a fixed ASCII header, then data records, each holding every
// signal's next samples as 16-bit little-endian integers. Signals have their own rates (samples a
// record); the header maps each signal's digital range linearly onto its physical range.
#include <cstdint>
#include <string>
#include <vector>

#include "file_bytes.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab {

struct EdfSignal {
  std::string label;      // "EEG Fz", "EDF Annotations"
  std::string unit;       // physical dimension: "uV"
  double physicalMin = 0.0;
  double physicalMax = 0.0;
  double digitalMin = 0.0;
  double digitalMax = 0.0;
  std::uint64_t samplesPerRecord = 0;
  std::uint64_t offsetInRecord = 0;  // bytes before its samples in each record

  bool annotations() const { return label == "EDF Annotations"; }
  double gain() const { return (physicalMax - physicalMin) / (digitalMax - digitalMin); }
  double physical(std::int16_t digital) const { return physicalMin + (digital - digitalMin) * gain(); }
};

struct EdfHeader {
  std::uint64_t headerBytes = 0;
  std::uint64_t records = 0;
  double recordSeconds = 0.0;
  std::uint64_t recordBytes = 0;
  std::vector<EdfSignal> signals;

  double rateOf(const EdfSignal& signal) const { return static_cast<double>(signal.samplesPerRecord) / recordSeconds; }
};

inline constexpr std::size_t kEdfFixedHeaderBytes = 256;
inline constexpr std::size_t kEdfSignalHeaderBytes = 256;  // each signal's fields, all signals together

// Whether `head` starts as an EDF file does: "0" and seven blanks, then ASCII.
bool looksLikeEdf(Bytes head);

// The header of `file`, every number checked and the file's size checked against the records it
// claims (InputError naming `path`, the field and the signal where one is wrong).
EdfHeader parseEdfHeader(Bytes file, const std::string& path);

// The signals to read: those `wanted` names (labels, or 1-based numbers among all the header's
// signals), else every signal but EDF+ annotations; they must share one rate (InputError naming
// them and their rates otherwise).
std::vector<std::size_t> chooseEdfSignals(const EdfHeader& header, const std::vector<std::string>& wanted,
                                          const std::string& path);

// The header of a file of `records` records of `recordSeconds` holding `signals` (their offsets
// are not used). Fields too long for their place are an InputError naming `path`.
std::string formatEdfHeader(const EdfHeader& header, const std::string& path);

// A number as a header field holds it (at most 8 characters); edfBound's reads back at most
// (lower) or at least `value`, for a physical range that holds every sample.
std::string edfNumber(double value);
std::string edfBound(double value, bool lower);

}  // namespace siglab
