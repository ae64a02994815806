#!/usr/bin/env node
// The yardstick: ClickHouse's own stateless tests (tests/queries/0_stateless of the
// ClickHouse repository, kept OUTSIDE this repository) run through shale with ClickHouse
// (chdb) as the oracle. Selects the .sql tests a single-node engine should run, samples
// them with a fixed seed, runs each script statement by statement in a fresh chdb Session
// and whole in `shale local --testmode`, and compares the outputs byte for byte.
//
//   node bench/stateless/run.js --shale build/shale --tests /path/to/0_stateless
//        [--sample 500] [--seed 1] [--timeout 30] [--report FILE] [--list-failures FILE]
//
// A test passes when shale exits 0 and prints exactly what ClickHouse printed. Tests the
// oracle itself cannot run (it needs a server, a cluster, data sets) are left out of the rate.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');
const { spawn, spawnSync } = require('child_process');
const { Rng } = require('../../tests/difftest/lib/schema');
const { parseError } = require('../../tests/difftest/lib/engines');
const { substitute } = require('./script');

const SKIP_TAGS = ['distributed', 'shard', 'zookeeper', 'replica', 'stateful', 'no-fasttest', 'long', 'use-rocksdb',
  'use-hdfs', 'use-vectorscan', 'global', 'race', 'no-parallel-replicas-only'];
const SKIP_NAME = /distributed|replicat|zookeeper|keeper|dictionar|shard|cluster|remote|kafka|mysql|postgres|\bs3|_s3|hdfs|azure|rabbitmq|nats|_user|users|grant|role|quota|row_polic|settings_profile|access|backup|parallel_replicas|odbc|jdbc|redis|mongo|_url|hive|iceberg|delta|hudi|system_logs|query_log|part_log|text_log|trace_log|sqlite|ldap|kerberos|grpc|mysql|materialized_postgres/i;
const SKIP_TEXT = /\bremote(Secure)?\s*\(|\bcluster\s*\(|\bs3(Cluster)?\s*\(|\burl\s*\(|dictGet|DICTIONARY|system\.zookeeper|\btest\.(hits|visits)|CLICKHOUSE_DATABASE_|(CREATE|DROP)\s+DATABASE|Replicated|Distributed\s*\(|ON CLUSTER|SYSTEM FLUSH LOGS/i;

function parseArgs(argv) {
  const o = { shale: null, tests: process.env.CH_STATELESS || null, sample: 500, seed: 1, timeout: 30, report: null, failures: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => argv[++i];
    if (a === '--shale') o.shale = v();
    else if (a === '--tests') o.tests = v();
    else if (a === '--sample') o.sample = Number(v());
    else if (a === '--seed') o.seed = Number(v());
    else if (a === '--timeout') o.timeout = Number(v());
    else if (a === '--report') o.report = v();
    else if (a === '--list-failures') o.failures = v();
    else throw new Error(`unknown argument ${a}`);
  }
  if (!o.shale || !o.tests) throw new Error('usage: run.js --shale build/shale --tests DIR/0_stateless [--sample 500] [--seed 1]');
  return o;
}

function eligible(dir) {
  const out = [];
  let skipped = 0;
  for (const f of fs.readdirSync(dir).filter(x => x.endsWith('.sql')).sort()) {
    const text = fs.readFileSync(path.join(dir, f), 'latin1');
    const tagLine = (/^--\s*Tags:(.*)$/m.exec(text.split('\n').slice(0, 5).join('\n')) || [])[1] || '';
    const tags = tagLine.split(/[,\s]+/).filter(Boolean);
    if (tags.some(t => SKIP_TAGS.includes(t)) || SKIP_NAME.test(f) || SKIP_TEXT.test(text) || text.includes('\0')) { skipped++; continue; }
    out.push(f);
  }
  return { tests: out, skipped };
}

// The oracle runs in a child (oracle.js) that is restarted when it dies or runs too long.
class Oracle {
  constructor(timeoutMs) {
    this.timeoutMs = timeoutMs;
    // Tests write files relative to the working directory: keep them out of the checkout.
    this.cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'shale-stateless-oracle-'));
    this.start();
  }
  start() {
    this.child = spawn(process.execPath, [path.join(__dirname, 'oracle.js')], { stdio: ['pipe', 'pipe', 'ignore'], cwd: this.cwd });
    this.lines = readline.createInterface({ input: this.child.stdout });
    this.waiting = null;
    this.lines.on('line', (l) => { if (!l.startsWith('@@oracle@@')) return; l = l.slice(10); if (this.waiting) { const w = this.waiting; this.waiting = null; w(JSON.parse(l)); } });
    // Only the current child's death answers a waiting test (a killed one exits later).
    const child = this.child;
    child.on('exit', () => {
      if (this.child !== child || !this.waiting) return;
      const w = this.waiting;
      this.waiting = null;
      w({ ok: false, problem: 'ClickHouse crashed' });
    });
  }
  run(file) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        this.child.kill('SIGKILL');
        this.start();
        resolve({ ok: false, problem: 'ClickHouse ran over the timeout' });
      }, this.timeoutMs);
      this.waiting = (r) => { clearTimeout(timer); if (r.problem === 'ClickHouse crashed') this.start(); resolve(r); };
      this.child.stdin.write(file + '\n');
    });
  }
  close() { this.child.kill('SIGKILL'); fs.rmSync(this.cwd, { recursive: true, force: true }); }
}

