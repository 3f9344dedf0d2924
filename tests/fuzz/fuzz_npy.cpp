// The .npy reader on arbitrary bytes. A header parses or is an accel::Error; a tensor
// whose header parses also reads back through the file path, and encodes again to the
// same dtype, shape and data bytes (the reader and the writer agree).
#include <cstdint>
#include <string>
#include <string_view>

#include <unistd.h>

#include "base/file_io.hpp"
#include "formats/npy.hpp"
#include "fuzz_check.hpp"

namespace {

// One scratch file per fuzzing process (libFuzzer may run several jobs side by side),
// removed when the process ends.
struct ScratchFile {
    std::string path = "/tmp/accel-fuzz-npy-" + std::to_string(getpid()) + ".npy";
    ~ScratchFile() { unlink(path.c_str()); }
};

const std::string& scratch_path() {
    static const ScratchFile file;
    return file.path;
}

template <typename T>
void check_round_trip(std::string_view bytes, const accel::NpyHeader& h,
                      accel::Tensor<T> (*read)(const std::string&)) {
    accel::write_file_atomic(scratch_path(), bytes);
    const accel::Tensor<T> t = read(scratch_path());
    FUZZ_REQUIRE(t.shape == h.shape);
    const std::string again = accel::encode_npy(t);
    const accel::NpyHeader h2 = accel::parse_npy_header(again, "re-encoded");
    FUZZ_REQUIRE(h2.dtype == h.dtype && h2.shape == h.shape);
    FUZZ_REQUIRE(again.substr(h2.data_offset) == bytes.substr(h.data_offset));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const auto h = parse_or_refuse([&] { return accel::parse_npy_header(bytes, "fuzz.npy"); });
    if (!h) return 0;
    FUZZ_REQUIRE(h->data_offset <= size);
    switch (h->dtype) {
        case accel::NpyDtype::Int8: check_round_trip(bytes, *h, accel::read_npy_i8); break;
        case accel::NpyDtype::Int32: check_round_trip(bytes, *h, accel::read_npy_i32); break;
        case accel::NpyDtype::Float32: check_round_trip(bytes, *h, accel::read_npy_f32); break;
    }
    return 0;
}
