// accel_soc_sim: the Verilated LiteX SoC of the ULX3S (rtl/soc/, --target sim: LiteDRAM's
// controller on its SDRAM model) behind a pseudo-terminal, so that the host runs on it
// exactly as on the board: `accel run MODEL --device uart:LINK` (docs/fpga.md, "ULX3S SoC").
//
// The pty carries the bridge's bytes with no UART line in between (a direct channel):
// each byte the host writes enters the bridge's receive stream, each byte the bridge
// sends goes back to the host. The simulation runs free while anything is under way (a
// frame, a run of the accelerator) and otherwise, after a while, waits on the pty.
//
//   accel_soc_sim --link PATH [--corrupt-every N] [--drop-every N] [--sdram-fault]
//                 [--absent] [--seconds S]
//
// No UART line is simulated: the simulation runs a few hundred times slower than the
// board, so a line paced at its baud rate would outlast the host's 1 s wait for an
// answer. The bytes it counts each way give a line's time by arithmetic (docs/fpga.md).
// --corrupt-every N / --drop-every N: every Nth byte from the host is inverted in its
// lowest bit / never reaches the bridge (a bad line); --sdram-fault: every word the SDRAM
// model returns has its lowest bit inverted (a bad memory); --absent: the SoC is held in
// reset and answers nothing (no bitstream on the board). It stops after S seconds
// (default 3600) or at SIGINT/SIGTERM, and prints what it simulated.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vaccel_soc_sim.h"
#include "verilated.h"

namespace {

std::atomic<bool> g_stop{false};

struct Options {
    std::string link;
    uint64_t corrupt_every = 0, drop_every = 0;
    bool sdram_fault = false, absent = false;
    double seconds = 3600;
};

[[noreturn]] void usage(const std::string& what) {
    std::fprintf(stderr, "error: %s\nusage: accel_soc_sim --link PATH [--corrupt-every N] "
                 "[--drop-every N] [--sdram-fault] [--absent] [--seconds S]\n", what.c_str());
    std::exit(2);
}

uint64_t positive(const char* opt, const char* s) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v == 0) {
        usage(std::string(opt) + ": expected a positive integer");
    }
    return v;
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage(a + ": needs a value");
            return argv[++i];
        };
        if (a == "--link") o.link = value();
        else if (a == "--corrupt-every") o.corrupt_every = positive("--corrupt-every", value());
        else if (a == "--drop-every") o.drop_every = positive("--drop-every", value());
        else if (a == "--sdram-fault") o.sdram_fault = true;
        else if (a == "--absent") o.absent = true;
        else if (a == "--seconds") o.seconds = static_cast<double>(positive("--seconds", value()));
        else usage("unknown option " + a);
    }
    if (o.link.empty()) usage("--link PATH is required");
    return o;
}

// The pty: the master is ours; the slave's path is linked at PATH for the host. We keep
// a slave descriptor open (raw) so that the line stays up between the host's sessions.
struct Pty {
    int master = -1, slave = -1;
    std::string link;
    explicit Pty(const std::string& path) : link(path) {
        char name[256] = {};
        if (::openpty(&master, &slave, name, nullptr, nullptr) != 0) usage("openpty failed");
        termios t{};
        ::tcgetattr(slave, &t);
        ::cfmakeraw(&t);
        ::tcsetattr(slave, TCSANOW, &t);
        ::fcntl(master, F_SETFL, ::fcntl(master, F_GETFL) | O_NONBLOCK);
        ::unlink(path.c_str());
        if (::symlink(name, path.c_str()) != 0) usage("cannot create the link " + path);
    }
    ~Pty() {
        ::unlink(link.c_str());
        ::close(slave);
        ::close(master);
    }
};

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    std::signal(SIGINT, [](int) { g_stop = true; });
    std::signal(SIGTERM, [](int) { g_stop = true; });
    Pty pty(o.link);

    auto context = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vaccel_soc_sim>(context.get());
    uint64_t cycles = 0, from_host = 0, to_host = 0, dropped = 0, corrupted = 0;
    uint64_t idle = 0, ready_at = 0;
    constexpr uint64_t kClkHz = SOC_CLK_HZ;  // the tiny config's clock_mhz (CMake reads it)
    std::deque<uint8_t> rx;       // host bytes on their way into the bridge
    std::vector<uint8_t> tx;      // bridge bytes on their way to the host
    const auto start = std::chrono::steady_clock::now();
    auto tick = [&] {
        top->sys_clk = 0;
        top->eval();
        top->sys_clk = 1;
        top->eval();
        ++cycles;
    };

    top->sys_rst = 1;
    top->host_tx_ready = 1;
    for (int i = 0; i < 16; ++i) tick();
    top->sys_rst = o.absent ? 1 : 0;
    while (!g_stop) {
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
            o.seconds) break;
        // The pty, every 64 cycles: bytes in (through the line's faults) and out.
        if (cycles % 64 == 0) {
            uint8_t buf[4096];
            const ssize_t n = ::read(pty.master, buf, sizeof buf);
            for (ssize_t i = 0; i < n; ++i) {
                ++from_host;
                if (o.drop_every && from_host % o.drop_every == 0) { ++dropped; continue; }
                uint8_t b = buf[i];
                if (o.corrupt_every && from_host % o.corrupt_every == 0) { b ^= 1; ++corrupted; }
                if (!o.absent) rx.push_back(b);
            }
            if (!tx.empty()) {
                const ssize_t w = ::write(pty.master, tx.data(), tx.size());
                if (w > 0) tx.erase(tx.begin(), tx.begin() + w);
            }
            // The accelerator's done is low from reset to the end of the first run, and
            // during every run: the simulation keeps going then.
            const bool busy = !rx.empty() || !tx.empty() || top->host_bridge_busy || n > 0 ||
                              !top->host_accel_done;
            idle = busy ? 0 : idle + 64;
            // Nothing for a while (about 2 ms of the SoC's time at 60 MHz): wait for the host.
            if (idle > 131072) {
                pollfd p{pty.master, POLLIN, 0};
                ::poll(&p, 1, 2);
            }
        }
        top->host_rx_valid = !rx.empty();
        top->host_rx_data = rx.empty() ? 0 : rx.front();
        top->host_sdram_fault = o.sdram_fault;
        top->eval();
        const bool took = top->host_rx_valid && top->host_rx_ready;
        const bool gave = top->host_tx_valid && top->host_tx_ready;
        const uint8_t out = top->host_tx_data;
        tick();
        if (took) rx.pop_front();
        if (gave) {
            tx.push_back(out);
            ++to_host;
        }
        if (!ready_at && top->host_sdram_ready) ready_at = cycles;
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("accel_soc_sim: %llu cycles (%.3f s of the SoC's time) in %.1f s (%.0f cycles/s); "
                "SDRAM initialised at cycle %llu; %llu bytes from the host (%llu dropped, "
                "%llu corrupted), %llu to it\n",
                static_cast<unsigned long long>(cycles), static_cast<double>(cycles) / kClkHz, wall,
                static_cast<double>(cycles) / wall,
                static_cast<unsigned long long>(ready_at),
                static_cast<unsigned long long>(from_host),
                static_cast<unsigned long long>(dropped),
                static_cast<unsigned long long>(corrupted),
                static_cast<unsigned long long>(to_host));
    top->final();
    return 0;
}
