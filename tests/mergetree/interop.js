#!/usr/bin/env node
// Part interoperability with ClickHouse (chdb, ClickHouse 26.7 in-process):
//   1. shale writes a part; it is copied into a ClickHouse table's detached/ directory,
//      attached with ALTER TABLE … ATTACH PART, and must return the same rows;
//   2. ClickHouse writes a part; it is copied into shale's table's detached/ directory,
//      attached the same way in shale, and must return the same rows.
// Not part of `make test` (chdb is large):  tests/mergetree/interop.js build/shale
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const shale = path.resolve(process.argv[2] || 'build/shale');
const modDir = path.join(__dirname, '..', 'queries', 'node_modules');
if (!fs.existsSync(path.join(modDir, 'chdb')))
  execFileSync('npm', ['install', '--no-save', '--silent', 'chdb@3.4.0'], { cwd: path.dirname(modDir), stdio: 'inherit' });
const { Session } = require(path.join(modDir, 'chdb'));

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shale-interop-'));
const chPath = path.join(work, 'ch');
const shPath = path.join(work, 'sh');
const ch = new Session(chPath);
let failures = 0;

function sh(sql) {
  return execFileSync(shale, ['local', '--path', shPath, '--format', 'TSV', '-q', sql], { encoding: 'utf8', maxBuffer: 1 << 30 });
}
function copyDir(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(from)) fs.copyFileSync(path.join(from, f), path.join(to, f));
}
// CHECK TABLE rows are (part, is_passed, message).
function allPassed(tsv) {
  const rows = tsv.trim().split('\n').filter((l) => l.length);
  return rows.length && rows.every((l) => l.split('\t')[1] === '1') ? 'passed' : tsv;
}
function check(what, want, got) {
  if (want === got) { console.log(`ok   ${what}`); return; }
  failures++;
  console.log(`FAIL ${what}\n--- ClickHouse\n${want.slice(0, 2000)}\n--- shale\n${got.slice(0, 2000)}`);
}

// Every type the part format covers, with NULLs, empty values and several granules.
const columns = `id UInt64, i8 Int8, u16 UInt16, i32 Int32, f32 Float32, f64 Float64, b Bool,
  d Date, d32 Date32, dt DateTime('UTC'), dt64 DateTime64(3, 'UTC'), s String, fs FixedString(3),
  e Enum8('a' = 1, 'b' = 2), dec Decimal(18, 4), u UUID, n Nullable(String), ni Nullable(Int32),
  arr Array(UInt32), an Array(Nullable(String)), lc LowCardinality(String),
  lcn LowCardinality(Nullable(String)), tup Tuple(x UInt8, y String)`;
const codecCols = `c1 UInt32 CODEC(Delta(4), ZSTD(1)), c2 DateTime CODEC(DoubleDelta), c3 Float64 CODEC(Gorilla),
  c4 UInt64 CODEC(T64, LZ4HC(9)), c5 String CODEC(ZSTD(3)), c6 Int16 CODEC(NONE)`;
const select = `SELECT number AS id, toInt8(number % 200 - 100), toUInt16(number * 7), toInt32(number) - 5000,
  toFloat32(number / 3), number / 7, number % 2 = 0, toDate('2020-01-01') + number % 1000,
  toDate32('1960-01-01') + number, toDateTime('2024-01-01 00:00:00', 'UTC') + number * 3600,
  toDateTime64('2024-01-01 00:00:00', 3, 'UTC') + number, repeat('x', number % 13), toFixedString(toString(number % 1000), 3),
  if(number % 2 = 0, 'a', 'b'), toDecimal64(number / 100, 4), CAST('61f0c404-5cb3-11e7-907b-a6006ad3dba0' AS UUID),
  if(number % 3 = 0, NULL, toString(number)), if(number % 5 = 0, NULL, toInt32(number)),
  range(number % 5), [NULL, toString(number)], concat('lc', toString(number % 17)),
  if(number % 4 = 0, NULL, concat('n', toString(number % 9))), (toUInt8(number % 250), toString(number)),
  toUInt32(number * 3), toDateTime('2024-01-01 00:00:00') + number * 60, number / 11, number * number,
  toString(number % 100), toInt16(number % 1000 - 500)
  FROM numbers(20000)`;
