#pragma once
#include <string>
#include <vector>

namespace siglab::gui {

class FilterPanel;

// Checks exactly `engines` (the reference always runs; engines unavailable here stay unchecked).
void applyEngines(FilterPanel& panel, const std::vector<std::string>& engines);

}  // namespace siglab::gui
