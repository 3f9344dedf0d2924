// The workload YAML (configs/workloads/*.yaml): the shipped ResNet-18 suite holds the
// layers of the issue, every malformed file is rejected naming the source and the key,
// and the generated layer data is reproducible and exercises the arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "formats/workload.hpp"
#include "ops/reference.hpp"
#include "yaml_rejection.hpp"

namespace {

const std::string kConfigDir = ACCEL_HW_CONFIG_DIR;  // configs/hw
const std::string kWorkloadDir = kConfigDir + "/../workloads";

const std::string kValid =
    "name: mini\n"
    "layers:\n"
    "  - name: A\n"
    "    h: 9\n"
    "    w: 7\n"
    "    cin: 5\n"
    "    cout: 6\n"
    "    kernel: 3\n"
    "    pad: 1\n"
    "    stride: 2\n"
    "  - {name: B, h: 4, w: 4, cin: 6, cout: 3, kernel: 1, pad: 0, stride: 1}\n";

const accel::test::YamlReader reader("w.yaml", accel::parse_workload, kValid);

struct Row {
    const char* name;
    int64_t h, w, cin, cout;
    int kernel, pad, stride;
};

// The table of the performance issue, typed in independently of the YAML.
const Row kResnet18[] = {
    {"C1", 224, 224, 3, 64, 7, 3, 2},     {"C2", 56, 56, 64, 64, 3, 1, 1},
    {"C3", 56, 56, 64, 128, 3, 1, 2},     {"C4", 56, 56, 64, 128, 1, 0, 2},
    {"C5", 28, 28, 128, 128, 3, 1, 1},    {"C6", 28, 28, 128, 256, 3, 1, 2},
    {"C7", 28, 28, 128, 256, 1, 0, 2},    {"C8", 14, 14, 256, 256, 3, 1, 1},
    {"C9", 14, 14, 256, 512, 3, 1, 2},    {"C10", 14, 14, 256, 512, 1, 0, 2},
    {"C11", 7, 7, 512, 512, 3, 1, 1},
};

void expect_resnet18(const accel::Workload& w) {
    EXPECT_EQ(w.name, "resnet18");
    EXPECT_EQ(w.batch, 1);
    ASSERT_EQ(w.layers.size(), std::size(kResnet18));
    for (size_t i = 0; i < w.layers.size(); ++i) {
        const accel::WorkloadLayer& l = w.layers[i];
        const Row& r = kResnet18[i];
        SCOPED_TRACE(r.name);
        EXPECT_EQ(l.name, r.name);
        EXPECT_EQ(l.h, r.h);
        EXPECT_EQ(l.w, r.w);
        EXPECT_EQ(l.cin, r.cin);
        EXPECT_EQ(l.cout, r.cout);
        EXPECT_EQ(l.kernel, r.kernel);
        EXPECT_EQ(l.pad, r.pad);
        EXPECT_EQ(l.stride, r.stride);
        EXPECT_EQ(l.dilation, 1);
        EXPECT_FALSE(l.relu);
    }
}

TEST(Workload, ShippedResnet18HasTheLayersOfTheIssue) {
    expect_resnet18(accel::load_workload(kWorkloadDir + "/resnet18.yaml"));
}

TEST(Workload, BuiltinResnet18IsTheShippedFile) {
    expect_resnet18(accel::builtin_workload("resnet18"));
    const auto names = accel::builtin_workload_names();
    EXPECT_NE(std::find(names.begin(), names.end(), "resnet18"), names.end());
}

TEST(Workload, UnknownSuiteNamesTheKnownOnes) {
    const std::string msg = accel::test::error_of([] { accel::builtin_workload("resnet99"); });
    EXPECT_NE(msg.find("resnet99"), std::string::npos) << msg;
    EXPECT_NE(msg.find("resnet18"), std::string::npos) << msg;
}

TEST(Workload, ResNet18OutputShapesAreTheNetworks) {
    const accel::Workload w = accel::builtin_workload("resnet18");
    // 224 -> 112 (stem), then 56, 28, 14, 7 for the stages.
    const int64_t want[] = {112, 56, 28, 28, 28, 14, 14, 14, 7, 7, 7};
    for (size_t i = 0; i < w.layers.size(); ++i) {
        const accel::Conv2dLayer c = accel::workload_conv2d(w, w.layers[i]);
        EXPECT_EQ(c.out_h(), want[i]) << w.layers[i].name;
        EXPECT_EQ(c.out_w(), want[i]) << w.layers[i].name;
    }
}

TEST(Workload, ParsesOptionalKeys) {
    const accel::Workload w = accel::parse_workload(
        reader.with("    stride: 2\n", "    stride: 2\n    dilation: 2\n    input_zero_point: -7\n"
                               "    output_zero_point: 3\n    scale: 0.001\n    relu: true\n") +
            "batch: 2\nseed: 42\n",
        "w.yaml");
    ASSERT_EQ(w.layers.size(), 2u);
    EXPECT_EQ(w.batch, 2);
    EXPECT_EQ(w.seed, 42u);
    const accel::WorkloadLayer& a = w.layers[0];
    EXPECT_EQ(a.dilation, 2);
    EXPECT_EQ(a.input_zero_point, -7);
    EXPECT_EQ(a.output_zero_point, 3);
    ASSERT_TRUE(a.scale.has_value());
    EXPECT_DOUBLE_EQ(*a.scale, 0.001);
    EXPECT_TRUE(a.relu);
    EXPECT_FALSE(w.layers[1].input_zero_point.has_value());
    EXPECT_FALSE(w.layers[1].scale.has_value());
    EXPECT_EQ(accel::describe(a), "9x7x5->6 3x3/2 d2");
    EXPECT_EQ(accel::describe(w.layers[1]), "4x4x6->3 1x1");

    const accel::WorkloadCase c = accel::make_workload_case(w, a);
    EXPECT_EQ(c.layer.shape.n, 2);
    EXPECT_EQ(c.layer.params.input_zero_point, -7);
    EXPECT_EQ(c.layer.params.output_zero_point, 3);
    EXPECT_EQ(c.layer.params.act_min, 3);
    EXPECT_EQ(c.layer.params.dilation_h, 2);
    // 0.001 = 0.512 * 2^-9: multiplier round(0.512 * 2^31), shift -9.
    for (size_t k = 0; k < 6; ++k) {
        EXPECT_EQ(c.layer.params.multiplier[k], 1099511628);
        EXPECT_EQ(c.layer.params.shift[k], -9);
    }
}

// A scale of 1 or more is TFLite's positive shift: 1.5 = 0.75 * 2^1.
TEST(Workload, ScalesAboveOneBecomePositiveShifts) {
    const accel::Workload w = accel::parse_workload(
        reader.with("    stride: 2\n", "    stride: 2\n    scale: 1.5\n"), "w.yaml");
    const accel::WorkloadCase c = accel::make_workload_case(w, w.layers[0]);
    for (size_t k = 0; k < 6; ++k) {
        EXPECT_EQ(c.layer.params.multiplier[k], 1610612736);
        EXPECT_EQ(c.layer.params.shift[k], 1);
    }
}

// Edits of kValid that leave a key unknown, missing, repeated or with a bad value.
const accel::test::BadEdit kBadEdits[] = {
    {"    pad: 1\n", "    pad: 1\n    padding: 1\n", "unknown key 'layers[0].padding'"},
    {"    cout: 6\n", "", "missing key 'layers[0].cout'"},
    {"kernel: 1, ", "", "missing key 'layers[1].kernel'"},
    {"name: mini\n", "", "missing key 'name'"},
    {"    h: 9\n", "    h: 9\n    h: 9\n", "duplicate key 'layers[0].h'"},
    {"cin: 5", "cin: 0", "key 'layers[0].cin': must be between"},
    {"cin: 5", "cin: five", "key 'layers[0].cin': expected an integer"},
    {"cin: 5", "cin: \"5\"", "layers[0].cin"},
    {"cin: 5", "cin: 5.5", "layers[0].cin"},
    {"stride: 2", "stride: 0", "layers[0].stride"},
    {"pad: 1", "pad: -1", "layers[0].pad"},
    // 2^30 would need a shift of 31; 0 and negative scales have none.
    {"stride: 2\n", "stride: 2\n    scale: 1073741824\n", "key 'layers[0].scale'"},
    {"stride: 2\n", "stride: 2\n    scale: 0\n", "key 'layers[0].scale'"},
    {"stride: 2\n", "stride: 2\n    scale: -0.5\n", "key 'layers[0].scale'"},
    {"stride: 2\n", "stride: 2\n    relu: yes\n", "key 'layers[0].relu'"},
    {"stride: 2\n", "stride: 2\n    input_zero_point: 128\n",
     "key 'layers[0].input_zero_point'"},
    {"name: B", "name: A", "duplicate layer name 'A'"},
    {"name: B", "name: \"B 2\"", "layers[1].name"},
    // A 9x9 kernel does not fit a 4x4 input with no padding: the output would be empty.
    {"kernel: 1, ", "kernel: 9, ", "layers[1]"},
    {"h: 9\n    w: 7\n    cin: 5", "h: 65536\n    w: 65536\n    cin: 64", "2^28 elements"},
};

TEST(Workload, RejectsBadKeysAndValues) {
    for (const accel::test::BadEdit& e : kBadEdits) EXPECT_TRUE(reader.rejects(e));
    EXPECT_TRUE(reader.rejects(kValid + "suite: x\n", "unknown key 'suite'"));
    EXPECT_TRUE(reader.rejects("name: x\nlayers: []\n", "key 'layers': expected a non-empty"));
    EXPECT_TRUE(reader.rejects("name: x\nlayers: 3\n", "key 'layers'"));
    EXPECT_TRUE(reader.rejects("- 1\n", "expected a mapping at top level"));
    EXPECT_TRUE(reader.rejects("name: [\n", "not valid YAML"));
}

// Shared with the hardware config (base/yaml_document.hpp): file bytes are escaped, and
// text that yaml-cpp 0.7's LoadAll never returns from is rejected at once.
TEST(Workload, RejectsHostileTextWithoutEchoingIt) {
    const std::string msg = reader.error_of(reader.with("name: mini", "name: mi\x1b[2Jni"));
    EXPECT_NE(msg.find("mi\\x1b[2Jni"), std::string::npos) << msg;
    EXPECT_TRUE(reader.rejects(",", "unexpected ','"));
    EXPECT_TRUE(reader.rejects("{a: 1}, b", "unexpected ','"));
}

TEST(Workload, MissingFileNamesIt) {
    const std::string msg =
        accel::test::error_of([] { accel::load_workload("/nonexistent/w.yaml"); });
    EXPECT_NE(msg.find("/nonexistent/w.yaml"), std::string::npos) << msg;
}

TEST(Workload, CasesAreReproducibleAndIndependentOfOtherLayers) {
    const accel::Workload w = accel::parse_workload(kValid, "w.yaml");
    const accel::WorkloadCase a1 = accel::make_workload_case(w, w.layers[0]);
    const accel::WorkloadCase a2 = accel::make_workload_case(w, w.layers[0]);
    EXPECT_EQ(a1.x.data, a2.x.data);
    EXPECT_EQ(a1.w.data, a2.w.data);
    EXPECT_EQ(a1.bias, a2.bias);
    EXPECT_EQ(a1.layer.params.multiplier, a2.layer.params.multiplier);

    // Layer A alone in another workload: the same data.
    const accel::Workload alone = accel::parse_workload(
        "name: other\nlayers:\n  - {name: A, h: 9, w: 7, cin: 5, cout: 6, kernel: 3, pad: 1, "
        "stride: 2}\n",
        "w.yaml");
    const accel::WorkloadCase a3 = accel::make_workload_case(alone, alone.layers[0]);
    EXPECT_EQ(a1.x.data, a3.x.data);
    EXPECT_EQ(a1.bias, a3.bias);

    // Another seed: other data.
    const accel::Workload reseeded = accel::parse_workload(kValid + "seed: 7\n", "w.yaml");
    EXPECT_NE(accel::make_workload_case(reseeded, reseeded.layers[0]).x.data, a1.x.data);

    // Fixing a zero point leaves the tensors alone.
    const accel::Workload fixed = accel::parse_workload(
        reader.with("    stride: 2\n", "    stride: 2\n    input_zero_point: 11\n"), "w.yaml");
    const accel::WorkloadCase a4 = accel::make_workload_case(fixed, fixed.layers[0]);
    EXPECT_EQ(a4.layer.params.input_zero_point, 11);
    EXPECT_EQ(a4.w.data, a1.w.data);
}

TEST(Workload, CaseDataExercisesTheArithmetic) {
    // A ResNet-like layer: the outputs must spread over int8, not clip or collapse.
    const accel::Workload w = accel::parse_workload(
        "name: spread\nlayers:\n  - {name: L, h: 12, w: 12, cin: 64, cout: 32, kernel: 3, "
        "pad: 1, stride: 1}\n",
        "w.yaml");
    const accel::WorkloadCase c = accel::make_workload_case(w, w.layers[0]);
    const accel::Conv2dParams& p = c.layer.params;
    EXPECT_NE(p.input_zero_point, 0);  // drawn from [-40, 40]; 0 for this seed would be bad luck
    EXPECT_GE(std::set<int32_t>(p.multiplier.begin(), p.multiplier.end()).size(), 16u)
        << "the requantization is per channel";
    const accel::TensorI8 y = accel::conv2d_reference(c.layer, c.x, c.w, c.bias);
    const std::set<int8_t> distinct(y.data.begin(), y.data.end());
    EXPECT_GE(distinct.size(), 150u);
    const auto clipped = std::count_if(y.data.begin(), y.data.end(),
                                       [](int8_t v) { return v == -128 || v == 127; });
    EXPECT_LT(static_cast<double>(clipped), 0.05 * static_cast<double>(y.size()));
    std::set<int8_t> x_values(c.x.data.begin(), c.x.data.end());
    EXPECT_EQ(x_values.size(), 256u);
}

}  // namespace
