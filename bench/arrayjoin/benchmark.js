// The ARRAY JOIN benchmark of issue 12: the posts set's Tags ('<tag1><tag2>') split into an
// array, one row per tag, top 10 tags by count. Registered by bench/benchmarks.js; run with
// `bench/run --only posts_arrayjoin` (see bench/arrayjoin/README.md).
'use strict';

const LOCAL = "file('{dir}/by_month/*.parquet', Parquet)";
const DUCK = "read_parquet('{dir}/by_month/*.parquet')";
const TAGS = "arrayFilter(t -> t != '', splitByChar('>', replaceAll(Tags, '<', '')))";

module.exports = (localData) => [{
  name: 'posts_arrayjoin',
  data: localData,
  title: 'ARRAY JOIN over the posts set: Tags split into an array, top 10 tags by count, local files',
  sql: {
    shale: `SELECT tag, count() AS c FROM ${LOCAL} ARRAY JOIN ${TAGS} AS tag GROUP BY tag ORDER BY c DESC, tag LIMIT 10`,
    clickhouse: `SELECT tag, count() AS c FROM ${LOCAL} ARRAY JOIN ${TAGS} AS tag GROUP BY tag ORDER BY c DESC, tag LIMIT 10 ` +
      'SETTINGS max_threads = {threads}',
    duckdb: `SELECT tag, count(*) AS c FROM (SELECT unnest(string_split(replace(Tags, '<', ''), '>')) AS tag FROM ${DUCK}) ` +
      "WHERE tag != '' GROUP BY tag ORDER BY c DESC, tag LIMIT 10",
  },
}];