const table = (name) => `CREATE TABLE ${name} (${columns}, ${codecCols}) ENGINE = MergeTree ORDER BY id`;
const chSettings = ` SETTINGS index_granularity = 1000, min_bytes_for_wide_part = 0,
  ratio_of_defaults_for_sparse_serialization = 1, string_serialization_version = 'single_stream'`;
const dump = 'SELECT * FROM t ORDER BY id FORMAT TSV';

// 1. shale → ClickHouse
sh(`${table('t')} SETTINGS index_granularity = 1000; INSERT INTO t ${select}`);
const shPart = fs.readdirSync(path.join(shPath, 'data', 'default', 't')).find((n) => /^all_\d+_\d+_\d+$/.test(n));
const shRows = sh(dump);
ch.query(table('t') + chSettings);
const chTableDir = ch.query("SELECT data_paths[1] FROM system.tables WHERE name = 't'", 'TSV').trim();
copyDir(path.join(shPath, 'data', 'default', 't', shPart), path.join(chTableDir, 'detached', shPart));
try {
  ch.query(`ALTER TABLE t ATTACH PART '${shPart}'`);
  check('shale part attached in ClickHouse returns the same rows', shRows, ch.query(dump, 'TSV'));
  check('ClickHouse CHECK TABLE on the shale part', 'passed',
        allPassed(ch.query('CHECK TABLE t SETTINGS check_query_single_value_result = 0', 'TSV')));
} catch (e) {
  failures++;
  console.log(`FAIL ClickHouse refused shale's part: ${e.message}`);
}

// 2. ClickHouse → shale
ch.query('DROP TABLE t SYNC');
ch.query(table('t') + chSettings);
ch.query(`INSERT INTO t ${select}`);
const chRows = ch.query(dump, 'TSV');
const chPartPath = ch.query("SELECT path FROM system.parts WHERE table = 't' AND active", 'TSV').trim();
const chPart = path.basename(chPartPath.replace(/\/$/, ''));
sh('DROP TABLE t');
sh(`${table('t')} SETTINGS index_granularity = 1000`);
copyDir(chPartPath, path.join(shPath, 'data', 'default', 't', 'detached', chPart));
try {
  sh(`ALTER TABLE t ATTACH PART '${chPart}'`);
  check('ClickHouse part attached in shale returns the same rows', chRows, sh(dump));
  check('shale CHECK TABLE on the ClickHouse part', 'passed', allPassed(sh('CHECK TABLE t')));
} catch (e) {
  failures++;
  console.log(`FAIL shale refused ClickHouse's part: ${e.stderr || e.message}`);
}

// 3. ClickHouse 26.7 defaults (compressed marks and index, size-stream strings, sparse
//    columns) → shale
ch.query('DROP TABLE t SYNC');
ch.query(table('t') + ' SETTINGS index_granularity = 1000, min_bytes_for_wide_part = 0');
ch.query(`INSERT INTO t ${select}`);
const chRows3 = ch.query(dump, 'TSV');
const chPart3Path = ch.query("SELECT path FROM system.parts WHERE table = 't' AND active", 'TSV').trim();
const chPart3 = path.basename(chPart3Path.replace(/\/$/, ''));
sh('DROP TABLE t');
sh(`${table('t')} SETTINGS index_granularity = 1000`);
copyDir(chPart3Path, path.join(shPath, 'data', 'default', 't', 'detached', chPart3));
try {
  sh(`ALTER TABLE t ATTACH PART '${chPart3}'`);
  check('ClickHouse part with 26.7 default settings attached in shale returns the same rows', chRows3, sh(dump));
  // size-stream Strings filtered and grouped by: read dictionary-coded
  const grouped = "SELECT s, count(), sum(i32) FROM t WHERE s NOT IN ('', 'xx') GROUP BY s ORDER BY s FORMAT TSV";
  check('a size-stream String of a ClickHouse part grouped by in shale', ch.query(grouped, 'TSV'), sh(grouped));
} catch (e) {
  failures++;
  console.log(`FAIL shale refused ClickHouse's default-settings part: ${e.stderr || e.message}`);
}

