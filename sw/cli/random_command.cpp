// accel random: a reproducible random int8/int32 tensor as .npy, so that a user (and
// `make sim`) can try a layer without NumPy.
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include "base/error.hpp"
#include "base/portable_random.hpp"
#include "formats/npy.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "shared_options.hpp"

namespace po = boost::program_options;

namespace accel::cli {
namespace {

struct RandomArgs {
    std::string shape, dtype = "int8", seed = "1", min, max, output;
};

template <typename T>
Tensor<T> random_tensor(std::vector<int64_t> shape, uint64_t seed, int64_t lo, int64_t hi) {
    Tensor<T> t(std::move(shape));
    PortableRandom rng(seed);  // the same file with every standard library
    for (T& v : t.data) v = static_cast<T>(rng.uniform(lo, hi));
    return t;
}

}  // namespace

int run_random(const std::vector<std::string>& args) {
    RandomArgs a;
    po::options_description d = command_options(
        "usage: accel random --shape D0,D1,... [--dtype int8|int32] [--seed N] "
        "[--min A] [--max B] --output T.npy\n\nWrites a uniformly random tensor.\n\noptions");
    d.add_options()
        ("shape", po::value(&a.shape), "comma-separated dimensions, 1 to 6 of them (required)")
        ("dtype", po::value(&a.dtype), "int8 or int32 (default int8)")
        ("seed", po::value(&a.seed), "random seed (default 1)")
        ("min", po::value(&a.min), "smallest value (default: the dtype's minimum)")
        ("max", po::value(&a.max), "largest value (default: the dtype's maximum)")
        ("output", po::value(&a.output), "the .npy file to write (required)");
    if (!parse_options(args, d)) return 0;
    if (a.shape.empty() || a.output.empty()) throw Error("--shape and --output are required");
    check_output_paths({{"--output", a.output}}, {});
    if (a.dtype != "int8" && a.dtype != "int32") {
        throw Error(fmt::format("--dtype {}: expected int8 or int32", a.dtype));
    }
    const bool i8 = a.dtype == "int8";
    const int64_t type_min = i8 ? -128 : INT32_MIN, type_max = i8 ? 127 : INT32_MAX;
    std::vector<int64_t> shape =
        parse_int_list("--shape", a.shape, {1, 2, 3, 4, 5, 6}, 1, int64_t{1} << 24);
    // Checked dimension by dimension: the product of six dimensions can wrap int64.
    constexpr int64_t kMaxElements = int64_t{1} << 30;
    int64_t elements = 1;
    for (const int64_t d : shape) {
        if (d > kMaxElements / elements) {
            throw Error(fmt::format("--shape {}: more than 2^30 elements", a.shape));
        }
        elements *= d;
    }
    const int64_t lo = a.min.empty() ? type_min : parse_int("--min", a.min, type_min, type_max);
    const int64_t hi = a.max.empty() ? type_max : parse_int("--max", a.max, type_min, type_max);
    if (lo > hi) throw Error(fmt::format("--min {} is above --max {}", lo, hi));
    const auto seed = static_cast<uint64_t>(parse_int("--seed", a.seed, 0, INT64_MAX));
    if (i8) {
        write_npy(a.output, random_tensor<int8_t>(std::move(shape), seed, lo, hi));
    } else {
        write_npy(a.output, random_tensor<int32_t>(std::move(shape), seed, lo, hi));
    }
    return 0;
}

}  // namespace accel::cli
