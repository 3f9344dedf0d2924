// NumPy .npy reader and writer (format versions 1.0, 2.0 and 3.0), int8 and int32 only.
//
// The file is untrusted input: every size the header claims is checked against the
// bytes actually present before anything is allocated from it.
#include "formats/npy.hpp"

#include <algorithm>
#include <bit>
#include <type_traits>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <type_traits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "base/text.hpp"

namespace accel {
namespace {

constexpr std::string_view kMagic{"\x93NUMPY", 6};
constexpr int64_t kMaxElements = int64_t{1} << 40;  // far beyond any conv2d layer
constexpr size_t kAlign = 64;                         // numpy's ARRAY_ALIGN
constexpr size_t kGrowthAxisMaxDigits = 21;           // numpy's spare room for axis 0

[[noreturn]] void fail(const std::string& name, const std::string& what) {
    throw Error(fmt::format("{}: {}", name, what));
}

uint32_t load_le(std::string_view bytes, size_t at, size_t width) {
    uint32_t v = 0;
    for (size_t i = 0; i < width; ++i) {
        v |= uint32_t{static_cast<unsigned char>(bytes[at + i])} << (8 * i);
    }
    return v;
}

// ---- header dict -------------------------------------------------------------------

struct RawHeader {
    std::string descr;
    bool fortran_order = false;
    std::vector<int64_t> shape;
};

// A strict parser for the one Python dict literal numpy writes:
// {'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }
class DictParser {
public:
    DictParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}
    RawHeader parse();

private:
    void parse_entry(RawHeader& out, std::vector<std::string>& seen);
    std::string parse_string();
    bool parse_bool();
    std::vector<int64_t> parse_shape();
    int64_t parse_dim();
    void skip_ws();
    bool consume(char c);
    void expect(char c);
    [[noreturn]] void syntax_error(const std::string& what) const;

    std::string_view text_;
    const std::string& name_;
    size_t pos_ = 0;
};

void DictParser::syntax_error(const std::string& what) const {
    fail(name_, fmt::format("header dict does not parse: {} at offset {} in \"{}\"", what,
                            pos_, printable(text_)));
}

void DictParser::skip_ws() {
    // Python allows any of these inside a bracketed literal; numpy pads with ' ' and '\n'.
    constexpr std::string_view kSpace = " \t\r\n";
    while (pos_ < text_.size() && kSpace.find(text_[pos_]) != std::string_view::npos) ++pos_;
}

bool DictParser::consume(char c) {
    skip_ws();
    if (pos_ < text_.size() && text_[pos_] == c) {
        ++pos_;
        return true;
    }
    return false;
}

void DictParser::expect(char c) {
    if (!consume(c)) syntax_error(fmt::format("expected '{}'", c));
}

RawHeader DictParser::parse() {
    RawHeader out;
    std::vector<std::string> seen;
    expect('{');
    while (!consume('}')) {
        parse_entry(out, seen);
        if (!consume(',')) {
            expect('}');
            break;
        }
    }
    skip_ws();
    if (pos_ != text_.size()) syntax_error("unexpected text after '}'");
    for (const char* key : {"descr", "fortran_order", "shape"}) {
        if (std::find(seen.begin(), seen.end(), key) == seen.end()) {
            fail(name_, fmt::format("header is missing key '{}'", key));
        }
    }
    return out;
}

void DictParser::parse_entry(RawHeader& out, std::vector<std::string>& seen) {
    const std::string key = parse_string();
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
        fail(name_, fmt::format("header has duplicate key '{}'", printable(key)));
    }
    seen.push_back(key);
    expect(':');
    if (key == "descr") {
        out.descr = parse_string();
    } else if (key == "fortran_order") {
        out.fortran_order = parse_bool();
    } else if (key == "shape") {
        out.shape = parse_shape();
    } else {
        fail(name_, fmt::format("header has unknown key '{}'", printable(key)));
    }
}

// A quoted string without escapes: numpy never writes any in these keys.
std::string DictParser::parse_string() {
    skip_ws();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
        syntax_error("expected a quoted string");
    }
    const char quote = text_[pos_++];
    const size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) syntax_error("unterminated string");
    const std::string_view s = text_.substr(pos_, end - pos_);
    if (s.find_first_of("\\\n") != std::string_view::npos) {
        syntax_error("unsupported character in string");
    }
    pos_ = end + 1;
    return std::string(s);
}

bool DictParser::parse_bool() {
    skip_ws();
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
        const std::string_view w{word};
        if (text_.substr(pos_, w.size()) == w) {
            pos_ += w.size();
            return value;
        }
    }
    syntax_error("expected True or False for 'fortran_order'");
}

