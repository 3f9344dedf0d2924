// A behavioural model of the ECP5 sysMEM block RAM, DP16KD, for simulating Yosys'
// synth_ecp5 netlists (Yosys ships the cell only as a blackbox). It models the
// configurations Yosys' ECP5 mapping instantiates (share/lattice/brams_16kd.txt and
// brams_map_16kd.v) and stops elaboration, or the simulation, on anything else:
//
//   true dual port ($__DP16KD_)   each port reads and writes at its own width, 1, 2, 4, 9
//                                 or 18 bits; WRITEMODE says what a port reads while it
//                                 writes (NORMAL: its output holds, WRITETHROUGH: the new
//                                 data, READBEFOREWRITE: the old); in x18 mode AD1..AD0 are
//                                 the two 9-bit byte enables of a write
//   pseudo dual port ($__PDPW16KD_, DATA_WIDTH_A = 36)  port A only writes, 36 bits
//                                 ({DIB, DIA}, AD3..AD0 the four byte enables, AD13..AD5 the
//                                 address); port B only reads, 36 bits onto {DOB, DOA}, or
//                                 narrower onto the low bits of DOB
//
// and in both: no output register (REGMODE NOREG, so OCE does nothing), the read latch
// reset to 0 by RST (RESETMODE SYNC: at the clock edge, whatever CE; ASYNC: at once),
// chip select decode 0b000 with the CS pins at 0, a clock (optionally inverted) shared by
// both ports. The addresses are in units of the port's width over one 18 Kbit array:
// a wider word is two narrower ones, the lower address in the lower bits, and a 9-bit
// word is two 4-bit words and a 9th bit (Yosys' memory_libmap assumes this layout).
//
// What the block does not define is made visible rather than guessed: a read of bits the
// other port writes in the same cycle returns random bits ($urandom; Yosys declares no
// write transparency between the ports, so its netlist must not depend on them), and the
// initial contents and read latches are left uninitialised, so Verilator's --x-initial
// unique randomizes them (the device loads zeros at configuration, but a design that
// needs them is wrong after any reset but the first). Outputs no mode drives are X.
`default_nettype none

// What a mode does not read -- pins (OCE without an output register), parameters (GSR,
// WID), the other port's latch, fields of an access -- is unused on purpose.
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
module DP16KD #(
    parameter DATA_WIDTH_A = 18,
    parameter DATA_WIDTH_B = 18,
    parameter string REGMODE_A = "NOREG",
    parameter string REGMODE_B = "NOREG",
    parameter string RESETMODE = "SYNC",
    parameter string ASYNC_RESET_RELEASE = "SYNC",
    parameter string CSDECODE_A = "0b000",
    parameter string CSDECODE_B = "0b000",
    parameter string WRITEMODE_A = "NORMAL",
    parameter string WRITEMODE_B = "NORMAL",
    parameter string CLKAMUX = "CLKA",
    parameter string CLKBMUX = "CLKB",
    // The other input muxes Yosys never sets; a netlist that sets one of those not
    // declared here (the data and address pins') fails to elaborate.
    parameter string CEAMUX = "CEA",
    parameter string CEBMUX = "CEB",
    parameter string OCEAMUX = "OCEA",
    parameter string OCEBMUX = "OCEB",
    parameter string WEAMUX = "WEA",
    parameter string WEBMUX = "WEB",
    parameter string RSTAMUX = "RSTA",
    parameter string RSTBMUX = "RSTB",
    parameter WID = 0,
    parameter string GSR = "ENABLED",
    parameter string INIT_DATA = "STATIC",
    parameter [319:0] INITVAL_00 = 320'h0, INITVAL_01 = 320'h0, INITVAL_02 = 320'h0, INITVAL_03 = 320'h0,
    parameter [319:0] INITVAL_04 = 320'h0, INITVAL_05 = 320'h0, INITVAL_06 = 320'h0, INITVAL_07 = 320'h0,
    parameter [319:0] INITVAL_08 = 320'h0, INITVAL_09 = 320'h0, INITVAL_0A = 320'h0, INITVAL_0B = 320'h0,
    parameter [319:0] INITVAL_0C = 320'h0, INITVAL_0D = 320'h0, INITVAL_0E = 320'h0, INITVAL_0F = 320'h0,
    parameter [319:0] INITVAL_10 = 320'h0, INITVAL_11 = 320'h0, INITVAL_12 = 320'h0, INITVAL_13 = 320'h0,
    parameter [319:0] INITVAL_14 = 320'h0, INITVAL_15 = 320'h0, INITVAL_16 = 320'h0, INITVAL_17 = 320'h0,
    parameter [319:0] INITVAL_18 = 320'h0, INITVAL_19 = 320'h0, INITVAL_1A = 320'h0, INITVAL_1B = 320'h0,
    parameter [319:0] INITVAL_1C = 320'h0, INITVAL_1D = 320'h0, INITVAL_1E = 320'h0, INITVAL_1F = 320'h0,
    parameter [319:0] INITVAL_20 = 320'h0, INITVAL_21 = 320'h0, INITVAL_22 = 320'h0, INITVAL_23 = 320'h0,
    parameter [319:0] INITVAL_24 = 320'h0, INITVAL_25 = 320'h0, INITVAL_26 = 320'h0, INITVAL_27 = 320'h0,
    parameter [319:0] INITVAL_28 = 320'h0, INITVAL_29 = 320'h0, INITVAL_2A = 320'h0, INITVAL_2B = 320'h0,
    parameter [319:0] INITVAL_2C = 320'h0, INITVAL_2D = 320'h0, INITVAL_2E = 320'h0, INITVAL_2F = 320'h0,
    parameter [319:0] INITVAL_30 = 320'h0, INITVAL_31 = 320'h0, INITVAL_32 = 320'h0, INITVAL_33 = 320'h0,
    parameter [319:0] INITVAL_34 = 320'h0, INITVAL_35 = 320'h0, INITVAL_36 = 320'h0, INITVAL_37 = 320'h0,
    parameter [319:0] INITVAL_38 = 320'h0, INITVAL_39 = 320'h0, INITVAL_3A = 320'h0, INITVAL_3B = 320'h0,
    parameter [319:0] INITVAL_3C = 320'h0, INITVAL_3D = 320'h0, INITVAL_3E = 320'h0, INITVAL_3F = 320'h0
) (
    input  wire DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9,
    input  wire DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
    input  wire ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5,
    input  wire ADA4, ADA3, ADA2, ADA1, ADA0,
    input  wire CEA, OCEA, CLKA, WEA, RSTA, CSA2, CSA1, CSA0,
    output wire DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9,
    output wire DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
    input  wire DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9,
    input  wire DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
    input  wire ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5,
    input  wire ADB4, ADB3, ADB2, ADB1, ADB0,
    input  wire CEB, OCEB, CLKB, WEB, RSTB, CSB2, CSB1, CSB0,
    output wire DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9,
    output wire DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);
/* verilator lint_on UNUSEDPARAM */
    localparam int WA = DATA_WIDTH_A;
    localparam int WB = DATA_WIDTH_B;
    localparam bit PSEUDO = WA == 36;  // port A writes, port B reads
    localparam bit ASYNC_RESET = RESETMODE == "ASYNC";
    localparam bit [319:0] ANY_INIT =
        INITVAL_00 | INITVAL_01 | INITVAL_02 | INITVAL_03 | INITVAL_04 | INITVAL_05 | INITVAL_06 |
        INITVAL_07 | INITVAL_08 | INITVAL_09 | INITVAL_0A | INITVAL_0B | INITVAL_0C | INITVAL_0D |
        INITVAL_0E | INITVAL_0F | INITVAL_10 | INITVAL_11 | INITVAL_12 | INITVAL_13 | INITVAL_14 |
        INITVAL_15 | INITVAL_16 | INITVAL_17 | INITVAL_18 | INITVAL_19 | INITVAL_1A | INITVAL_1B |
        INITVAL_1C | INITVAL_1D | INITVAL_1E | INITVAL_1F | INITVAL_20 | INITVAL_21 | INITVAL_22 |
        INITVAL_23 | INITVAL_24 | INITVAL_25 | INITVAL_26 | INITVAL_27 | INITVAL_28 | INITVAL_29 |
        INITVAL_2A | INITVAL_2B | INITVAL_2C | INITVAL_2D | INITVAL_2E | INITVAL_2F | INITVAL_30 |
        INITVAL_31 | INITVAL_32 | INITVAL_33 | INITVAL_34 | INITVAL_35 | INITVAL_36 | INITVAL_37 |
        INITVAL_38 | INITVAL_39 | INITVAL_3A | INITVAL_3B | INITVAL_3C | INITVAL_3D | INITVAL_3E |
        INITVAL_3F;

    localparam int NORMAL = 0, WRITETHROUGH = 1, READBEFOREWRITE = 2, UNKNOWN = 3;
    localparam int MODE_A = WRITEMODE_A == "NORMAL" ? NORMAL
                          : WRITEMODE_A == "WRITETHROUGH" ? WRITETHROUGH
                          : WRITEMODE_A == "READBEFOREWRITE" ? READBEFOREWRITE : UNKNOWN;
    localparam int MODE_B = WRITEMODE_B == "NORMAL" ? NORMAL
                          : WRITEMODE_B == "WRITETHROUGH" ? WRITETHROUGH
                          : WRITEMODE_B == "READBEFOREWRITE" ? READBEFOREWRITE : UNKNOWN;
    function automatic bit legal_width(int w);
        return w == 1 || w == 2 || w == 4 || w == 9 || w == 18 || w == 36;
    endfunction

    // The configuration, checked while Verilator elaborates the netlist.
    if (!legal_width(WA) || !legal_width(WB) || (WB == 36 && !PSEUDO))
        $error("DP16KD: DATA_WIDTH_A %0d, DATA_WIDTH_B %0d: not a mode Yosys maps to", WA, WB);
    // The 1/2/4-bit modes see 8 of a 9-bit word's bits, the 9/18/36-bit ones all 9: a mix
    // of the two families would need the silicon's bit order, which no document gives.
    if ((WA < 9) != (WB < 9))
        $error("DP16KD: widths %0d and %0d mix the 1/2/4 and 9/18/36 families: not modelled",
               WA, WB);
    if (REGMODE_A != "NOREG" || REGMODE_B != "NOREG")
        $error("DP16KD: REGMODE %s/%s: only NOREG (no output register) is modelled",
               REGMODE_A, REGMODE_B);
    if ((RESETMODE != "SYNC" && RESETMODE != "ASYNC") ||
        (ASYNC_RESET_RELEASE != "SYNC" && ASYNC_RESET_RELEASE != "ASYNC"))
        $error("DP16KD: RESETMODE %s, ASYNC_RESET_RELEASE %s: not modelled", RESETMODE,
               ASYNC_RESET_RELEASE);
    if (CSDECODE_A != "0b000" || CSDECODE_B != "0b000")
        $error("DP16KD: CSDECODE %s/%s: only 0b000 is modelled", CSDECODE_A, CSDECODE_B);
    if (MODE_A == UNKNOWN || MODE_B == UNKNOWN)
        $error("DP16KD: WRITEMODE %s/%s: not modelled", WRITEMODE_A, WRITEMODE_B);
    if ((CLKAMUX != "CLKA" && CLKAMUX != "INV") || (CLKBMUX != "CLKB" && CLKBMUX != "INV"))
        $error("DP16KD: CLKAMUX %s, CLKBMUX %s: not modelled", CLKAMUX, CLKBMUX);
    if (CEAMUX != "CEA" || CEBMUX != "CEB" || OCEAMUX != "OCEA" || OCEBMUX != "OCEB" ||
        WEAMUX != "WEA" || WEBMUX != "WEB" || RSTAMUX != "RSTA" || RSTBMUX != "RSTB")
        $error("DP16KD: an inverted or constant control input mux is not modelled");
    if (INIT_DATA != "STATIC" || ANY_INIT != 0)
        $error("DP16KD: initial contents (INITVAL_*, INIT_DATA %s) are not modelled", INIT_DATA);

    wire [17:0] dia = {DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9,
                       DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0};
    wire [17:0] dib = {DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9,
                       DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0};
    wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5,
                       ADA4, ADA3, ADA2, ADA1, ADA0};
    wire [13:0] adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5,
                       ADB4, ADB3, ADB2, ADB1, ADB0};
    wire [2:0] cs_a = {CSA2, CSA1, CSA0};
    wire [2:0] cs_b = {CSB2, CSB1, CSB0};
    wire clk_a = CLKAMUX == "INV" ? !CLKA : CLKA;
    wire clk_b = CLKBMUX == "INV" ? !CLKB : CLKB;

    // One 18 Kbit array as 1,024 words of 18 bits. Left uninitialised on purpose (above).
    logic [17:0] mem[1024];
    // The read latches: port A's (true dual port) and port B's, which in pseudo dual port
    // mode holds all 36 bits.
    logic [35:0] latch_a, latch_b;

    // The array word and bit that data bit i of a width-w access at address ad holds.
    function automatic int word_of(int w, logic [13:0] ad, int i);
        case (w)
            36: return 2 * int'(ad[13:5]) + i / 18;
            18, 9: return int'(ad[13:4]);
            default: return ((int'(ad) & ~(w - 1)) + i) >> 4;  // 16 data bits to a word
        endcase
    endfunction
    function automatic int bit_of(int w, logic [13:0] ad, int i);
        case (w)
            36: return i % 18;
            18: return i;
            9: return 9 * int'(ad[3]) + i;
            default: begin  // 8 data bits in each 9-bit half
                automatic int data_bit = (int'(ad) & ~(w - 1)) + i;
                return 9 * ((data_bit >> 3) & 1) + (data_bit & 7);
            end
        endcase
    endfunction

    // The data bits a write changes: all, or the 9-bit bytes that AD1..AD0 (x18) or AD3..AD0
    // (x36) enable.
    function automatic logic [35:0] enabled_bits(int w, logic [13:0] ad);
        logic [35:0] bits = '1;
        for (int b = 0; b < 4; b++) begin
            if (w == 36 || (w == 18 && b < 2)) bits[9 * b +: 9] = {9{ad[b]}};
        end
        return bits;
    endfunction

    // One port's access at a clock edge.
    typedef struct packed {
        logic        reads, writes;
        logic [13:0] ad;
        logic [35:0] data;     // to write
        logic [35:0] enabled;  // the data bits a write changes
    } access_t;

    // Where a write lands: the bits it changes in the two array words from `first` on.
    typedef struct packed {
        logic [9:0]  first;
        logic [35:0] bits;  // [17:0] in word first, [35:18] in word first + 1
    } footprint_t;
    function automatic footprint_t footprint_of(int w, access_t a);
        footprint_t f;
        f.first = 10'(word_of(w, a.ad, 0));
        f.bits = '0;
        if (a.writes) begin
            for (int j = 0; j < w; j++) begin
                if (a.enabled[j]) f.bits[18 * (word_of(w, a.ad, j) - int'(f.first)) + bit_of(w, a.ad, j)] = 1'b1;
            end
        end
        return f;
    endfunction

    function automatic logic [35:0] read_word(int w, logic [13:0] ad);
        logic [35:0] d = '0;
        case (w)
            36: d = {mem[2 * int'(ad[13:5]) + 1], mem[2 * int'(ad[13:5])]};
            18: d[17:0] = mem[ad[13:4]];
            9: d[8:0] = mem[ad[13:4]][9 * int'(ad[3]) +: 9];
            default: for (int i = 0; i < w; i++) d[i] = mem[word_of(w, ad, i)][bit_of(w, ad, i)];
        endcase
        return d;
    endfunction

    // The bits of a width-w read at ad that a write with footprint f changes.
    function automatic logic [35:0] overwritten(int w, logic [13:0] ad, footprint_t f);
        logic [35:0] hit = '0;
        if (f.bits == '0) return hit;
        for (int i = 0; i < w; i++) begin
            automatic int k = word_of(w, ad, i) - int'(f.first);
            if (k == 0 || k == 1) hit[i] = f.bits[18 * k + bit_of(w, ad, i)];
        end
        return hit;
    endfunction

    // Blocking: the one process that touches the array does every read of an edge first.
    /* verilator lint_off BLKSEQ */
    function automatic void write_word(int w, access_t a);
        for (int i = 0; i < w; i++) begin
            if (a.enabled[i]) mem[word_of(w, a.ad, i)][bit_of(w, a.ad, i)] = a.data[i];
        end
    endfunction
    /* verilator lint_on BLKSEQ */

    // What a port's latch takes at an edge: the array's old contents or, for a port that
    // writes as well, what its WRITEMODE says; the bits the other port writes are random.
    function automatic logic [35:0] read_result(int w, int mode, access_t self, logic [35:0] held,
                                                footprint_t other);
        logic [35:0] value = read_word(w, self.ad);
        logic [35:0] hit = overwritten(w, self.ad, other);
        if (self.writes && mode == NORMAL) return held;
        if (self.writes && mode == WRITETHROUGH)
            value = (value & ~self.enabled) | (self.data & self.enabled);
        return (value & ~hit) | ({4'($urandom), $urandom} & hit);
    endfunction

    access_t port_a, port_b;
    always_comb begin
        port_a.ad = ada;
        port_a.data = PSEUDO ? {dib, dia} : {18'b0, dia};
        port_a.enabled = enabled_bits(WA, ada);
        port_a.writes = CEA && WEA;
        port_a.reads = CEA && !PSEUDO;
        port_b.ad = adb;
        port_b.data = {18'b0, dib};
        port_b.enabled = enabled_bits(WB, adb);
        port_b.writes = CEB && WEB && !PSEUDO;
        port_b.reads = CEB;
    end

    always @(posedge clk_a) begin
        automatic footprint_t written_a = footprint_of(WA, port_a);
        automatic footprint_t written_b = footprint_of(WB, port_b);
        if (!clk_b) $error("DP16KD %m: the ports' clocks differ: only a shared clock is modelled");
        if (cs_a != 3'b000 || cs_b != 3'b000)
            $error("DP16KD %m: a chip select pin is 1: only CS = 0b000 is modelled");
        if (PSEUDO && (WEB || RSTA))
            $error("DP16KD %m: pseudo dual port: port B writes or port A resets: not modelled");
        if (port_a.writes && |(overwritten(WA, port_a.ad, written_b) & port_a.enabled))
            $error("DP16KD %m: both ports write the same bits: not modelled");
        if (!ASYNC_RESET && ((RSTA && port_a.writes) || (RSTB && port_b.writes)))
            $error("DP16KD %m: a synchronous read reset while the port writes: not modelled");

        // Reads first, from the old contents; then the writes.
        if (!PSEUDO) begin
            if (RSTA) latch_a <= '0;
            else if (port_a.reads) latch_a <= read_result(WA, MODE_A, port_a, latch_a, written_b);
        end
        if (RSTB) latch_b <= '0;
        else if (port_b.reads) latch_b <= read_result(WB, MODE_B, port_b, latch_b, written_a);
        if (port_a.writes) write_word(WA, port_a);
        if (port_b.writes) write_word(WB, port_b);
    end
    always @(posedge clk_b) begin
        if (!clk_a) $error("DP16KD %m: the ports' clocks differ: only a shared clock is modelled");
    end

    // RESETMODE ASYNC clears a latch as soon as its reset rises (and keeps it clear).
    wire [35:0] out_a = ASYNC_RESET && RSTA ? '0 : latch_a;
    wire [35:0] out_b = ASYNC_RESET && RSTB ? '0 : latch_b;
    logic [17:0] doa, dob;
    if (PSEUDO && WB == 36) begin : g_wide_read
        assign {dob, doa} = out_b;
    end else if (PSEUDO) begin : g_narrow_read
        always_comb begin
            doa = 'x;
            dob = 'x;
            dob[WB-1:0] = out_b[WB-1:0];
        end
    end else begin : g_dual_port
        always_comb begin
            doa = 'x;
            dob = 'x;
            doa[WA-1:0] = out_a[WA-1:0];
            dob[WB-1:0] = out_b[WB-1:0];
        end
    end
    assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9,
            DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} = doa;
    assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9,
            DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} = dob;
endmodule
/* verilator lint_on UNUSEDSIGNAL */

`default_nettype wire
