#!/usr/bin/env node
// Regenerates the Parquet fixtures in this directory with ClickHouse (chdb) and DuckDB.
// Not run by `make test`. Usage (from the repository root):
//   node tests/data/parquet/make-fixtures.js
// chdb is looked up in tests/queries/node_modules; DuckDB in
// bench/node_modules/@duckdb/node-api (skipped when absent).
'use strict';
const fs = require('fs');
const path = require('path');
const dir = __dirname;
const root = path.join(dir, '..', '..', '..');

function req(cands) {
  for (const c of cands) { try { return require(c); } catch (e) { /* next */ } }
  return null;
}
const chdb = req([path.join(root, 'tests/queries/node_modules/chdb')]);
const duck = req([path.join(root, 'bench/node_modules/@duckdb/node-api')]);

const N = 1000;
const chSelect = `SELECT number::UInt8 u8, (number * 7 - 1000)::Int16 i16, (number * 100003)::UInt32 u32,
  (number * 1000000007 - 5)::Int64 i64, number * 3 u64, (number / 7)::Float32 f32, number / 3 f64,
  concat('s', toString(number % 37)) str, if(number % 3 = 0, NULL, number)::Nullable(Int32) ni,
  if(number % 5 = 0, NULL, concat('v', toString(number % 11))) ns,
  toDate('2020-01-01') + number % 1000 d, toDateTime64('2021-03-04 05:06:07.123', 3, 'UTC') + number dt64,
  toDecimal64(number * 1.25, 2) dec, toFixedString(toString(number % 100), 2) fs,
  range(number % 4) arr, [if(number % 2 = 0, NULL, toString(number)), 'x'] narr,
  CAST((number, toString(number % 13)) AS Tuple(a UInt64, b String)) tup,
  toLowCardinality(toString(number % 5)) lc, number % 2 = 1 bo
  FROM numbers(${N})`;

function ch(file, settings) {
  const p = path.join(dir, file);
  if (fs.existsSync(p)) fs.unlinkSync(p);
  chdb.query(`INSERT INTO FUNCTION file('${p}') ${chSelect} SETTINGS ${settings}`);
  console.log('wrote', file);
}

