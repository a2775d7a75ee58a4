#pragma once
// The simulator's CUB (../config.cuh): the radix sorts' view of a key, as CUB's: the unsigned integer of
// the key's size whose order is the key's order (a signed integer's sign bit flipped; a float's sign bit
// flipped when clear and every bit flipped when set, so -0.0 sorts before +0.0 and NaNs at the ends), of
// which the bits [begin_bit, end_bit) are sorted on.
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cub::detail {

template <std::size_t Bytes>
struct unsigned_of_size;
template <>
struct unsigned_of_size<1> {
  using type = std::uint8_t;
};
template <>
struct unsigned_of_size<2> {
  using type = std::uint16_t;
};
template <>
struct unsigned_of_size<4> {
  using type = std::uint32_t;
};
template <>
struct unsigned_of_size<8> {
  using type = std::uint64_t;
};

template <typename Key>
struct radix_key {
  static_assert(std::is_arithmetic_v<Key>, "CUB's radix sorts take integer and floating-point keys");
  using bits_t = typename unsigned_of_size<sizeof(Key)>::type;
  static constexpr int kBits = static_cast<int>(8 * sizeof(Key));
  static constexpr bits_t kTop = static_cast<bits_t>(bits_t{1} << (kBits - 1));

  static bits_t ordered(Key key) {
    bits_t b;
    std::memcpy(&b, &key, sizeof b);
    if constexpr (std::is_floating_point_v<Key>) {
      return (b & kTop) ? static_cast<bits_t>(~b) : static_cast<bits_t>(b ^ kTop);
    } else if constexpr (std::is_signed_v<Key> && !std::is_same_v<Key, bool>) {
      return static_cast<bits_t>(b ^ kTop);
    } else {
      return b;
    }
  }
  // The bits [begin_bit, end_bit) of the ordered form, as the number sorted on.
  static bits_t digit_bits(Key key, int begin_bit, int end_bit) {
    const bits_t b = ordered(key);
    const int width = end_bit - begin_bit;
    if (width <= 0) return 0;
    const bits_t shifted = static_cast<bits_t>(b >> begin_bit);
    return width >= kBits ? shifted : static_cast<bits_t>(shifted & static_cast<bits_t>((bits_t{1} << width) - 1));
  }
};

}  // namespace cub::detail
