// accel conv2d --trace T.fst: the verilator backend writes an FST waveform that GTKWave
// opens, all of it or the cycles of --trace-window; and --timeline T.json, the run as a
// Chrome trace. Nothing in our dependencies reads FST, so this test carries a small
// reader of the parts a viewer needs first (gtkwave's fstapi.c, as shipped with
// Verilator 5.006 in include/gtkwave/): the block structure (a type byte and a
// big-endian 8-byte length that counts itself), the header block, and the hierarchy
// block (scopes and variables; gzip for FST_BL_HIER, LZ4 for FST_BL_HIER_LZ4 --
// Verilator's choice -- and twice LZ4 for FST_BL_HIER_LZ4DUO).
#include <gtest/gtest.h>

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/tensor.hpp"
#include "formats/npy.hpp"
#include "cli_runner.hpp"
#include "shipped_hw.hpp"
#include "timeline_check.hpp"

namespace fs = std::filesystem;
using accel::e2e::RunResult;
using accel::e2e::run_accel;
using accel::e2e::TempDir;

namespace {

// ---- a minimal FST reader ------------------------------------------------------------

enum : uint8_t {
    kBlockHeader = 0,       // FST_BL_HDR
    kBlockValueChange = 1,  // FST_BL_VCDATA
    kBlockBlackout = 2,
    kBlockGeometry = 3,
    kBlockHierGzip = 4,     // FST_BL_HIER
    kBlockVcAlias = 5,
    kBlockHierLz4 = 6,      // FST_BL_HIER_LZ4
    kBlockHierLz4Duo = 7,   // FST_BL_HIER_LZ4DUO
    kBlockVcAlias2 = 8,
};
enum : uint8_t { kAttrBegin = 252, kAttrEnd = 253, kScope = 254, kUpscope = 255 };
constexpr uint8_t kMaxVarType = 29;  // FST_VT_MAX

struct Block {
    uint8_t type = 0;
    size_t offset = 0;  // of the type byte
    uint64_t length = 0;  // the length field: itself (8 bytes) and the payload
};

struct Header {
    uint64_t start_time = 0, end_time = 0;
    double endian_test = 0;
    uint64_t num_scopes = 0, num_vars = 0, max_handle = 0, sections = 0;
    int8_t timescale = 0;
    std::string version, date;
};

struct Var {
    std::string path;  // scopes and name joined by '.', without the " [msb:lsb]" suffix
    uint8_t type = 0, direction = 0;
    uint64_t bits = 0;
    uint64_t alias = 0;  // 0: a signal of its own
};

struct Hierarchy {
    size_t scopes = 0;
    std::vector<Var> vars;
    std::map<std::string, const Var*> by_path() const {
        std::map<std::string, const Var*> m;
        for (const Var& v : vars) m.emplace(v.path, &v);
        return m;
    }
};

class Reader {
public:
    Reader(const std::string& bytes, size_t pos, size_t end) : b_(bytes), pos_(pos), end_(end) {}
    uint8_t u8() {
        need(1);
        return static_cast<uint8_t>(b_[pos_++]);
    }
    uint64_t be64() {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v = v << 8 | u8();
        return v;
    }
    uint64_t varint() {  // LEB128, as fstWriterVarint writes it
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            const uint8_t byte = u8();
            v |= uint64_t{byte & 0x7Fu} << shift;
            if ((byte & 0x80) == 0) return v;
        }
        throw std::runtime_error("varint longer than 64 bits");
    }
    std::string cstring() {
        const size_t nul = b_.find('\0', pos_);
        if (nul == std::string::npos || nul >= end_) throw std::runtime_error("unterminated string");
        std::string s = b_.substr(pos_, nul - pos_);
        pos_ = nul + 1;
        return s;
    }
    std::string fixed(size_t n) {
        need(n);
        std::string s = b_.substr(pos_, n);
        pos_ += n;
        return s.substr(0, s.find('\0'));
    }
    size_t pos() const { return pos_; }
    bool done() const { return pos_ >= end_; }

private:
    void need(size_t n) const {
        if (pos_ + n > end_) throw std::runtime_error("truncated at byte " + std::to_string(pos_));
    }
    const std::string& b_;
    size_t pos_, end_;
};

