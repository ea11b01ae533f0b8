#!/usr/bin/env bash
# Runs a command and prints its wall time and the whole machine's CPU seconds meanwhile (from
# /proc/stat, so every process counts: browsers, PostgreSQL, Redis), with the load average
# before and after. Linux only. Used for the test-suite figures in docs/benchmarks.md:
#   bash scripts/cpu-of.sh npm test
set -u
cpu() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
before=$(cpu); t0=$(date +%s.%N); l0=$(cut -d' ' -f1 /proc/loadavg)
"$@"; status=$?
after=$(cpu); t1=$(date +%s.%N); l1=$(cut -d' ' -f1 /proc/loadavg)
ticks=$(getconf CLK_TCK)
awk -v t0="$t0" -v t1="$t1" -v c="$((after - before))" -v t="$ticks" -v a="$l0" -v b="$l1" -v s="$status" \
  'BEGIN { printf "%.1f s wall, %.0f s CPU (whole machine), load %s -> %s, exit %d\n", t1 - t0, c / t, a, b, s }' >&2
exit "$status"
