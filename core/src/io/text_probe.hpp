#pragma once
#include <string_view>

#include "siglab/io/file_probe.hpp"

namespace siglab {

// What a text file's first bytes say: its columns, header, decimal mark and first lines, or that
// it holds bytes that are not text (binary: raw samples, probably).
void probeTextHead(std::string_view head, FileProbe& probe);

}  // namespace siglab
