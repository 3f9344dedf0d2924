#!/usr/bin/env bash
# The Slurm engine against the local one (docs/explore.md, "Running on a cluster"): a
# real single-node Slurm (scripts/slurm-local) runs a small sweep as an sbatch array,
# GNU parallel runs the same sweep with another chunking, and every point's results
# must be byte-identical. The cluster is torn down whatever happens.
#
#   tests/explore/slurm_matches_local.sh ACCEL SOURCE_DIR
set -euo pipefail
accel=$1
src=$2
work=$(mktemp -d)
cleanup() { "$src/scripts/slurm-local" stop "$work/slurm" || true; rm -rf "$work"; }
trap cleanup EXIT

eval "$("$src/scripts/slurm-local" start "$work/slurm")"
cp "$src/tests/explore/small_space.yaml" "$work/space.yaml"

"$accel" explore --space "$work/space.yaml" --suite resnet18 --out "$work/slurm-out" \
    --engine slurm --chunk 8 > "$work/slurm.txt"
"$accel" explore --space "$work/space.yaml" --suite resnet18 --out "$work/local-out" \
    --engine local --chunk 5 > "$work/local.txt"

jobs=$(ls "$work/slurm-out/jobs/logs"/slurm-1-*.out | wc -l)
[ "$jobs" -eq 4 ] || { echo "FAIL: Slurm ran $jobs array tasks, want 4" >&2; exit 1; }
# The 16 points of the 32-bit bus are valid; the 16 of the 128-bit bus name the key.
valid=$(grep -c '^[0-9]*,[0-9a-f]*,[0-9,]*,1,[0-9]' "$work/slurm-out/points.csv" || true)
invalid=$(grep -c "key 'axi.data_bits'" "$work/slurm-out/points.csv" || true)
[ "$valid" -eq 16 ] && [ "$invalid" -eq 16 ] ||
  { echo "FAIL: $valid valid and $invalid invalid points, want 16 and 16" >&2; exit 1; }
cmp "$work/slurm-out/points.csv" "$work/local-out/points.csv" ||
  { echo "FAIL: points.csv differs between --engine slurm and --engine local" >&2; exit 1; }
cmp "$work/slurm-out/points.json" "$work/local-out/points.json"
cmp "$work/slurm.txt" "$work/local.txt"
echo "slurm and local agree on $(($(wc -l < "$work/local-out/points.csv") - 1)) points ($valid valid)"