function runShale(shale, file, timeoutMs) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shale-stateless-'));
  const sqlFile = path.join(tmp, path.basename(file));
  fs.writeFileSync(sqlFile, substitute(fs.readFileSync(file, 'utf8')));
  const r = spawnSync(shale, ['local', '--testmode', '--queries-file', sqlFile, '--path', path.join(tmp, 'data')], {
    encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 28, cwd: tmp,
  });
  fs.rmSync(tmp, { recursive: true, force: true });
  return r;
}

// The failure class of a test: the first thing that went wrong.
function failureClass(r, expected) {
  if (r.error && r.error.code === 'ETIMEDOUT') return ['hang', 'hang'];
  const err = r.stderr || '';
  if (r.signal || /AddressSanitizer|runtime error:/.test(err)) return ['crash', `crash (${r.signal || 'sanitizer'})`];
  if (r.status === 0) return ['wrong', 'wrong answer'];
  if (/Expected error .* but the statement succeeded/.test(err)) return ['accepts', 'accepts what ClickHouse rejects'];
  const e = parseError(err);
  if (e.name === 'UNKNOWN_FUNCTION' || e.name === 'UNKNOWN_AGGREGATE_FUNCTION') {
    const tf = /table function (\w+)/.exec(e.msg);
    const m = /`([^`]+)`/.exec(e.msg) || /name '?([\w]+)/.exec(e.msg) || /function '?(\w+)/.exec(e.msg);
    return ['error', e.name, tf ? `${tf[1]} (table function)` : m ? m[1] : '?'];
  }
  if (e.name === 'SYNTAX_ERROR') {
    const m = /failed at position \d+ \(([^)]*)\)/.exec(e.msg);
    const exp = /Expected ([^\n]*)/.exec(e.msg);
    if (!m) return ['error', e.name, e.msg.replace(/'[^']*'|`[^`]*`|"[^"]*"/g, '…').replace(/: .*/s, '').slice(0, 60)];
    return ['error', e.name, `near ${m[1]}${exp ? `; expected ${exp[1].slice(0, 60)}` : ''}`];
  }
  if (/^UNKNOWN_(SETTING|TABLE_FUNCTION|TYPE|FORMAT|STORAGE)$/.test(e.name)) {
    const m = /[`'"]([^`'"]+)[`'"]/.exec(e.msg) || /(\w+)\.?$/.exec(e.msg);
    return ['error', e.name, m ? m[1] : '?'];
  }
  if (e.name === 'NOT_IMPLEMENTED') {
    return ['error', e.name, e.msg.split('\n')[0].replace(/'[^']*'|`[^`]*`|"[^"]*"/g, '…').replace(/\d+/g, 'N').slice(0, 100)];
  }
  return ['error', e.name];
}

// Functions ClickHouse has and shale lacks, by the number of eligible tests that call them
// (a static census of `name(` in the scripts; wider than the first error of the sample).
const OPERATORS = new Set(['in', 'notin', 'and', 'or', 'not', 'like', 'ilike', 'exists', 'values', 'tuple', 'array',
  'globalin', 'globalnotin', 'if', 'case', 'cast', 'interval', 'nullif']);
function missingFunctionCensus(shale, dir, tests) {
  const { Session } = require('../../tests/difftest/lib/engines').loadChdb();
  const sess = new Session();
  const ch = new Map();
  for (const line of String(sess.query('SELECT name, case_insensitive FROM system.functions', 'TabSeparated')).split('\n')) {
    const [name, ci] = line.split('\t');
    if (name) ch.set(ci === '1' ? name.toLowerCase() : name, ci === '1');
  }
  if (sess.cleanup) sess.cleanup();
  const r = spawnSync(shale, ['local', '-q', 'SELECT name, case_insensitive FROM system.functions'], { encoding: 'utf8' });
  const have = new Set();
  for (const line of r.stdout.split('\n')) {
    const [name, ci] = line.split('\t');
    if (name) have.add(ci === '1' ? name.toLowerCase() : name);
  }
  const count = {};
  for (const f of tests) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8').replace(/'(?:[^'\\]|\\.)*'/g, "''").replace(/--[^\n]*/g, '');
    const seen = new Set();
    for (const m of text.matchAll(/\b([A-Za-z_][A-Za-z0-9_]*)\s*\(/g)) {
      let name = m[1];
      if (OPERATORS.has(name.toLowerCase()) || have.has(name)) continue;
      if (!ch.has(name)) { if (ch.get(name.toLowerCase()) === true) name = name.toLowerCase(); else continue; }
      if (have.has(name) || have.has(name.toLowerCase())) continue;
      seen.add(name);
    }
    for (const n of seen) count[n] = (count[n] || 0) + 1;
  }
  return count;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const shale = path.resolve(o.shale);
  const { tests, skipped } = eligible(o.tests);
  const rng = new Rng(o.seed);
  const pool = tests.slice();
  for (let i = pool.length - 1; i > 0; i--) { const j = Math.floor(rng.next() * (i + 1)); [pool[i], pool[j]] = [pool[j], pool[i]]; }
  const sample = pool.slice(0, o.sample).sort();
  const oracle = new Oracle(o.timeout * 1000 * 2);
  const res = { pass: 0, unusable: 0, fail: 0 };
  const classes = {}, codes = {}, functions = {}, gists = {}, failures = [], unusable = {};
  const bump = (m, k) => { m[k] = (m[k] || 0) + 1; };
  const t0 = Date.now();
  for (const [i, f] of sample.entries()) {
    const file = path.resolve(o.tests, f);
    const ch = await oracle.run(file);
    if (!ch.ok) { res.unusable++; bump(unusable, ch.problem.replace(/: .*/, '').replace(/expected \S+/, 'expected an error')); continue; }
    const r = runShale(shale, file, o.timeout * 1000);
    if (r.status === 0 && !r.signal && r.stdout === ch.out) { res.pass++; continue; }
    res.fail++;
    const [cls, code, detail] = failureClass(r, ch.out);
    bump(classes, cls);
    bump(codes, code);
    if (detail && code.startsWith('UNKNOWN_') && code.includes('FUNCTION')) bump(functions, detail);
    else if (detail) bump(gists, `${code}: ${detail}`);
    failures.push(`${f}\t${code}${detail ? `\t${detail}` : ''}`);
    if ((i + 1) % 50 === 0) process.stderr.write(`${i + 1}/${sample.length}\n`);
  }
  oracle.close();
  const secs = Math.round((Date.now() - t0) / 1000);
  const usable = res.pass + res.fail;
  const top = (m, n) => Object.entries(m).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
  let s = `eligible .sql tests: ${tests.length} (skipped ${skipped} by tag, name or content); sample: ${sample.length} (seed ${o.seed})\n`;
  s += `oracle could not run: ${res.unusable}; compared: ${usable}; passed: ${res.pass} (${(100 * res.pass / Math.max(usable, 1)).toFixed(1)} %); ${secs} s\n\n`;
  s += 'failure classes:\n' + top(classes, 20).map(([k, v]) => `  ${String(v).padStart(4)}  ${k}`).join('\n') + '\n\n';
  s += 'first error by code:\n' + top(codes, 30).map(([k, v]) => `  ${String(v).padStart(4)}  ${k}`).join('\n') + '\n\n';
  s += 'missing functions (first error):\n' + top(functions, 30).map(([k, v]) => `  ${String(v).padStart(4)}  ${k}`).join('\n') + '\n\n';
  s += 'not implemented / syntax / unknown (first error):\n' + top(gists, 40).map(([k, v]) => `  ${String(v).padStart(4)}  ${k}`).join('\n') + '\n\n';
  const census = missingFunctionCensus(shale, o.tests, tests);
  s += `functions ClickHouse has and shale lacks, by eligible tests calling them (of ${tests.length}):\n` +
    top(census, 40).map(([k, v]) => `  ${String(v).padStart(4)}  ${k}`).join('\n') + '\n\n';
  s += 'oracle could not run:\n' + top(unusable, 10).map(([k, v]) => `  ${String(v).padStart(4)}  ${k}`).join('\n') + '\n';
  process.stdout.write(s);
  if (o.report) fs.writeFileSync(o.report, s);
  if (o.failures) fs.writeFileSync(o.failures, failures.join('\n') + '\n');
  console.log(`stateless: ${res.pass} passed, ${res.fail} failed`);
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(2); });
