// The DP16KD and MULT18X18D models (cell_models_bench.sv) against what the ECP5 block RAM
// and multiplier are documented to do, in the modes Yosys' mapping uses: random writes
// and reads against a plain array of the port's words, the byte enables, the three
// WRITEMODEs, the layout of mixed widths (a wide word is two narrow ones, the lower
// address in the lower bits), the read resets, random data where the other port writes
// in the same cycle, uninitialised contents, and the product in every signedness.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "Vcell_models_bench.h"
#include "verilated.h"

namespace {

struct Bench {
    std::unique_ptr<VerilatedContext> context = std::make_unique<VerilatedContext>();
    std::unique_ptr<Vcell_models_bench> top;

    // seed != 0: the contents and latches start random (the model is Verilated with
    // --x-initial unique).
    explicit Bench(int seed = 0) {
        if (seed != 0) {
            context->randReset(2);
            context->randSeed(seed);
        }
        top = std::make_unique<Vcell_models_bench>(context.get());
        // Verilator draws the inputs at random too; every port starts idle.
        top->w_ce_i = 0; top->w_addr_i = 0; top->w_be_i = 0; top->w_data_i = 0;
        top->r_ce_i = 0; top->r_rst_i = 0; top->r_addr_i = 0; top->r18_ce_i = 0;
        top->r18_addr_i = 0; top->a18_ce_i = 0; top->a18_we_i = 0; top->a18_rst_i = 0;
        top->b18_ce_i = 0; top->b18_we_i = 0; top->b18_rst_i = 0; top->a18_addr_i = 0;
        top->b18_addr_i = 0; top->a18_be_i = 0; top->b18_be_i = 0; top->a18_data_i = 0;
        top->b18_data_i = 0; top->a9_ce_i = 0; top->a9_we_i = 0; top->b9_ce_i = 0;
        top->b9_we_i = 0; top->a9_addr_i = 0; top->b9_addr_i = 0; top->b9_be_i = 0;
        top->a9_data_i = 0; top->b9_data_i = 0; top->a1_ce_i = 0; top->a1_we_i = 0;
        top->b4_ce_i = 0; top->b4_we_i = 0; top->a1_addr_i = 0; top->b4_addr_i = 0;
        top->a1_data_i = 0; top->b4_data_i = 0; top->m_a_i = 0; top->m_b_i = 0;
        top->m_signed_a_i = 0; top->m_signed_b_i = 0;
        top->clk_i = 0;
        top->eval();
    }
    ~Bench() { top->final(); }

    void tick() {
        top->clk_i = 1;
        top->eval();
        top->clk_i = 0;
        top->eval();
    }

