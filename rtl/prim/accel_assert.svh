// Assertion macros (docs/architecture.md, "Conventions"), after lowRISC's prim_assert:
//
//   `ACCEL_ASSERT(name, prop, clk, rst)        concurrent: prop holds at every clk edge
//                                             outside reset (disable iff rst)
//   `ACCEL_ASSERT_KNOWN(name, sig, clk, rst)   sig is never X or Z outside reset
//   `ACCEL_ASSERT_INIT(name, prop)             prop holds at time 0 (parameters)
//
// They expand to nothing unless the design is compiled with ACCEL_ASSERT defined, as
// every simulation model and the Verilator lint of the kit are: synthesis never sees an
// assertion (Yosys 0.23 has no concurrent assertions). A failure prints the assertion's
// scope and its property.
//
// The define and the macro share the name ACCEL_ASSERT, as SystemVerilog has one name
// space for both: the first inclusion turns the define into ACCEL_ASSERT_ON and gives
// the name to the macro. Code that only exists for assertions (checker instances,
// scoreboards) sits in `ifdef ACCEL_ASSERT_ON, in a file that includes this one.
`ifndef ACCEL_ASSERT_SVH
`define ACCEL_ASSERT_SVH

`ifdef ACCEL_ASSERT
`define ACCEL_ASSERT_ON
`undef ACCEL_ASSERT
`endif

`ifdef ACCEL_ASSERT_ON

`define ACCEL_ASSERT(name, prop, clk, rst) \
    name: assert property (@(posedge clk) disable iff (rst) (prop)) \
        else $error("[%m] %s: %s", `"name`", `"prop`");

`define ACCEL_ASSERT_KNOWN(name, sig, clk, rst) \
    `ACCEL_ASSERT(name, !$isunknown(sig), clk, rst)

`define ACCEL_ASSERT_INIT(name, prop) \
    initial begin : name \
        assert (prop) else $error("[%m] %s: %s", `"name`", `"prop`"); \
    end

`else

`define ACCEL_ASSERT(name, prop, clk, rst)
`define ACCEL_ASSERT_KNOWN(name, sig, clk, rst)
`define ACCEL_ASSERT_INIT(name, prop)

`endif

`endif  // ACCEL_ASSERT_SVH