// 4. a part from a vertical merge in shale (wide table, 140 000 rows) → ClickHouse
sh('DROP TABLE t');
sh(`${table('t')} SETTINGS index_granularity = 1000`);
const big = select.replace('numbers(20000)', 'numbers(70000)');
sh(`INSERT INTO t ${big}`);
sh(`INSERT INTO t ${big.replace('SELECT number AS id', 'SELECT number + 70000 AS id')}`);
sh('OPTIMIZE TABLE t FINAL');
const alg = sh("SELECT merge_algorithm FROM system.part_log WHERE event_type = 'MergeParts' AND table = 't' ORDER BY event_time DESC LIMIT 1").trim();
check('shale merged the wide table vertically', 'Vertical', alg);
const vPart = fs.readdirSync(path.join(shPath, 'data', 'default', 't')).find((n) => /^all_\d+_\d+_[1-9]\d*$/.test(n));
const vRows = sh(dump);
ch.query('DROP TABLE t SYNC');
ch.query(table('t') + chSettings);
const chDir4 = ch.query("SELECT data_paths[1] FROM system.tables WHERE name = 't'", 'TSV').trim();
copyDir(path.join(shPath, 'data', 'default', 't', vPart), path.join(chDir4, 'detached', vPart));
try {
  ch.query(`ALTER TABLE t ATTACH PART '${vPart}'`);
  check('vertically merged shale part attached in ClickHouse returns the same rows', vRows, ch.query(dump, 'TSV'));
  check('ClickHouse CHECK TABLE on the vertically merged part', 'passed',
        allPassed(ch.query('CHECK TABLE t SETTINGS check_query_single_value_result = 0', 'TSV')));
} catch (e) {
  failures++;
  console.log(`FAIL ClickHouse refused shale's merged part: ${e.message}`);
}

// 5. AggregatingMergeTree parts with aggregate function states, both ways (uniq compared by
//    value: ClickHouse re-merges states when it inserts them, which may lay its hash set
//    out differently from the SELECT that made them)
const aggTable = `CREATE TABLE ag (k UInt64, s AggregateFunction(sum, UInt64), a AggregateFunction(avg, Float64),
  g AggregateFunction(groupArray, String), x AggregateFunction(argMax, String, UInt64), u AggregateFunction(uniq, UInt64),
  m AggregateFunction(min, String), n AggregateFunction(sum, Nullable(Int64)), c AggregateFunction(count),
  sm SimpleAggregateFunction(max, UInt64)) ENGINE = AggregatingMergeTree ORDER BY k`;
const aggInsert = `INSERT INTO ag SELECT number % 1000, sumState(number), avgState(number / 3), groupArrayState(toString(number)),
  argMaxState(toString(number), number), uniqState(number), minState(toString(number)),
  sumState(if(number % 3 = 0, NULL, toInt64(number))), countState(), max(number) FROM numbers(30000) GROUP BY number % 1000`;
const aggDump = `SELECT k, hex(s), hex(a), hex(g), hex(x), hex(m), hex(n), hex(c), sm, finalizeAggregation(u)
  FROM ag ORDER BY k FORMAT TSV`;
sh(`${aggTable} SETTINGS index_granularity = 100; ${aggInsert}`);
const agPart = fs.readdirSync(path.join(shPath, 'data', 'default', 'ag')).find((n) => /^all_\d+_\d+_\d+$/.test(n));
const agRows = sh(aggDump);
ch.query(`${aggTable} SETTINGS index_granularity = 100, min_bytes_for_wide_part = 0`);
const agDir = ch.query("SELECT data_paths[1] FROM system.tables WHERE name = 'ag'", 'TSV').trim();
copyDir(path.join(shPath, 'data', 'default', 'ag', agPart), path.join(agDir, 'detached', agPart));
try {
  ch.query(`ALTER TABLE ag ATTACH PART '${agPart}'`);
  check("shale's AggregatingMergeTree part attached in ClickHouse returns the same states", agRows, ch.query(aggDump, 'TSV'));
} catch (e) {
  failures++;
  console.log(`FAIL ClickHouse refused shale's AggregatingMergeTree part: ${e.message}`);
}
ch.query('DROP TABLE ag SYNC');
ch.query(`${aggTable} SETTINGS index_granularity = 100, min_bytes_for_wide_part = 0`);
ch.query(aggInsert);
const agChRows = ch.query(aggDump, 'TSV');
check('shale writes the same states as ClickHouse', agChRows, agRows);
const agChPath = ch.query("SELECT path FROM system.parts WHERE table = 'ag' AND active", 'TSV').trim();
const agChPart = path.basename(agChPath.replace(/\/$/, ''));
sh('DROP TABLE ag');
sh(`${aggTable} SETTINGS index_granularity = 100`);
copyDir(agChPath, path.join(shPath, 'data', 'default', 'ag', 'detached', agChPart));
try {
  sh(`ALTER TABLE ag ATTACH PART '${agChPart}'`);
  check("ClickHouse's AggregatingMergeTree part attached in shale returns the same states", agChRows, sh(aggDump));
} catch (e) {
  failures++;
  console.log(`FAIL shale refused ClickHouse's AggregatingMergeTree part: ${e.stderr || e.message}`);
}

