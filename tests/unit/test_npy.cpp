// .npy reading and writing: round trips, numpy's exact bytes, and every way a file
// can be malformed (each rejection names the file and says what is wrong).
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <bit>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "base/file_io.hpp"
#include "formats/npy.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using accel::TensorI32;
using accel::TensorI8;

namespace {

using accel::testing_support::TempDir;

void write_raw(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_raw(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A .npy image with an arbitrary header dict (no alignment padding: readers must not
// depend on it). Versions 2 and 3 have a 4-byte header length.
std::string npy_image(const std::string& dict, const std::string& data = "", int major = 1) {
    std::string out("\x93NUMPY", 6);
    out += static_cast<char>(major);
    out += '\0';
    const size_t len = dict.size();
    const int width = major == 1 ? 2 : 4;
    for (int i = 0; i < width; ++i) out += static_cast<char>((len >> (8 * i)) & 0xff);
    return out + dict + data;
}

std::string i8_dict(const std::string& shape) {
    return "{'descr': '|i1', 'fortran_order': False, 'shape': " + shape + ", }\n";
}

template <typename F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const accel::Error& e) {
        return e.what();
    }
    return "<no accel::Error thrown>";
}

testing::AssertionResult contains(const std::string& message, const std::string& phrase) {
    if (message.find(phrase) != std::string::npos) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "message \"" << message << "\" lacks \"" << phrase
                                       << "\"";
}

testing::AssertionResult starts_with(const std::string& message, const std::string& prefix) {
    if (message.rfind(prefix, 0) == 0) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "message \"" << message << "\" does not start with \""
                                       << prefix << "\"";
}

TensorI8 make_i8(std::vector<int64_t> shape) {
    TensorI8 t(std::move(shape));
    for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = static_cast<int8_t>(i * 37 - 128);
    return t;
}

TensorI32 make_i32(std::vector<int64_t> shape) {
    TensorI32 t(std::move(shape));
    for (size_t i = 0; i < t.data.size(); ++i) {
        t.data[i] = static_cast<int32_t>(static_cast<uint32_t>(i) * 2654435761u);
    }
    if (!t.data.empty()) t.data[0] = std::numeric_limits<int32_t>::min();
    if (t.data.size() > 1) t.data[1] = std::numeric_limits<int32_t>::max();
    return t;
}

const std::vector<std::vector<int64_t>> kShapes = {{},        {0},       {5},
                                                   {2, 3, 4}, {2, 0, 3}, {1, 1, 7, 9}};

// ---- round trips --------------------------------------------------------------------

// encode_npy's `bytes` of `t`: the header parses back to its dtype and shape, and the
// data, `element_bytes` per element, follows it at a 64-byte aligned offset.
template <typename Tensor>
void check_encoded_header(const std::string& bytes, const Tensor& t, accel::NpyDtype dtype,
                          size_t element_bytes, accel::NpyHeader& h) {
    h = accel::parse_npy_header(bytes, "mem");
    EXPECT_EQ(h.dtype, dtype);
    EXPECT_EQ(h.shape, t.shape);
    EXPECT_EQ(h.data_offset % 64, 0u);
    ASSERT_EQ(bytes.size(), h.data_offset + element_bytes * t.size());
}

TEST(Npy, EncodeThenParseHeaderInt8) {
    for (const auto& shape : kShapes) {
        const TensorI8 t = make_i8(shape);
        const std::string bytes = accel::encode_npy(t);
        accel::NpyHeader h;
        ASSERT_NO_FATAL_FAILURE(check_encoded_header(bytes, t, accel::NpyDtype::Int8, 1, h));
        for (size_t i = 0; i < t.size(); ++i) {
            EXPECT_EQ(static_cast<int8_t>(bytes[h.data_offset + i]), t.data[i]);
        }
    }
}

TEST(Npy, EncodeThenParseHeaderInt32) {
    for (const auto& shape : kShapes) {
        const TensorI32 t = make_i32(shape);
        accel::NpyHeader h;
        check_encoded_header(accel::encode_npy(t), t, accel::NpyDtype::Int32, 4, h);
    }
}

// Every shape of kShapes, made by `make`, written to a file and read back by `read`.
template <typename Make, typename Read>
void expect_file_round_trip(Make make, Read read) {
    TempDir dir;
    for (const auto& shape : kShapes) {
        const auto t = make(shape);
        const std::string path = dir.file("t.npy");
        accel::write_npy(path, t);
        const auto back = read(path);
        EXPECT_EQ(back.shape, t.shape);
        EXPECT_EQ(back.data, t.data);
    }
}

TEST(Npy, FileRoundTripInt8) { expect_file_round_trip(make_i8, accel::read_npy_i8); }

TEST(Npy, FileRoundTripInt32) { expect_file_round_trip(make_i32, accel::read_npy_i32); }

TEST(Npy, ScalarHasOneElement) {
    TempDir dir;
    TensorI32 t(std::vector<int64_t>{});
    t.data.at(0) = -7;
    accel::write_npy(dir.file("s.npy"), t);
    const TensorI32 back = accel::read_npy_i32(dir.file("s.npy"));
    EXPECT_EQ(back.rank(), 0u);
    EXPECT_EQ(back.data, std::vector<int32_t>{-7});
}

// ---- numpy's exact bytes -----------------------------------------------------------

// np.save("x.npy", np.arange(1, 7, dtype=np.int8).reshape(2, 3)): the 59-character
// dict, 20 spaces numpy reserves to grow axis 0, 38 spaces of padding and '\n' make a
// 118-byte (0x76) header, 128 bytes with the 10-byte prefix.
TEST(Npy, EncodeMatchesNumpyBytesInt8) {
    TensorI8 t(std::vector<int64_t>{2, 3});
    t.data = {1, 2, 3, 4, 5, -1};
    const std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                                 "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 3), }" +
                                 std::string(20 + 38, ' ') + "\n" +
                                 std::string("\x01\x02\x03\x04\x05\xff", 6);
    EXPECT_EQ(accel::encode_npy(t), expected);
}

// np.save("x.npy", np.array([-2, 0x01020304], dtype=np.int32)): 1-D shapes keep the
// trailing comma; data is little-endian.
TEST(Npy, EncodeMatchesNumpyBytesInt32Vector) {
    TensorI32 t(std::vector<int64_t>{2});
    t.data = {-2, 0x01020304};
    const std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }";
    ASSERT_EQ(dict.size(), 57u);  // + 20 growth + 40 padding + '\n' = 118
    const std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict +
                                 std::string(20 + 40, ' ') + "\n" +
                                 std::string("\xfe\xff\xff\xff\x04\x03\x02\x01", 8);
    EXPECT_EQ(accel::encode_npy(t), expected);
}

// np.save("x.npy", np.int32(5)): a scalar has shape () and no growth room.
TEST(Npy, EncodeMatchesNumpyBytesInt32Scalar) {
    TensorI32 t(std::vector<int64_t>{});
    t.data = {5};
    const std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (), }";
    ASSERT_EQ(dict.size(), 55u);  // + 62 padding + '\n' = 118
    const std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict +
                                 std::string(62, ' ') + "\n" + std::string("\x05\0\0\0", 4);
    EXPECT_EQ(accel::encode_npy(t), expected);
}

