"""Named edits of a generated model's fields, as an adversarial user makes them: the
regression inputs of the kit's model validation (docs/reliability.md).

    mutate_model.py MODEL.tflite MUTATION OUT.tflite     (--list: the mutations)

Each mutation edits the digits model (make-models) through LiteRT's flatbuffer object
API, leaving the rest of the file as the converter wrote it. REFUSALS pairs each with a
phrase that the kit's one-line error must contain.
"""

import sys

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema


def _ops(model, builtin):
    """The subgraph's operators of one builtin code, in order."""
    g = model.subgraphs[0]
    return [op for op in g.operators if model.operatorCodes[op.opcodeIndex].builtinCode == builtin]


def _output_of(model, builtin):
    """The output tensor of the first operator of `builtin`."""
    return model.subgraphs[0].tensors[_ops(model, builtin)[0].outputs[0]]


def _set_shape(builtin, shape):
    def edit(model):
        _output_of(model, builtin).shape = np.array(shape, dtype=np.int32)
    return edit


def _set_graph(field, values):
    def edit(model):
        g = model.subgraphs[0]
        setattr(g, field, np.array([len(g.tensors) if v == "past" else v for v in values],
                                   dtype=np.int32))
    return edit


def _conv_stride_w(model):
    _ops(model, schema.BuiltinOperator.CONV_2D)[0].builtinOptions.strideW = 127


def _quantized_dimension(model):
    _output_of(model, schema.BuiltinOperator.FULLY_CONNECTED).quantization.quantizedDimension = 3


def _scale(value, builtin=schema.BuiltinOperator.MAX_POOL_2D):
    def edit(model):
        _output_of(model, builtin).quantization.scale = np.array([value], dtype=np.float32)
    return edit


FC = schema.BuiltinOperator.FULLY_CONNECTED
RESHAPE = schema.BuiltinOperator.RESHAPE

# name -> (edit, a phrase of the error that refuses it)
REFUSALS = {
    "no_outputs": (_set_graph("outputs", []), "the model has no outputs"),
    "output_past_the_end": (_set_graph("outputs", ["past"]), "graph output tensor 18 does not exist"),
    "input_negative": (_set_graph("inputs", [-1]), "graph input tensor -1 does not exist"),
    "fc_output_1x1": (_set_shape(FC, [1, 1]),
                      "operator 6 (FULLY_CONNECTED): output tensor 16"),
    "fc_output_rank_6": (_set_shape(FC, [8, 2, 1, 1, 8, 2]),
                         "operator 6 (FULLY_CONNECTED): output tensor 16"),
    "fc_output_huge": (_set_shape(FC, [1, 1000000000]),
                       "operator 6 (FULLY_CONNECTED): output tensor 16"),
    "conv_stride_w_127": (_conv_stride_w, "operator 0 (CONV_2D): output tensor 10"),
    "reshape_output_huge": (_set_shape(RESHAPE, [1, 2147483647]),
                            "operator 5 (RESHAPE): output tensor 15"),
    "scale_nan": (_scale(float("nan")), "quantization scale nan is not positive"),
    "scale_inf": (_scale(float("inf")), "quantization scale inf is not positive"),
    "quantized_dimension_3": (_quantized_dimension,
                              "tensor 16 (digits_1/fc_1/MatMul;digits_1/fc_1/BiasAdd): quantized "
                              "dimension 3 is out of range for rank 2"),
    # Quantizations TFLite's Prepare refuses: a pool that rescales, a softmax not in 1/256.
    "maxpool_rescales": (_scale(0.5), "operator 2 (MAX_POOL_2D): pool2d: output quantization"),
    "softmax_output_scale": (_scale(0.5, schema.BuiltinOperator.SOFTMAX),
                             "operator 7 (SOFTMAX): softmax: output scale 0.5"),
}


def mutate(model_path, name, out_path):
    """Writes `model_path` with the mutation `name` applied to `out_path`."""
    edit_model(model_path, REFUSALS[name][0], out_path)


def edit_model(model_path, edit, out_path):
    """Writes `model_path` with `edit` (a function of the ModelT) applied to `out_path`."""
    model = load_model(model_path)
    edit(model)
    with open(out_path, "wb") as f:
        f.write(model_bytes(model))


def load_model(path):
    """The model file as LiteRT's object API reads it (a ModelT)."""
    with open(path, "rb") as f:
        return schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(f.read(), 0))


def model_bytes(model):
    """A ModelT as a .tflite file's bytes."""
    builder = flatbuffers.Builder(4096)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def main(argv):
    if argv[1:] == ["--list"]:
        print("\n".join(REFUSALS))
        return 0
    if len(argv) != 4 or argv[2] not in REFUSALS:
        print(f"error: usage: mutate_model.py MODEL.tflite ({'|'.join(REFUSALS)}) OUT.tflite",
              file=sys.stderr)
        return 2
    mutate(argv[1], argv[2], argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
