#!/usr/bin/python3
"""trend_threshold.py: why trend's change-point threshold is 6.

usage: bench/trend_threshold.py [--seed N]

Simulates steady series (no change) of 100 to 100,000 values of three
kinds: Gaussian noise of 30% about the level; gen's duration law (uniform
in [0.5, 1.5) of the level, one value in 25 two to four times longer);
and a level with 1% noise and a spike of +90% every tenth value.  Each
goes through the first step of trend.c's change-point search, as
doc/format.md 10.6 states it: spikes set aside (further than 5 robust
standard deviations from the median of the five around them), then the
largest two-sample t statistic over the splits that leave 10 values a
side and move the level by 5% or more.  Prints the 50th and 99th
percentile and the largest of that statistic for each kind and length:
a threshold above all of them reports no change in a steady series.
Needs numpy (python3-numpy).
"""
import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

MIN_SEGMENT, MIN_SHIFT, SPIKE = 10, 0.05, 5.0


def median5(x):
    n = len(x)
    out = np.empty(n)
    if n >= 5:
        out[2:n - 2] = np.median(sliding_window_view(x, 5), axis=1)
    for i in sorted(set(range(min(2, n))) | set(range(max(n - 2, 0), n))):
        out[i] = np.median(x[max(0, i - 2):i + 3])
    return out


def kept(x):
    r = np.abs(x - median5(x))
    scale = 1.4826 * np.median(r[::(len(x) + 65535) // 65536])
    if scale == 0:
        scale = 1.2533 * r.mean()
    return x[r <= SPIKE * scale] if scale > 0 else x[r == 0]


def largest_t(x):
    n = len(x)
    if n < 2 * MIN_SEGMENT:
        return 0.0
    ref = x.mean()
    c = x - ref
    s1 = np.concatenate([[0], np.cumsum(c)])
    s2 = np.concatenate([[0], np.cumsum(c * c)])
    k = np.arange(MIN_SEGMENT, n - MIN_SEGMENT + 1)
    n1, n2 = k, n - k
    l1, l2 = s1[k], s2[k]
    r1, r2 = s1[n] - l1, s2[n] - l2
    m1, m2 = l1 / n1, r1 / n2
    d = m2 - m1
    ss = np.maximum((l2 - l1 * m1) + (r2 - r1 * m2), 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.abs(d) / np.sqrt(ss / (n - 2) * (1 / n1 + 1 / n2))
    big = np.abs(d) >= MIN_SHIFT * np.maximum(np.abs(ref + m1),
                                              np.abs(ref + m2))
    t = np.where(big & (d != 0), t, 0)
    return float(t.max())


def series(rng, kind, n):
    if kind == "gaussian":
        return 1000 + rng.normal(0, 300, n)
    if kind == "gen":
        x = 1000 * (0.5 + rng.random(n))
        tail = rng.random(n) < 0.04
        x[tail] *= rng.integers(2, 5, tail.sum())
        return x
    x = 1000 + rng.normal(0, 10, n)
    x[9::10] += 900
    return x


def main():
    seed = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[1] == "--seed" else 7
    rng = np.random.default_rng(seed)
    print("| series | values | runs | T p50 | T p99 | largest T |")
    print("|---|---|---|---|---|---|")
    for kind in ("gaussian", "gen", "spikes"):
        for n in (100, 1000, 10000, 100000):
            runs = 200 if n <= 10000 else 20
            t = [largest_t(kept(series(rng, kind, n))) for _ in range(runs)]
            p50, p99 = np.percentile(t, [50, 99])
            print(f"| {kind} | {n} | {runs} | {p50:.2f} | {p99:.2f} | "
                  f"{max(t):.2f} |")


if __name__ == "__main__":
    main()