TEST(Npy, EncodeRejectsTensorWhoseDataDoesNotMatchShape) {
    TensorI8 t(std::vector<int64_t>{2, 3});
    t.data.pop_back();
    EXPECT_THROW(accel::encode_npy(t), std::invalid_argument);
}

// A product of dimensions that wraps int64 would size a tensor wrongly (2^72 wraps to 0).
TEST(TensorShape, ElementCountRefusesOverflowAndNegativeDimensions) {
    EXPECT_EQ(TensorI8::element_count({2, 3, 4}), 24u);
    EXPECT_EQ(TensorI8::element_count({}), 1u);
    EXPECT_EQ(TensorI8::element_count({0, int64_t{1} << 62, 4}), 0u);
    EXPECT_THROW(TensorI8::element_count({1 << 24, 1 << 24, 1 << 24}), accel::Error);
    EXPECT_THROW(TensorI8::element_count({int64_t{1} << 62, 4}), accel::Error);
    EXPECT_THROW(TensorI8::element_count({3, -2}), accel::Error);
    EXPECT_THROW(TensorI8(std::vector<int64_t>{1 << 24, 1 << 24, 1 << 24}), accel::Error);
}

// Messages print shapes as Python does.
TEST(TensorShape, ReprIsPythons) {
    EXPECT_EQ(accel::shape_repr({108}), "(108,)");
    EXPECT_EQ(accel::shape_repr({1, 5, 5, 3}), "(1, 5, 5, 3)");
    EXPECT_EQ(accel::shape_repr({}), "()");
}

