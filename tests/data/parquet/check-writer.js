#!/usr/bin/env node
// Writer round trips (not part of make test): for each query, shale writes a Parquet file
// and ClickHouse (chdb) writes one from the same query; then
//   1. shale reading shale's file     == chdb reading chdb's file,
//   2. chdb reading shale's file      == chdb reading chdb's file,
//   3. DuckDB reading shale's file    == DuckDB reading chdb's file,
//   4. DESCRIBE of shale's file in chdb == DESCRIBE of chdb's file.
// Usage: node tests/data/parquet/check-writer.js [path/to/shale]
// Needs chdb in tests/queries/node_modules (tests/queries/update-references installs it) and
// @duckdb/node-api in bench/node_modules (bench/run installs it).
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const repo = path.join(__dirname, '../../..');
const chdb = require(path.join(repo, 'tests/queries/node_modules/chdb'));
const duck = require(path.join(repo, 'bench/node_modules/@duckdb/node-api'));

const shale = process.argv[2] || path.join(__dirname, '../../../build/shale');
const dir = fs.mkdtempSync('/tmp/pqcheck-');

const cases = [
  ['ints', "SELECT toInt8(number % 200 - 100) i8, toUInt8(number % 256) u8, toInt16(number * 7 - 30000) i16, toUInt16(number * 13) u16, toInt32(number * 100003 - 5) i32, toUInt32(number * 4000000) u32, toInt64(number * 1000000007 - 2) i64, toUInt64(number * 18000000000000000) u64 FROM numbers(1000)"],
  ['floats_bool', "SELECT toFloat32(number / 3) f32, number / 7 - 50 f64, number % 3 = 0 b FROM numbers(1000)"],
  ['strings', "SELECT toString(number % 37) s, repeat('x', number % 5) r, toFixedString(toString(number % 100), 3) fs, toLowCardinality(toString(number % 4)) lc FROM numbers(1000)"],
  ['dates', "SELECT toDate('2020-01-01') + number d, toDate32('1950-01-01') + number * 10 d32, toDateTime('2021-03-04 05:06:07') + number * 3600 dt, toDateTime64(toDateTime('2021-03-04 05:06:07') + number, 3) dt3, toDateTime64('2021-03-04 05:06:07.123', 3) dt3c, toDateTime64('2021-03-04 05:06:07.123456', 6) dt6, toDateTime64('2021-03-04 05:06:07.123456789', 9) dt9, toDateTime64('2021-03-04 05:06:07.1', 1) dt1 FROM numbers(500)"],
  ['decimals', "SELECT toDecimal32(number / 8 - 20, 3) d32, toDecimal64(number * 1.25 - 300, 6) d64, toDecimal128(number / 3 - 100, 12) d128 FROM numbers(500)"],
  ['enum_uuid', "SELECT CAST(if(number % 2, 'a', 'b') AS Enum8('a' = 1, 'b' = 2)) e8, CAST(if(number % 3, 'x', 'y') AS Enum16('x' = -5, 'y' = 1000)) e16, CAST('61f0c404-5cb3-11e7-907b-a6006ad3dba0' AS UUID) u FROM numbers(100)"],
  ['nullable', "SELECT if(number % 3 = 0, NULL, number) n, if(number % 5 = 0, NULL, toString(number)) ns, if(number % 7 = 0, NULL, toDate('2020-01-01') + number) nd FROM numbers(1000)"],
  ['arrays', "SELECT range(number % 5) a, if(number % 4 = 0, CAST([] AS Array(String)), [toString(number), toString(number % 7)]) as_, [if(number % 2 = 0, NULL, number), number] an, [range(number % 3), []] aa, [[if(number % 3 = 0, NULL, toString(number))], []] aan FROM numbers(300)"],
  ['tuples', "SELECT (number, toString(number))::Tuple(a UInt64, b String) t, [(number, 'x')]::Array(Tuple(a UInt64, b String)) at FROM numbers(100)"],
  ['all_null', "SELECT CAST(NULL AS Nullable(Int32)) x, number FROM numbers(10)"],
  ['empty', "SELECT number, toString(number) s FROM numbers(0)"],
  ['dict_fallback', "SELECT toString(cityHash64(number)) || repeat('y', 50) s, number FROM numbers(50000)"],
  ['row_groups', "SELECT number, number % 10 k FROM numbers(25000) SETTINGS output_format_parquet_row_group_size = 10000"],
  ...['zstd', 'lz4', 'snappy', 'gzip', 'none'].map(c => ['codec_' + c, `SELECT number, toString(number % 100) s FROM numbers(5000) SETTINGS output_format_parquet_compression_method = '${c}'`]),
];

function sh(args) {
  return execFileSync(shale, ['local', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

async function main() {
  const inst = await duck.DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  async function duckRead(file) {
    const r = await con.runAndReadAll(`SELECT * FROM read_parquet('${file}')`);
    return JSON.stringify(r.getRowsJS(), (k, v) => (typeof v === 'bigint' ? v.toString() : v));
  }
  let pass = 0, fail = 0;
  for (const [name, q] of cases) {
    const fS = `${dir}/${name}.shale.parquet`, fC = `${dir}/${name}.ch.parquet`;
    const problems = [];
    try {
      // a trailing SETTINGS clause belongs to the INSERT's SELECT in both engines
      sh(['-q', `INSERT INTO FUNCTION file('${fS}') ${q}`]);
      chdb.query(`INSERT INTO FUNCTION file('${fC}') ${q}`);
      const back = sh(['-q', `SELECT * FROM file('${fS}') FORMAT TSV`]);
      const chS = chdb.query(`SELECT * FROM file('${fS}') FORMAT TSV`, 'TSV');
      const chC = chdb.query(`SELECT * FROM file('${fC}') FORMAT TSV`, 'TSV');
      if (back !== chC) problems.push('shale reading shale\'s file differs from chdb reading chdb\'s file');
      if (chS !== chC) problems.push('chdb reads shale\'s file differently');
      const dS = chdb.query(`DESCRIBE file('${fS}')`, 'TSV'), dC = chdb.query(`DESCRIBE file('${fC}')`, 'TSV');
      if (dS !== dC) problems.push(`chdb DESCRIBE differs:\n${dS}vs\n${dC}`);
      const kS = await duckRead(fS), kC = await duckRead(fC);
      if (kS !== kC) problems.push(`DuckDB reads shale's file differently:\n${kS.slice(0, 300)}\nvs\n${kC.slice(0, 300)}`);
    } catch (e) {
      problems.push(String(e.message || e).split('\n').slice(0, 3).join(' '));
    }
    if (problems.length) {
      fail++;
      console.log(`FAIL ${name}: ${problems.join('; ')}`);
    } else {
      pass++;
      console.log(`ok   ${name}`);
    }
  }
  console.log(`${pass} passed, ${fail} failed`);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(fail ? 1 : 0);
}
main();
