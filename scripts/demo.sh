#!/usr/bin/env bash
# The main job end to end on a generated data set: shale writes a posts-like
# CSVWithNames file from numbers(), then answers SPEC §1's top-users query over it with
# file(), printing each statement and shale's summary lines (rows, elapsed, processed,
# peak memory). Later issues extend it (Parquet, S3, MergeTree inserts).
set -euo pipefail
cd "$(dirname "$0")/.."
SHALE=./build/shale
ROWS=${DEMO_ROWS:-300000}
DIR=${DEMO_DIR:-demo-data}
mkdir -p "$DIR"

run() {
  echo
  echo "shale :) $1"
  echo
  shift
  "$SHALE" local --time "$@"
}

GEN="INSERT INTO FUNCTION file('$DIR/posts.csv', CSVWithNames)
SELECT number + 1 AS Id,
       toDateTime('2008-07-31 00:00:00') + intDiv(number * 500000000, $ROWS) AS CreationDate,
       multiIf(number % 10 < 6, '', number % 10 = 6, 'anon',
               concat('user_', toString(intDiv(1000, cityHash64(number) % 1000 + 1)))) AS OwnerDisplayName,
       toInt32(cityHash64(number, 1) % 200) - 20 AS Score,
       concat('Title of post ', toString(number)) AS Title
FROM numbers($ROWS)
SETTINGS engine_file_truncate_on_insert = 1"
run "$GEN" -q "$GEN"

Q1="SELECT OwnerDisplayName, count() AS num_posts
FROM file('$DIR/posts.csv', CSVWithNames)
WHERE OwnerDisplayName NOT IN ('', 'anon')
GROUP BY OwnerDisplayName ORDER BY num_posts DESC LIMIT 5"
run "$Q1" -q "$Q1" --format PrettyCompact

run "$Q1 SETTINGS max_threads = 1" -q "$Q1 SETTINGS max_threads = 1" --format PrettyCompact

Q2="SELECT count(), sum(Score), max(CreationDate) FROM file('$DIR/posts.csv', CSVWithNames)"
run "$Q2" -q "$Q2" --format PrettyCompact
echo
echo "demo: ok ($ROWS rows in $DIR/posts.csv)"
