#!/usr/bin/env node
'use strict';
// Runs one query N times in chdb (ClickHouse in-process) and prints timings as JSON.
//   node bench/lib/run-chdb.js --runs N --sql 'SELECT ...'
// Threads are set by the query itself (SETTINGS max_threads = T); --threads is ignored here.
// The result is the query's TSV output. See common.js for the report's shape.
const path = require('path');
const { parseArgs, measure, main } = require('./common');

main(async () => {
  const o = parseArgs(process.argv.slice(2));
  const { query } = require(path.join(__dirname, '..', 'node_modules', 'chdb'));
  const version = query('SELECT version()', 'TSV').trim();
  return measure('clickhouse', version, o.runs, () => query(o.sql, 'TSV'));
});