// Every block in order; the lengths must tile the file exactly.
std::vector<Block> blocks(const std::string& file) {
    std::vector<Block> out;
    size_t pos = 0;
    while (pos < file.size()) {
        Reader r(file, pos, file.size());
        Block blk;
        blk.offset = pos;
        blk.type = r.u8();
        blk.length = r.be64();
        if (blk.length < 8 || blk.length > file.size() - pos - 1) {
            throw std::runtime_error("block at " + std::to_string(pos) + " has length " +
                                     std::to_string(blk.length) + " past the end of the file");
        }
        out.push_back(blk);
        pos += 1 + blk.length;
    }
    return out;
}

Header header(const std::string& file, const Block& blk) {
    Reader r(file, blk.offset + 9, blk.offset + 1 + blk.length);
    Header h;
    h.start_time = r.be64();
    h.end_time = r.be64();
    const std::string endian = file.substr(blk.offset + 25, 8);
    std::memcpy(&h.endian_test, endian.data(), 8);
    for (int i = 0; i < 8; ++i) r.u8();  // the endian test double (above)
    r.be64();                             // memory the writer used
    h.num_scopes = r.be64();
    h.num_vars = r.be64();
    h.max_handle = r.be64();
    h.sections = r.be64();
    h.timescale = static_cast<int8_t>(r.u8());
    h.version = r.fixed(128);
    h.date = r.fixed(119);
    return h;
}

// LZ4 block format: sequences of literals and back-references.
std::string lz4_decompress(const std::string& in, size_t out_size) {
    std::string out;
    out.reserve(out_size);
    size_t i = 0;
    auto length = [&](size_t base) {
        size_t n = base;
        if (base == 15) {
            uint8_t more = 255;
            while (more == 255) {
                if (i >= in.size()) throw std::runtime_error("lz4: truncated length");
                more = static_cast<uint8_t>(in[i++]);
                n += more;
            }
        }
        return n;
    };
    while (i < in.size()) {
        const auto token = static_cast<uint8_t>(in[i++]);
        const size_t literals = length(token >> 4);
        if (i + literals > in.size()) throw std::runtime_error("lz4: literals past the input");
        out.append(in, i, literals);
        i += literals;
        if (i == in.size()) break;  // the last sequence has literals only
        if (i + 2 > in.size()) throw std::runtime_error("lz4: truncated offset");
        const size_t offset = static_cast<uint8_t>(in[i]) | static_cast<uint8_t>(in[i + 1]) << 8;
        i += 2;
        const size_t match = length(token & 15) + 4;
        if (offset == 0 || offset > out.size()) throw std::runtime_error("lz4: bad offset");
        for (size_t k = 0; k < match; ++k) out.push_back(out[out.size() - offset]);
    }
    if (out.size() != out_size) {
        throw std::runtime_error("lz4: " + std::to_string(out.size()) + " bytes, expected " +
                                 std::to_string(out_size));
    }
    return out;
}

std::string gzip_decompress(const std::string& in, size_t out_size) {
    std::string out(out_size, '\0');
    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK) throw std::runtime_error("inflateInit2");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&z, Z_FINISH);
    inflateEnd(&z);
    if (rc != Z_STREAM_END || z.total_out != out_size) throw std::runtime_error("gzip: bad stream");
    return out;
}

