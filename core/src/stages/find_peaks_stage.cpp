// find-peaks: scipy.signal.find_peaks (SciPy 1.10: height, threshold, distance, prominence, width,
// wlen, rel_height; height, threshold, prominence and width also as SciPy's (min, max) interval,
// height=2,5 being height=2 height-max=5), an analysis stage writing one row a peak (CSV, or JSON for a .json output):
// index, time where the signal has a rate, height, and prominence and its bases, width and its
// interpolated ends where asked. Streamed through PeakFinder (find_peaks.hpp) with the halo
// distance and wlen need; prominence or width without wlen runs in memory.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "kind_values.hpp"
#include "named_values.hpp"
#include "siglab/analysis_stage.hpp"
#include "siglab/errors.hpp"
#include "siglab/find_peaks.hpp"
#include "siglab/work_bounds.hpp"
#include "../analysis_files.hpp"

namespace siglab::stages {
namespace {

constexpr double kLargest = std::numeric_limits<double>::max();
constexpr std::size_t kFeedPiece = std::size_t{1} << 16;
// A whole signal in memory without distance is searched in rounds of this many rises, each on
// every core (peaksRisingIn): a round's rows (a PeakRow is 72 bytes; noise has a peak every few
// samples) stay a few megabytes, memory the next round uses again.
constexpr std::uint64_t kRisesPerRound = std::uint64_t{1} << 19;

std::vector<std::string> columnsFor(const PeakOptions& o, std::size_t channels, bool rate) {
  std::vector<std::string> columns;
  if (channels > 1) columns.push_back("channel");
  columns.push_back("index");
  if (rate) columns.push_back("time");
  columns.push_back("height");
  if (o.measuresProminence()) columns.insert(columns.end(), {"prominence", "left_base", "right_base"});
  if (o.measuresWidth()) columns.insert(columns.end(), {"width", "width_height", "left_ip", "right_ip"});
  return columns;
}

class PeakTableWriter final : public AnalysisWriter {
 public:
  PeakTableWriter(const PeakOptions& o, const AnalysisOutput& output)
      : o_(o), output_(output),
        table_(output.path, columnsFor(o, output.channels, output.sampleRate.has_value()), output.streamed, output.memory,
               output.channels * (output.frames / 2 + 1)) {  // a peak is higher than both its neighbours
    for (std::size_t c = 0; c < output.channels; ++c) finders_.emplace_back(o, output.frames);
    ready_.resize(output.channels);
  }

  // A whole signal (in memory) is fed in pieces, its rows written after each: rows never pile up
  // signal-sized (a PeakRow is 72 bytes; noise has a peak every few samples).
  void write(std::span<const std::span<const double>> block) override {
    output_.progress.throwIfCancelled();
    if (output_.engine) {
      // The GPU engine takes the whole signal in one call (whyNotStreamedOnGpu keeps the run in memory).
      if (gpuDone_) throw std::logic_error("find-peaks on the GPU takes the signal in one block");
      for (std::size_t c = 0; c < finders_.size(); ++c) output_.engine->findPeaks(block[c], o_, ready_[c], output_.progress);
      gpuDone_ = true;
      flush();
      return;
    }
    const std::size_t length = block.empty() ? 0 : block[0].size();
    if (!fed_ && length == output_.frames && !o_.distance) {  // the whole signal at once
      wholeInRounds(block);
      return;
    }
    fed_ = true;
    for (std::size_t at = 0; at == 0 || at < length; at += kFeedPiece) {
      const std::size_t piece = std::min(kFeedPiece, length - at);
      for (std::size_t c = 0; c < finders_.size(); ++c) finders_[c].feed(block[c].subspan(at, piece));
      flush();
    }
  }

  std::string commit() override {
    if (!output_.engine && !wholeDone_) {
      for (PeakFinder& f : finders_) f.finish();
    }
    flush();
    table_.commit();
    return std::to_string(table_.rows()) + " peak" + (table_.rows() == 1 ? "" : "s") + " (" +
           (detail::isJsonTable(output_.path) ? "JSON" : "CSV") + " table, one row a peak" +
           (finders_.size() > 1 ? ", by index then channel" : "") + ")";
  }

