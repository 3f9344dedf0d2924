#!/usr/bin/env bash
# The explorer's prediction for a shipped config is `accel run --report`'s: for each
# config of configs/hw/, a one-point space on it and `accel run --backend fsim --report`
# must give the same device_predicted_cycles for the model (MLPerf Tiny's ResNet-8).
#
#   tests/explore/matches_run_report.sh ACCEL SOURCE_DIR MODEL.tflite
source "$(dirname "$0")/common.sh"
model=$3

for yaml in "$src"/configs/hw/*.yaml; do
  config=$(basename "$yaml" .yaml)
  printf 'base: %s\naxes: {}\n' "$config" > "$work/$config.yaml"
  "$accel" explore --space "$work/$config.yaml" --model "$model" --out "$work/$config" \
      > /dev/null 2>&1
  "$accel" run "$model" --backend fsim --hw "$yaml" --report "$work/$config.json" > /dev/null
  python3 - "$work/$config/points.json" "$work/$config.json" "$config" <<'PY'
import json, sys
point = json.load(open(sys.argv[1]))["points"][0]
report = json.load(open(sys.argv[2]))["totals"]["device_predicted_cycles"]
if not point["valid"]:
    sys.exit(f"FAIL {sys.argv[3]}: the explorer calls the config invalid: {point['reason']}")
if point["cycles"] != report or report <= 0:
    sys.exit(f"FAIL {sys.argv[3]}: explore predicts {point['cycles']} cycles, "
             f"accel run --report {report}")
print(f"{sys.argv[3]}: {report} predicted cycles, both")
PY
done
