// find_peaks fed block by block (find_peaks.hpp); each step a port of SciPy 1.10's
// _peak_finding.py and _peak_finding_utils.pyx.
#include "siglab/find_peaks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace siglab {
namespace {

// SciPy's _select_by_property: min <= value <= max for the ends given (NaN passes no end).
bool within(double value, const std::optional<double>& min, const std::optional<double>& max) {
  return (!min || *min <= value) && (!max || value <= *max);
}

}  // namespace

PeakFinder::PeakFinder(const PeakOptions& options, std::uint64_t length) : o_(options), n_(length) {
  if (o_.wlen) half_ = static_cast<std::uint64_t>(std::ceil(*o_.wlen)) / 2;
  if (o_.distance) distance_ = static_cast<std::uint64_t>(std::ceil(*o_.distance));
}

void PeakFinder::feed(std::span<const double> samples) {
  if (buffer_.empty()) {
    view_ = samples;
  } else {
    buffer_.insert(buffer_.end(), samples.begin(), samples.end());
    view_ = buffer_;
  }
  scanMaxima();
  resolveDistance(false);
  measure();
  trim();
}

void PeakFinder::finish() {
  finished_ = true;
  scanMaxima();
  resolveDistance(true);
  measure();
}

std::vector<PeakRow> PeakFinder::take() { return std::exchange(rows_, {}); }

std::uint64_t PeakFinder::frontier() const {
  if (finished_) return std::numeric_limits<std::uint64_t>::max();
  std::uint64_t f = scan_;
  if (!measuring_.empty()) f = std::min(f, measuring_.front().first);
  for (std::size_t k = forwarded_; k < pending_.size(); ++k) {
    if (pending_[k].state == State::undecided) {
      f = std::min(f, pending_[k].index);
      break;
    }
  }
  return f;
}

// _local_maxima_1d, stopping where the samples here do not tell yet (a plateau running past them).
void PeakFinder::scanMaxima() {
  if (n_ < 3) return;
  // Locals, not members, in the loop: a store to a member may alias the view's size, forcing reloads.
  const double* x = view_.data();
  const std::uint64_t s = start_, e = end(), last = n_ - 1;  // last: SciPy's i_max
  const std::optional<double> height = o_.height;
  std::uint64_t i = scan_;
  const std::uint64_t stop = std::min(last, e - 1);  // i < last and x[i + 1] here
  while (i < stop) {
    if (height) {
      // A peak's plateau is at least height; the first such sample after a lower one starts a rise.
      // Skipping to it finds the plateaus SciPy's loop finds (which, after a peak, skips its plateau).
      const double h = *height;
      while (i < stop && !(h <= x[i - s])) ++i;
      if (i == stop) break;
    }
    const double v = x[i - s];
    if (x[i - 1 - s] < v) {
      std::uint64_t ahead = i + 1;
      while (ahead < last && ahead < e && x[ahead - s] == v) ++ahead;
      if (ahead >= e) break;  // a plateau past the samples here: wait, from i
      if (x[ahead - s] < v) {
        offer((i + ahead - 1) / 2);
        i = ahead;
      }
    }
    ++i;
  }
  scan_ = i;
}

// A local maximum through height and threshold, on to distance or to measuring.
void PeakFinder::offer(std::uint64_t peak) {
  const double value = at(peak);
  if (!within(value, o_.height, o_.heightMax)) return;
  if (o_.measuresThreshold()) {
    const double left = value - at(peak - 1);
    const double right = value - at(peak + 1);
    // SciPy's _select_by_peak_threshold: the smaller distance at least the minimum, the larger at most the maximum
    if (o_.threshold && !(*o_.threshold <= std::min(left, right))) return;
    if (o_.thresholdMax && !(std::max(left, right) <= *o_.thresholdMax)) return;
  }
  if (distance_ > 0) {
    pending_.push_back({peak, value, State::undecided});
  } else {
    measuring_.emplace_back(peak, value);
  }
}

