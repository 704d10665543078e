#pragma once
#include <cstddef>
#include <optional>
#include <string_view>

namespace siglab {

// Sample types of binary files (raw and .npy), stored little-endian.
enum class SampleType { f64, f32, i8, i16, i32, i64, u8, u16, u32, u64 };

std::size_t sampleSize(SampleType type);
std::string_view sampleTypeName(SampleType type);                    // "f64", "i16", ...
std::optional<SampleType> parseSampleTypeName(std::string_view name);  // the inverse; nullopt if unknown

}  // namespace siglab
