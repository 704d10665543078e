#pragma once
#include "siglab/session.hpp"

namespace siglab::gui {

class FilterPanel;

// The filter panel's state as the core's FilterSettings and back, through the panel's own
// saveSettings/restoreSettings keys, so the panel needs no session code of its own.
FilterSettings filterSettingsOf(const FilterPanel& panel);
void applyFilterSettings(FilterPanel& panel, const FilterSettings& filter);

// Checks exactly `engines` (the reference always runs; engines unavailable here stay unchecked).
void applyEngines(FilterPanel& panel, const std::vector<std::string>& engines);

}  // namespace siglab::gui