 private:
  // Each round's rows before the next round's, each round on every core.
  void wholeInRounds(std::span<const std::span<const double>> block) {
    const std::uint64_t n = output_.frames;
    for (std::uint64_t from = 0; from == 0 || from < n; from += kRisesPerRound) {
      output_.progress.throwIfCancelled();
      const std::uint64_t to = std::min(n, from + kRisesPerRound);
      for (std::size_t c = 0; c < finders_.size(); ++c) {
        peaksRisingIn(block[c], o_, from, to, stretches_);
        if (finders_.size() == 1) {
          const std::vector<std::span<const PeakRow>> parts(stretches_.begin(), stretches_.end());
          appendRows(0, parts);  // one channel: in index order as they come
          continue;
        }
        for (const std::vector<PeakRow>& rows : stretches_) ready_[c].insert(ready_[c].end(), rows.begin(), rows.end());
      }
      wholeDone_ = to >= n;
      flush(wholeDone_ ? std::numeric_limits<std::uint64_t>::max() : to);  // later rounds' peaks lie at `to` or after
    }
  }

  // Rows of channel `c` to the table, at once, the parts one after another: in memory, straight
  // into its columns, on every core where rows are many (a round's rows, not a stretch's: one
  // stretch at a time filled on one core while the other waited).
  void appendRows(std::size_t c, std::span<const std::span<const PeakRow>> parts) {
    if (!table_.inMemory()) {
      for (const std::span<const PeakRow> rows : parts) appendRowValues(c, rows);
      return;
    }
    std::vector<std::size_t> starts{0};  // where each part's rows start among all
    for (const std::span<const PeakRow> rows : parts) starts.push_back(starts.back() + rows.size());
    const bool channel = finders_.size() > 1, prominence = o_.measuresProminence(), width = o_.measuresWidth();
    const std::optional<double> rate = output_.sampleRate;
    table_.appendColumns(starts.back(), [&](std::size_t first, std::size_t count, std::span<double* const> columns) {
      auto part = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), first) - starts.begin()) - 1;
      for (std::size_t r = 0; r < count; ++r) {
        while (first + r >= starts[part + 1]) ++part;
        const PeakRow& row = parts[part][first + r - starts[part]];
        std::size_t k = 0;
        if (channel) columns[k++][r] = static_cast<double>(c + 1);
        columns[k++][r] = static_cast<double>(row.index);
        if (rate) columns[k++][r] = static_cast<double>(row.index) / *rate;
        columns[k++][r] = row.height;
        if (prominence) {
          columns[k++][r] = row.prominence;
          columns[k++][r] = row.leftBase;
          columns[k++][r] = row.rightBase;
        }
        if (width) {
          columns[k++][r] = row.width;
          columns[k++][r] = row.widthHeight;
          columns[k++][r] = row.leftIp;
          columns[k][r] = row.rightIp;
        }
      }
    });
  }

  // Rows of channel `c` to a table file, one value a column.
  void appendRowValues(std::size_t c, std::span<const PeakRow> rows) {
    values_.clear();
    for (const PeakRow& r : rows) {
      if (finders_.size() > 1) values_.push_back(static_cast<double>(c + 1));
      values_.push_back(static_cast<double>(r.index));
      if (output_.sampleRate) values_.push_back(static_cast<double>(r.index) / *output_.sampleRate);
      values_.push_back(r.height);
      if (o_.measuresProminence()) values_.insert(values_.end(), {r.prominence, r.leftBase, r.rightBase});
      if (o_.measuresWidth()) values_.insert(values_.end(), {r.width, r.widthHeight, r.leftIp, r.rightIp});
    }
    table_.appendRows(values_);
  }

  // Rows below every channel's frontier, in (index, channel) order: the same order in memory and streamed.
  void flush(std::optional<std::uint64_t> known = std::nullopt) {
    std::uint64_t frontier = known.value_or(std::numeric_limits<std::uint64_t>::max());
    for (std::size_t c = 0; c < finders_.size() && !output_.engine && !known; ++c) {
      std::vector<PeakRow> rows = finders_[c].take();
      if (ready_[c].empty()) {
        ready_[c] = std::move(rows);
      } else {
        ready_[c].insert(ready_[c].end(), rows.begin(), rows.end());
      }
      frontier = std::min(frontier, finders_[c].frontier());
    }
    std::vector<std::size_t> next(finders_.size(), 0);
    for (;;) {
      std::size_t best = finders_.size();
      for (std::size_t c = 0; c < finders_.size(); ++c) {
        if (next[c] < ready_[c].size() && ready_[c][next[c]].index < frontier &&
            (best == finders_.size() || ready_[c][next[c]].index < ready_[best][next[best]].index)) {
          best = c;
        }
      }
      if (best == finders_.size()) break;
      std::size_t run = 1;  // the rows of this channel before any other channel's next
      while (next[best] + run < ready_[best].size() && ready_[best][next[best] + run].index < frontier &&
             (finders_.size() == 1 || [&] {
               for (std::size_t c = 0; c < finders_.size(); ++c) {
                 if (c == best || next[c] >= ready_[c].size() || ready_[c][next[c]].index >= frontier) continue;
                 const std::uint64_t theirs = ready_[c][next[c]].index, ours = ready_[best][next[best] + run].index;
                 if (theirs < ours || (theirs == ours && c < best)) return false;
               }
               return true;
             }())) {
        ++run;
      }
      const std::span<const PeakRow> rows = std::span<const PeakRow>(ready_[best]).subspan(next[best], run);
      appendRows(best, std::span(&rows, 1));
      next[best] += run;
    }
    for (std::size_t c = 0; c < finders_.size(); ++c) {
      ready_[c].erase(ready_[c].begin(), ready_[c].begin() + static_cast<std::ptrdiff_t>(next[c]));
    }
  }

  PeakOptions o_;
  AnalysisOutput output_;
  std::vector<PeakFinder> finders_;
  std::vector<std::vector<PeakRow>> ready_;
  bool gpuDone_ = false;  // the GPU engine's rows are in ready_
  std::vector<double> values_;  // rows on their way to the table, row after row (memory used again)
  std::vector<std::vector<PeakRow>> stretches_;  // a round's rows, stretch by stretch (memory used again)
  bool fed_ = false;        // a block went to the finders (streamed, or with distance)
  bool wholeDone_ = false;  // the whole signal's rows are in ready_ (wholeInRounds)
  detail::TableFile table_;
};

