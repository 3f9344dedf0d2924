#include "graph/model.hpp"

#include <fmt/format.h>

#include "base/error.hpp"

namespace accel::graph {

const char* dtype_name(DType t) {
    switch (t) {
        case DType::Int8: return "int8";
        case DType::UInt8: return "uint8";
        case DType::Int16: return "int16";
        case DType::Int32: return "int32";
        case DType::Int64: return "int64";
        case DType::Float32: return "float32";
        case DType::Bool: return "bool";
        case DType::Other: break;
    }
    return "other";
}

size_t dtype_size(DType t) {
    switch (t) {
        case DType::Int8:
        case DType::UInt8:
        case DType::Bool: return 1;
        case DType::Int16: return 2;
        case DType::Int32:
        case DType::Float32: return 4;
        case DType::Int64: return 8;
        case DType::Other: break;
    }
    return 0;
}

const char* op_kind_name(OpKind k) {
    switch (k) {
        case OpKind::Conv2d: return "CONV_2D";
        case OpKind::DepthwiseConv2d: return "DEPTHWISE_CONV_2D";
        case OpKind::FullyConnected: return "FULLY_CONNECTED";
        case OpKind::Add: return "ADD";
        case OpKind::MaxPool2d: return "MAX_POOL_2D";
        case OpKind::AveragePool2d: return "AVERAGE_POOL_2D";
        case OpKind::Mean: return "MEAN";
        case OpKind::Pad: return "PAD";
        case OpKind::Reshape: return "RESHAPE";
        case OpKind::Softmax: return "SOFTMAX";
        case OpKind::Quantize: return "QUANTIZE";
        case OpKind::Dequantize: return "DEQUANTIZE";
        case OpKind::Concatenation: return "CONCATENATION";
        case OpKind::Shape: return "SHAPE";
        case OpKind::StridedSlice: return "STRIDED_SLICE";
        case OpKind::Pack: return "PACK";
        case OpKind::Logistic: return "LOGISTIC";
        case OpKind::Tanh: return "TANH";
        case OpKind::HardSwish: return "HARD_SWISH";
        case OpKind::LeakyRelu: return "LEAKY_RELU";
        case OpKind::Mul: return "MUL";
        case OpKind::ResizeNearestNeighbor: return "RESIZE_NEAREST_NEIGHBOR";
        case OpKind::Sub: return "SUB";
        case OpKind::Maximum: return "MAXIMUM";
        case OpKind::Minimum: return "MINIMUM";
        case OpKind::SquaredDifference: return "SQUARED_DIFFERENCE";
        case OpKind::Prelu: return "PRELU";
        case OpKind::Abs: return "ABS";
        case OpKind::Relu: return "RELU";
        case OpKind::Relu6: return "RELU6";
        case OpKind::ReluN1To1: return "RELU_N1_TO_1";
        case OpKind::Exp: return "EXP";
        case OpKind::Rsqrt: return "RSQRT";
        case OpKind::Squeeze: return "SQUEEZE";
        case OpKind::ExpandDims: return "EXPAND_DIMS";
        case OpKind::Transpose: return "TRANSPOSE";
        case OpKind::Slice: return "SLICE";
        case OpKind::Split: return "SPLIT";
        case OpKind::SplitV: return "SPLIT_V";
        case OpKind::Unpack: return "UNPACK";
    }
    return "?";
}

const char* padding_name(Padding p) { return p == Padding::Same ? "SAME" : "VALID"; }

const char* activation_name(Activation a) {
    switch (a) {
        case Activation::None: return "NONE";
        case Activation::Relu: return "RELU";
        case Activation::Relu6: return "RELU6";
        case Activation::ReluN1To1: return "RELU_N1_TO_1";
    }
    return "?";
}

int64_t TensorDesc::element_count() const {
    int64_t n = 1;
    for (const int64_t d : shape) n *= d;
    return n;
}

const TensorDesc& Model::tensor(int index) const {
    if (index < 0 || static_cast<size_t>(index) >= tensors.size()) {
        throw Error(fmt::format("tensor {} does not exist (the model has {} tensors)", index,
                                tensors.size()));
    }
    return tensors[static_cast<size_t>(index)];
}

}  // namespace accel::graph
