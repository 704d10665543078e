#pragma once
// One shape for every ladder (reduction, reversal, matrix multiply): rungs in order, each one
// change more than the last, then a yardstick measured in the same run; and the arithmetic every
// front-end shows of them (rate, step and total speedup, fraction of the yardstick).
#include <string>
#include <string_view>
#include <vector>

#include "siglab/timing.hpp"

namespace siglab {

enum class RungKind {
  Rung,       // on the ladder: speedups against the previous and the first rung
  Yardstick,  // what the rungs are measured against (a copy, CUB, cuBLAS)
  Extra,      // measured beside the ladder (a variant of a rung or the yardstick); rate only
};

struct LadderRung {
  std::string name;
  std::string description;  // the one change this rung makes
  RungKind kind = RungKind::Rung;
  std::string problem;      // why it did not run; empty when it ran
  TimingStats time;         // one execution, ms (median, min, max over the timed repeats)
  double work = 0;          // bytes moved or floating-point operations in one execution
  std::string result;       // what the check found, in words
  bool correct = true;      // the check passed
  std::string access;       // optional: how well its memory accesses use what they move
  // What one timed execution covers: the whole problem, or (timedShare < 1) a part of it, in
  // words ("rows 0..99 of 1000"). Tables show such a time scaled to the whole beside it.
  double timedShare = 1.0;
  std::string timedPart;

  // Filled by computeLadderMetrics from `work` and `time`; 0 where not defined.
  double rate = 0;          // work / 1e9 per second (GB/s, GFLOP/s)
  double stepSpeedup = 0;   // rate over the previous rung that ran
  double totalSpeedup = 0;  // rate over the first rung that ran
  double ofYardstick = 0;   // rate over the yardstick's
  bool ran() const { return problem.empty(); }
};

struct Ladder {
  std::string title;     // what was run: "reverse 2^28 int32 (1024 MiB)"
  std::string rateUnit;  // "GB/s" or "GFLOP/s"
  std::string note;      // one paragraph: what each rung changes
  std::vector<LadderRung> rungs;
  std::vector<std::string> footnotes;  // references, bounds, why something did not run
};

// work / 1e9 per second of `ms`; 0 when ms <= 0.
double perSecond(double work, double ms);

// A speedup or fraction as the front-ends print it: "12.34x", "158x", "0.0058x"; "" for 0 (undefined).
std::string ratioText(double value);

// Rates from work and median time; speedups are ratios of rates, so a rung that timed part of the
// problem (a band of rows on the CPU) compares fairly. Rungs that did not run are skipped.
void computeLadderMetrics(Ladder& ladder);

// What `rung` times, in words: "the whole problem" or its part ("a band: rows 0..99 of 1000").
std::string timedText(const LadderRung& rung);
// Its median time for the whole problem: measured, or scaled up from the part it timed.
double wholeProblemMs(const LadderRung& rung);

bool allCorrect(const Ladder& ladder);                                    // every rung that ran
const LadderRung* findRung(const Ladder& ladder, std::string_view name);  // nullptr if absent
const LadderRung* fastestRung(const Ladder& ladder);                      // highest rate among Rung; nullptr if none ran
const LadderRung* yardstickOf(const Ladder& ladder);                      // the Yardstick that ran; nullptr if none

}  // namespace siglab
