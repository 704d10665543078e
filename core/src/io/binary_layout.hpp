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
// A .npy array of N frames of C channels, shape (N,) or (N, C), in C order (frame by frame) or
// Fortran order (channel by channel); the header checked as locateNpyData checks it.
struct NpyArray {
  BinaryLayout data;  // all rows * columns samples
  std::uint64_t rows = 0;
  std::uint64_t columns = 1;
  bool fortran = false;
};
NpyArray locateNpyArray(Bytes file, const std::string& pathForMessages);
// The same for raw samples after `offset` bytes of a file of `fileSize` bytes (parseRaw's checks).
BinaryLayout locateRawData(std::uint64_t fileSize, const std::string& pathForMessages, SampleType type,
                           std::uint64_t offset);

}  // namespace siglab