// 6. IPv4/IPv6 columns (IPv4 stored as UInt32, IPv6 as 16 bytes in network order) in the
//    sorting key, so the primary index holds them too; both ways, and a key-range query
const ipTable = `CREATE TABLE ip (a IPv4, b IPv6, n Nullable(IPv4), v Array(IPv6), s String)
  ENGINE = MergeTree ORDER BY (a, b)`;
const ipInsert = `INSERT INTO ip SELECT toIPv4(toUInt32(number * 2654435761)),
  toIPv6(toUInt128(number) * toUInt128('1000000000000000000000000000')), if(number % 3 = 0, NULL, toIPv4(toUInt32(number))),
  [toIPv6(toIPv4(toUInt32(number))), toIPv6(concat('2001:db8::', toString(number % 100)))], toString(number) FROM numbers(5000)`;
const ipDump = `SELECT * FROM ip ORDER BY a, b FORMAT TSV`;
const ipRange = `SELECT count(), min(b), max(n) FROM ip WHERE a BETWEEN '10.0.0.0' AND '20.0.0.0' FORMAT TSV`;
sh(`${ipTable} SETTINGS index_granularity = 100; ${ipInsert}`);
const ipPart = fs.readdirSync(path.join(shPath, 'data', 'default', 'ip')).find((n) => /^all_\d+_\d+_\d+$/.test(n));
const ipRows = sh(ipDump);
ch.query(`${ipTable} SETTINGS index_granularity = 100, min_bytes_for_wide_part = 0`);
const ipDir = ch.query("SELECT data_paths[1] FROM system.tables WHERE name = 'ip'", 'TSV').trim();
copyDir(path.join(shPath, 'data', 'default', 'ip', ipPart), path.join(ipDir, 'detached', ipPart));
try {
  ch.query(`ALTER TABLE ip ATTACH PART '${ipPart}'`);
  check("shale's IPv4/IPv6 part attached in ClickHouse returns the same rows", ipRows, ch.query(ipDump, 'TSV'));
  check("ClickHouse's key range over shale's IPv4 part", ch.query(ipRange, 'TSV'), sh(ipRange));
  check('ClickHouse CHECK TABLE on the IPv4/IPv6 part', 'passed',
        allPassed(ch.query('CHECK TABLE ip SETTINGS check_query_single_value_result = 0', 'TSV')));
} catch (e) {
  failures++;
  console.log(`FAIL ClickHouse refused shale's IPv4/IPv6 part: ${e.message}`);
}
ch.query('DROP TABLE ip SYNC');
ch.query(`${ipTable} SETTINGS index_granularity = 100, min_bytes_for_wide_part = 0`);
ch.query(ipInsert);
const ipChRows = ch.query(ipDump, 'TSV');
check('shale writes the same IPv4/IPv6 rows as ClickHouse', ipChRows, ipRows);
const ipChPath = ch.query("SELECT path FROM system.parts WHERE table = 'ip' AND active", 'TSV').trim();
const ipChPart = path.basename(ipChPath.replace(/\/$/, ''));
sh('DROP TABLE ip');
sh(`${ipTable} SETTINGS index_granularity = 100`);
copyDir(ipChPath, path.join(shPath, 'data', 'default', 'ip', 'detached', ipChPart));
try {
  sh(`ALTER TABLE ip ATTACH PART '${ipChPart}'`);
  check("ClickHouse's IPv4/IPv6 part attached in shale returns the same rows", ipChRows, sh(ipDump));
  check("shale's key range over ClickHouse's IPv4 part", ch.query(ipRange, 'TSV'), sh(ipRange));
  check('shale CHECK TABLE on the IPv4/IPv6 part', 'passed', allPassed(sh('CHECK TABLE ip')));
} catch (e) {
  failures++;
  console.log(`FAIL shale refused ClickHouse's IPv4/IPv6 part: ${e.stderr || e.message}`);
}

fs.rmSync(work, { recursive: true, force: true });
console.log(failures ? `interop: ${failures} failed` : 'interop: ok');
process.exit(failures ? 1 : 0);
