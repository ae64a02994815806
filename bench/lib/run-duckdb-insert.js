#!/usr/bin/env node
'use strict';
// DuckDB side of posts_insert_file (bench/lib/insert-bench.js): opens a fresh database file
// DIR/posts.duckdb, runs CREATE TABLE posts AS SELECT * FROM read_parquet(...) timed
// (process.hrtime and process.cpuUsage() around it, including the CHECKPOINT that writes the
// table to the file), then reads back count(*). The harness takes the file's size afterwards.
//   node bench/lib/run-duckdb-insert.js --path DIR --threads T --sql 'CREATE TABLE posts AS ...'
const path = require('path');
const { main } = require('./common');

main(async () => {
  const a = process.argv.slice(2);
  const get = (k) => { const i = a.indexOf(k); if (i < 0) throw new Error(`${k} is required`); return a[i + 1]; };
  const { DuckDBInstance } = require(path.join(__dirname, '..', 'node_modules', '@duckdb', 'node-api'));
  const inst = await DuckDBInstance.create(path.join(get('--path'), 'posts.duckdb'), { threads: get('--threads') });
  const con = await inst.connect();
  const version = String((await (await con.run('SELECT version()')).getRows())[0][0]);
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await con.run(get('--sql'));
  await con.run('CHECKPOINT');
  const t1 = process.hrtime.bigint();
  const c = process.cpuUsage(c0);
  const out = { engine: 'duckdb', version, runs: [{ elapsed_s: Number(t1 - t0) / 1e9, user_s: c.user / 1e6, sys_s: c.system / 1e6 }] };
  out.max_rss_kib = process.resourceUsage().maxRSS;
  out.count = Number((await (await con.run('SELECT count(*) FROM posts')).getRows())[0][0]);
  out.result = String(out.count);
  con.closeSync && con.closeSync();
  inst.closeSync && inst.closeSync();
  return out;
});