// ---- other valid headers -------------------------------------------------------------

TEST(Npy, ReadsVersion2And3Headers) {
    TempDir dir;
    const std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }\n";
    const std::string data("\x01\0\0\0\xff\xff\xff\xff", 8);
    for (const int major : {2, 3}) {
        const std::string path = dir.file("v.npy");
        write_raw(path, npy_image(dict, data, major));
        const TensorI32 t = accel::read_npy_i32(path);
        EXPECT_EQ(t.shape, std::vector<int64_t>{2});
        EXPECT_EQ(t.data, (std::vector<int32_t>{1, -1}));
    }
}

TEST(Npy, ReadsHandWrittenHeaderVariants) {
    TempDir dir;
    const std::string path = dir.file("h.npy");
    // Other key order, double quotes, no trailing comma, odd spacing, '<i1' and 'i1'.
    for (const std::string dict :
         {"{\"shape\": (2,3), \"fortran_order\": False, \"descr\": \"<i1\"}",
          "{ 'descr' : 'i1' ,\n 'fortran_order' : False , 'shape' : ( 2 , 3 , ) }  \n"}) {
        write_raw(path, npy_image(dict, "abcdef"));
        const TensorI8 t = accel::read_npy_i8(path);
        EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 3}));
        EXPECT_EQ(t.data[5], 'f');
    }
}

// ---- rejections ------------------------------------------------------------------------

class NpyReject : public testing::Test {
protected:
    // Writes `bytes` to a file, reads it back with `read` and checks the error names the
    // file first.
    template <typename Read>
    std::string read_error(const std::string& bytes, Read read) {
        write_raw(path_, bytes);
        const std::string msg = error_of([&] { read(path_); });
        EXPECT_TRUE(starts_with(msg, path_ + ": "));
        return msg;
    }
    std::string read_i8_error(const std::string& bytes) {
        return read_error(bytes, accel::read_npy_i8);
    }
    std::string read_i32_error(const std::string& bytes) {
        return read_error(bytes, accel::read_npy_i32);
    }
    // Whether an int8 file whose header claims `shape` (a Python tuple) and that holds
    // `data` is refused with `phrase`.
    testing::AssertionResult i8_refused(const std::string& shape, const std::string& data,
                                        const std::string& phrase) {
        return contains(read_i8_error(npy_image(i8_dict(shape), data)), phrase);
    }

    TempDir dir_;
    std::string path_ = dir_.file("bad.npy");
};

TEST_F(NpyReject, BadMagic) {
    EXPECT_TRUE(contains(read_i8_error("PK\x03\x04 not numpy at all"), "not a .npy file"));
    EXPECT_TRUE(contains(read_i8_error(""), "not a .npy file"));
    EXPECT_TRUE(contains(read_i8_error(std::string("\x93NUMP", 5)), "not a .npy file"));
}

TEST_F(NpyReject, UnsupportedVersion) {
    EXPECT_TRUE(contains(read_i8_error(npy_image(i8_dict("(1,)"), "x", 4)),
                         "unsupported .npy format version 4.0"));
    std::string minor = npy_image(i8_dict("(1,)"), "x");
    minor[7] = 1;
    EXPECT_TRUE(contains(read_i8_error(minor), "unsupported .npy format version 1.1"));
}

TEST_F(NpyReject, TruncatedHeader) {
    const std::string full = npy_image(i8_dict("(1,)"), "x");
    EXPECT_TRUE(contains(read_i8_error(full.substr(0, 7)), "truncated header"));
    EXPECT_TRUE(contains(read_i8_error(full.substr(0, 9)), "truncated header"));
    EXPECT_TRUE(contains(read_i8_error(full.substr(0, 30)), "truncated header"));
}

TEST_F(NpyReject, HeaderThatDoesNotParse) {
    for (const std::string dict : {
             "not a dict",
             "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 3)",     // no '}'
             "{'descr': '|i1', 'fortran_order': False, 'shape': (3)}",       // int, not tuple
             "{'descr': '|i1', 'fortran_order': False, 'shape': [3]}",       // list
             "{'descr': '|i1', 'fortran_order': false, 'shape': (3,)}",      // not Python
             "{'descr': '|i1', 'fortran_order': False, 'shape': (3,)} junk",  // trailing text
             "{'descr': '|i1, 'fortran_order': False, 'shape': (3,)}",       // quoting
             "{'descr': '|i1', 'fortran_order': False, 'shape': (3.0,)}",    // float dim
             "{'descr': '|i1' 'fortran_order': False, 'shape': (3,)}",       // no comma
             "{'descr': '|i1', 'fortran_order': False, 'shape': (99999999999999999999,)}",
         }) {
        EXPECT_TRUE(contains(read_i8_error(npy_image(dict, "xxx")), "header dict does not parse"))
            << dict;
    }
}

