#pragma once
#include <string>
#include <string_view>

namespace siglab {

// Writes `contents` to `path` through a temporary file in the same directory and a rename, so a
// reader sees either the old file or the complete new one. Throws InputError on failure, after
// removing the temporary.
void writeFileAtomically(const std::string& path, std::string_view contents);

}  // namespace siglab
