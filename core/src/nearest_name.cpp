#include "siglab/nearest_name.hpp"

#include <algorithm>
#include <vector>

namespace siglab {
namespace {

// Optimal string alignment distance: Levenshtein's edits plus a swap of two neighbours.
std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t change = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + change});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> nearestName(std::string_view typed, std::span<const std::string> candidates) {
  if (typed.empty() || std::find(candidates.begin(), candidates.end(), typed) != candidates.end()) return std::nullopt;
  std::optional<std::string> best;
  std::size_t bestDistance = 0;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = editDistance(typed, candidate);
    const std::size_t longer = std::max(typed.size(), candidate.size());
    if (distance > 2 || 3 * distance > longer) continue;
    if (!best || distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

std::string didYouMean(std::string_view typed, std::span<const std::string> candidates) {
  const std::optional<std::string> nearest = nearestName(typed, candidates);
  return nearest ? "; did you mean \"" + *nearest + "\"?" : std::string();
}

}  // namespace siglab
