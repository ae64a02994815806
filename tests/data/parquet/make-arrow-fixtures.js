#!/usr/bin/env node
// Regenerates the ar_*.parquet fixtures in this directory with arrow-rs, the Parquet writer
// of the Rust Arrow implementation, as compiled to WebAssembly in the npm package
// parquet-wasm; tables are built with the npm package apache-arrow. These files cover what
// the ClickHouse / DuckDB fixtures (make-fixtures.js) do not: explicit encodings (DELTA_*,
// BYTE_STREAM_SPLIT), a column chunk whose dictionary overflows so that arrow-rs falls back
// to PLAIN (or DELTA_BYTE_ARRAY with v2 pages) part-way through, LZ4_RAW, page v1/v2 with
// every codec, arrow-only types (large strings/binary, unsigned, ns timestamps, Float16).
//
// Not run by `make test`. The npm packages stay outside the repository:
//   npm install --prefix /tmp/pqwasm parquet-wasm@0.8.0 apache-arrow@21.2.0
//   node tests/data/parquet/make-arrow-fixtures.js [/tmp/pqwasm]
// Content is deterministic (no randomness, no clock). When DuckDB is available at
// bench/node_modules/@duckdb/node-api, the script also walks the
// page headers of every column chunk and prints the page kinds and encodings per column,
// and fails if ar_dict_fallback*.parquet does not really fall back part-way through.
'use strict';
const fs = require('fs');
const path = require('path');
const dir = __dirname;
const root = path.join(dir, '..', '..', '..');
const prefix = process.argv[2] || '/tmp/pqwasm';
const A = require(path.join(prefix, 'node_modules/apache-arrow'));
const P = require(path.join(prefix, 'node_modules/parquet-wasm/node/parquet_wasm.js'));

// ---------- building Arrow columns ----------

// A primitive column from JS values (null = NULL). 64-bit types take BigInt-compatible
// values; Decimal takes BigInt unscaled values (two's complement, 128-bit little endian).
function prim(type, vals) {
  const n = vals.length;
  const stride = type instanceof A.Decimal ? type.bitWidth / 32 : 1;
  const data = new type.ArrayType(n * stride);
  const big = data instanceof BigInt64Array || data instanceof BigUint64Array;
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let k = 0; k < n; k++) {
    const v = vals[k];
    if (v === null) { nulls++; continue; }
    bitmap[k >> 3] |= 1 << (k & 7);
    if (type instanceof A.Decimal) {
      let x = BigInt.asUintN(32 * stride, BigInt(v));
      for (let w = 0; w < stride; w++) { data[k * stride + w] = Number(x & 0xffffffffn); x >>= 32n; }
    } else data[k] = big ? BigInt(v) : v;
  }
  return A.makeVector(A.makeData({ type, length: n, nullCount: nulls, data, nullBitmap: nulls ? bitmap : undefined }));
}
const vec = (type, vals) => A.vectorFromArray(vals, type);

// cols: [name, vector, nullable]; returns an Arrow table with exactly those fields.
function table(cols) {
  const fields = cols.map(([name, v, nullable]) => new A.Field(name, v.type, nullable));
  const schema = new A.Schema(fields);
  const n = cols[0][1].length;
  const data = A.makeData({ type: new A.Struct(fields), length: n, nullCount: 0, children: cols.map(c => c[1].data[0]) });
  return new A.Table(schema, new A.RecordBatch(schema, data));
}

function write(file, t, configure) {
  const wt = P.Table.fromIPCStream(A.tableToIPC(t, 'stream'));
  const b = configure(new P.WriterPropertiesBuilder().setCreatedBy('parquet-rs (parquet-wasm 0.8.0)'));
  const bytes = P.writeParquet(wt, b.build());
  fs.writeFileSync(path.join(dir, file), bytes);
  console.log('wrote', file, bytes.length, 'bytes');
}

const range = (n, f) => Array.from({ length: n }, (_, k) => f(k));
const C = P.Compression, E = P.Encoding;

