#!/usr/bin/env bash
# A job that fails (docs/explore.md, "Jobs") is run again, then reported: its points are
# rows saying so and the sweep completes with the rest. Chunk 3's result path is made a
# directory, so its job fails on every attempt.
#
#   tests/explore/failed_job.sh ACCEL SOURCE_DIR
source "$(dirname "$0")/common.sh"
space="$src/tests/explore/small_space.yaml"

"$accel" explore --space "$space" --suite resnet18 --out "$work/out" --chunk 4 > /dev/null 2>&1
rm "$work/out/jobs/chunks/3.json"
mkdir "$work/out/jobs/chunks/3.json"
"$accel" explore --space "$space" --suite resnet18 --out "$work/out" --chunk 4 \
    > "$work/out.txt" 2> "$work/err.txt"
grep -q '1 jobs failed twice' "$work/err.txt" ||
  { echo "FAIL: the failed job was not reported:" >&2; cat "$work/err.txt" >&2; exit 1; }
failed=$(grep -c ',job 3 failed twice' "$work/out/points.csv" || true)
valid=$(grep -c '^[0-9]*,[0-9a-f]*,[0-9,]*,1,[0-9]' "$work/out/points.csv" || true)
# Chunk 3 holds points 12-15: two of the 32-bit bus (valid otherwise), two of 128-bit.
[ "$failed" -eq 4 ] && [ "$valid" -eq 14 ] ||
  { echo "FAIL: $failed points of the failed job, $valid valid, want 4 and 14" >&2; exit 1; }
grep -q 'Pareto front' "$work/out.txt"
echo "the failed job's 4 points reported; the other 28 swept"