// The uncompressed hierarchy of block `blk` (types 4, 6, 7).
std::string hierarchy_bytes(const std::string& file, const Block& blk) {
    Reader r(file, blk.offset + 9, blk.offset + 1 + blk.length);
    const uint64_t size = r.be64();
    size_t data = r.pos();
    const size_t end = blk.offset + 1 + blk.length;
    if (blk.type == kBlockHierGzip) return gzip_decompress(file.substr(data, end - data), size);
    if (blk.type == kBlockHierLz4) return lz4_decompress(file.substr(data, end - data), size);
    const uint64_t once = r.varint();  // LZ4DUO: the length after the first round
    data = r.pos();
    return lz4_decompress(lz4_decompress(file.substr(data, end - data), once), size);
}

Hierarchy parse_hierarchy(const std::string& h) {
    Hierarchy out;
    std::vector<std::string> scope;
    Reader r(h, 0, h.size());
    while (!r.done()) {
        const uint8_t tag = r.u8();
        if (tag == kScope) {
            r.u8();  // scope type
            scope.push_back(r.cstring());
            r.cstring();  // component name
            ++out.scopes;
        } else if (tag == kUpscope) {
            if (scope.empty()) throw std::runtime_error("upscope at the top level");
            scope.pop_back();
        } else if (tag == kAttrBegin) {
            r.u8(), r.u8();
            r.cstring();
            r.varint();
        } else if (tag == kAttrEnd) {
        } else if (tag <= kMaxVarType) {
            Var v;
            v.type = tag;
            v.direction = r.u8();
            std::string name = r.cstring();
            name = name.substr(0, name.find(' '));  // "data [63:0]" -> "data"
            v.bits = r.varint();
            v.alias = r.varint();
            for (const std::string& s : scope) v.path += s + ".";
            v.path += name;
            out.vars.push_back(v);
        } else {
            throw std::runtime_error("unknown hierarchy record " + std::to_string(tag));
        }
    }
    return out;
}

// ---- the tests ------------------------------------------------------------------------

accel::TensorI8 random_i8(std::vector<int64_t> shape, uint32_t seed) {
    accel::TensorI8 t(std::move(shape));
    std::mt19937 rng(seed);
    for (int8_t& v : t.data) v = static_cast<int8_t>(rng() >> 24);
    return t;
}

class CliTrace : public ::testing::Test {
protected:
    std::vector<std::string> conv2d(const std::string& backend) {
        accel::write_npy(dir_.file("X.npy"), random_i8({1, 6, 5, 8}, 1));
        accel::write_npy(dir_.file("W.npy"), random_i8({3, 3, 8, 5}, 2));
        return {"conv2d", "--backend", backend, "--input", dir_.file("X.npy"), "--weights",
                dir_.file("W.npy"), "--pad", "1", "--scale", "0.002", "--output",
                dir_.file("Y.npy")};
    }
    TempDir dir_{"trace"};
};

