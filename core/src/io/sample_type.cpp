#include "siglab/io/sample_type.hpp"

#include <array>
#include <utility>

namespace siglab {
namespace {

constexpr std::array<std::pair<SampleType, std::string_view>, 10> kNames{{
    {SampleType::f64, "f64"}, {SampleType::f32, "f32"}, {SampleType::i8, "i8"}, {SampleType::i16, "i16"},
    {SampleType::i32, "i32"}, {SampleType::i64, "i64"}, {SampleType::u8, "u8"}, {SampleType::u16, "u16"},
    {SampleType::u32, "u32"}, {SampleType::u64, "u64"},
}};

}  // namespace

std::size_t sampleSize(SampleType type) {
  switch (type) {
    case SampleType::i8:
    case SampleType::u8: return 1;
    case SampleType::i16:
    case SampleType::u16: return 2;
    case SampleType::f32:
    case SampleType::i32:
    case SampleType::u32: return 4;
    case SampleType::f64:
    case SampleType::i64:
    case SampleType::u64: return 8;
  }
  return 0;
}

std::string_view sampleTypeName(SampleType type) {
  for (const auto& [t, name] : kNames) {
    if (t == type) return name;
  }
  return "?";
}

std::optional<SampleType> parseSampleTypeName(std::string_view name) {
  for (const auto& [t, n] : kNames) {
    if (n == name) return t;
  }
  return std::nullopt;
}

}  // namespace siglab
