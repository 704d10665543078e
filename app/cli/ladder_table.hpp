#pragma once
#include "siglab/ladder.hpp"

namespace siglab::cli {

// Prints a ladder (reduce, lab reverse, lab matmul) as one table: median/min/max ms, the rate,
// step and total speedup, fraction of the yardstick, the check's result; then its footnotes.
// Returns whether every rung that ran passed its check.
bool printLadderTable(const Ladder& ladder);

}  // namespace siglab::cli
