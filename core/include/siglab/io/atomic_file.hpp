#pragma once
#include <span>
#include <string>
#include <string_view>

#include "siglab/progress.hpp"

namespace siglab {

enum class Durability {
  flushed,   // fsync before the rename: the new file survives a power cut (costs the disk's write time)
  buffered,  // left to the kernel's write-back, like fprintf
};

// Writes the concatenation of `pieces` to `path` through a temporary file in the same directory
// and a rename, so a reader sees either the old file or the complete new one. Throws InputError
// (or Cancelled) after removing the temporary; the old file is then untouched.
void writeFileAtomically(const std::string& path, std::span<const std::string_view> pieces,
                         const Progress& progress = {}, Durability durability = Durability::flushed);
void writeFileAtomically(const std::string& path, std::string_view contents, const Progress& progress = {},
                         Durability durability = Durability::flushed);

}  // namespace siglab
