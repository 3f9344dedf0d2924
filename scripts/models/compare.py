"""Compares two arrays saved with numpy (.npy) element by element.

    compare.py A.npy B.npy
    compare.py DIR_A DIR_B     every .npy file present in both, then the totals

Prints the elements compared, the mismatches and the largest absolute difference;
exits 1 if anything differs (values, shapes or dtypes), 2 on bad arguments.
"""

import os
import sys

import numpy as np


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        return np.load(path)
    except (OSError, ValueError) as e:
        fail(f"cannot read {path}: {e}")


def compare(a_path, b_path):
    """Returns (elements, mismatches, max abs diff, why they cannot be compared or None)."""
    a, b = load(a_path), load(b_path)
    if a.shape != b.shape or a.dtype != b.dtype:
        return a.size, a.size, None, f"{a.dtype} {list(a.shape)} vs {b.dtype} {list(b.shape)}"
    # In int64 (or float64) so that int8 differences cannot wrap around.
    wide = np.float64 if np.issubdtype(a.dtype, np.floating) else np.int64
    diff = np.abs(a.astype(wide) - b.astype(wide))
    return a.size, int(np.count_nonzero(diff)), diff.max(initial=0), None


def line(name, elements, mismatches, max_diff, why):
    if why:
        return f"{name}: cannot compare, {why}"
    return f"{name}: {elements} elements compared, {mismatches} mismatches, max abs diff {max_diff}"


def main():
    if len(sys.argv) != 3:
        fail("usage: compare.py A.npy B.npy  or  compare.py DIR_A DIR_B")
    a, b = sys.argv[1:]
    if os.path.isdir(a) and os.path.isdir(b):
        names = sorted(set(n for n in os.listdir(a) if n.endswith(".npy"))
                       & set(os.listdir(b)))
        if not names:
            fail(f"{a} and {b} have no .npy file in common")
        totals = [0, 0, 0]  # elements, mismatches, arrays that differ
        worst = 0
        for n in names:
            elements, mismatches, max_diff, why = compare(os.path.join(a, n), os.path.join(b, n))
            if mismatches or why:
                print(line(n, elements, mismatches, max_diff, why))
                totals[2] += 1
                worst = max(worst, max_diff or 0)
            totals[0] += elements
            totals[1] += mismatches
        print(f"total: {len(names)} arrays, {totals[2]} differ; {totals[0]} elements compared, "
              f"{totals[1]} mismatches, max abs diff {worst}")
        sys.exit(1 if totals[1] else 0)
    for p in (a, b):
        if not os.path.isfile(p):
            fail(f"no such file: {p}")
    elements, mismatches, max_diff, why = compare(a, b)
    print(line(f"{a} vs {b}", elements, mismatches, max_diff, why))
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
