#!/usr/bin/env node
'use strict';
// ClickHouse (chdb) side of the MergeTree insert benchmarks (bench/lib/insert-bench.js).
//   node bench/lib/run-chdb-insert.js --path DIR --create SQL --insert SQL
//        [--sample-seconds S] [--range SQL]...
// Opens a chdb Session on DIR (a fresh directory), runs CREATE untimed, then INSERT timed
// (process.hrtime and process.cpuUsage() around it), then reads back count() and the active
// parts' compressed size from system.parts. With --sample-seconds S it then samples the
// active parts per partition once a second for S seconds in the same session, so ClickHouse's
// background merges run meanwhile; with each --range SQL it runs that SELECT in JSON format and
// reports ClickHouse's own statistics.rows_read. Prints one JSON object (see common.js).
// The process runs with its cwd in DIR: chdb resolves unknown table names as files in the cwd.
const path = require('path');
const { main } = require('./common');

function args(argv) {
  const o = { sampleSeconds: 0, ranges: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--path') o.path = argv[++i];
    else if (a === '--create') o.create = argv[++i];
    else if (a === '--insert') o.insert = argv[++i];
    else if (a === '--sample-seconds') o.sampleSeconds = Number(argv[++i]);
    else if (a === '--range') o.ranges.push(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!o.path || !o.create || !o.insert) throw new Error('--path, --create and --insert are required');
  return o;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PARTS = "SELECT sum(c), count(), max(c) FROM (SELECT partition, count() AS c FROM system.parts " +
  "WHERE database = currentDatabase() AND table = 'posts' AND active GROUP BY partition)";

main(async () => {
  const o = args(process.argv.slice(2));
  const { Session } = require(path.join(__dirname, '..', 'node_modules', 'chdb'));
  const s = new Session(o.path);
  try {
    const version = s.query('SELECT version()', 'TSV').trim();
    s.query(o.create, 'TSV');
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    s.query(o.insert, 'TSV');
    const t1 = process.hrtime.bigint();
    const c = process.cpuUsage(c0);
    const out = { engine: 'clickhouse', version, runs: [{ elapsed_s: Number(t1 - t0) / 1e9, user_s: c.user / 1e6, sys_s: c.system / 1e6 }] };
    out.max_rss_kib = process.resourceUsage().maxRSS; // peak up to the end of the INSERT
    const tEnd = Date.now();
    if (o.sampleSeconds > 0) {
      out.samples = [];
      for (let k = 0; k <= o.sampleSeconds; k++) {
        const [parts, partitions, maxPer] = s.query(PARTS, 'TSV').trim().split('\t').map(Number);
        out.samples.push({ t_s: (Date.now() - tEnd) / 1000, parts, partitions, max_per_partition: maxPer });
        if (k < o.sampleSeconds) await sleep(Math.max(0, tEnd + (k + 1) * 1000 - Date.now()));
      }
    }
    out.count = Number(s.query('SELECT count() FROM posts', 'TSV').trim());
    const [bytes, parts] = s.query("SELECT sum(data_compressed_bytes), count() FROM system.parts WHERE database = currentDatabase() " +
      "AND table = 'posts' AND active", 'TSV').trim().split('\t').map(Number);
    out.compressed_bytes = bytes; out.parts = parts;
    out.ranges = o.ranges.map((q) => {
      try {
        const j = JSON.parse(s.query(q, 'JSON'));
        return { result: String(Object.values(j.data[0])[0]), rows_read: Number(j.statistics.rows_read),
          estimate: s.query(`EXPLAIN ESTIMATE ${q}`, 'TSV').trim() };
      } catch (e) { return { error: String(e.message).split('\n')[0] }; }
    });
    out.result = String(out.count);
    return out;
  } finally {
    s.close();
  }
});
