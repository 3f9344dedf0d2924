// accel.explore: the design-space sweep of `accel explore` (explore/explore.hpp), the
// same call the CLI makes. Its jobs run `accel explore-job`, so it needs the accel
// executable: by default the one built beside this module.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "explore/explore.hpp"
#include "bindings.hpp"

namespace accel::python {
namespace {

py::object explore(const std::string& space, const std::string& model, const std::string& suite,
                   const std::string& out, const std::vector<std::string>& budget,
                   const std::string& engine, int jobs, int64_t chunk, int synth, int route,
                   int confirm, int synth_cells, const std::string& area, const std::string& cache,
                   const std::string& accel) {
    explore::ExploreOptions o;
    o.space = space;
    o.model = model;
    o.suite = suite;
    o.out = out;
    o.budgets = budget;
    o.engine.engine = engine;
    o.engine.jobs = jobs;
    o.chunk_points = chunk;
    o.synth = synth;
    o.route = route;
    o.confirm = confirm;
    o.synth_cells = synth_cells;
    o.area = explore::parse_area_axis(area);
    o.flow = {ACCEL_SOURCE_DIR, ACCEL_BINARY_DIR,
              std::filesystem::absolute(cache.empty() ? std::string(ACCEL_BINARY_DIR) +
                                                            "/explore-cache"
                                                      : cache).string()};
    o.accel_executable = accel.empty() ? std::string(ACCEL_BINARY_DIR) + "/sw/accel" : accel;
    std::ostringstream log;
    const explore::SweepReport report =
        without_gil([&] { return explore::explore(o, log); });
    py::dict result = to_python(explore::sweep_json(report));  // points.json as dicts
    result["log"] = log.str();
    return result;
}

}  // namespace

void bind_explore(py::module_& m) {
    m.def("explore", &explore, py::arg("space"), py::arg("model"), py::arg("suite"),
          py::arg("out"), py::arg("budget"), py::arg("engine"), py::arg("jobs"),
          py::arg("chunk"), py::arg("synth"), py::arg("route"), py::arg("confirm"),
          py::arg("synth_cells"), py::arg("area"), py::arg("cache"), py::arg("accel"));
}

}  // namespace accel::python
