#pragma once
#include <cstdint>
#include <string>

namespace siglab::gui {

// siglab-gui-benchmark --large FILE [SAMPLES]: the window on a raw file larger than memory.
int runLargeBenchmark(const std::string& path, std::uint64_t samples);

}  // namespace siglab::gui
