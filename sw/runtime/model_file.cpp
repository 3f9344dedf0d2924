#include "runtime/model_file.hpp"

#include <fmt/format.h>

#include "base/error.hpp"
#include "formats/tflite_reader.hpp"
#include "reference/constant_folding.hpp"
#include "reference/model_check.hpp"

namespace accel {

graph::Model read_model(const std::string& path) {
    graph::Model model = read_tflite(path);
    try {
        reference::fold_shape_computations(model);
        reference::check_model(model);
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}", path, e.what()));
    }
    return model;
}

}  // namespace accel
