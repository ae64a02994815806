#!/usr/bin/env node
'use strict';
// Runs one query N times in DuckDB (in-process, :memory:) and prints timings as JSON.
//   node bench/lib/run-duckdb.js --threads T --runs N --sql 'SELECT ...'
// The result is rendered as TSV (values joined by tabs, rows by newlines) so the harness can
// compare it with ClickHouse's. See common.js for the report's shape.
const path = require('path');
const { parseArgs, measure, main } = require('./common');

function cell(v) {
  if (v === null || v === undefined) return '\\N';
  return String(v);
}

main(async () => {
  const o = parseArgs(process.argv.slice(2));
  const { DuckDBInstance } = require(path.join(__dirname, '..', 'node_modules', '@duckdb', 'node-api'));
  const inst = await DuckDBInstance.create(':memory:', { threads: String(o.threads) });
  const con = await inst.connect();
  const vr = await (await con.run('SELECT version()')).getRows();
  const version = String(vr[0][0]);
  return measure('duckdb', version, o.runs, async () => {
    const r = await con.run(o.sql);
    const rows = await r.getRows();
    return rows.map((row) => row.map(cell).join('\t') + '\n').join('');
  });
});
