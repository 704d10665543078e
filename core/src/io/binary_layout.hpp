#pragma once
#include <cstdint>
#include <string>

#include "siglab/io/binary_formats.hpp"

namespace siglab {

// Where a binary file's samples lie: `count` samples of `type` from byte `offset` to the file's end.
struct BinaryLayout {
  SampleType type = SampleType::f64;
  std::uint64_t count = 0;
  std::uint64_t offset = 0;
};

// Checks the header (as parseNpy does, with the same messages) and says where the data is.
BinaryLayout locateNpyData(Bytes file, const std::string& pathForMessages);
// The same for raw samples after `offset` bytes of a file of `fileSize` bytes (parseRaw's checks).
BinaryLayout locateRawData(std::uint64_t fileSize, const std::string& pathForMessages, SampleType type,
                           std::uint64_t offset);

}  // namespace siglab