// ---------- ar_types: scalar types, nullable and required ----------
{
  const n = 600;
  const t = table([
    ['id', prim(new A.Int32(), range(n, k => k)), false],
    ['i8', prim(new A.Int8(), range(n, k => (k * 7) % 256 - 128)), false],
    ['i16', prim(new A.Int16(), range(n, k => k % 5 === 0 ? null : k * 101 - 30000)), true],
    ['i64', prim(new A.Int64(), range(n, k => BigInt(k) * 1000000000007n - 300000000000000n)), false],
    ['u8', prim(new A.Uint8(), range(n, k => (k * 13) % 256)), false],
    ['u16', prim(new A.Uint16(), range(n, k => k % 7 === 0 ? null : (k * 977) % 65536)), true],
    ['u32', prim(new A.Uint32(), range(n, k => (k * 7654321) % 4294967296)), false],
    ['u64', prim(new A.Uint64(), range(n, k => k % 9 === 0 ? null : BigInt(k) * 30000000000000000n + 5n)), true],
    ['f32', prim(new A.Float32(), range(n, k => k % 11 === 0 ? null : k / 8 - 20)), true],
    ['f64', prim(new A.Float64(), range(n, k => k / 4 - 70.5)), false],
    ['b', vec(new A.Bool(), range(n, k => k % 13 === 0 ? null : k % 3 === 0)), true],
    ['s', vec(new A.Utf8(), range(n, k => k % 6 === 0 ? null : 'str_' + (k % 41))), true],
    ['s_req', vec(new A.Utf8(), range(n, k => 'r' + 'x'.repeat(k % 5) + k)), false],
    ['ls', vec(new A.LargeUtf8(), range(n, k => k % 4 === 0 ? null : 'large_' + (k * 3) % 97)), true],
    ['bin', vec(new A.Binary(), range(n, k => k % 8 === 0 ? null : Uint8Array.from([65 + k % 26, 48 + k % 10]))), true],
    ['lbin', vec(new A.LargeBinary(), range(n, k => Uint8Array.from([97 + k % 26, 97 + (k >> 3) % 26, 33]))), false],
    ['fsb', vec(new A.FixedSizeBinary(3), range(n, k => k % 10 === 0 ? null : Uint8Array.from([75, 48 + k % 10, 48 + (k >> 4) % 10]))), true],
    ['d32', prim(new A.DateDay(), range(n, k => k % 12 === 0 ? null : k * 37 - 5000)), true],
    ['d64', prim(new A.DateMillisecond(), range(n, k => BigInt(k * 3 + 18000) * 86400000n)), false],
    ['ts_s', prim(new A.TimestampSecond(), range(n, k => 1600000000 + k * 3607)), false],
    ['ts_ms', prim(new A.TimestampMillisecond(), range(n, k => k % 10 === 3 ? null : 1600000000123 + k * 3600007)), true],
    ['ts_us', prim(new A.TimestampMicrosecond(), range(n, k => 1600000000123456n + BigInt(k) * 3600000007n)), false],
    ['ts_ns', prim(new A.TimestampNanosecond(), range(n, k => 1600000000123456789n + BigInt(k) * 3600000000007n)), false],
    ['ts_ms_utc', prim(new A.TimestampMillisecond('UTC'), range(n, k => 1600000000123 + k * 3600007)), false],
    ['ts_us_utc', prim(new A.TimestampMicrosecond('UTC'), range(n, k => k % 10 === 4 ? null : 1600000000123456n + BigInt(k) * 3600000007n)), true],
    ['ts_ns_utc', prim(new A.TimestampNanosecond('UTC'), range(n, k => 1600000000123456789n + BigInt(k) * 3600000000007n)), false],
    ['dec9', prim(new A.Decimal(2, 9, 128), range(n, k => BigInt(k * 12345 - 3000000))), false],
    ['dec18', prim(new A.Decimal(4, 18, 128), range(n, k => k % 7 === 1 ? null : BigInt(k) * 1234567890123n - 50000000000000n)), true],
    ['dec38', prim(new A.Decimal(10, 38, 128), range(n, k => BigInt(k) * 98765432109876543210987n - 10n ** 25n)), false],
  ]);
  write('ar_types.parquet', t, b => b.setCompression(C.SNAPPY).setMaxRowGroupSize(250));
}

