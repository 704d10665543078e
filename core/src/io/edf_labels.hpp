#pragma once
// The label and physical dimension fields an EDF file gets for channels that carry names and units
// (a CSV header's, another EDF file's): printable ASCII cut to the fields' widths, labels unique.
#include <string>
#include <vector>

namespace siglab {

struct EdfLabels {
  std::vector<std::string> labels;  // one a channel, at most 16 characters, all different
  std::vector<std::string> units;   // one a channel, at most 8 characters ("" where none is known)
  std::string note;                 // what was cut short or renamed, for the user; "" where nothing was
};

// The fields for `channels` channels: names[c] where given and not blank, else the channel's number
// from 1; EDF+'s reserved "EDF Annotations" is a number too (a reader would skip that signal).
EdfLabels edfLabels(std::size_t channels, const std::vector<std::string>& names, const std::vector<std::string>& units);

}  // namespace siglab
