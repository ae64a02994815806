#!/usr/bin/env bash
# ctest `difftest`: fixed seeds with the feature set shale answers right today (no wrong
# answer, crash or hang on these seeds). When shale gains a feature, add its flag here and
# check the seeds still pass; a seed that starts failing is a regression (or a newly found
# bug: then write it into tests/difftest/DIVERGENCES.md and choose another seed).
#   tests/difftest/run-fixed.sh path/to/shale [queries-per-seed]
set -euo pipefail
SHALE=$(realpath "${1:?usage: run-fixed.sh path/to/shale [queries-per-seed]}")
N=${2:-150}
SEEDS=1,3,5,6,8,10,13,14,16,19,21,24
FEATURES=none,+where,+orderby,+limit,+limitby,+distinct,+join,+semijoin,+union,+setops,+nofrom,+hash,+typename,+nulls,+agg,+aggif,+groupby,+having,+mergetree,+lambda,+arrayjoin
cd "$(dirname "$0")"
# Window functions (over tables, numbers() and GROUP BY) on seeds of their own.
node difftest.js --shale "$SHALE" --seeds 1-6 --n 60 --features none,+window,+orderby,+groupby,+having,+agg,+limit,+nulls \
  --minimize 3 --report "$(dirname "$SHALE")/difftest-window-report.md"
# IPv4/IPv6 columns (in MergeTree and Memory tables, keys, min/max, DISTINCT, GROUP BY).
node difftest.js --shale "$SHALE" --seeds 1-6 --n 60 \
  --features none,+where,+orderby,+limit,+distinct,+groupby,+agg,+nulls,+typename,+hash,+mergetree,+ipv4,+ipv6 \
  --minimize 3 --report "$(dirname "$SHALE")/difftest-ip-report.md"
# Int256/UInt256 (and Decimal256) columns in MergeTree and Memory tables, keys, min/max,
# DISTINCT, GROUP BY, hashes.
node difftest.js --shale "$SHALE" --seeds 1-6 --n 60 \
  --features none,+where,+orderby,+limit,+distinct,+groupby,+agg,+nulls,+typename,+hash,+mergetree,+int256 \
  --minimize 3 --report "$(dirname "$SHALE")/difftest-int256-report.md"
# Every default feature (all but the types shale lacks) on the seeds whose first 40 queries
# pass (tests/difftest/DIVERGENCES.md, branch difftest5); fewer queries when N is small (ASan).
NDEF=$(( N < 40 ? N : 40 ))
node difftest.js --shale "$SHALE" --seeds 5,6,7,10,20 --n "$NDEF" --minimize 3 \
  --report "$(dirname "$SHALE")/difftest-default-report.md"
exec node difftest.js --shale "$SHALE" --seeds "$SEEDS" --n "$N" --features "$FEATURES" --minimize 3 \
  --report "$(dirname "$SHALE")/difftest-report.md"