// ---------- ar_nested: lists, structs, maps ----------
{
  const n = 400;
  const intList = new A.List(new A.Field('item', new A.Int32(), true));
  const strList = new A.List(new A.Field('item', new A.Utf8(), true));
  const listList = new A.List(new A.Field('item', new A.List(new A.Field('item', new A.Int64(), true)), true));
  const reqList = new A.List(new A.Field('item', new A.Int32(), false));
  const st = new A.Struct([new A.Field('a', new A.Int32(), true), new A.Field('b', new A.Utf8(), true)]);
  const st2 = new A.Struct([new A.Field('x', new A.Float64(), false), new A.Field('inner', new A.Struct([new A.Field('y', new A.Int64(), true)]), true)]);
  const lst = new A.List(new A.Field('item', new A.Struct([new A.Field('k', new A.Utf8(), true), new A.Field('v', new A.Int32(), true)]), true));
  const mp = new A.Map_(new A.Field('entries', new A.Struct([new A.Field('key', new A.Utf8(), false), new A.Field('value', new A.Int32(), true)]), false));
  const t = table([
    ['id', prim(new A.Int32(), range(n, k => k)), false],
    ['li', vec(intList, range(n, k => k % 7 === 0 ? null : range(k % 5, j => (j === 2 ? null : k * 10 + j)))), true],
    ['ls', vec(strList, range(n, k => range(k % 4, j => (k + j) % 5 === 0 ? null : 'e' + (k + j)))), false],
    ['lli', vec(listList, range(n, k => k % 9 === 0 ? null : range(k % 3, j => j === 1 && k % 2 ? null : range(j + 1, m => BigInt(k * 100 + j * 10 + m))))), true],
    ['lreq', vec(reqList, range(n, k => range(k % 3, j => k + j))), false],
    ['st', vec(st, range(n, k => k % 8 === 0 ? null : { a: k % 3 === 0 ? null : k * 2, b: 'b' + (k % 17) })), true],
    ['st2', vec(st2, range(n, k => ({ x: k / 2, inner: k % 5 === 0 ? null : { y: k % 4 === 0 ? null : BigInt(k * 1000) } }))), false],
    ['lst', vec(lst, range(n, k => k % 10 === 0 ? null : range(k % 3, j => (j === 1 && k % 4 === 0 ? null : { k: 'k' + j, v: k % 6 === 0 ? null : k + j })))), true],
  ]);
  write('ar_nested.parquet', t, b => b.setCompression(C.ZSTD).setMaxRowGroupSize(150));
  // Maps in a file of their own: a reader without Map support can still read ar_nested.
  const tm = table([
    ['id', prim(new A.Int32(), range(n, k => k)), false],
    ['mp', vec(mp, range(n, k => k % 11 === 0 ? null : new Map(range(k % 4, j => ['m' + j, (k + j) % 7 === 0 ? null : k * j])))), true],
  ]);
  write('ar_map.parquet', tm, b => b.setCompression(C.GZIP).setMaxRowGroupSize(150));
}