class FindPeaksStage final : public AnalysisStage {
 public:
  explicit FindPeaksStage(const PeakOptions& o) : o_(o) {}

  std::string describe() const override {
    std::string text = "find-peaks";
    const auto add = [&](const char* name, const std::optional<double>& v) {
      if (v) text += std::string(" ") + name + "=" + shortNumber(*v);
    };
    add("height", o_.height);
    add("height-max", o_.heightMax);
    add("threshold", o_.threshold);
    add("threshold-max", o_.thresholdMax);
    add("distance", o_.distance);
    add("prominence", o_.prominence);
    add("prominence-max", o_.prominenceMax);
    add("width", o_.width);
    add("width-max", o_.widthMax);
    add("wlen", o_.wlen);
    if (o_.measuresWidth()) text += " rel-height=" + shortNumber(o_.relHeight);
    return text;
  }

  std::optional<GpuStageWork> gpuWork() const override { return GpuStageWork::FindPeaks; }
  const PeakOptions* peakOptions() const override { return &o_; }
  std::string whyNotStreamedOnGpu() const override {
    return "find-peaks on a GPU engine takes the whole signal at once (cpu-parallel streams it)";
  }

  std::string whyNotStreamed() const override {
    if (o_.measuresProminence() && !o_.wlen) {
      return "find-peaks' prominence and width without wlen look for each peak's bases as far as the signal goes "
             "(give wlen to stream in bounded memory)";
    }
    return {};
  }

  void checkOutput(const std::string& path) const override {
    const auto ends = [&](const char* suffix) {
      const std::string s(suffix);
      return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
    };
    if (!ends(".csv") && !ends(".json") && path != "-") {
      throw StageError("find-peaks writes a table: the output must end in .csv or .json, got " + quoteExcerpt(path));
    }
  }

