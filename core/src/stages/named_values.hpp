#pragma once
// The one-stage option's value of a kind whose parameters all go by name (spectrogram, find-peaks):
// "nperseg=1024 noverlap=512" or "height=3", read as a chain reads them after the kind's name.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/parameter_text.hpp"
#include "siglab/stage.hpp"

namespace siglab::stages {

// Throws StageError naming the word that is not NAME=VALUE or not one of `kind`'s parameters.
StageParameters namedValues(const StageKind& kind, std::string_view value);

// The parameters spectrogram and stft share: a length in samples from `min` to 2^24 (optional,
// SciPy's None, where it has no default), and a choice defaulting to its first.
ParameterInfo segmentParameter(std::string name, std::string help, std::optional<std::string> fallback, double min);
ParameterInfo choiceParameter(std::string name, std::string help, std::vector<std::string> choices);
// An optional whole parameter's value, or nullopt where it was not given.
std::optional<std::size_t> optionalWhole(const StageParameters& values, std::string_view name);

}  // namespace siglab::stages
