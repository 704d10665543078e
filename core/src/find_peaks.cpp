// find_peaks fed block by block (find_peaks.hpp); each step a port of SciPy 1.10's
// _peak_finding.py and _peak_finding_utils.pyx.
#include "siglab/find_peaks.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

#include "usable_threads.hpp"

namespace siglab {
namespace {

// Rises a core scans at once in a signal in memory: half a millisecond or so of work, its samples
// and rows in the core's cache, and a core other programs hold up delays little.
constexpr std::uint64_t kRisesPerPiece = std::uint64_t{1} << 14;
// Rises scanned before their peaks are measured: the walks then read samples still in L1.
constexpr std::uint64_t kRisesPerScan = 1024;

// SciPy's _select_by_property: min <= value <= max for the ends given (NaN passes no end).
bool within(double value, const std::optional<double>& min, const std::optional<double>& max) {
  return (!min || *min <= value) && (!max || value <= *max);
}

// The samples [start, end) of a signal of n, x[0] being sample `start`.
struct Samples {
  const double* x;
  std::uint64_t start, end, n;
  double at(std::uint64_t i) const { return x[i - start]; }
};

// Peaks found in a run of rises, in order, with the valleys before them (strictPeaksInWords): the
// lowest sample of a gap is its valley, so a walk through gaps whose valleys are known needs the
// valleys and the peaks' heights only, about a third of the samples.
struct PeakList {
  std::vector<std::uint64_t> peaks;
  std::vector<std::int64_t> valleyBefore;  // -1: not known
  std::vector<double> heights, valleyLows;  // x at each peak, x at each known valley
  void clear() {
    peaks.clear();
    valleyBefore.clear();
    heights.clear();
    valleyLows.clear();
  }
};

// The rises at i in [from, stop) 64 at a time while no word of them holds a plateau (x[i] equal to
// x[i + 1] after a rise): a peak is then a sample above both neighbours, found without a branch a
// sample (noise mispredicts about every other one). Returns where the caller's loop goes on: the
// first word with a plateau, or the last partial word. Needs x[i - 1] and x[i + 1] for every i.
// With `list` (whose peaks are `found`), each peak's height goes there, and its valley: the sample
// below both neighbours between it and the peak found before it in these words, or -1. Between two
// peaks without a plateau or NaN the samples fall, then rise (a rise then a fall would be a peak
// between them), so that sample is the lowest of the gap and the only one below both neighbours; a
// flat bottom has none, and its gap no valley. A word holding NaN ends the words here (NaN
// compares false: a peak may hide behind it).
std::uint64_t strictPeaksInWords(const double* x, std::uint64_t s, std::uint64_t stop, std::uint64_t i,
                                 std::vector<std::uint64_t>& found, PeakList* list) {
  constexpr std::uint64_t kWord = 64;
  std::int64_t valley = -1;  // the last valley after a peak found here
  double valleyLow = 0.0;    // x there
  bool afterPeak = false;
  for (; i + kWord <= stop; i += kWord) {
    std::uint64_t peaks = 0, plateaus = 0, valleys = 0;
    bool unordered = false;
    const double* w = x + (i - s);
    for (std::uint64_t j = 0; j < kWord; ++j) {
      const bool rise = w[j - 1] < w[j];
      peaks |= static_cast<std::uint64_t>(rise & (w[j + 1] < w[j])) << j;
      plateaus |= static_cast<std::uint64_t>(rise & (w[j + 1] == w[j])) << j;
      if (list) {
        valleys |= static_cast<std::uint64_t>((w[j] < w[j - 1]) & (w[j] < w[j + 1])) << j;
        unordered |= w[j] != w[j];
      }
    }
    if (plateaus || unordered) break;  // the general loop walks plateaus
    if (!list) {
      for (; peaks; peaks &= peaks - 1) found.push_back(i + static_cast<std::uint64_t>(std::countr_zero(peaks)));
      continue;
    }
    // Peaks and valleys alternate: in order, each peak takes the valley before it.
    for (std::uint64_t events = peaks | valleys; events; events &= events - 1) {
      const auto j = std::countr_zero(events);
      const std::uint64_t at = i + static_cast<std::uint64_t>(j);
      if ((valleys >> j) & 1) {
        valley = afterPeak ? static_cast<std::int64_t>(at) : -1;
        valleyLow = w[j];
      } else {
        found.push_back(at);
        list->heights.push_back(w[j]);
        list->valleyBefore.push_back(valley);
        list->valleyLows.push_back(valleyLow);
        valley = -1;
        afterPeak = true;
      }
    }
  }
  return i;
}

// _local_maxima_1d for the rises at i in [from, to) (a peak belongs to the sample where its plateau
// rises, so stretches of rises are independent): the peaks appended to `found` (and, with `list`,
// whose peaks they are, their heights and the valley before each where strictPeaksInWords knows
// it, else -1). Returns `to`, or the rise whose plateau runs past the samples here (a stream waits there).
std::uint64_t risingPeaks(const Samples& v, const std::optional<double>& height, std::uint64_t from, std::uint64_t to,
                          std::vector<std::uint64_t>& found, PeakList* list = nullptr) {
  // Locals, not members, in the loop: a store to a member may alias the view's size, forcing reloads.
  const double* x = v.x;
  const std::uint64_t s = v.start, e = v.end, last = v.n - 1;  // last: SciPy's i_max
  std::uint64_t i = from;
  if (!height && e > 0) i = strictPeaksInWords(x, s, std::min({to, last, e - 1}), i, found, list);
  while (i < to) {
    if (height) {
      // A peak's plateau is at least height; the first such sample after a lower one starts a rise.
      // Skipping to it finds the plateaus SciPy's loop finds (which, after a peak, skips its plateau).
      const double h = *height;
      while (i < to && !(h <= x[i - s])) ++i;
      if (i == to) break;
    }
    const double value = x[i - s];
    if (x[i - 1 - s] < value) {
      std::uint64_t ahead = i + 1;
      while (ahead < last && ahead < e && x[ahead - s] == value) ++ahead;
      if (ahead >= e) return i;  // a plateau past the samples here: wait, from i
      if (x[ahead - s] < value) {
        const std::uint64_t peak = (i + ahead - 1) / 2;
        found.push_back(peak);
        if (list) {
          list->heights.push_back(x[peak - s]);  // the plateau's middle: +0 and -0 are equal, not the same
          list->valleyBefore.push_back(-1);
          list->valleyLows.push_back(0.0);
        }
        i = ahead;
      }
    }
    ++i;
  }
  return std::max(i, to);
}

// A local maximum through height and threshold (SciPy's _select_by_peak_threshold: the smaller
// distance to a neighbour at least the minimum, the larger at most the maximum).
bool passesHeightAndThreshold(const Samples& v, std::uint64_t peak, const PeakOptions& o) {
  const double value = v.at(peak);
  if (!within(value, o.height, o.heightMax)) return false;
  if (!o.measuresThreshold()) return true;
  const double left = value - v.at(peak - 1);
  const double right = value - v.at(peak + 1);
  if (o.threshold && !(*o.threshold <= std::min(left, right))) return false;
  return !o.thresholdMax || std::max(left, right) <= *o.thresholdMax;
}

// A base of a peak: the lowest sample on one side and where it lies.
struct Low {
  double value;
  std::int64_t index;
};

// _peak_prominences' search on one side of the peak of `value`, list->peaks[k] if given, a `Step`
// (-1 or +1) at a time from sample `from` (x[i - s] being sample i) up to `last`, the window's end
// on that side: the lowest sample before the first higher one, the nearest of equal lows (only a
// strictly lower one replaces it). Through the list's gaps while their valleys are known and in the
// window; sample by sample from the last peak passed.
template <int Step>
Low lowestBeforeHigher(const double* x, std::int64_t s, const PeakList* list, std::size_t k, std::int64_t from,
                       std::int64_t last, double value) {
  const auto inside = [last](std::int64_t i) { return Step < 0 ? last <= i : i <= last; };
  Low low{value, from};
  if (list) {
    for (std::size_t q = k;;) {
      const std::size_t gap = Step < 0 ? q : q + 1;  // valleyBefore[gap] lies between peaks gap - 1 and gap
      if (gap >= list->peaks.size()) break;
      const std::int64_t valley = list->valleyBefore[gap];
      if (valley < 0 || !inside(valley)) break;  // not known, or the window ends before it: samples from here
      if (list->valleyLows[gap] < low.value) low = {list->valleyLows[gap], valley};
      q = Step < 0 ? q - 1 : q + 1;  // a known valley has a peak on each side in the list
      from = static_cast<std::int64_t>(list->peaks[q]);
      // The climb to a higher peak, or past the window, holds nothing lower: the walk ends there.
      if (list->heights[q] > value || !inside(from)) return low;
    }
  }
  for (std::int64_t i = from; inside(i) && x[i - s] <= value; i += Step) {
    if (x[i - s] < low.value) low = {x[i - s], i};
  }
  return low;
}

// _peak_prominences and _peak_widths of one peak (bases within `half` samples either side) into
// `row`; whether it passes the prominence and width conditions. With `list`, the peak is
// list->peaks[k] and its walks go through the list's gaps.
bool measurePeak(const Samples& v, std::uint64_t half, const PeakOptions& o, std::uint64_t peak, double value,
                 const PeakList* list, std::size_t k, PeakRow& row) {
  row.index = peak;
  row.height = value;  // the samples may be gone where nothing else needs them
  if (!o.measuresProminence()) return true;
  const std::uint64_t n = v.n;
  const auto p = static_cast<std::int64_t>(peak);
  const std::int64_t iMin = half >= peak ? 0 : p - static_cast<std::int64_t>(half);
  const std::int64_t iMax = half >= n - 1 - peak ? static_cast<std::int64_t>(n - 1) : p + static_cast<std::int64_t>(half);
  const double* xs = v.x;
  const auto s = static_cast<std::int64_t>(v.start);
  const auto x = [&](std::int64_t i) { return xs[i - s]; };
  const Low left = lowestBeforeHigher<-1>(xs, s, list, k, p, iMin, value);
  // The prominence is at most the left side's drop: a peak that drop already fails (about a
  // third of noise's peaks at prominence 1) needs no walk to the right.
  if (o.prominence && !(*o.prominence <= value - left.value)) return false;
  const Low right = lowestBeforeHigher<+1>(xs, s, list, k, p, iMax, value);
  const double leftMin = left.value, rightMin = right.value;
  const std::int64_t leftBase = left.index, rightBase = right.index;
  row.prominence = value - std::max(leftMin, rightMin);
  row.leftBase = static_cast<double>(leftBase);
  row.rightBase = static_cast<double>(rightBase);
  if (!within(row.prominence, o.prominence, o.prominenceMax)) return false;
  if (!o.measuresWidth()) return true;
  const double height = value - row.prominence * o.relHeight;
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
  return within(row.width, o.width, o.widthMax);
}

std::uint64_t halfWindow(const PeakOptions& o) {
  return o.wlen ? static_cast<std::uint64_t>(std::ceil(*o.wlen)) / 2 : std::numeric_limits<std::uint64_t>::max();
}

}  // namespace

void peaksRisingIn(std::span<const double> x, const PeakOptions& o, std::uint64_t from, std::uint64_t to,
                   std::vector<std::vector<PeakRow>>& stretches) {
  for (auto& stretch : stretches) stretch.clear();
  if (o.distance) throw std::invalid_argument("peaksRisingIn: distance orders peaks across the whole signal");
  const std::uint64_t n = x.size();
  if (n < 3) return;
  from = std::max<std::uint64_t>(from, 1);
  to = std::min(to, n - 1);  // SciPy's rises: 1 <= i < i_max
  if (from >= to) return;
  const Samples v{x.data(), 0, n, n};
  const std::uint64_t half = halfWindow(o);
  const auto pieces = static_cast<std::int64_t>((to - from + kRisesPerPiece - 1) / kRisesPerPiece);
  if (stretches.size() < static_cast<std::size_t>(pieces)) stretches.resize(static_cast<std::size_t>(pieces));
#pragma omp parallel for schedule(dynamic, 1) if (pieces > 1 && detail::usableThreads() > 1)
  for (std::int64_t p = 0; p < pieces; ++p) {
    const std::uint64_t begin = from + static_cast<std::uint64_t>(p) * kRisesPerPiece;
    const std::uint64_t end = std::min(to, begin + kRisesPerPiece);
    // The stretch's vector on this core's stack while it grows: the stretches' headers share cache
    // lines, and a push through them bounced the line between cores (a third of the time on 2 cores).
    std::vector<PeakRow> rows = std::move(stretches[static_cast<std::size_t>(p)]);
    PeakList list;
    for (std::uint64_t at = begin; at < end; at += kRisesPerScan) {
      list.clear();
      risingPeaks(v, o.height, at, std::min(end, at + kRisesPerScan), list.peaks, &list);
      for (std::size_t k = 0; k < list.peaks.size(); ++k) {
        const std::uint64_t peak = list.peaks[k];
        if (!passesHeightAndThreshold(v, peak, o)) continue;
        // Measured in place: a row measured on the stack and copied was read back wider than written.
        if (!measurePeak(v, half, o, peak, list.heights[k], &list, k, rows.emplace_back())) rows.pop_back();
      }
    }
    stretches[static_cast<std::size_t>(p)] = std::move(rows);
  }
}

PeakFinder::PeakFinder(const PeakOptions& options, std::uint64_t length) : o_(options), n_(length) {
  half_ = halfWindow(o_);
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
  const std::uint64_t stop = std::min(n_ - 1, end() - 1);  // i < last and x[i + 1] here
  if (scan_ >= stop) return;
  std::vector<std::uint64_t> found;
  scan_ = risingPeaks(Samples{view_.data(), start_, end(), n_}, o_.height, scan_, stop, found);
  for (const std::uint64_t peak : found) offer(peak);
}

// A local maximum through height and threshold, on to distance or to measuring.
void PeakFinder::offer(std::uint64_t peak) {
  if (!passesHeightAndThreshold(Samples{view_.data(), start_, end(), n_}, peak, o_)) return;
  const double value = at(peak);
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
    PeakRow row;
    if (measurePeak(Samples{view_.data(), start_, end(), n_}, half_, o_, peak, value, nullptr, 0, row)) rows_.push_back(row);
  }
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