// A tuple of ints: (), (3,), (2, 3). "(3)" is an int in Python, not a tuple.
std::vector<int64_t> DictParser::parse_shape() {
    std::vector<int64_t> shape;
    expect('(');
    bool trailing_comma = false;
    while (!consume(')')) {
        shape.push_back(parse_dim());
        trailing_comma = consume(',');
        if (!trailing_comma) {
            expect(')');
            break;
        }
    }
    if (shape.size() == 1 && !trailing_comma) {
        syntax_error("'shape' must be a tuple; a 1-D shape is written (n,)");
    }
    return shape;
}

int64_t DictParser::parse_dim() {
    skip_ws();
    const bool negative = consume('-');
    const size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
        const int digit = text_[pos_++] - '0';
        if (value > (INT64_MAX - digit) / 10) {
            syntax_error("dimension does not fit in 64 bits");
        }
        value = value * 10 + digit;
    }
    if (pos_ == start) syntax_error("expected a non-negative integer dimension");
    if (negative) fail(name_, fmt::format("negative dimension -{} in 'shape'", value));
    return value;
}

// ---- whole-image validation ---------------------------------------------------------

struct Prefix {
    std::string_view dict;
    size_t data_offset;
};

// Magic, version and header length: everything before the dict.
Prefix parse_prefix(std::string_view bytes, const std::string& name) {
    if (bytes.substr(0, kMagic.size()) != kMagic) fail(name, "not a .npy file (bad magic)");
    if (bytes.size() < 8) fail(name, "truncated header: no format version");
    const int major = static_cast<unsigned char>(bytes[6]);
    const int minor = static_cast<unsigned char>(bytes[7]);
    if (major < 1 || major > 3 || minor != 0) {
        fail(name, fmt::format("unsupported .npy format version {}.{} (expected 1.0, 2.0 or 3.0)",
                               major, minor));
    }
    const size_t len_width = major == 1 ? 2 : 4;
    const size_t prefix = 8 + len_width;
    if (bytes.size() < prefix) fail(name, "truncated header: no header length");
    const size_t header_len = load_le(bytes, 8, len_width);
    if (bytes.size() - prefix < header_len) {
        fail(name, fmt::format("truncated header: header length is {} bytes, file has {}",
                               header_len, bytes.size() - prefix));
    }
    return {bytes.substr(prefix, header_len), prefix + header_len};
}

std::string dtype_descr(NpyDtype d) {
    return d == NpyDtype::Int8 ? "|i1" : d == NpyDtype::Int32 ? "<i4" : "<f4";
}
std::string dtype_name(NpyDtype d) {
    return d == NpyDtype::Int8 ? "int8" : d == NpyDtype::Int32 ? "int32" : "float32";
}
size_t dtype_size(NpyDtype d) { return d == NpyDtype::Int8 ? 1 : 4; }

NpyDtype parse_descr(const std::string& descr, const std::string& name) {
    // Byte order is meaningless for one byte; numpy itself writes '|i1'.
    if (descr == "|i1" || descr == "<i1" || descr == ">i1" || descr == "=i1" || descr == "i1") {
        return NpyDtype::Int8;
    }
    if (descr == "<i4") return NpyDtype::Int32;
    if (descr == "<f4") return NpyDtype::Float32;
    fail(name, fmt::format("dtype '{}' is not supported; expected int8 '|i1', int32 '<i4' or "
                           "float32 '<f4'",
                           printable(descr)));
}

// Element count, refusing shapes no real tensor has. Zero dims are skipped in the
// product, so an empty (0, 2^50, 2^50) is refused too: Tensor::element_count would
// overflow on it.
int64_t checked_element_count(const std::vector<int64_t>& shape, const std::string& name) {
    int64_t nonzero = 1;
    for (const int64_t d : shape) {
        if (d == 0) continue;
        if (nonzero > kMaxElements / d) {
            fail(name, fmt::format("shape {} is too large: more than 2^40 elements",
                                   shape_repr(shape)));
        }
        nonzero *= d;
    }
    const bool empty = std::find(shape.begin(), shape.end(), 0) != shape.end();
    return empty ? 0 : nonzero;
}

}  // namespace

NpyHeader parse_npy_header(std::string_view bytes, const std::string& name) {
    const Prefix prefix = parse_prefix(bytes, name);
    RawHeader raw = DictParser(prefix.dict, name).parse();
    if (raw.fortran_order) fail(name, "Fortran order is not supported; save with C order");
    const NpyDtype dtype = parse_descr(raw.descr, name);
    const int64_t count = checked_element_count(raw.shape, name);

    // count <= 2^40, so the byte count cannot overflow.
    const uint64_t promised = static_cast<uint64_t>(count) * dtype_size(dtype);
    const uint64_t present = bytes.size() - prefix.data_offset;
    if (present < promised) {
        fail(name, fmt::format("truncated: header promises {} bytes of data, file has {}",
                               promised, present));
    }
    if (present > promised) {
        fail(name, fmt::format("trailing data: header promises {} bytes of data, file has {}",
                               promised, present));
    }
    return {dtype, std::move(raw.shape), prefix.data_offset};
}

