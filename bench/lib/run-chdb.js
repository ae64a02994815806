#!/usr/bin/env node
'use strict';
// Runs one query N times in chdb (ClickHouse in-process) and prints timings as JSON.
//   node bench/lib/run-chdb.js --runs N --sql 'SELECT ...' [--path DATA_DIR]
// Threads are set by the query itself (SETTINGS max_threads = T); --threads is ignored here.
// The result is the query's TSV output. See common.js for the report's shape.
const path = require('path');
const { parseArgs, measure, main } = require('./common');

main(async () => {
  const o = parseArgs(process.argv.slice(2));
  const chdb = require(path.join(__dirname, '..', 'node_modules', 'chdb'));
  // --path: the tables of a Session on that directory (MergeTree benchmarks)
  const s = o.path ? new chdb.Session(o.path) : null;
  const query = s ? (q, f) => s.query(q, f) : chdb.query;
  const version = query('SELECT version()', 'TSV').trim();
  return measure('clickhouse', version, o.runs, () => query(o.sql, 'TSV'));
});
