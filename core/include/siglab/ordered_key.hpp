#pragma once
// Samples as unsigned integers whose order is a total order of the values, so that a median is a
// selection among integers: every engine picks the same key, hence the same bits.
//   -inf < ... < -0.0 < +0.0 < ... < +inf < NaN
// Every NaN (any sign or payload) is one key above +inf, read back as the quiet NaN; numpy.sort
// puts NaN last in the same way. Other values map one to one, -0.0 below +0.0.
#include <cstdint>
#include <cstring>

#include "siglab/host_device.hpp"

namespace siglab {

template <typename T>
struct OrderedKeyOf;
template <>
struct OrderedKeyOf<double> {
  using type = std::uint64_t;
};
template <>
struct OrderedKeyOf<float> {
  using type = std::uint32_t;
};
template <typename T>
using OrderedKey = typename OrderedKeyOf<T>::type;

namespace detail {
template <typename To, typename From>
SIGLAB_HD To sameBits(From value) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  memcpy(&to, &value, sizeof to);  // device code has memcpy too; std::bit_cast is host-only there
  return to;
}
}  // namespace detail

template <typename T>
SIGLAB_HD OrderedKey<T> toOrderedKey(T value) {
  using K = OrderedKey<T>;
  constexpr K kSign = K{1} << (sizeof(K) * 8 - 1);
  if (value != value) return ~K{0};  // NaN
  const K bits = detail::sameBits<K>(value);
  return (bits & kSign) ? ~bits : (bits | kSign);
}

template <typename T>
SIGLAB_HD T fromOrderedKey(OrderedKey<T> key) {
  using K = OrderedKey<T>;
  constexpr K kSign = K{1} << (sizeof(K) * 8 - 1);
  constexpr K kQuietNaN = sizeof(K) == 8 ? K(0x7ff8000000000000ull) : K(0x7fc00000u);
  if (key == ~K{0}) return detail::sameBits<T>(kQuietNaN);
  return detail::sameBits<T>((key & kSign) ? (key & ~kSign) : ~key);
}

}  // namespace siglab
