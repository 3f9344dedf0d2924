#!/usr/bin/env bash
# An interrupted sweep resumes from the jobs already done (docs/explore.md, "Jobs"): a
# sweep whose chunk results were partly lost runs only the missing jobs again and ends
# with the same results; a different sweep in the same directory is refused, exit 2.
#
#   tests/explore/resume.sh ACCEL SOURCE_DIR
source "$(dirname "$0")/common.sh"
space="$src/tests/explore/small_space.yaml"

"$accel" explore --space "$space" --suite resnet18 --out "$work/out" --chunk 4 \
    > /dev/null 2> "$work/first.err"
grep -q '32 points in 8 jobs of 4; 0 done before, running 8 on local' "$work/first.err"
cp "$work/out/points.csv" "$work/first.csv"
rm "$work/out/jobs/chunks/2.json" "$work/out/jobs/chunks/5.json" "$work/out/points.csv"
"$accel" explore --space "$space" --suite resnet18 --out "$work/out" --chunk 4 \
    > /dev/null 2> "$work/second.err"
grep -q '6 done before, running 2 on local' "$work/second.err" ||
  { echo "FAIL: the second run did not resume:" >&2; cat "$work/second.err" >&2; exit 1; }
cmp "$work/first.csv" "$work/out/points.csv"

rc=0
"$accel" explore --space "$space" --suite resnet18 --out "$work/out" --chunk 3 \
    > /dev/null 2> "$work/third.err" || rc=$?
[ "$rc" -eq 2 ] && grep -q '^error: .*holds another sweep' "$work/third.err" ||
  { echo "FAIL: another sweep in the same --out: exit $rc" >&2; cat "$work/third.err" >&2; exit 1; }
echo "resumed 2 of 8 jobs with identical results; another sweep refused"
