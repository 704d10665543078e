#include "ladder_table.hpp"

#include <cstdio>
#include <string>

namespace siglab::cli {

bool printLadderTable(const Ladder& ladder) {
  std::printf("%s\n", ladder.title.c_str());
  std::printf("  %-20s %10s %10s %10s %9s %8s %8s %9s  %s\n", "rung", "median ms", "min ms", "max ms",
              ladder.rateUnit.c_str(), "step", "total", "of yard", "result");
  for (const LadderRung& rung : ladder.rungs) {
    if (!rung.ran()) {
      std::printf("  %-20s not run: %s\n", rung.name.c_str(), rung.problem.c_str());
      continue;
    }
    std::string result = rung.result;
    if (!rung.access.empty()) result += "; " + rung.access;
    std::printf("  %-20s %10.4f %10.4f %10.4f %9.1f %8s %8s %9s  %s\n", rung.name.c_str(), rung.time.medianMs,
                rung.time.minMs, rung.time.maxMs, rung.rate, ratioText(rung.stepSpeedup).c_str(),
                ratioText(rung.totalSpeedup).c_str(), ratioText(rung.ofYardstick).c_str(), result.c_str());
  }
  for (const std::string& line : ladder.footnotes) std::printf("  %s\n", line.c_str());
  std::printf("\n");
  return allCorrect(ladder);
}

}  // namespace siglab::cli
