#pragma once
// Time-stamped CSV: a column of time stamps (seconds, or ISO 8601 date-times with fractional
// seconds and a time zone) that sets the rate where its spacing is uniform, or gives the times the
// channels are linearly interpolated from onto a uniform grid (ReadOptions::resampleTo).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "siglab/io/signal_io.hpp"
#include "text_parse.hpp"

namespace siglab {

// Every interval between time stamps is within this fraction of the first one, or the spacing is
// irregular (an error naming the line, unless resampled); the rate is then rows over their span.
inline constexpr double kUniformTimeTolerance = 0.01;

// A time stamp: whole seconds (since 1970 UTC for a date-time) and the fraction, kept apart so
// that differences of date-times keep their microseconds.
struct TimeStamp {
  std::int64_t seconds = 0;
  double fraction = 0.0;
  double since(const TimeStamp& earlier) const {
    return static_cast<double>(seconds - earlier.seconds) + (fraction - earlier.fraction);
  }
};

// "2026-11-27T01:02:03.250+01:00" (or a blank for the T, Z or no zone for UTC, +hhmm, +hh).
std::optional<TimeStamp> parseIsoDateTime(std::string_view text);
// A date-time, else a number of seconds with the decimal mark `decimal`.
std::optional<TimeStamp> parseTimeStamp(std::string_view text, char decimal);

// `text` without the blanks (space, tab, CR, FF, VT) at either end.
std::string_view trimBlanks(std::string_view text);

// The 1-based time column readChannels uses in `text` with `options`: options.timeColumn, else
// the first column where the first data line's field there is an ISO 8601 date-time; 0: none (and
// for kNoTimeColumn, a column read on its own).
std::size_t findTimeColumn(std::string_view text, const ReadOptions& options);

// What the time column says: the first and last stamps, the rows, and the rate where the
// spacing is uniform.
struct TimeAxis {
  TimeStamp first;
  TimeStamp last;
  std::uint64_t rows = 0;
  std::optional<double> uniformRate;
};

// The checks every data line's stamp passes, line after line: the column is there, holds a time
// stamp, rises, and (unless `irregularAllowed`) keeps within kUniformTimeTolerance of the first
// interval. InputError naming the file and the line otherwise.
class TimeStampChecks {
 public:
  TimeStampChecks(const TextBody& body, std::size_t timeColumn, std::string path, bool irregularAllowed)
      : separator_(body.separator), decimal_(body.decimal), timeColumn_(timeColumn), path_(std::move(path)),
        irregularAllowed_(irregularAllowed) {}
  void check(std::uint64_t line, std::string_view content);
  // The axis of the lines checked so far (InputError for fewer than two, unless irregularAllowed).
  TimeAxis axis() const;

 private:
  char separator_;
  char decimal_;
  std::size_t timeColumn_;
  std::string path_;
  bool irregularAllowed_;
  TimeAxis axis_;
  std::optional<double> firstInterval_;
  bool uniform_ = true;
};

// The checks over the data lines of `text`: all of them, or the first `maxRows` only (the rate
// of a file streamed on, whose later lines are checked as they are read).
inline constexpr std::uint64_t kEveryRow = UINT64_MAX;
TimeAxis scanTimeColumn(std::string_view text, const ReadOptions& options, std::size_t timeColumn,
                        const std::string& path, bool irregularAllowed, std::uint64_t maxRows = kEveryRow);

// The body of `text` as the time column's readers split it (its first line and separator decided).
TextBody timeColumnBody(std::string_view text, const ReadOptions& options);

}  // namespace siglab