// ---------- ar_enc_v1 / ar_enc_v2: every encoding arrow-rs writes, with small pages ----------
function encTable(n) {
  return table([
    ['id', prim(new A.Int32(), range(n, k => k)), false],
    ['plain_i32', prim(new A.Int32(), range(n, k => (k * 2654435761) % 1000003 - 500000)), false],
    ['delta_i32', prim(new A.Int32(), range(n, k => k % 100 < 50 ? k * 3 : (k * 7919) % 65536 - 32768)), false],
    ['delta_i32_n', prim(new A.Int32(), range(n, k => k % 9 === 0 ? null : 2147483647 - (k % 3 === 0 ? 4294967295 - k : k))), true],
    ['delta_i64', prim(new A.Int64(), range(n, k => BigInt(k) * 1000000000039n * (k % 2 ? -1n : 1n))), false],
    ['delta_i64_n', prim(new A.Int64(), range(n, k => k % 4 === 1 ? null : 9223372036854775807n - BigInt(k % 50) * 184467440737095516n)), true],
    ['delta_u32', prim(new A.Uint32(), range(n, k => (4294967295 - k * 5) >>> 0)), false],
    ['dlba', vec(new A.Utf8(), range(n, k => 'len' + 'y'.repeat(k % 23) + k)), false],
    ['dlba_n', vec(new A.Utf8(), range(n, k => k % 5 === 2 ? null : (k % 7 === 0 ? '' : 'v' + (k * 31) % 1000))), true],
    ['dba', vec(new A.Utf8(), range(n, k => 'https://example.com/path/' + String(Math.floor(k / 3)).padStart(6, '0') + '/item' + (k % 3))), false],
    ['dba_n', vec(new A.Utf8(), range(n, k => k % 6 === 5 ? null : 'prefix_common_' + (k % 4 === 0 ? '' : String(k)))), true],
    ['dba_bin', vec(new A.Binary(), range(n, k => Uint8Array.from([1, 2, 3, k % 256, (k >> 8) % 256]))), false],
    ['bss_f32', prim(new A.Float32(), range(n, k => Math.fround(Math.sin(k) * 1000))), false],
    ['bss_f64', prim(new A.Float64(), range(n, k => k % 8 === 0 ? null : Math.cos(k) * 1e6 + k)), true],
    ['dict_i64', prim(new A.Int64(), range(n, k => BigInt((k % 13) * 1000000007))), false],
    ['dict_s', vec(new A.Utf8(), range(n, k => k % 10 === 9 ? null : 'cat_' + (k % 19))), true],
    ['bool_req', vec(new A.Bool(), range(n, k => k % 3 === 1)), false],
    ['bool_n', vec(new A.Bool(), range(n, k => k % 5 === 0 ? null : k % 2 === 0)), true],
  ]);
}
function encProps(b) {
  // Booleans keep the default: PLAIN with v1 pages, RLE with v2 pages.
  const plain = ['id', 'plain_i32', 'bool_req', 'bool_n'];
  b = b.setColumnDictionaryEnabled('bool_req', false).setColumnDictionaryEnabled('bool_n', false);
  const enc = {
    delta_i32: E.DELTA_BINARY_PACKED, delta_i32_n: E.DELTA_BINARY_PACKED, delta_i64: E.DELTA_BINARY_PACKED,
    delta_i64_n: E.DELTA_BINARY_PACKED, delta_u32: E.DELTA_BINARY_PACKED,
    dlba: E.DELTA_LENGTH_BYTE_ARRAY, dlba_n: E.DELTA_LENGTH_BYTE_ARRAY,
    dba: E.DELTA_BYTE_ARRAY, dba_n: E.DELTA_BYTE_ARRAY, dba_bin: E.DELTA_BYTE_ARRAY,
    bss_f32: E.BYTE_STREAM_SPLIT, bss_f64: E.BYTE_STREAM_SPLIT,
  };
  for (const c of plain.slice(0, 2)) b = b.setColumnDictionaryEnabled(c, false).setColumnEncoding(c, E.PLAIN);
  for (const [c, e] of Object.entries(enc)) b = b.setColumnDictionaryEnabled(c, false).setColumnEncoding(c, e);
  return b.setDataPageSizeLimit(1024).setWriteBatchSize(128).setMaxRowGroupSize(1200);
}
write('ar_enc_v1.parquet', encTable(3000), b => encProps(b.setWriterVersion(P.WriterVersion.V1).setCompression(C.UNCOMPRESSED)));
write('ar_enc_v2.parquet', encTable(3000), b => encProps(b.setWriterVersion(P.WriterVersion.V2).setCompression(C.ZSTD)));

