#pragma once
// scipy.signal.find_peaks (SciPy 1.10) on a signal fed block by block: local maxima (a flat peak
// at its plateau's middle), then height, threshold, distance, prominence and width in SciPy's
// order and with SciPy's semantics; each row appears once no later sample can change it.
// Held at once: the samples since the oldest peak not yet final, less wlen / 2 (prominence, width)
// or one sample (the rest). A run of peaks each closer than `distance` to a higher one keeps its
// peaks (not samples) pending until the highest is known. Without wlen, prominence and width look
// for their bases as far as the signal goes, so nothing is dropped until the end (in memory).
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace siglab {

/// find_peaks' conditions, each unset (SciPy's None) unless given.
struct PeakOptions {
  std::optional<double> height;      // minimum x[peak]
  std::optional<double> threshold;   // minimum vertical distance to both neighbours
  std::optional<double> distance;    // minimum samples between kept peaks (>= 1; the higher peak wins)
  std::optional<double> prominence;  // minimum prominence
  std::optional<double> width;       // minimum width at rel_height of the prominence
  std::optional<double> wlen;        // window (> 1 samples) prominence looks for its bases in
  double relHeight = 0.5;
  // The maxima of SciPy's (min, max) form: x[peak], the larger vertical distance to a neighbour,
  // prominence and width at most these (either end of an interval may be absent, as SciPy's None).
  std::optional<double> heightMax, thresholdMax, prominenceMax, widthMax;
  bool measuresHeight() const { return height || heightMax; }
  bool measuresThreshold() const { return threshold || thresholdMax; }
  bool measuresWidth() const { return width || widthMax; }
  bool measuresProminence() const { return prominence || prominenceMax || measuresWidth(); }
  bool hasMaxima() const { return heightMax || thresholdMax || prominenceMax || widthMax; }
};

/// One peak found, with the properties its conditions measured.
struct PeakRow {
  std::uint64_t index = 0;
  double height = 0;  // x[index]
  double prominence = 0, leftBase = 0, rightBase = 0;         // measuresProminence()
  double width = 0, widthHeight = 0, leftIp = 0, rightIp = 0;  // width
};

/// Finds the peaks of a signal of `length` samples fed in blocks; rows are taken once final.
class PeakFinder {
 public:
  PeakFinder(const PeakOptions& options, std::uint64_t length);
  void feed(std::span<const double> samples);  // the next samples (`length` in all, then finish())
  void finish();
  // The rows made final since the last call, by index.
  std::vector<PeakRow> take();
  // No row taken later has an index below this.
  std::uint64_t frontier() const;
  std::size_t heldSamples() const { return buffer_.size(); }

 private:
  enum class State : std::uint8_t { undecided, kept, removed };
  struct Candidate {
    std::uint64_t index;
    double value;
    State state;
  };
  double at(std::uint64_t i) const { return view_[i - start_]; }
  std::uint64_t end() const { return start_ + view_.size(); }
  void scanMaxima();
  void offer(std::uint64_t peak);
  void resolveDistance(bool final);
  void measure();
  void trim();

  PeakOptions o_;
  std::uint64_t n_;
  std::uint64_t half_ = std::numeric_limits<std::uint64_t>::max();  // wlen // 2; none: unbounded
  std::uint64_t distance_ = 0;                                      // ceil(distance); 0: none
  std::vector<double> buffer_;     // the samples kept from one feed to the next
  std::span<const double> view_;  // samples [start_, end()): buffer_, or the block fed where none were kept (no copy)
  std::uint64_t start_ = 0;
  std::uint64_t scan_ = 1;  // SciPy's i in _local_maxima_1d: the next sample that may start a peak
  bool finished_ = false;
  std::deque<Candidate> pending_;    // distance: peaks by index, decided or not
  std::size_t forwarded_ = 0;        // pending_[0, forwarded_) passed on to measuring_
  std::deque<std::pair<std::uint64_t, double>> measuring_;  // kept peaks (index, x) waiting for their window's samples
  std::vector<PeakRow> rows_;
};

// The rows of the peaks whose plateau rises at a sample in [from, to) of a whole signal in memory
// (without `distance`, which orders peaks across the whole signal): PeakFinder's rows for them
// exactly, through the same steps, found in stretches on every core. `stretches` gets them, in
// index order stretch after stretch (it is cleared first, and may be longer than needed: a
// caller's rounds use its memory again). Rows of consecutive ranges follow one another in index order.
void peaksRisingIn(std::span<const double> x, const PeakOptions& options, std::uint64_t from, std::uint64_t to,
                   std::vector<std::vector<PeakRow>>& stretches);

}  // namespace siglab