TEST_F(CliTrace, VerilatorWritesAnFstWithHeaderAndSignalList) {
    for (const char* cfg : {"default", "tiny"}) {
        const std::string fst = dir_.file(std::string("T_") + cfg + ".fst");
        std::vector<std::string> args = conv2d("verilator");
        for (const std::string& a : {std::string("--hw"),
                                     accel::test::shipped_hw_path(cfg),
                                     std::string("--trace"), fst, std::string("--report"),
                                     dir_.file("R.json"), std::string("--check")})
            args.push_back(a);
        const RunResult r = run_accel(args);
        ASSERT_EQ(r.exit_code, 0) << describe(r);
        ASSERT_TRUE(fs::exists(fst)) << cfg;
        const auto report = nlohmann::json::parse(accel::e2e::read_bytes(dir_.file("R.json")));
        const uint64_t cycles = report["cycles"].get<uint64_t>();
        const std::string file = accel::e2e::read_bytes(fst);

        std::vector<Block> bl;
        ASSERT_NO_THROW(bl = blocks(file)) << cfg;
        ASSERT_GE(bl.size(), 3u);
        ASSERT_EQ(bl[0].type, kBlockHeader) << "the header block must come first";
        EXPECT_EQ(bl[0].length, 329u) << "FST_HDR_LENGTH - 1";
        const Header h = header(file, bl[0]);
        EXPECT_EQ(h.endian_test, 2.7182818284590452354) << "endian test double";
        EXPECT_EQ(h.version, "fstWriter");
        EXPECT_FALSE(h.date.empty());
        EXPECT_LE(h.timescale, 0);
        EXPECT_GE(h.timescale, -15);
        EXPECT_LE(h.start_time, h.end_time);
        EXPECT_GE(h.end_time, cycles) << "the trace must cover every cycle run";
        EXPECT_GT(cycles, 0u);
        EXPECT_GE(h.sections, 1u);

        size_t value_blocks = 0, hier_blocks = 0;
        Hierarchy hier;
        for (const Block& b : bl) {
            value_blocks += b.type == kBlockValueChange || b.type == kBlockVcAlias ||
                            b.type == kBlockVcAlias2;
            if (b.type == kBlockHierGzip || b.type == kBlockHierLz4 || b.type == kBlockHierLz4Duo) {
                ++hier_blocks;
                ASSERT_NO_THROW(hier = parse_hierarchy(hierarchy_bytes(file, b))) << cfg;
            }
            EXPECT_LE(b.type, kBlockVcAlias2) << "unexpected block type at " << b.offset;
        }
        EXPECT_EQ(value_blocks, h.sections);
        ASSERT_EQ(hier_blocks, 1u);
        EXPECT_EQ(hier.vars.size(), h.num_vars);
        EXPECT_EQ(hier.scopes, h.num_scopes);
        uint64_t own = 0;
        for (const Var& v : hier.vars) own += v.alias == 0;
        EXPECT_EQ(own, h.max_handle) << "handles of signals that are not aliases";

        // The top's clock and ports, and signals inside accel_top, with their widths.
        const auto vars = hier.by_path();
        const auto expect_var = [&](const std::string& suffix, uint64_t bits) {
            size_t found = 0;
            for (const auto& [path, v] : vars) {
                if (path.size() >= suffix.size() &&
                    path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0 &&
                    (path.size() == suffix.size() || path[path.size() - suffix.size() - 1] == '.')) {
                    ++found;
                    EXPECT_EQ(v->bits, bits) << path;
                }
            }
            EXPECT_GT(found, 0u) << cfg << ": no signal " << suffix;
        };
        const uint64_t data_bits = std::string(cfg) == "default" ? 64 : 32;
        expect_var("clk_i", 1);
        expect_var("rst_i", 1);
        expect_var("irq_o", 1);
        expect_var("m_axi_araddr", 32);
        expect_var("m_axi_rdata", data_bits);
        expect_var("m_axi_wdata", data_bits);
        expect_var("s_axil_awaddr", 12);
        // The model's top clock (<top>.clk_i, the signal GTKWave shows first) and the
        // units inside accel_top, each with its clock.
        size_t top_clocks = 0;
        for (const Var& v : hier.vars)
            top_clocks += v.path.ends_with(".clk_i") &&
                          std::count(v.path.begin(), v.path.end(), '.') == 1;
        EXPECT_EQ(top_clocks, 1u) << cfg << ": the top's clock";
        for (const char* unit : {"u_fetch", "u_load", "u_compute", "u_drain", "u_csr"}) {
            bool found = false;
            for (const auto& [path, v] : vars)
                found = found || path.ends_with(std::string("accel_top.") + unit + ".clk_i");
            EXPECT_TRUE(found) << cfg << ": no accel_top." << unit << ".clk_i";
        }
    }
}

