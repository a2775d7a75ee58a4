#pragma once
// Element types that operations and the bench take by name: float32, float64, int32 (the guide's types).
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace gpulab {

enum class Dtype : std::uint8_t { float32, float64, int32 };

template <class T>
constexpr Dtype dtype_of() {
  if constexpr (std::is_same_v<T, float>) {
    return Dtype::float32;
  } else if constexpr (std::is_same_v<T, double>) {
    return Dtype::float64;
  } else {
    static_assert(std::is_same_v<T, std::int32_t>, "gpulab dtypes are float, double and int32_t");
    return Dtype::int32;
  }
}

const char* to_string(Dtype dtype);
// "float32" (or "f32", "float"), "float64" ("f64", "double"), "int32" ("i32", "int"); throws InvalidArgument.
Dtype parse_dtype(std::string_view name);
std::size_t dtype_size(Dtype dtype);

}  // namespace gpulab
