#include "loaded_signal.hpp"

namespace siglab::gui {

LoadedSignal::LoadedSignal(std::string source, std::vector<double> samples, const Progress& progress,
                           std::optional<double> sampleRate)
    : source_(std::move(source)), samples_(std::move(samples)), pyramid_(samples_, progress),
      statistics_(statisticsParallel(samples_)), sampleRate_(sampleRate) {}

}  // namespace siglab::gui