// ---------- ar_codec_*: one table, every codec, page v1 and v2 ----------
{
  const n = 1000;
  const t = table([
    ['id', prim(new A.Int64(), range(n, k => k)), false],
    ['v', prim(new A.Int32(), range(n, k => k % 7 === 0 ? null : (k * 37) % 1001)), true],
    ['f', prim(new A.Float64(), range(n, k => k / 16)), false],
    ['s', vec(new A.Utf8(), range(n, k => k % 9 === 0 ? null : 'codec_' + (k % 53))), true],
    ['ts', prim(new A.TimestampMicrosecond('UTC'), range(n, k => 1700000000000000n + BigInt(k) * 1000003n)), false],
    ['l', vec(new A.List(new A.Field('item', new A.Int32(), true)), range(n, k => range(k % 3, j => k + j))), false],
    ['b', vec(new A.Bool(), range(n, k => k % 11 === 0 ? null : k % 3 === 0)), true],
  ]);
  const codecs = [['uncompressed', C.UNCOMPRESSED], ['snappy', C.SNAPPY], ['gzip', C.GZIP], ['zstd', C.ZSTD], ['lz4raw', C.LZ4_RAW], ['brotli', C.BROTLI]];
  for (const [name, c] of codecs)
    for (const [vn, v] of [['v1', P.WriterVersion.V1], ['v2', P.WriterVersion.V2]])
      // v1: dictionary pages + RLE_DICTIONARY; v2: no dictionary, so arrow-rs's v2 defaults
      // (DELTA_BINARY_PACKED, DELTA_BYTE_ARRAY, RLE booleans) in several pages per chunk.
      write(`ar_codec_${name}_${vn}.parquet`, t, b => b.setCompression(c).setWriterVersion(v).setMaxRowGroupSize(400)
        .setDictionaryEnabled(vn === 'v1').setDataPageSizeLimit(1024).setWriteBatchSize(128));
}

// ---------- ar_dict_fallback: the dictionary overflows part-way through each chunk ----------
// Each row group of 4000 rows starts with hot values only (a small dictionary); from row 1500
// of the group on, every other row is a distinct cold value, so the dictionary outgrows the
// 2 KiB dictionary page limit and arrow-rs finishes the chunk with PLAIN pages (v1) or
// DELTA_BYTE_ARRAY pages (v2). Hot values appear both before and after the switch; some
// values appear only after it ('late_*'), some only in the dictionary part ('early_*').
function fallbackValue(k) {
  const r = k % 4000, g = Math.floor(k / 4000);
  if (r < 1500) return r % 97 === 0 ? 'early_' + g + '_' + (r % 5) : 'hot_' + String((r * r) % 23).padStart(2, '0');
  if (r % 2 === 0) return 'cold_' + String(k).padStart(6, '0') + '_' + 'z'.repeat(k % 7);
  return r % 101 === 1 ? 'late_' + (r % 3) : 'hot_' + String((r * 7) % 23).padStart(2, '0');
}
{
  const n = 12000;
  const t = table([
    ['i', prim(new A.Int32(), range(n, k => (k * 37) % 1000 - 100)), false],
    ['s', vec(new A.Utf8(), range(n, fallbackValue)), false],
  ]);
  write('ar_dict_fallback.parquet', t, b => b.setWriterVersion(P.WriterVersion.V1).setCompression(C.SNAPPY)
    .setDictionaryPageSizeLimit(2048).setDataPageSizeLimit(1024).setWriteBatchSize(100).setMaxRowGroupSize(4000));
  // Nullable, v2 pages: the fallback encoding is DELTA_BYTE_ARRAY.
  const t2 = table([
    ['i', prim(new A.Int32(), range(n, k => (k * 37) % 1000 - 100)), false],
    ['s', vec(new A.Utf8(), range(n, k => (k % 4000 >= 1500 && k % 13 === 0) || k % 4000 === 7 ? null : fallbackValue(k))), true],
  ]);
  write('ar_dict_fallback_v2.parquet', t2, b => b.setWriterVersion(P.WriterVersion.V2).setCompression(C.LZ4_RAW)
    .setDictionaryPageSizeLimit(2048).setDataPageSizeLimit(1024).setWriteBatchSize(100).setMaxRowGroupSize(4000));
}

// ---------- verification: page kinds and encodings of each column chunk ----------