TEST_F(NpyReject, MissingUnknownAndDuplicateKeys) {
    EXPECT_TRUE(contains(read_i8_error(npy_image("{'descr': '|i1', 'fortran_order': False}")),
                         "missing key 'shape'"));
    EXPECT_TRUE(contains(
        read_i8_error(npy_image(
            "{'descr': '|i1', 'fortran_order': False, 'shape': (1,), 'extra': 1}", "x")),
        "unknown key 'extra'"));
    EXPECT_TRUE(contains(
        read_i8_error(npy_image(
            "{'descr': '|i1', 'fortran_order': False, 'shape': (1,), 'shape': (1,)}", "x")),
        "duplicate key 'shape'"));
}

TEST_F(NpyReject, FortranOrder) {
    const std::string dict = "{'descr': '|i1', 'fortran_order': True, 'shape': (2, 3), }";
    EXPECT_TRUE(
        contains(read_i8_error(npy_image(dict, "abcdef")), "Fortran order is not supported"));
}

TEST(NpyFiles, Float32RoundTripsBitForBit) {
    TempDir dir;
    accel::Tensor<float> t({2, 3});
    t.data = {0.0f, -0.0f, 1.5f, -3.25e-7f, 3.4e38f, std::numeric_limits<float>::infinity()};
    accel::write_file_atomic(dir.file("f.npy"), accel::encode_npy(t));
    const accel::Tensor<float> back = accel::read_npy_f32(dir.file("f.npy"));
    EXPECT_EQ(back.shape, t.shape);
    for (size_t i = 0; i < t.data.size(); ++i) {
        EXPECT_EQ(std::bit_cast<uint32_t>(back.data[i]), std::bit_cast<uint32_t>(t.data[i]));
    }
    EXPECT_THROW(accel::read_npy_i8(dir.file("f.npy")), accel::Error);  // wrong dtype
}

TEST_F(NpyReject, UnsupportedDtypes) {
    for (const std::string descr : {">f4", "<f8", ">i4", "<i8", "|u1", "<i2", "|b1", "i4"}) {
        const std::string dict =
            "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (1,), }";
        const std::string msg = read_i8_error(npy_image(dict, std::string(8, 'x')));
        EXPECT_TRUE(contains(msg, "dtype '" + descr + "' is not supported"));
        EXPECT_TRUE(contains(msg, "expected int8 '|i1'"));
    }
}

TEST_F(NpyReject, WrongDtypeForReader) {
    TensorI32 i32(std::vector<int64_t>{2});
    const std::string msg = read_i8_error(accel::encode_npy(i32));
    EXPECT_TRUE(contains(msg, "expected int8"));
    EXPECT_TRUE(contains(msg, "got int32"));

    TensorI8 i8(std::vector<int64_t>{2});
    const std::string msg2 = read_i32_error(accel::encode_npy(i8));
    EXPECT_TRUE(contains(msg2, "expected int32"));
    EXPECT_TRUE(contains(msg2, "got int8"));
}

TEST_F(NpyReject, NegativeDimension) {
    EXPECT_TRUE(i8_refused("(2, -3)", "abcdef", "negative dimension -3"));
}

// A header may claim any shape: it must be refused before anything is sized from it.
// Allocating 2^39 bytes here would fail (or swap); the test passing shows it is not.
TEST_F(NpyReject, AbsurdShapesWithTinyData) {
    EXPECT_TRUE(i8_refused("(1099511627776, 1099511627776)", "x", "is too large"));
    EXPECT_TRUE(i8_refused("(1099511627777,)", "x", "is too large"));
    EXPECT_TRUE(i8_refused("(4294967296, 4294967296, 4294967296, 0)", "", "is too large"));
    EXPECT_TRUE(i8_refused("(549755813888,)", "x",
                           "truncated: header promises 549755813888 bytes of data, file has 1"));
}

TEST_F(NpyReject, DataShorterThanShape) {
    EXPECT_TRUE(i8_refused("(2, 3)", "abcde",
                           "truncated: header promises 6 bytes of data, file has 5"));
    const std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }";
    EXPECT_TRUE(contains(read_i32_error(npy_image(dict, "1234567")),
                         "truncated: header promises 8 bytes of data, file has 7"));
}

