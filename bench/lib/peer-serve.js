#!/usr/bin/env node
'use strict';
// A peer engine kept warm: one long-lived process that runs every query bench/run sends it,
// so ClickHouse (chdb) and DuckDB are timed as their users run them — loaded once, caches
// warm — not as a fresh process per query.
//   node bench/lib/peer-serve.js --engine clickhouse|duckdb --threads T [--path DATA_DIR]
// Protocol (one JSON object per line both ways):
//   out, first: {"ready": true, "engine", "version"}  or {"error"} and exit 1
//   in:  {"sql": "..."}                             (stdin closed: exit 0)
//   out: {"elapsed_s", "user_s", "sys_s", "result", "max_rss_kib"}  or {"error": "..."}
// elapsed and CPU cover the query alone (send + fetch of the whole result; CPU is
// process.cpuUsage(): every thread of this process); max_rss_kib is the process's peak so far.
// clickhouse: a chdb Session (on --path when given: the tables of a MergeTree benchmark);
// the query sets its own threads (SETTINGS max_threads). duckdb: an in-memory instance with
// --threads threads; rows rendered as TSV for the harness's result check.
const path = require('path');
const readline = require('readline');
const { measure } = require('./common');

function parse(argv) {
  const o = { engine: null, threads: 2, path: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--engine') o.engine = argv[++i];
    else if (argv[i] === '--threads') o.threads = parseInt(argv[++i], 10);
    else if (argv[i] === '--path') o.path = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (o.engine !== 'clickhouse' && o.engine !== 'duckdb') throw new Error('--engine clickhouse|duckdb is required');
  return o;
}

async function open(o) {
  const mods = path.join(__dirname, '..', 'node_modules');
  if (o.engine === 'clickhouse') {
    const chdb = require(path.join(mods, 'chdb'));
    const s = o.path ? new chdb.Session(o.path) : new chdb.Session();
    const run = (sql) => s.query(sql, 'TSV');
    return { run, version: run('SELECT version()').trim() };
  }
  const { DuckDBInstance } = require(path.join(mods, '@duckdb', 'node-api'));
  const inst = await DuckDBInstance.create(':memory:', { threads: String(o.threads) });
  const con = await inst.connect();
  const cell = (v) => (v === null || v === undefined ? '\\N' : String(v));
  const run = async (sql) => (await (await con.run(sql)).getRows()).map((r) => r.map(cell).join('\t') + '\n').join('');
  return { run, version: String((await run('SELECT version()')).trim()) };
}

const say = (j) => process.stdout.write(JSON.stringify(j) + '\n');

async function main() {
  const o = parse(process.argv.slice(2));
  const eng = await open(o);
  say({ ready: true, engine: o.engine, version: eng.version });
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    try {
      const m = await measure(o.engine, eng.version, 1, () => eng.run(JSON.parse(line).sql));
      say({ ...m.runs[0], result: m.result, max_rss_kib: m.max_rss_kib });
    } catch (e) {
      say({ error: String((e && e.message) || e) });
    }
  }
}

main().catch((e) => { say({ error: String((e && e.message) || e) }); process.exit(1); });
