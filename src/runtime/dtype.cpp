#include <gpulab/dtype.hpp>
#include <gpulab/error.hpp>

#include <string>

namespace gpulab {

const char* to_string(Dtype dtype) {
  switch (dtype) {
    case Dtype::float32:
      return "float32";
    case Dtype::float64:
      return "float64";
    case Dtype::int32:
      return "int32";
  }
  return "unknown";
}

Dtype parse_dtype(std::string_view name) {
  if (name == "float32" || name == "f32" || name == "float") return Dtype::float32;
  if (name == "float64" || name == "f64" || name == "double") return Dtype::float64;
  if (name == "int32" || name == "i32" || name == "int") return Dtype::int32;
  throw InvalidArgument("unknown dtype '" + std::string(name) + "': expected float32, float64 or int32");
}

std::size_t dtype_size(Dtype dtype) { return dtype == Dtype::float64 ? 8 : 4; }

}  // namespace gpulab
