// NumPy .npy tensors: int8 (|i1), int32 (<i4) and float32 (<f4), C order, format
// versions 1.0 and 2.0.
// Anything else -- other dtypes, Fortran order, truncated data, a header that does not
// parse or promises more data than the file holds -- is an accel::Error naming the file.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/tensor.hpp"

namespace accel {

enum class NpyDtype { Int8, Int32, Float32 };

struct NpyHeader {
    NpyDtype dtype;
    std::vector<int64_t> shape;
    size_t data_offset;  // bytes from the start of the file to the first element
};

// Parses and validates the magic, version and header dict of a whole .npy image.
// `name` is used in error messages (normally the file path).
NpyHeader parse_npy_header(std::string_view bytes, const std::string& name);

TensorI8 read_npy_i8(const std::string& path);
TensorI32 read_npy_i32(const std::string& path);
Tensor<float> read_npy_f32(const std::string& path);

// Serialises to a version 1.0 .npy image (in memory).
std::string encode_npy(const TensorI8& t);
std::string encode_npy(const TensorI32& t);
std::string encode_npy(const Tensor<float>& t);

// Atomic writes (see atomic_file.hpp).
void write_npy(const std::string& path, const TensorI8& t);
void write_npy(const std::string& path, const TensorI32& t);

}  // namespace accel
