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


def _set_graph(field, values):
    def edit(model):
        g = model.subgraphs[0]
        setattr(g, field, np.array([len(g.tensors) if v == "past" else v for v in values],
                                   dtype=np.int32))
    return edit


# name -> (edit, a phrase of the error that refuses it)
REFUSALS = {
    "no_outputs": (_set_graph("outputs", []), "the model has no outputs"),
    "output_past_the_end": (_set_graph("outputs", ["past"]), "graph output tensor 18 does not exist"),
    "input_negative": (_set_graph("inputs", [-1]), "graph input tensor -1 does not exist"),
}


def mutate(model_path, name, out_path):
    """Writes `model_path` with the mutation `name` applied to `out_path`."""
    with open(model_path, "rb") as f:
        buf = f.read()
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(buf, 0))
    REFUSALS[name][0](model)
    builder = flatbuffers.Builder(len(buf))
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    with open(out_path, "wb") as f:
        f.write(builder.Output())


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
