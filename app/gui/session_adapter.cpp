#include "session_adapter.hpp"

#include <algorithm>

#include "filter_panel.hpp"

namespace siglab::gui {

void applyEngines(FilterPanel& panel, const std::vector<std::string>& engines) {
  for (const std::string& name : panel.checkedEngines()) {
    if (std::find(engines.begin(), engines.end(), name) == engines.end()) panel.setEngineChecked(name, false);
  }
  for (const std::string& name : engines) panel.setEngineChecked(name, true);
}

}  // namespace siglab::gui
