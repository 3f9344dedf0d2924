#!/usr/bin/env bash
# The generic synthesis' arguments (docs/explore.md, "The stages"), without synthesizing
# anything: scripts/explore/synth-cells refuses bad usage and an invalid config, and
# accel explore a bad --area or --synth-cells, each with one error line, exit 2 and
# nothing written. (Counting a recorded Yosys stat and serving the cache: explore_tests.)
#
#   tests/explore/cells_args.sh ACCEL SOURCE_DIR BUILD_DIR
source "$(dirname "$0")/common.sh"
build=$3

# expect_refusal WHAT MESSAGE COMMAND...: exit 2, one line starting error: with MESSAGE.
expect_refusal() {
  local what=$1 message=$2; shift 2
  local rc=0
  "$@" > /dev/null 2> "$work/err.txt" || rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l < "$work/err.txt")" -eq 1 ] &&
    grep -q "^error: .*$message" "$work/err.txt" ||
    { echo "FAIL: $what: exit $rc, want 2 and one line with '$message':" >&2
      cat "$work/err.txt" >&2; exit 1; }
}

cells="$src/scripts/explore/synth-cells"
expect_refusal "synth-cells without OUT" "usage" "$cells" "$src/configs/hw/tiny.yaml"
expect_refusal "synth-cells on a config name" "not a .yaml file" "$cells" tiny "$work/c" "$build"
sed 's/block_in: 4/block_in: 3/' "$src/configs/hw/tiny.yaml" > "$work/bad.yaml"
expect_refusal "synth-cells on an invalid config" "block_in" "$cells" "$work/bad.yaml" "$work/c" "$build"
[ ! -e "$work/c" ] || { echo "FAIL: synth-cells wrote $work/c for an invalid config" >&2; exit 1; }

space="$src/tests/explore/small_space.yaml"
expect_refusal "--area luts" "--area 'luts'" \
    "$accel" explore --space "$space" --suite resnet18 --out "$work/o" --area luts
expect_refusal "--synth-cells -1" "--synth-cells" \
    "$accel" explore --space "$space" --suite resnet18 --out "$work/o" --synth-cells -1
[ ! -e "$work/o" ] || { echo "FAIL: accel explore wrote $work/o for a bad option" >&2; exit 1; }
echo "synth-cells and accel explore refuse bad arguments, writing nothing"
