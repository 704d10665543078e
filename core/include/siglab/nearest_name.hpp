#pragma once
// The known name a mistyped one was most likely meant to be ("filtr" -> "filter", "--windw" ->
// "--window", "medain" -> "median"), for messages that suggest it.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace siglab {

// The candidate nearest to `typed` in edits (an insertion, a deletion, a change or two neighbours
// swapped), if it is near enough to be a typo: at most 2 edits, and at most a third of the longer
// name's letters. nullopt when none is, or `typed` is itself a candidate.
std::optional<std::string> nearestName(std::string_view typed, std::span<const std::string> candidates);

// "; did you mean \"filter\"?" for the nearest candidate, or empty: the tail of an "unknown ..." message.
std::string didYouMean(std::string_view typed, std::span<const std::string> candidates);

}  // namespace siglab