// Minimal Thrift compact protocol reader, enough to read PageHeader structs.
function readPageHeader(buf, pos) {
  let p = pos;
  const varint = () => { let r = 0n, s = 0n, b; do { b = buf[p++]; r |= BigInt(b & 0x7f) << s; s += 7n; } while (b & 0x80); return r; };
  const zz = () => { const v = varint(); return Number((v >> 1n) ^ -(v & 1n)); };
  function skip(t) {
    switch (t) {
      case 1: case 2: return;
      case 3: p++; return;
      case 4: case 5: case 6: varint(); return;
      case 7: p += 8; return;
      case 8: { const l = Number(varint()); p += l; return; }
      case 9: case 10: { const h = buf[p++]; let sz = h >> 4; const et = h & 15; if (sz === 15) sz = Number(varint()); for (let k = 0; k < sz; k++) skip(et); return; }
      case 12: struct(() => false); return;
      default: throw new Error('thrift type ' + t);
    }
  }
  // Reads a struct; onField(id, type) returns true when it consumed the field.
  function struct(onField) {
    let last = 0;
    for (;;) {
      const h = buf[p++];
      if (h === 0) return;
      const t = h & 15, d = h >> 4;
      const id = d ? last + d : zz();
      last = id;
      if (!onField(id, t)) skip(t === 1 || t === 2 ? 1 : t);
    }
  }
  const hdr = {};
  struct((id, t) => {
    if (id === 1) hdr.type = zz();
    else if (id === 3) hdr.csize = zz();
    else if (id === 5 || id === 7 || id === 8) {
      const encField = id === 8 ? 4 : 2;
      struct((fid, ft) => { if (fid === 1) { hdr.num_values = zz(); return true; } if (fid === encField) { hdr.encoding = zz(); return true; } return false; });
    } else return false;
    return true;
  });
  hdr.headerLen = p - pos;
  return hdr;
}
const ENC = ['PLAIN', 'GROUP_VAR_INT', 'PLAIN_DICTIONARY', 'RLE', 'BIT_PACKED', 'DELTA_BINARY_PACKED', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'RLE_DICTIONARY', 'BYTE_STREAM_SPLIT'];
const PAGE = ['DATA', 'INDEX', 'DICT', 'DATA_V2'];

async function verify() {
  let duck = null;
  for (const c of [path.join(root, 'bench/node_modules/@duckdb/node-api')]) {
    try { duck = require(c); break; } catch (e) { /* next */ }
  }
  if (!duck) { console.log('DuckDB not found: skipping the page check'); return; }
  const inst = await duck.DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  let bad = 0;
  for (const f of fs.readdirSync(dir).filter(x => /^ar_.*\.parquet$/.test(x)).sort()) {
    const buf = fs.readFileSync(path.join(dir, f));
    const r = await con.runAndReadAll(`SELECT row_group_id, path_in_schema, encodings, dictionary_page_offset, data_page_offset, total_compressed_size FROM parquet_metadata('${path.join(dir, f)}') ORDER BY row_group_id, column_id`);
    const summary = new Map();
    for (const row of r.getRowObjectsJS()) {
      let pos = Number(row.dictionary_page_offset ?? row.data_page_offset);
      if (row.dictionary_page_offset !== null && Number(row.dictionary_page_offset) === 0) pos = Number(row.data_page_offset);
      const end = pos + Number(row.total_compressed_size);
      const seq = [];
      while (pos < end) {
        const h = readPageHeader(buf, pos);
        const s = `${PAGE[h.type]}:${ENC[h.encoding]}`;
        if (seq.length && seq[seq.length - 1][0] === s) seq[seq.length - 1][1]++; else seq.push([s, 1]);
        pos += h.headerLen + h.csize;
      }
      const text = seq.map(([s, c]) => `${s}x${c}`).join(' ');
      const key = row.path_in_schema;
      if (!summary.has(key)) summary.set(key, []);
      summary.get(key).push(`rg${row.row_group_id}[${text}]`);
      if (/^ar_dict_fallback/.test(f) && key === 's') {
        const kinds = seq.map(([s]) => s);
        const want = f.includes('v2') ? 'DATA_V2:DELTA_BYTE_ARRAY' : 'DATA:PLAIN';
        const ok = kinds[0] === 'DICT:PLAIN' && kinds.some(k => /RLE_DICTIONARY/.test(k)) && kinds[kinds.length - 1] === want;
        if (!ok) { console.error(`${f}: column s of row group ${row.row_group_id} does not fall back: ${text}`); bad++; }
      }
    }
    console.log(f);
    for (const [k, v] of summary) console.log(`  ${k}: ${v.join(' ')}`);
  }
  if (bad) process.exit(1);
}
verify().catch((e) => { console.error(e); process.exit(1); });