TEST_F(NpyReject, DataLongerThanShape) {
    EXPECT_TRUE(i8_refused("(2, 3)", "abcdefg", "header promises 6 bytes of data, file has 7"));
    EXPECT_TRUE(i8_refused("()", "ab", "header promises 1 bytes of data, file has 2"));
}

TEST_F(NpyReject, ParseHeaderUsesGivenName) {
    const std::string msg = error_of([] { accel::parse_npy_header("garbage", "weights.npy"); });
    EXPECT_TRUE(starts_with(msg, "weights.npy: "));
    EXPECT_TRUE(contains(msg, "not a .npy file"));
}

TEST(NpyFiles, MissingFileOrDirectory) {
    TempDir dir;
    const std::string missing = dir.file("nope.npy");
    const std::string msg = error_of([&] { accel::read_npy_i8(missing); });
    EXPECT_TRUE(starts_with(msg, missing + ": cannot open: "));
    EXPECT_TRUE(contains(msg, "No such file or directory"));

    fs::create_directory(dir.file("d.npy"));
    EXPECT_TRUE(starts_with(error_of([&] { accel::read_npy_i32(dir.file("d.npy")); }),
                            dir.file("d.npy") + ": cannot open: "));
}

// ---- atomic writes -------------------------------------------------------------------

TEST(NpyFiles, WriteIntoMissingDirectoryThrowsAndLeavesNothing) {
    TempDir dir;
    const std::string path = dir.file("no/such/dir/out.npy");
    const std::string msg = error_of([&] { accel::write_npy(path, make_i8({3})); });
    EXPECT_TRUE(starts_with(msg, path + ": cannot write: "));
    EXPECT_FALSE(fs::exists(path));
    EXPECT_TRUE(dir.entries().empty());
}

TEST(NpyFiles, WriteReplacesExistingFileWithUsualPermissions) {
    TempDir dir;
    const std::string path = dir.file("out.npy");
    write_raw(path, "old contents");
    accel::write_npy(path, make_i8({4}));
    EXPECT_EQ(read_raw(path), accel::encode_npy(make_i8({4})));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.npy"});

    const mode_t mask = ::umask(0);
    ::umask(mask);
    EXPECT_EQ(fs::status(path).permissions(), static_cast<fs::perms>(0666 & ~mask));
}

// Makes writes past `bytes` fail with EFBIG for the guard's lifetime; unlike a
// read-only directory, this also works when the tests run as root.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        ::getrlimit(RLIMIT_FSIZE, &old_);
        old_handler_ = ::signal(SIGXFSZ, SIG_IGN);  // fail with EFBIG, not a signal
        rlimit lim = old_;
        lim.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &lim);
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &old_);
        ::signal(SIGXFSZ, old_handler_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit old_{};
    sighandler_t old_handler_{};
};

TEST(NpyFiles, FailedWriteLeavesExistingDestinationUntouched) {
    TempDir dir;
    const std::string path = dir.file("out.npy");
    const std::string original = accel::encode_npy(make_i8({3}));
    write_raw(path, original);

    std::string msg;
    {
        FileSizeLimit limit(4096);
        msg = error_of([&] { accel::write_npy(path, make_i32({100000})); });
    }
    EXPECT_TRUE(starts_with(msg, path + ": cannot write: "));
    EXPECT_TRUE(contains(msg, "File too large"));
    EXPECT_EQ(read_raw(path), original);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.npy"});  // no temp file left
}

TEST(AtomicFile, SameFile) {
    TempDir dir;
    write_raw(dir.file("a"), "a");
    write_raw(dir.file("b"), "b");
    fs::create_symlink(dir.file("a"), dir.file("link"));
    EXPECT_TRUE(accel::same_file(dir.file("a"), dir.file("a")));
    EXPECT_TRUE(accel::same_file(dir.file("a"), dir.file("./a")));
    EXPECT_TRUE(accel::same_file(dir.file("link"), dir.file("a")));
    EXPECT_FALSE(accel::same_file(dir.file("a"), dir.file("b")));
    EXPECT_FALSE(accel::same_file(dir.file("a"), dir.file("missing")));
    EXPECT_FALSE(accel::same_file(dir.file("missing"), dir.file("missing")));
}

}  // namespace