// _select_by_peak_distance: visiting peaks from the highest (ties: the later one first), a peak
// still kept removes every peak closer than distance. Equivalently a peak is removed exactly when
// a kept peak of higher priority is closer than distance; it is kept once every such peak is
// removed and no peak still to come can be that close.
void PeakFinder::resolveDistance(bool final) {
  if (distance_ == 0) return;
  const std::uint64_t known = final ? std::numeric_limits<std::uint64_t>::max() : scan_;  // later peaks start here or after
  std::vector<std::size_t> order;
  for (std::size_t k = forwarded_; k < pending_.size(); ++k) {
    if (pending_[k].state == State::undecided) order.push_back(k);
  }
  const auto higher = [&](std::size_t a, std::size_t b) {  // a before b in SciPy's visiting order
    return pending_[a].value != pending_[b].value ? pending_[a].value > pending_[b].value : a > b;
  };
  std::sort(order.begin(), order.end(), higher);
  for (const std::size_t k : order) {
    Candidate& p = pending_[k];
    bool removed = false;
    bool waiting = p.index + distance_ > known;
    const auto look = [&](std::size_t q) {
      if (!higher(q, k)) return;
      if (pending_[q].state == State::kept) removed = true;
      if (pending_[q].state == State::undecided) waiting = true;
    };
    for (std::size_t q = k; q-- > 0 && p.index - pending_[q].index < distance_;) look(q);
    for (std::size_t q = k + 1; q < pending_.size() && pending_[q].index - p.index < distance_; ++q) look(q);
    if (removed) {
      p.state = State::removed;
    } else if (!waiting) {
      p.state = State::kept;
    }
  }
  while (forwarded_ < pending_.size() && pending_[forwarded_].state != State::undecided) {
    if (pending_[forwarded_].state == State::kept) measuring_.emplace_back(pending_[forwarded_].index, pending_[forwarded_].value);
    ++forwarded_;
  }
  // A decided peak is needed no more once no undecided or later peak is within distance of it.
  const std::uint64_t next = forwarded_ < pending_.size() ? pending_[forwarded_].index : known;
  while (forwarded_ > 0 && pending_.front().index + distance_ <= std::min(next, known)) {
    pending_.pop_front();
    --forwarded_;
  }
}

void PeakFinder::measure() {
  while (!measuring_.empty()) {
    const auto [peak, value] = measuring_.front();
    if (o_.measuresProminence()) {
      const std::uint64_t windowEnd = half_ >= n_ - 1 - peak ? n_ - 1 : peak + half_;  // SciPy's i_max
      if (windowEnd >= end()) return;
    }
    measuring_.pop_front();
    measureOne(peak, value);
  }
}

// _peak_prominences and _peak_widths of one peak, then the prominence and width conditions.
void PeakFinder::measureOne(std::uint64_t peak, double value) {
  PeakRow row;
  row.index = peak;
  row.height = value;  // the samples may be gone where nothing else needs them
  if (o_.measuresProminence()) {
    const auto p = static_cast<std::int64_t>(peak);
    const std::int64_t iMin = half_ >= peak ? 0 : p - static_cast<std::int64_t>(half_);
    const std::int64_t iMax = half_ >= n_ - 1 - peak ? static_cast<std::int64_t>(n_ - 1) : p + static_cast<std::int64_t>(half_);
    const auto x = [&](std::int64_t i) { return at(static_cast<std::uint64_t>(i)); };
    std::int64_t leftBase = p, rightBase = p;
    double leftMin = row.height, rightMin = row.height;
    for (std::int64_t i = p; iMin <= i && x(i) <= row.height; --i) {
      if (x(i) < leftMin) {
        leftMin = x(i);
        leftBase = i;
      }
    }
    for (std::int64_t i = p; i <= iMax && x(i) <= row.height; ++i) {
      if (x(i) < rightMin) {
        rightMin = x(i);
        rightBase = i;
      }
    }
    row.prominence = row.height - std::max(leftMin, rightMin);
    row.leftBase = static_cast<double>(leftBase);
    row.rightBase = static_cast<double>(rightBase);
    if (!within(row.prominence, o_.prominence, o_.prominenceMax)) return;
    if (o_.measuresWidth()) {
      const double height = row.height - row.prominence * o_.relHeight;
      row.widthHeight = height;
      std::int64_t i = p;
      while (leftBase < i && height < x(i)) --i;
      row.leftIp = static_cast<double>(i);
      if (x(i) < height) row.leftIp += (height - x(i)) / (x(i + 1) - x(i));
      i = p;
      while (i < rightBase && height < x(i)) ++i;
      row.rightIp = static_cast<double>(i);
      if (x(i) < height) row.rightIp -= (height - x(i)) / (x(i - 1) - x(i));
      row.width = row.rightIp - row.leftIp;
      if (!within(row.width, o_.width, o_.widthMax)) return;
    }
  }
  rows_.push_back(row);
}

// Drops the samples nothing still needs: before scan_ - 1 (the maxima's look back), and before
// the window of the oldest peak that may still be measured.
void PeakFinder::trim() {
  std::uint64_t keep = scan_ - 1;
  if (o_.measuresProminence()) {
    std::uint64_t oldest = keep;
    if (!measuring_.empty()) oldest = std::min(oldest, measuring_.front().first);
    if (forwarded_ < pending_.size()) oldest = std::min(oldest, pending_[forwarded_].index);
    keep = std::min(keep, half_ >= oldest ? 0 : oldest - half_);
  }
  keep = std::max(std::min(keep, end()), start_);
  const auto drop = static_cast<std::ptrdiff_t>(keep - start_);
  if (view_.data() == buffer_.data()) {
    buffer_.erase(buffer_.begin(), buffer_.begin() + drop);
  } else {
    buffer_.assign(view_.begin() + drop, view_.end());  // the fed block is the caller's: keep a copy of what is needed
  }
  view_ = buffer_;
  start_ = keep;
}

}  // namespace siglab
