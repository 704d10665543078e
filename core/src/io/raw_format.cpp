#include "binary_layout.hpp"
#include "sample_conversion.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/binary_formats.hpp"

namespace siglab {

BinaryLayout locateRawData(std::uint64_t size, const std::string& path, SampleType type, std::uint64_t offset) {
  const std::string typeName(sampleTypeName(type));
  if (offset > size) {
    throw InputError(path, "offset " + std::to_string(offset) + " is past the end of the file (" +
                               std::to_string(size) + " bytes)");
  }
  const std::uint64_t bytes = size - offset;
  const std::uint64_t itemSize = sampleSize(type);
  if (bytes == 0) throw InputError(path, "no " + typeName + " samples after offset " + std::to_string(offset));
  if (bytes % itemSize != 0) {
    throw InputError(path, "the " + std::to_string(bytes) + " bytes after offset " + std::to_string(offset) +
                               " are not a whole number of " + std::to_string(itemSize) + "-byte " + typeName +
                               " samples (" + std::to_string(bytes % itemSize) + " bytes left over)");
  }
  return BinaryLayout{type, bytes / itemSize, offset};
}

SampleVector parseRaw(Bytes file, const std::string& path, SampleType type, std::uint64_t offset,
                      bool allowNonFinite, const Progress& progress, std::pmr::memory_resource* memory) {
  const BinaryLayout data = locateRawData(file.size(), path, type, offset);
  return convertSamples(file.subspan(offset), type, data.count, path, allowNonFinite, progress, memory);
}

std::vector<float> toFloat32(std::span<const double> values) {
  return std::vector<float>(values.begin(), values.end());
}

}  // namespace siglab
