#pragma once
// A parameter's value as text, put into a stage's values: what a chain, a one-stage option's value
// and the CLI's per-parameter options all read through (named_values.cpp).
#include <string_view>
#include <vector>

#include "siglab/stage.hpp"

namespace siglab {

// values[info.name] = parameterFromText(info, text); but where `infos` has a Number NAME-max beside
// the Number NAME, SciPy's interval "MIN,MAX" or "(MIN,MAX)" (either end empty: SciPy's None) puts
// its ends to NAME and NAME-max (find-peaks height=2,5). Throws StageError for a parameter given twice.
void putParameterText(const std::vector<ParameterInfo>& infos, const ParameterInfo& info, std::string_view text,
                      StageParameters& values);

}  // namespace siglab
