// docs/isa.md against the encoder: its field tables (the common header, LOAD, GEMM,
// DRAIN) name exactly the fields of isa::fields_of, at the same bits, and its error
// table the kinds of isa::ErrorCode -- so that the page a designer reads is the ISA.
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "hw/isa.hpp"

namespace accel {
namespace {

using Field = std::tuple<std::string, unsigned, unsigned>;  // name, lo, width

struct IsaDoc {
    std::map<std::string, std::vector<Field>> tables;  // by section: "header", "LOAD", ...
    std::vector<std::string> errors;                   // the error names, by kind from 1
};

// The field rows ("| `[lo +: w]` | `name` |", or "[lo]" for one bit) under each
// encoding heading, and the error table's names.
IsaDoc read_isa_doc() {
    std::ifstream in(std::string(ACCEL_SOURCE_DIR) + "/docs/isa.md");
    EXPECT_TRUE(in) << "cannot read docs/isa.md";
    const std::regex field(R"(^\| `\[(\d+)(?: \+: (\d+))?\]` \| `(\w+)` \|)");
    const std::regex error(R"(^\| (\d+) \| `(\w+)` \|)");
    IsaDoc doc;
    std::string section, line;
    while (std::getline(in, line)) {
        if (line.starts_with("#")) {
            section.clear();
            if (line.starts_with("### Common header")) section = "header";
            for (const char* op : {"LOAD", "GEMM", "DRAIN"}) {
                if (line.starts_with(std::string("### ") + op + " ")) section = op;
            }
            if (line == "## Errors") section = "errors";
            continue;
        }
        std::smatch m;
        if (section == "errors" && std::regex_search(line, m, error)) {
            EXPECT_EQ(std::stoul(m[1]), doc.errors.size() + 1) << line;
            doc.errors.push_back(m[2]);
        } else if (!section.empty() && std::regex_search(line, m, field)) {
            const unsigned width = m[2].matched ? static_cast<unsigned>(std::stoul(m[2])) : 1;
            doc.tables[section].emplace_back(m[3], static_cast<unsigned>(std::stoul(m[1])), width);
        }
    }
    return doc;
}

bool in_header(const std::string& name) {
    return name == "pop_prev" || name == "pop_next" || name == "push_prev" || name == "push_next";
}

TEST(IsaDoc, FieldTablesAreTheEncodersFields) {
    const IsaDoc doc = read_isa_doc();
    std::vector<Field> header{{"opcode", isa::kOpcodeLo, isa::kOpcodeBits}};
    for (const isa::FieldInfo& f : isa::fields_of(isa::Opcode::Load)) {
        if (in_header(f.name)) header.emplace_back(f.name, f.lo, f.width);
    }
    EXPECT_EQ(doc.tables.count("header") ? doc.tables.at("header") : std::vector<Field>{}, header);
    for (const auto& [op, name] : {std::pair{isa::Opcode::Load, "LOAD"},
                                   {isa::Opcode::Gemm, "GEMM"}, {isa::Opcode::Drain, "DRAIN"}}) {
        SCOPED_TRACE(name);
        std::vector<Field> want;
        for (const isa::FieldInfo& f : isa::fields_of(op)) {
            if (!in_header(f.name)) want.emplace_back(f.name, f.lo, f.width);
        }
        const auto it = doc.tables.find(name);
        ASSERT_NE(it, doc.tables.end()) << "no field table under '### " << name << " ...'";
        EXPECT_EQ(it->second, want);
    }
}

TEST(IsaDoc, ErrorTableNamesEveryKind) {
    const IsaDoc doc = read_isa_doc();
    std::vector<std::string> want;
    for (uint32_t kind = 1; kind <= isa::kErrorKinds; ++kind) {
        want.emplace_back(isa::error_name(static_cast<isa::ErrorCode>(kind)));
    }
    EXPECT_EQ(doc.errors, want);
}

}  // namespace
}  // namespace accel
