#!/usr/bin/env node
'use strict';
// Parquet conformance measurement: for every .parquet file under a corpus directory (e.g. a
// checkout of apache/parquet-testing), runs DESCRIBE and `SELECT *` (TabSeparated) in shale
// and in ClickHouse (npm chdb, in-process) and classifies each file:
//   identical        both engines give the same DESCRIBE and the same data
//   both fail        both engines fail (DESCRIBE or SELECT)
//   shale fails      only shale fails
//   ch fails         only ClickHouse fails
//   differ           both succeed, DESCRIBE differs ("describe") or the data does ("data")
//
//   bench/parquet-conformance/run.js CORPUS_DIR [--shale build/shale] [--out results.tsv]
//                                    [--only SUBSTRING]
//
// Prints the counts and one line per file that is not identical (with the first line of
// each error); --out writes every file's class and messages as TSV. shale runs as a child
// process per query with a 60 s timeout (a hang counts as a failure); chdb comes from
// tests/queries/node_modules (see tests/queries/update-references).
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..', '..');
const args = process.argv.slice(2);
let corpus = null, shale = path.join(root, 'build', 'shale'), outFile = null, only = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--shale') shale = path.resolve(args[++i]);
  else if (args[i] === '--out') outFile = args[++i];
  else if (args[i] === '--only') only = args[++i];
  else if (!corpus) corpus = path.resolve(args[i]);
  else throw new Error(`unknown argument ${args[i]}`);
}
if (!corpus) {
  process.stderr.write('usage: run.js CORPUS_DIR [--shale path] [--out file.tsv] [--only substring]\n');
  process.exit(2);
}
const { query } = require(path.join(root, 'tests', 'queries', 'node_modules', 'chdb'));

function walk(dir, acc) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, acc);
    else if (e.name.endsWith('.parquet')) acc.push(p);
  }
  return acc;
}

const quote = (s) => "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
const firstLine = (s) => String(s).trim().split('\n')[0].slice(0, 300);

function runShale(sql) {
  const r = spawnSync(shale, ['local', '-q', sql], { encoding: 'latin1', maxBuffer: 1 << 30, timeout: 60000 });
  if (r.error) return { err: String(r.error.message) };
  if (r.status !== 0) return { err: firstLine(r.stderr || `exit ${r.status} signal ${r.signal}`) };
  return { out: r.stdout };
}

// chdb hands results back as JS strings, which turns bytes that are not UTF-8 into U+FFFD:
// the output goes through a file instead, read back as bytes (latin1, like shale's).
const tmpOut = path.join(require('os').tmpdir(), `parquet-conformance-${process.pid}.tsv`);
function runCh(sql) {
  try {
    query(sql.replace(/ FORMAT TabSeparated$/, ` INTO OUTFILE ${quote(tmpOut)} TRUNCATE FORMAT TabSeparated`), 'TabSeparated');
    return { out: fs.readFileSync(tmpOut).toString('latin1') };
  } catch (e) {
    return { err: firstLine(e.message || e) };
  }
}

// Files whose data is larger than this uncompressed (large_string_map.brotli.parquet holds
// 2 GiB of strings) compare `SELECT count()` instead of `SELECT *`, and say so.
const MAX_DATA = 256 << 20;
function uncompressedSize(f) {
  try {
    return Number(query(`SELECT total_uncompressed_size FROM file(${quote(f)}, ParquetMetadata)`, 'TabSeparated'));
  } catch (e) {
    return 0;
  }
}

function engine(run, f, big) {
  const src = `file(${quote(f)}, Parquet)`;
  const d = run(`DESCRIBE ${src} FORMAT TabSeparated`);
  if (d.err) return { err: 'DESCRIBE: ' + d.err };
  const s = run(`SELECT ${big ? 'count()' : '*'} FROM ${src} FORMAT TabSeparated`);
  if (s.err) return { err: 'SELECT: ' + s.err, describe: d.out };
  return { describe: d.out, data: s.out };
}

const files = walk(corpus, []).filter((f) => !only || f.includes(only));
const counts = { identical: 0, 'both fail': 0, 'shale fails': 0, 'ch fails': 0, 'differ (describe)': 0, 'differ (data)': 0 };
const rows = [];
for (const f of files) {
  const rel = path.relative(corpus, f);
  const big = uncompressedSize(f) > MAX_DATA;
  const a = engine(runShale, f, big), b = engine(runCh, f, big);
  let cls, note = big ? '(data compared by count() only: over 256 MiB uncompressed) ' : '';
  if (a.err && b.err) { cls = 'both fail'; note += `shale: ${a.err} | ch: ${b.err}`; }
  else if (a.err) { cls = 'shale fails'; note += a.err; }
  else if (b.err) { cls = 'ch fails'; note += b.err; }
  else if (a.describe !== b.describe) {
    cls = 'differ (describe)';
    const al = a.describe.split('\n'), bl = b.describe.split('\n');
    const d = [];
    for (let i = 0; i < Math.max(al.length, bl.length) && d.length < 3; i++)
      if (al[i] !== bl[i]) d.push(`shale ${JSON.stringify((al[i] || '').slice(0, 100))} ch ${JSON.stringify((bl[i] || '').slice(0, 100))}`);
    note += d.join('; ');
  } else if (a.data !== b.data) {
    cls = 'differ (data)';
    const al = a.data.split('\n'), bl = b.data.split('\n');
    let i = 0;
    while (i < al.length && al[i] === bl[i]) i++;
    note += `line ${i + 1}: shale ${JSON.stringify((al[i] || '').slice(0, 120))} ch ${JSON.stringify((bl[i] || '').slice(0, 120))} (${al.length} vs ${bl.length} lines)`;
  } else cls = 'identical';
  counts[cls]++;
  rows.push([rel, cls, note]);
  if (cls !== 'identical' || big) process.stdout.write(`${cls}\t${rel}\t${note}\n`);
}
process.stdout.write(`\nfiles: ${files.length}\n`);
for (const [k, v] of Object.entries(counts)) process.stdout.write(`${k}: ${v}\n`);
fs.rmSync(tmpOut, { force: true });
if (outFile) fs.writeFileSync(outFile, rows.map((r) => r.join('\t')).join('\n') + '\n');