    // A clock in which the pseudo-dual-port block writes the bytes `enables` selects of
    // `data` to its 36-bit word `addr`; the write port stays enabled.
    void write36(unsigned addr, uint64_t data, unsigned enables = 0xf) {
        top->w_ce_i = 1, top->w_addr_i = addr, top->w_be_i = enables, top->w_data_i = data;
        tick();
    }
};

uint64_t bits(std::mt19937_64& rng, int n) { return rng() & ((uint64_t{1} << n) - 1); }

// Replaces the 9-bit bytes of `word` that `enables` selects with those of `data`.
uint64_t merge_bytes(uint64_t word, uint64_t data, unsigned enables, int bytes) {
    for (int b = 0; b < bytes; ++b) {
        if ((enables >> b) & 1) {
            const uint64_t mask = uint64_t{0x1ff} << (9 * b);
            word = (word & ~mask) | (data & mask);
        }
    }
    return word;
}

TEST(Dp16kdPseudoDualPort, WritesBytesAndReadsWordsOrHalfWords) {
    Bench b(7);
    std::mt19937_64 rng(1);
    std::array<uint64_t, 512> ref{};
    for (unsigned w = 0; w < 512; ++w) {  // every word known, then one read on each port
        ref[w] = bits(rng, 36);
        b.write36(w, ref[w]);
    }
    b.top->w_ce_i = 0, b.top->r_ce_i = 1, b.top->r_addr_i = 0, b.top->r18_ce_i = 1;
    b.top->r18_addr_i = 0;
    b.tick();
    uint64_t r_held = ref[0], r18_held = ref[0] & 0x3ffff;
    for (int cycle = 0; cycle < 20000; ++cycle) {
        const bool write = rng() % 4 != 0;
        const unsigned w_addr = bits(rng, 9), be = bits(rng, 4);
        const uint64_t data = bits(rng, 36);
        // Reads of other words only: a read of the word written in the same cycle is
        // undefined (the next test).
        unsigned r_addr = bits(rng, 9), r18_addr = bits(rng, 10);
        if (write && r_addr == w_addr) r_addr ^= 1;
        if (write && r18_addr / 2 == w_addr) r18_addr ^= 2;
        const bool read = rng() % 3 != 0, read18 = rng() % 3 != 0;
        b.top->w_ce_i = write, b.top->w_addr_i = w_addr, b.top->w_be_i = be;
        b.top->w_data_i = data;
        b.top->r_ce_i = read, b.top->r_addr_i = r_addr;
        b.top->r18_ce_i = read18, b.top->r18_addr_i = r18_addr;
        b.tick();
        // x18 word a is the low (a even) or high half of x36 word a / 2; unread, a port
        // holds its last word.
        if (read) r_held = ref[r_addr];
        if (read18) r18_held = (ref[r18_addr / 2] >> (18 * (r18_addr % 2))) & 0x3ffff;
        ASSERT_EQ(b.top->r_data_o, r_held) << "cycle " << cycle;
        ASSERT_EQ(b.top->r18_data_o, r18_held) << "cycle " << cycle;
        if (write) ref[w_addr] = merge_bytes(ref[w_addr], data, be, 4);
    }
}

TEST(Dp16kdPseudoDualPort, AReadOfTheWordBeingWrittenIsRandomInTheWrittenBytesOnly) {
    Bench b(3);
    b.write36(5, 0x123456789);
    int differs_from_old = 0, differs_from_new = 0;
    for (int i = 0; i < 16; ++i) {
        const uint64_t old = 0x123456789, next = 0xfedcba987;
        b.top->w_be_i = 0x5;  // bytes 0 and 2
        b.top->w_data_i = next;
        b.top->r_ce_i = 1;
        b.top->r_addr_i = 5;
        b.tick();
        const uint64_t got = b.top->r_data_o;
        const uint64_t kept = (uint64_t{0x1ff} << 9) | (uint64_t{0x1ff} << 27);
        EXPECT_EQ(got & kept, old & kept) << "bytes 1 and 3 are not written";
        differs_from_old += (got & ~kept) != (old & ~kept);
        differs_from_new += (got & ~kept) != (next & ~kept);
        b.top->w_data_i = old;  // restore
        b.top->w_be_i = 0xf;
        b.top->r_ce_i = 0;
        b.tick();
    }
    EXPECT_GE(differs_from_old, 14);
    EXPECT_GE(differs_from_new, 14);
}

TEST(Dp16kdPseudoDualPort, AsynchronousResetClearsTheOutputAtOnce) {
    Bench b(11);
    b.write36(9, 0xabcdef012);
    b.top->w_ce_i = 0;
    b.top->r_ce_i = 1;
    b.top->r_addr_i = 9;
    b.tick();
    ASSERT_EQ(b.top->r_data_o, 0xabcdef012u);
    b.top->r_ce_i = 0;
    b.top->r_rst_i = 1;
    b.top->eval();  // no clock edge
    EXPECT_EQ(b.top->r_data_o, 0u);
    b.tick();
    b.top->r_rst_i = 0;
    b.tick();
    EXPECT_EQ(b.top->r_data_o, 0u) << "the latch stays cleared until the next read";
}

TEST(Dp16kdTrueDualPort, WriteModesByteEnablesAndSynchronousReset) {
    Bench b(5);
    std::mt19937_64 rng(2);
    std::array<uint32_t, 1024> ref{};
    for (unsigned w = 0; w < 1024; ++w) {  // every word known, then one read on each port
        ref[w] = static_cast<uint32_t>(bits(rng, 18));
        b.top->a18_ce_i = 1, b.top->a18_we_i = 1, b.top->a18_be_i = 3;
        b.top->a18_addr_i = w, b.top->a18_data_i = ref[w];
        b.tick();
    }
    b.top->a18_we_i = 0, b.top->a18_addr_i = 0, b.top->b18_ce_i = 1, b.top->b18_addr_i = 1;
    b.tick();
    uint32_t a_held = ref[0], b_held = ref[1];
    for (int cycle = 0; cycle < 20000; ++cycle) {
        const unsigned a_addr = bits(rng, 10);
        unsigned b_addr = bits(rng, 10);
        if (b_addr == a_addr) b_addr ^= 1;  // cross-port collisions: the test above
        const bool a_ce = rng() % 4 != 0, b_ce = rng() % 4 != 0;
        const bool a_we = rng() % 2, b_we = rng() % 2;
        // A read reset while the port writes is not a case Yosys produces (block_wr).
        const bool a_rst = rng() % 50 == 0 && !(a_ce && a_we);
        const bool b_rst = rng() % 50 == 0 && !(b_ce && b_we);
        const unsigned a_be = bits(rng, 2), b_be = bits(rng, 2);
        const uint32_t a_data = bits(rng, 18), b_data = bits(rng, 18);
        b.top->a18_ce_i = a_ce, b.top->a18_we_i = a_we, b.top->a18_rst_i = a_rst;
        b.top->a18_addr_i = a_addr, b.top->a18_be_i = a_be, b.top->a18_data_i = a_data;
        b.top->b18_ce_i = b_ce, b.top->b18_we_i = b_we, b.top->b18_rst_i = b_rst;
        b.top->b18_addr_i = b_addr, b.top->b18_be_i = b_be, b.top->b18_data_i = b_data;
        b.tick();
        // A (NORMAL) holds its output while it writes; B (WRITETHROUGH) shows the word as
        // written; a synchronous reset clears either, whatever CE.
        if (a_rst) a_held = 0;
        else if (a_ce && !a_we) a_held = ref[a_addr];
        if (b_rst) b_held = 0;
        else if (b_ce && b_we) b_held = static_cast<uint32_t>(merge_bytes(ref[b_addr], b_data, b_be, 2));
        else if (b_ce) b_held = ref[b_addr];
        ASSERT_EQ(b.top->a18_data_o, a_held) << "cycle " << cycle;
        ASSERT_EQ(b.top->b18_data_o, b_held) << "cycle " << cycle;
        if (a_ce && a_we) ref[a_addr] = static_cast<uint32_t>(merge_bytes(ref[a_addr], a_data, a_be, 2));
        if (b_ce && b_we) ref[b_addr] = static_cast<uint32_t>(merge_bytes(ref[b_addr], b_data, b_be, 2));
    }
}

TEST(Dp16kdTrueDualPort, NineBitWordsAreTheHalvesOfEighteenBitOnesAndReadBeforeWrite) {
    Bench b(9);
    std::mt19937_64 rng(3);
    std::array<uint32_t, 1024> ref{};  // 18-bit words
    for (unsigned w = 0; w < 1024; ++w) {  // fill through the 18-bit port
        b.top->b9_ce_i = 1, b.top->b9_we_i = 1, b.top->b9_be_i = 3;
        b.top->b9_addr_i = w;
        ref[w] = static_cast<uint32_t>(bits(rng, 18));
        b.top->b9_data_i = ref[w];
        b.tick();
    }
    for (int cycle = 0; cycle < 20000; ++cycle) {
        const unsigned a_addr = bits(rng, 11);
        unsigned b_addr = bits(rng, 10);
        if (b_addr == a_addr / 2) b_addr ^= 1;
        const bool a_we = rng() % 2, b_we = rng() % 2;
        const unsigned b_be = bits(rng, 2);
        const uint32_t a_data = bits(rng, 9), b_data = bits(rng, 18);
        b.top->a9_ce_i = 1, b.top->a9_we_i = a_we, b.top->a9_addr_i = a_addr;
        b.top->a9_data_i = a_data;
        b.top->b9_ce_i = 1, b.top->b9_we_i = b_we, b.top->b9_addr_i = b_addr;
        b.top->b9_be_i = b_be, b.top->b9_data_i = b_data;
        b.tick();
        // READBEFOREWRITE: both ports read the old word, writing or not.
        ASSERT_EQ(b.top->a9_data_o, (ref[a_addr / 2] >> (9 * (a_addr % 2))) & 0x1ff) << cycle;
        ASSERT_EQ(b.top->b9_data_o, ref[b_addr]) << cycle;
        if (a_we) {
            const unsigned shift = 9 * (a_addr % 2);
            ref[a_addr / 2] = (ref[a_addr / 2] & ~(0x1ffu << shift)) | (a_data << shift);
        }
        if (b_we) ref[b_addr] = static_cast<uint32_t>(merge_bytes(ref[b_addr], b_data, b_be, 2));
    }
}

TEST(Dp16kdTrueDualPort, OneBitWordsAreTheBitsOfFourBitOnes) {
    Bench b(13);
    std::mt19937_64 rng(4);
    std::vector<uint8_t> ref(4096);  // 4-bit words
    for (unsigned w = 0; w < 4096; ++w) {
        b.top->b4_ce_i = 1, b.top->b4_we_i = 1, b.top->b4_addr_i = w;
        ref[w] = static_cast<uint8_t>(bits(rng, 4));
        b.top->b4_data_i = ref[w];
        b.tick();
    }
    b.top->b4_we_i = 0;
    for (int cycle = 0; cycle < 20000; ++cycle) {
        const unsigned bit = bits(rng, 14);
        const bool value = rng() % 2, write = rng() % 2;
        b.top->a1_ce_i = 1, b.top->a1_we_i = write, b.top->a1_addr_i = bit;
        b.top->a1_data_i = value;
        unsigned nibble = bits(rng, 12);
        if (nibble == bit / 4) nibble ^= 1;
        b.top->b4_addr_i = nibble;
        b.tick();
        if (!write) ASSERT_EQ(b.top->a1_data_o, (ref[bit / 4] >> (bit % 4)) & 1) << cycle;
        ASSERT_EQ(b.top->b4_data_o, ref[nibble]) << cycle;
        if (write) ref[bit / 4] = static_cast<uint8_t>((ref[bit / 4] & ~(1u << (bit % 4))) | (value << (bit % 4)));
    }
}

TEST(Dp16kd, ContentsAndLatchesStartRandomUnderEverySeed) {
    std::vector<uint64_t> first;
    for (const int seed : {21, 22}) {
        Bench b(seed);
        std::vector<uint64_t> words;
        for (unsigned a = 0; a < 64; ++a) {
            b.top->r_ce_i = 1;
            b.top->r_addr_i = a;
            b.tick();
            words.push_back(b.top->r_data_o);
        }
        int nonzero = 0;
        for (const uint64_t w : words) nonzero += w != 0;
        EXPECT_GE(nonzero, 60) << "seed " << seed;
        if (first.empty()) first = words;
        else EXPECT_NE(words, first) << "two seeds, the same contents";
    }
}

TEST(Dp16kd, BothPortsWritingTheSameBitsStopsTheSimulation) {
    Bench b;
    b.context->fatalOnError(false);
    b.top->a18_ce_i = 1, b.top->a18_we_i = 1, b.top->a18_addr_i = 3, b.top->a18_be_i = 1;
    b.top->b18_ce_i = 1, b.top->b18_we_i = 1, b.top->b18_addr_i = 3, b.top->b18_be_i = 3;
    b.tick();
    EXPECT_TRUE(b.context->gotError());
}

int64_t sign_extend(uint64_t v, bool is_signed) {
    return is_signed && (v >> 17) & 1 ? static_cast<int64_t>(v) - (int64_t{1} << 18)
                                      : static_cast<int64_t>(v);
}

TEST(Mult18x18d, TheProductInEverySignedness) {
    Bench b;
    std::mt19937_64 rng(5);
    const uint64_t edges[] = {0, 1, 0x1ffff, 0x20000, 0x3ffff, 0x2aaaa};
    for (int i = 0; i < 40000; ++i) {
        const uint64_t a = i < 36 ? edges[i % 6] : bits(rng, 18);
        const uint64_t c = i < 36 ? edges[i / 6] : bits(rng, 18);
        for (const int signs : {0, 1, 2, 3}) {
            b.top->m_a_i = a, b.top->m_b_i = c;
            b.top->m_signed_a_i = signs & 1, b.top->m_signed_b_i = signs >> 1;
            b.top->eval();
            const int64_t want = sign_extend(a, signs & 1) * sign_extend(c, signs >> 1);
            ASSERT_EQ(b.top->m_p_o, static_cast<uint64_t>(want) & ((uint64_t{1} << 36) - 1))
                << std::hex << a << " * " << c << " signs " << signs;
        }
    }
}

}  // namespace
