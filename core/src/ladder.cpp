#include "siglab/ladder.hpp"

#include <cstdio>

namespace siglab {

double perSecond(double work, double ms) { return ms > 0.0 ? work / 1e9 / (ms / 1e3) : 0.0; }

std::string ratioText(double value) {
  if (value <= 0.0) return "";
  char text[32];
  std::snprintf(text, sizeof text, value >= 100.0 ? "%.0fx" : value >= 0.1 ? "%.2fx" : "%.2gx", value);
  return text;
}

std::string timedText(const LadderRung& rung) {
  return rung.timedShare < 1.0 && !rung.timedPart.empty() ? rung.timedPart : "the whole problem";
}

double wholeProblemMs(const LadderRung& rung) {
  return rung.timedShare > 0.0 ? rung.time.medianMs / rung.timedShare : rung.time.medianMs;
}

void computeLadderMetrics(Ladder& ladder) {
  for (LadderRung& rung : ladder.rungs) {
    rung.rate = rung.ran() ? perSecond(rung.work, rung.time.medianMs) : 0.0;
    rung.stepSpeedup = rung.totalSpeedup = rung.ofYardstick = 0.0;
  }
  const LadderRung* yardstick = yardstickOf(ladder);
  const LadderRung* first = nullptr;
  const LadderRung* previous = nullptr;
  for (LadderRung& rung : ladder.rungs) {
    if (!rung.ran() || rung.rate <= 0.0) continue;
    if (yardstick && yardstick->rate > 0.0) rung.ofYardstick = rung.rate / yardstick->rate;
    if (rung.kind != RungKind::Rung) continue;
    if (!first) first = &rung;
    rung.totalSpeedup = rung.rate / first->rate;
    if (previous) rung.stepSpeedup = rung.rate / previous->rate;
    previous = &rung;
  }
}

bool allCorrect(const Ladder& ladder) {
  for (const LadderRung& rung : ladder.rungs) {
    if (rung.ran() && !rung.correct) return false;
  }
  return true;
}

const LadderRung* findRung(const Ladder& ladder, std::string_view name) {
  for (const LadderRung& rung : ladder.rungs) {
    if (rung.name == name) return &rung;
  }
  return nullptr;
}

const LadderRung* fastestRung(const Ladder& ladder) {
  const LadderRung* best = nullptr;
  for (const LadderRung& rung : ladder.rungs) {
    if (rung.kind == RungKind::Rung && rung.ran() && (!best || rung.rate > best->rate)) best = &rung;
  }
  return best;
}

const LadderRung* yardstickOf(const Ladder& ladder) {
  for (const LadderRung& rung : ladder.rungs) {
    if (rung.kind == RungKind::Yardstick && rung.ran()) return &rung;
  }
  return nullptr;
}

}  // namespace siglab