  std::unique_ptr<AnalysisWriter> open(const AnalysisOutput& output) const override {
    return std::make_unique<PeakTableWriter>(o_, output);
  }

 private:
  PeakOptions o_;
};

ParameterInfo condition(std::string name, std::string help, double min = -kLargest) {
  ParameterInfo p = describedParameter(std::move(name), ParameterType::Number, std::move(help));
  p.min = min;
  p.max = kLargest;
  p.optional = true;
  return p;
}

// A minimum and its maximum's own parameter, "height" and "height-max": height=2,5 reads as
// height=2 height-max=5, SciPy's (min, max) (named_values.hpp's putParameterText).
std::vector<ParameterInfo> interval(const std::string& name, const std::string& help, double min = -kLargest,
                                    const std::string& unit = {}) {
  ParameterInfo low = condition(name, "minimum " + help + " (or MIN,MAX)", min);
  ParameterInfo high = condition(name + "-max", "maximum " + help, min);
  low.unit = high.unit = unit;
  return {low, high};
}

std::optional<double> optionalNumber(const StageParameters& values, std::string_view name) {
  const auto found = values.find(name);
  if (found == values.end()) return std::nullopt;
  return numberOf(values, name);
}

class FindPeaksKind final : public StageKind {
 public:
  std::string_view name() const override { return "find-peaks"; }
  std::string_view summary() const override {
    return "peaks: local maxima kept by height, threshold, distance, prominence and width, one row each to a CSV "
           "or JSON table (scipy.signal.find_peaks)";
  }
  std::string_view valueSyntax() const override { return "[NAME=VALUE ...]"; }
  std::string_view exampleValue() const override { return "height=0"; }
  bool endsChain() const override { return true; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo wlen = condition("wlen", "samples around a peak its prominence looks for bases in (more than 1)", 1.0);
    wlen.unit = "samples";
    ParameterInfo distance = condition("distance", "minimum samples between neighbouring peaks (the higher wins)", 1.0);
    distance.unit = "samples";
    ParameterInfo relHeight = describedParameter("rel-height", ParameterType::Number,
                                                 "where width is measured, as a fraction of the prominence", "0.5");
    relHeight.min = 0.0;
    relHeight.max = kLargest;
    std::vector<ParameterInfo> all = interval("height", "peak height");
    for (ParameterInfo& p : interval("threshold", "vertical distance to the neighbouring samples")) all.push_back(p);
    all.push_back(distance);
    for (ParameterInfo& p : interval("prominence", "prominence")) all.push_back(p);
    for (ParameterInfo& p : interval("width", "width at rel-height of the prominence", 0.0, "samples")) all.push_back(p);
    all.push_back(wlen);
    all.push_back(relHeight);
    return all;
  }

  StageParameters parseValue(std::string_view value) const override { return namedValues(*this, value); }
  std::string formatValue(const StageParameters& /*values*/) const override { return {}; }

  void check(const StageParameters& values) const override {
    if (const auto wlen = optionalNumber(values, "wlen"); wlen && !(*wlen > 1)) {
      throw StageError("wlen must be larger than 1, got " + shortNumber(*wlen));
    }
  }

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& /*context*/) const override {
    PeakOptions o;
    o.height = optionalNumber(values, "height");
    o.threshold = optionalNumber(values, "threshold");
    o.distance = optionalNumber(values, "distance");
    o.prominence = optionalNumber(values, "prominence");
    o.width = optionalNumber(values, "width");
    o.wlen = optionalNumber(values, "wlen");
    o.heightMax = optionalNumber(values, "height-max");
    o.thresholdMax = optionalNumber(values, "threshold-max");
    o.prominenceMax = optionalNumber(values, "prominence-max");
    o.widthMax = optionalNumber(values, "width-max");
    o.relHeight = numberOf(values, "rel-height");
    return std::make_unique<FindPeaksStage>(o);
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& findPeaksKind() {
  static const stages::FindPeaksKind kind;
  return kind;
}
}  // namespace siglab
