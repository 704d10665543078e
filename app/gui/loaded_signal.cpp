#include "loaded_signal.hpp"

namespace siglab::gui {

LoadedSignal::LoadedSignal(std::string source, SampleVector samples, const Progress& progress,
                           std::optional<double> sampleRate)
    : source_(std::move(source)), samples_(std::move(samples)), pyramid_(samples_, progress),
      statistics_(statisticsParallel(samples_)), sampleRate_(sampleRate) {}

LoadedSignal::LoadedSignal(std::string source, const std::vector<double>& samples, const Progress& progress,
                           std::optional<double> sampleRate)
    : LoadedSignal(std::move(source), SampleVector(samples), progress, sampleRate) {}

}  // namespace siglab::gui
