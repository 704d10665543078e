// Plain C++, built with or without CUDA: the reduction ladder in the shape every ladder shares.
#include <cstdio>

#include "siglab/cuda_reduce.hpp"

namespace siglab {
namespace {

LadderRung toRung(const ReductionStep& step, const ReductionLadder& ladder, RungKind kind) {
  LadderRung rung;
  rung.name = step.name;
  rung.description = step.description;
  rung.kind = kind;
  rung.time = step.time;
  rung.work = static_cast<double>(ladder.bytes);
  char text[96];
  if (ladder.integer) {
    std::snprintf(text, sizeof text, "%lld %s", static_cast<long long>(step.integerValue), step.exact ? "exact" : "WRONG");
    rung.correct = step.exact;
  } else {
    std::snprintf(text, sizeof text, "%.17g err %.2g", step.value, step.absError);
  }
  rung.result = text;
  return rung;
}

}  // namespace

std::vector<LadderRung> reductionRungs(const ReductionLadder& ladder) {
  std::vector<LadderRung> rungs;
  if (!ladder.problem.empty()) return rungs;
  for (std::size_t i = 0; i < ladder.steps.size(); ++i) {
    const bool cub = i + 1 == ladder.steps.size();
    rungs.push_back(toRung(ladder.steps[i], ladder, cub ? RungKind::Yardstick : RungKind::Rung));
  }
  rungs.push_back(toRung(ladder.sumOfSquares, ladder, RungKind::Extra));
  return rungs;
}

}  // namespace siglab