if (chdb) {
  const base = 'output_format_parquet_row_group_size = 400';
  for (const c of ['none', 'snappy', 'zstd', 'gzip', 'lz4', 'brotli'])
    ch(`ch_${c}.parquet`, `${base}, output_format_parquet_compression_method = '${c}'`);
  ch('ch_arrow_encoder.parquet', `${base}, output_format_parquet_use_custom_encoder = 0, output_format_parquet_compression_method = 'zstd'`);
  // A tiny file for the truncation / corruption unit test.
  const tiny = path.join(dir, 'ch_tiny.parquet');
  if (fs.existsSync(tiny)) fs.unlinkSync(tiny);
  chdb.query(`INSERT INTO FUNCTION file('${tiny}') SELECT number::Int32 a, if(number % 2, NULL, toString(number)) s, [number] arr, (number, 'x')::Tuple(p UInt8, q String) t FROM numbers(12) SETTINGS output_format_parquet_compression_method = 'snappy'`);
  ch('ch_v1_pages.parquet', `${base}, output_format_parquet_version = '1.0', output_format_parquet_compression_method = 'snappy'`);
  // Many small row groups (parallel reading, filter push-down by statistics): sorted keys,
  // unsigned values above 2^31, strings, a column NULL in whole row groups, dates.
  const rgp = path.join(dir, 'ch_row_groups.parquet');
  if (fs.existsSync(rgp)) fs.unlinkSync(rgp);
  chdb.query(`INSERT INTO FUNCTION file('${rgp}') SELECT number id, (number - 10000)::Int32 i32,
    (number * 500000)::UInt32 u32, concat('k', leftPad(toString(number), 6, '0')) s,
    if(intDiv(number, 1000) % 3 = 1, NULL, number % 1000)::Nullable(Int64) ni,
    number / 4 f64, toDate('2020-01-01') + intDiv(number, 100) d
    FROM numbers(8000)
    SETTINGS output_format_parquet_row_group_size = 1000, output_format_parquet_compression_method = 'zstd'`);
  console.log('wrote ch_row_groups.parquet');
  // Dictionary-encoded strings (filters and GROUP BY on dictionary codes): a few distinct
  // tags, a name column whose dictionary outgrows the limit so its chunks fall back to
  // PLAIN pages part-way, a Nullable tag (not coded), several pages and row groups.
  const dp = path.join(dir, 'ch_dict.parquet');
  if (fs.existsSync(dp)) fs.unlinkSync(dp);
  chdb.query(`INSERT INTO FUNCTION file('${dp}') SELECT number id,
    ['', 'anon', 'alice', 'bob', 'carol', 'dave', 'erin', 'frank'][1 + (number * 7 + intDiv(number, 3)) % 8] tag,
    if(number % 6000 < 3000, concat('few-', toString(number % 4)), concat('many-', toString(number))) name,
    if(number % 7 = 0, NULL, concat('t', toString(number % 5)))::Nullable(String) ntag,
    (number % 13)::Int32 score
    FROM numbers(12000)
    SETTINGS output_format_parquet_row_group_size = 5000, output_format_parquet_data_page_size = 2048,
      output_format_parquet_max_dictionary_size = 8192, output_format_parquet_compression_method = 'zstd'`);
  console.log('wrote ch_dict.parquet');
  // Small pages with a column index (page-level filter push-down): sorted id and ts, a
  // string key, a Nullable column NULL in whole pages, two row groups.
  const pp = path.join(dir, 'ch_pages.parquet');
  if (fs.existsSync(pp)) fs.unlinkSync(pp);
  chdb.query(`INSERT INTO FUNCTION file('${pp}') SELECT number id,
    toDateTime64('2020-01-01 00:00:00', 3, 'UTC') + number * 60 ts,
    concat('k', leftPad(toString(number), 6, '0')) s,
    if(intDiv(number, 500) % 4 = 1, NULL, number % 1000)::Nullable(Int64) n,
    ['red', 'green', 'blue'][1 + intDiv(number, 3000) % 3] colour
    FROM numbers(20000)
    SETTINGS output_format_parquet_row_group_size = 10000, output_format_parquet_data_page_size = 1024,
      output_format_parquet_compression_method = 'zstd'`);
  console.log('wrote ch_pages.parquet');
}

async function duckdb() {
  if (!duck) return;
  const inst = await duck.DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const sel = `SELECT i::INTEGER i, (i * 1000003)::BIGINT big, i % 2 = 0 b, (i / 3)::DOUBLE d, (i / 7)::FLOAT f,
    CASE WHEN i % 4 = 0 THEN NULL ELSE 'name' || (i % 17)::VARCHAR END s, DATE '2022-02-02' + (i % 400)::INTEGER dt,
    TIMESTAMP '2020-01-01 00:00:00' + to_microseconds(i * 1000003) ts, (i * 1.5)::DECIMAL(10, 3) dc,
    (i * 3)::DECIMAL(30, 4) bigdec, CASE WHEN i % 5 = 0 THEN NULL ELSE [i, NULL, i + 1] END lst,
    {'x': i, 'y': 'k' || (i % 3)::VARCHAR} st, [[i], [i, i]] nested, (i % 200)::UTINYINT ut, (i - 500)::SMALLINT sm
    FROM range(1500) t(i)`;
  const jobs = [
    ['dk_zstd.parquet', 'COMPRESSION zstd, ROW_GROUP_SIZE 600'],
    ['dk_v2.parquet', 'COMPRESSION snappy, ROW_GROUP_SIZE 600, PARQUET_VERSION V2'],
    ['dk_uncompressed.parquet', 'COMPRESSION uncompressed'],
    ['dk_gzip.parquet', 'COMPRESSION gzip'],
    ['dk_brotli.parquet', 'COMPRESSION brotli'],
    ['dk_lz4.parquet', 'COMPRESSION lz4'],
  ];
  for (const [file, opts] of jobs) {
    const p = path.join(dir, file);
    await con.run(`COPY (${sel}) TO '${p}' (FORMAT PARQUET, ${opts})`);
    console.log('wrote', file);
  }
}
duckdb().catch((e) => { console.error(e); process.exit(1); });
