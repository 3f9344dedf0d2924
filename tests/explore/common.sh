# What the explorer's test scripts share: their arguments (ACCEL SOURCE_DIR ...), strict
# mode, and a scratch directory $work removed when the script exits.
set -euo pipefail
accel=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