// Only the RTL has waveforms and unit activity: --trace and --timeline elsewhere are exit 2.
TEST_F(CliTrace, NonVerilatorBackendsRejectTraceAndTimeline) {
    for (const char* backend : {"fsim", "ref"}) {
        for (const char* option : {"--trace", "--timeline"}) {
            std::vector<std::string> args = conv2d(backend);
            args.push_back(option);
            args.push_back(dir_.file("T.out"));
            const RunResult r = run_accel(args);
            EXPECT_EQ(r.exit_code, 2) << describe(r);
            EXPECT_TRUE(r.err.starts_with(std::string("error: ") + option)) << describe(r);
            EXPECT_FALSE(fs::exists(dir_.file("T.out"))) << backend;
            EXPECT_FALSE(fs::exists(dir_.file("Y.npy"))) << backend;
        }
    }
}

// The waveform is an output like any other: it never replaces an input, the output or
// the report, and an unwritable path is bad usage -- all before anything runs.
TEST_F(CliTrace, TraceNeverOverwritesAnotherFileAndMustBeWritable) {
    const std::vector<std::string> base = conv2d("verilator");
    const std::string x = dir_.file("X.npy"), w = dir_.file("W.npy");
    const std::string x_before = accel::e2e::read_bytes(x);
    const std::vector<std::vector<std::string>> extra = {
        {"--trace", x},
        {"--trace", w},
        {"--trace", dir_.file("Y.npy")},
        {"--report", dir_.file("R.json"), "--trace", dir_.file("R.json")},
        {"--trace", dir_.file("no such dir/T.fst")},
    };
    for (const auto& e : extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), e.begin(), e.end());
        const RunResult r = run_accel(args);
        EXPECT_EQ(r.exit_code, 2) << e.back() << "\n" << describe(r);
        EXPECT_TRUE(r.err.starts_with("error: --trace ") || r.err.find("is also an input") !=
                                                               std::string::npos)
            << describe(r);
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << describe(r);
        EXPECT_FALSE(fs::exists(dir_.file("Y.npy"))) << e.back();
        EXPECT_FALSE(fs::exists(dir_.file("R.json"))) << e.back();
    }
    EXPECT_TRUE(accel::e2e::read_bytes(x) == x_before) << "the input was overwritten";
}

// --trace-window FROM:TO keeps the cycles [FROM, TO) of the run: the file is smaller, and
// its time span (two FST time steps per cycle: the falling and the rising edge) is the
// window's, where the whole trace spans the whole run.
TEST_F(CliTrace, TraceWindowKeepsOnlyThoseCycles) {
    std::vector<std::string> whole = conv2d("verilator");
    std::vector<std::string> windowed = whole;
    for (const std::string& a : {std::string("--trace"), dir_.file("all.fst"),
                                 std::string("--report"), dir_.file("R.json")}) {
        whole.push_back(a);
    }
    for (const std::string& a : {std::string("--trace"), dir_.file("window.fst"),
                                 std::string("--trace-window"), std::string("40:140")}) {
        windowed.push_back(a);
    }
    const RunResult a = run_accel(whole);
    ASSERT_EQ(a.exit_code, 0) << describe(a);
    fs::remove(dir_.file("Y.npy"));
    const RunResult b = run_accel(windowed);
    ASSERT_EQ(b.exit_code, 0) << describe(b);
    const auto report = nlohmann::json::parse(accel::e2e::read_bytes(dir_.file("R.json")));
    ASSERT_GT(report["cycles"].get<uint64_t>(), 300u) << "the window must be inside the run";

    const std::string all = accel::e2e::read_bytes(dir_.file("all.fst"));
    const std::string window = accel::e2e::read_bytes(dir_.file("window.fst"));
    const Header h_all = header(all, blocks(all).at(0));
    const Header h_win = header(window, blocks(window).at(0));
    EXPECT_GE(h_all.end_time - h_all.start_time, 2 * report["cycles"].get<uint64_t>());
    // 100 cycles: 200 time steps, the first dump being the window's start.
    EXPECT_EQ(h_win.end_time - h_win.start_time, 2u * 100 - 1);
    EXPECT_GT(h_win.start_time, h_all.start_time) << "the cycles before FROM are not traced";
    EXPECT_LT(window.size(), all.size() / 2) << "a window of 100 cycles of "
                                             << report["cycles"] << " is smaller";
}

