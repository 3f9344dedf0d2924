// A whole int8 network as the kit imports it: tensors, operators in execution order,
// and the graph's inputs and outputs. The contract between model readers
// (formats/tflite_reader.hpp) and the graph compiler; it mirrors TFLite's model closely
// (tensor indices, NHWC shapes, TFLite's operator names and options) so that nothing
// is lost in translation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace accel::graph {

// Far beyond any model the kit runs: readers refuse a tensor with more elements, and the
// model check (reference/model_check.hpp) tensors whose bytes add up to more, so that no
// element count, byte size or offset overflows.
constexpr int64_t kMaxTensorElements = int64_t{1} << 40;

enum class DType { Int8, UInt8, Int16, Int32, Int64, Float32, Bool, Other };
const char* dtype_name(DType);  // "int8", "float32", ...
size_t dtype_size(DType);       // bytes per element; 0 for Other

// TFLite's QuantizationParameters: real = scale * (q - zero_point). Empty when the
// tensor is not quantized; one entry per slice along `axis` when per-channel.
struct Quantization {
    std::vector<float> scale;
    std::vector<int64_t> zero_point;
    int32_t axis = 0;  // quantized_dimension, meaningful when per-channel
    bool per_channel() const { return scale.size() > 1; }
    bool empty() const { return scale.empty(); }
};

struct TensorDesc {
    std::string name;
    DType type = DType::Other;
    std::vector<int64_t> shape;
    Quantization quant;
    std::vector<uint8_t> data;  // the constant's bytes (little-endian); empty for activations
    bool is_constant() const { return !data.empty(); }
    int64_t element_count() const;  // product of the shape, 1 for a scalar (readers bound it)
};

enum class OpKind {
    Conv2d,
    DepthwiseConv2d,
    FullyConnected,
    Add,
    MaxPool2d,
    AveragePool2d,
    Mean,
    Pad,
    Reshape,
    Softmax,
    Quantize,
    Dequantize,
    Concatenation,
    // Shapes: int32 results that reference/constant_folding.hpp computes at compile time.
    Shape,
    StridedSlice,
    Pack,
    // Element-wise operators of one int8 input (each a function of the input's 256 values).
    Logistic,
    Tanh,
    HardSwish,
    LeakyRelu,
    Mul,
    ResizeNearestNeighbor,
    // Element-wise binary operators, broadcasting as ADD and MUL do.
    Sub,
    Maximum,
    Minimum,
    SquaredDifference,
    Prelu,
    // More element-wise operators of one int8 input.
    Abs,
    Relu,
    Relu6,
    ReluN1To1,
    Exp,
    Rsqrt,
    // Data movers: the values copied, the quantization unchanged.
    Squeeze,
    ExpandDims,
    Transpose,
    Slice,
    // Operators with several outputs (Operator::outputs, one tensor each).
    Split,
    SplitV,
    Unpack,
};
const char* op_kind_name(OpKind);  // TFLite's names: "CONV_2D", "DEPTHWISE_CONV_2D", ...

enum class Padding { Same, Valid };
const char* padding_name(Padding);  // "SAME", "VALID"

enum class Activation { None, Relu, Relu6, ReluN1To1 };
const char* activation_name(Activation);  // TFLite's names: "NONE", "RELU", ...

struct Operator {
    int index = 0;  // position in the subgraph's operator list
    OpKind kind = OpKind::Conv2d;
    std::vector<int> inputs;  // tensor indices; -1 for an omitted optional input (no bias)
    std::vector<int> outputs;  // one but for SPLIT, SPLIT_V and UNPACK
    // Options; each operator kind fills those it has, the rest keep these defaults.
    Padding padding = Padding::Valid;
    int stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
    int filter_h = 1, filter_w = 1;  // pools
    int depth_multiplier = 1;        // depthwise
    Activation activation = Activation::None;
    int axis = 0;                // concatenation (may be negative as in TFLite)
    bool keep_dims = false;      // mean
    bool keep_num_dims = false;  // fully connected
    float beta = 1.0f;           // softmax
    // Reshape: ReshapeOptions.new_shape when the model gives it (TFLite reads it only
    // when no int32 shape vector is the second input).
    std::optional<std::vector<int64_t>> new_shape;
    // StridedSlice: StridedSliceOptions' bit masks, one bit per dimension.
    int32_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0,
            shrink_axis_mask = 0;
    bool slice_offset = false;  // StridedSliceOptions.offset: end counts from begin
    float alpha = 0.2f;         // leaky relu (TFLite's default)
    std::vector<int> squeeze_dims;  // squeeze: empty squeezes every dimension of 1
    int num = 0;  // split and split_v: num_splits; unpack: num (TFLite's names)
    bool align_corners = false, half_pixel_centers = false;  // resize
};

struct Model {
    std::vector<TensorDesc> tensors;
    std::vector<Operator> operators;  // in execution order
    std::vector<int> inputs, outputs;

    // The tensor at `index`; throws accel::Error when there is none.
    const TensorDesc& tensor(int index) const;
};

}  // namespace accel::graph
