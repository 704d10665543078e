#pragma once
// What libsndfile does not say of a cut-off audio file: it reads an uncompressed container whose
// data stops early, or an Ogg stream cut at a page boundary, as a shorter signal. These look at
// the container itself; each returns what is missing, or nothing when the file is whole.
#include <optional>
#include <string>

#include "siglab/io/binary_formats.hpp"

namespace siglab {

// Ogg: every page whole with the right checksum (the decoder skips a damaged one), the last
// ending its stream (the end-of-stream flag).
std::optional<std::string> oggCutShort(Bytes file);
// AIFF/AIFC: the SSND chunk holds the frames the COMM chunk states.
std::optional<std::string> aiffCutShort(Bytes file);
// CAF: a data chunk of stated size (not -1) lies wholly in the file.
std::optional<std::string> cafCutShort(Bytes file);
// Sony Wave64: the data chunk lies wholly in the file.
std::optional<std::string> w64CutShort(Bytes file);
// Sun/NeXT AU: the data size of the header (unless "unknown") lies in the file.
std::optional<std::string> auCutShort(Bytes file);

}  // namespace siglab