TEST_F(CliTrace, MalformedOrEmptyTraceWindowsExitTwo) {
    for (const char* window : {"100", "5:", ":5", "5:5", "9:3", "a:b", "-1:4", "1:2:3", "1,5"}) {
        SCOPED_TRACE(window);
        std::vector<std::string> args = conv2d("verilator");
        for (const std::string& a : {std::string("--trace"), dir_.file("T.fst"),
                                     std::string("--trace-window"), std::string(window)}) {
            args.push_back(a);
        }
        const RunResult r = run_accel(args);
        EXPECT_EQ(r.exit_code, 2) << describe(r);
        EXPECT_TRUE(r.err.starts_with("error: --trace-window")) << describe(r);
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << describe(r);
        EXPECT_FALSE(fs::exists(dir_.file("T.fst")));
        EXPECT_FALSE(fs::exists(dir_.file("Y.npy")));
    }
    std::vector<std::string> no_trace = conv2d("verilator");
    no_trace.push_back("--trace-window");
    no_trace.push_back("0:10");
    const RunResult r = run_accel(no_trace);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_NE(r.err.find("give --trace too"), std::string::npos) << describe(r);
    EXPECT_FALSE(fs::exists(dir_.file("Y.npy")));
}

// --timeline T.json: the run's unit activity as a Chrome trace (docs/cli.md,
// "--timeline"), checked against the report of the same run, on both configs.
TEST_F(CliTrace, TimelineIsAChromeTraceThatAddsUpToTheCounters) {
    for (const char* cfg : {"default", "tiny"}) {
        SCOPED_TRACE(cfg);
        std::vector<std::string> args = conv2d("verilator");
        const std::string timeline = dir_.file(std::string("T_") + cfg + ".json");
        const std::string report = dir_.file(std::string("R_") + cfg + ".json");
        for (const std::string& a : {std::string("--hw"),
                                     accel::test::shipped_hw_path(cfg),
                                     std::string("--timeline"), timeline,
                                     std::string("--report"), report}) {
            args.push_back(a);
        }
        const RunResult r = run_accel(args);
        ASSERT_EQ(r.exit_code, 0) << describe(r);
        const auto trace = nlohmann::json::parse(accel::e2e::read_bytes(timeline));
        EXPECT_NE(trace["otherData"]["title"].get<std::string>().find("1x6x5x8 -> 5"),
                  std::string::npos);
        EXPECT_EQ(trace["otherData"]["hw"], cfg);
        accel::e2e::expect_timeline_matches_report(
            trace, nlohmann::json::parse(accel::e2e::read_bytes(report)));
        fs::remove(dir_.file("Y.npy"));
    }
}

// The reader itself: it must reject what is not an FST, or the tests above prove little.
TEST(FstReader, RejectsTruncatedAndCorruptFiles) {
    EXPECT_THROW(blocks(std::string("\0\0\0\0\0\0\0\x20", 8)), std::runtime_error);
    std::string one_block(1 + 329, '\0');
    one_block[8] = static_cast<char>(329 & 0xFF);
    one_block[7] = static_cast<char>(329 >> 8);
    EXPECT_EQ(blocks(one_block).size(), 1u);
    EXPECT_THROW(blocks(one_block + "x"), std::runtime_error);
    EXPECT_THROW(lz4_decompress(std::string("\x1f\x61\x05\x00", 4), 40), std::runtime_error);
    // Literal "abc", then a 7-byte match at offset 3: "abcabcabca".
    EXPECT_EQ(lz4_decompress(std::string("\x33\x61\x62\x63\x03\x00", 6), 10), "abcabcabca");
    EXPECT_THROW(parse_hierarchy(std::string("\xff", 1)), std::runtime_error);
}

}  // namespace
