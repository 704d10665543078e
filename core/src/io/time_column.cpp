#include "time_column.hpp"

#include <cmath>
#include <limits>

#include "channel_readers.hpp"
#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab {
namespace {

// Reads fixed-width decimal digits from the front of `text`.
bool digits(std::string_view& text, std::size_t count, int& value) {
  if (text.size() < count) return false;
  value = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  text.remove_prefix(count);
  return true;
}

bool expect(std::string_view& text, char c) {
  if (text.empty() || text.front() != c) return false;
  text.remove_prefix(1);
  return true;
}

// Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
std::int64_t daysFromCivil(std::int64_t y, int m, int d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * static_cast<unsigned>(m + (m > 2 ? -3 : 9)) + 2) / 5 + static_cast<unsigned>(d) - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

int daysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// The first data line of the body, or nothing: read up to it only (a file's detection must not
// walk a 2 GB text, which would read and keep every page of it).
std::optional<std::string_view> firstDataLine(const TextBody& body) {
  std::string_view rest = body.body;
  while (!rest.empty()) {
    const std::size_t eol = std::min(rest.find('\n'), rest.size());
    const std::string_view content = trimBlanks(rest.substr(0, eol));
    rest.remove_prefix(std::min(eol + 1, rest.size()));
    if (!content.empty() && content.front() != '#') return content;
  }
  return std::nullopt;
}

}  // namespace

TextBody timeColumnBody(std::string_view text, const ReadOptions& options) {
  TextReadOptions split = textReadOptions(options);
  split.column = 1;  // so that the separator is decided
  return locateTextBody(text, split);
}

std::string_view trimBlanks(std::string_view text) {
  constexpr std::string_view kBlanks = " \t\r\f\v";
  const std::size_t first = text.find_first_not_of(kBlanks);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kBlanks) - first + 1);
}

std::optional<TimeStamp> parseIsoDateTime(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(text, 4, year) || !expect(text, '-') || !digits(text, 2, month) || !expect(text, '-') ||
      !digits(text, 2, day) || text.empty() || (text.front() != 'T' && text.front() != ' ')) {
    return std::nullopt;
  }
  text.remove_prefix(1);
  if (!digits(text, 2, hour) || !expect(text, ':') || !digits(text, 2, minute) || !expect(text, ':') ||
      !digits(text, 2, second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  TimeStamp stamp;
  if (!text.empty() && (text.front() == '.' || text.front() == ',')) {
    text.remove_prefix(1);
    double scale = 0.1;
    if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
    while (!text.empty() && text.front() >= '0' && text.front() <= '9') {
      stamp.fraction += (text.front() - '0') * scale;
      scale /= 10;
      text.remove_prefix(1);
    }
  }
  int offsetMinutes = 0;
  if (!text.empty() && text.front() == 'Z') {
    text.remove_prefix(1);
  } else if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    const int sign = text.front() == '-' ? -1 : 1;
    text.remove_prefix(1);
    int zoneHours = 0, zoneMinutes = 0;
    if (!digits(text, 2, zoneHours)) return std::nullopt;
    if (!text.empty()) {
      expect(text, ':');
      if (!digits(text, 2, zoneMinutes)) return std::nullopt;
    }
    if (zoneHours > 23 || zoneMinutes > 59) return std::nullopt;
    offsetMinutes = sign * (zoneHours * 60 + zoneMinutes);
  }
  if (!text.empty()) return std::nullopt;
  stamp.seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60;
  return stamp;
}

std::optional<TimeStamp> parseTimeStamp(std::string_view text, char decimal) {
  if (const std::optional<TimeStamp> stamp = parseIsoDateTime(text)) return stamp;
  double seconds = 0.0;
  if (!parseTextNumber(text, decimal, false, seconds)) return std::nullopt;
  const double whole = std::floor(seconds);
  if (!(std::abs(whole) < 9e15)) return std::nullopt;
  return TimeStamp{static_cast<std::int64_t>(whole), seconds - whole};
}

std::size_t findTimeColumn(std::string_view text, const ReadOptions& options) {
  if (options.timeColumn == kNoTimeColumn) return 0;
  if (options.timeColumn > 0) return options.timeColumn;
  const TextBody body = timeColumnBody(text, options);
  const std::optional<std::string_view> line = firstDataLine(body);
  if (!line) return 0;
  std::size_t fields = 0;
  for (std::size_t column = 1;; ++column) {
    const std::optional<std::string_view> field = textField(*line, body.separator, column, fields);
    if (!field) return 0;
    if (parseIsoDateTime(trimBlanks(*field))) return column;
  }
}

void TimeStampChecks::check(std::uint64_t line, std::string_view content) {
  std::size_t fields = 0;
  const std::optional<std::string_view> field = textField(content, separator_, timeColumn_, fields);
  if (!field) {
    throw InputError(path_, line, 1, "the time column " + std::to_string(timeColumn_) + " asked for, but this line has " +
                                         std::to_string(fields) + (fields == 1 ? " field" : " fields"));
  }
  const std::optional<TimeStamp> stamp = parseTimeStamp(trimBlanks(*field), decimal_);
  if (!stamp) {
    throw InputError(path_, line, 1, "expected a time stamp (seconds, or an ISO 8601 date-time such as "
                                     "2026-11-27T10:00:00.5Z) in column " + std::to_string(timeColumn_) + ", found " +
                                         quoteExcerpt(trimBlanks(*field)));
  }
  if (axis_.rows > 0) {
    const double interval = stamp->since(axis_.last);
    if (!(interval > 0)) {
      throw InputError(path_, line, 1, "time stamps must rise: " + quoteExcerpt(trimBlanks(*field)) +
                                           " is not after the line before's");
    }
    if (!firstInterval_) firstInterval_ = interval;
    if (uniform_ && std::abs(interval - *firstInterval_) > kUniformTimeTolerance * *firstInterval_) {
      uniform_ = false;
      if (!irregularAllowed_) {
        throw InputError(path_, line, 1, "irregular time stamps: " + shortNumber(interval) +
                                             " s after the line before, where the first rows are " +
                                             shortNumber(*firstInterval_) + " s apart (more than 1% off): resample "
                                             "with --resample-to HZ");
      }
    }
  } else {
    axis_.first = *stamp;
  }
  axis_.last = *stamp;
  ++axis_.rows;
}

TimeAxis TimeStampChecks::axis() const {
  TimeAxis axis = axis_;
  if (axis.rows < 2) {
    if (!irregularAllowed_) throw InputError(path_, "a time column needs at least two rows to give a rate");
    return axis;
  }
  if (uniform_) axis.uniformRate = static_cast<double>(axis.rows - 1) / axis.last.since(axis.first);
  return axis;
}

TimeAxis scanTimeColumn(std::string_view text, const ReadOptions& options, std::size_t timeColumn,
                        const std::string& path, bool irregularAllowed, std::uint64_t maxRows) {
  const TextBody body = timeColumnBody(text, options);
  TimeStampChecks checks(body, timeColumn, path, irregularAllowed);
  std::string_view rest = body.body;
  for (std::uint64_t line = body.firstLine, rows = 0; !rest.empty() && rows < maxRows; ++line) {
    const std::size_t eol = std::min(rest.find('\n'), rest.size());
    const std::string_view content = trimBlanks(rest.substr(0, eol));
    rest.remove_prefix(std::min(eol + 1, rest.size()));
    if (content.empty() || content.front() == '#') continue;
    checks.check(line, content);
    ++rows;
  }
  return checks.axis();
}

}  // namespace siglab