namespace {

template <typename T>
Tensor<T> read_npy(const std::string& path, NpyDtype want) {
    const std::string bytes = read_file(path);
    NpyHeader h = parse_npy_header(bytes, path);
    if (h.dtype != want) {
        fail(path, fmt::format("expected {} ('{}') data, got {} ('{}')", dtype_name(want),
                               dtype_descr(want), dtype_name(h.dtype), dtype_descr(h.dtype)));
    }
    Tensor<T> t(std::move(h.shape));
    // Assembled byte by byte, so the result does not depend on the host's byte order.
    for (size_t i = 0; i < t.data.size(); ++i) {
        const uint32_t u = load_le(bytes, h.data_offset + i * sizeof(T), sizeof(T));
        if constexpr (std::is_floating_point_v<T>) {
            t.data[i] = std::bit_cast<float>(u);
        } else {
            t.data[i] = static_cast<T>(u);  // modular since C++20: two's complement
        }
    }
    return t;
}

// The header exactly as current numpy writes it: sorted keys, repr() values, spare
// room to grow axis 0 in place, then spaces and '\n' up to a multiple of 64 bytes.
std::string encode_header(NpyDtype dtype, const std::vector<int64_t>& shape) {
    std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                   dtype_descr(dtype), shape_repr(shape));
    if (!shape.empty()) {
        const size_t digits = std::to_string(shape[0]).size();
        dict.append(kGrowthAxisMaxDigits - std::min(digits, kGrowthAxisMaxDigits), ' ');
    }
    // Version 1.0 unless the header outgrows its 16-bit length (then 2.0, as numpy).
    const size_t hlen = dict.size() + 1;
    const auto pad_for = [&](size_t prefix) { return kAlign - (prefix + hlen) % kAlign; };
    const bool v1 = hlen + pad_for(10) <= 0xffff;
    const size_t prefix = v1 ? 10 : 12;
    const size_t pad = pad_for(prefix);  // 1..64, never 0, like numpy
    const size_t field = hlen + pad;

    std::string out(kMagic);
    out += static_cast<char>(v1 ? 1 : 2);
    out += '\0';
    for (size_t i = 0; i < prefix - 8; ++i) out += static_cast<char>((field >> (8 * i)) & 0xff);
    out += dict;
    out.append(pad, ' ');
    out += '\n';
    return out;
}

template <typename T>
std::string encode(const Tensor<T>& t, NpyDtype dtype) {
    const bool bad_dim =
        std::any_of(t.shape.begin(), t.shape.end(), [](int64_t d) { return d < 0; });
    if (bad_dim || t.data.size() != Tensor<T>::element_count(t.shape)) {
        throw std::invalid_argument("encode_npy: tensor data does not match its shape");
    }
    std::string out = encode_header(dtype, t.shape);
    out.reserve(out.size() + t.data.size() * sizeof(T));
    for (const T v : t.data) {
        uint32_t u = 0;
        if constexpr (std::is_floating_point_v<T>) {
            u = std::bit_cast<uint32_t>(v);
        } else {
            u = static_cast<uint32_t>(static_cast<std::make_unsigned_t<T>>(v));
        }
        for (size_t b = 0; b < sizeof(T); ++b) out += static_cast<char>((u >> (8 * b)) & 0xff);
    }
    return out;
}

}  // namespace

TensorI8 read_npy_i8(const std::string& path) { return read_npy<int8_t>(path, NpyDtype::Int8); }
TensorI32 read_npy_i32(const std::string& path) {
    return read_npy<int32_t>(path, NpyDtype::Int32);
}

Tensor<float> read_npy_f32(const std::string& path) {
    return read_npy<float>(path, NpyDtype::Float32);
}

std::string encode_npy(const TensorI8& t) { return encode(t, NpyDtype::Int8); }
std::string encode_npy(const TensorI32& t) { return encode(t, NpyDtype::Int32); }
std::string encode_npy(const Tensor<float>& t) { return encode(t, NpyDtype::Float32); }

void write_npy(const std::string& path, const TensorI8& t) {
    write_file_atomic(path, encode_npy(t));
}
void write_npy(const std::string& path, const TensorI32& t) {
    write_file_atomic(path, encode_npy(t));
}

}  // namespace accel
