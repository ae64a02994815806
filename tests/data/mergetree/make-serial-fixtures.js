// Regenerates tests/data/mergetree/serial/<case>/ from real ClickHouse (chdb):
//   node tests/data/mergetree/make-serial-fixtures.js [path-to-chdb-module]
// Each case is a one-part MergeTree Wide table with CODEC(NONE) columns, uncompressed marks
// (.mrk2) and primary index (primary.idx), String in its single-stream form, granules of 3
// rows. The cases "strv1" and "sparse" keep ClickHouse's defaults for String
// (string_serialization_version = 'with_size_stream') and, in "sparse", for sparse
// serialization (ratio_of_defaults_for_sparse_serialization = 0.9). Copied: every .bin/.mrk2, primary.idx, columns.txt, serialization.json, count.txt,
// and expected.tsv (SELECT * in part order, TSV).
const fs = require("fs"), path = require("path");
const {Session} = require(process.argv[2] || require('path').join(__dirname, '../../queries/node_modules/chdb'));
const out = path.join(__dirname, "serial");
const sess = new Session(fs.mkdtempSync("/tmp/mtserial-gen-"));
sess.query("SET allow_suspicious_low_cardinality_types = 1");
const SET = "min_bytes_for_wide_part=0, index_granularity=3, ratio_of_defaults_for_sparse_serialization=1, " +
    "compress_marks=0, compress_primary_key=0, string_serialization_version='single_stream', " +
    "serialization_info_version='basic'";
const SET_V1 = "min_bytes_for_wide_part=0, index_granularity=3, ratio_of_defaults_for_sparse_serialization=1, " +
    "compress_marks=0, compress_primary_key=0";
const SET_SPARSE = "min_bytes_for_wide_part=0, index_granularity=3, compress_marks=0, compress_primary_key=0";
const cases = [
  {name: "nums",
   cols: "k1 UInt8, k2 Int64, k3 String, u16 UInt16, u32 UInt32, u64 UInt64, u128 UInt128, i8 Int8, i16 Int16, " +
         "i32 Int32, i128 Int128, f32 Float32, f64 Float64, b Bool, d Date, d32 Date32, dt DateTime('UTC'), " +
         "dt64 DateTime64(3, 'UTC'), e8 Enum8('a' = 1, 'b' = -2), e16 Enum16('x' = 1000, 'y' = 2), dec32 Decimal32(2), " +
         "dec64 Decimal64(4), dec128 Decimal128(10), uuid UUID, fs FixedString(3)",
   order: "(k1, k2, k3)",
   insert: "SELECT number % 3, -number * 1000000007, concat('s', toString(number)), number * 300, number * 70000, " +
           "number * 5000000000, bitShiftLeft(toUInt128(number), 64) + 7, -number, -number * 300, -number * 70000, " +
           "-bitShiftLeft(toInt128(number), 64), number / 4, -number / 3, number % 2, toDate(19000 + number), " +
           "toDate32(-1000 + number * 100), toDateTime(1700000000 + number * 3600, 'UTC'), " +
           "toDateTime64(1700000000.123 + number, 3, 'UTC'), if(number % 2, 'a', 'b'), if(number % 2, 'x', 'y'), " +
           "toDecimal32(number * 1.25, 2), toDecimal64(-number * 2.5, 4), toDecimal128(number / 8, 10), " +
           "toUUID(concat('0123456', toString(number), '-89ab-cdef-0123-456789abcdef')), toFixedString(concat('f', toString(number)), 3) " +
           "FROM numbers(8)"},
  {name: "nested",
   cols: "k UInt32, s String, n Nullable(String), ni Nullable(Int32), a Array(Nullable(Int32)), aa Array(Array(String)), " +
         "tu Tuple(x Int8, y String), tu2 Tuple(Int8, Array(UInt8)), `we ird.c` UInt8, an Array(Nullable(String))",
   order: "k",
   insert: "SELECT number, repeat('x', number), if(number % 3 = 0, NULL, toString(number)), if(number % 2 = 0, NULL, -number), " +
           "arrayMap(i -> if(i % 2 = 1, NULL, toInt32(i)), range(number % 4)), " +
           "arrayMap(i -> arrayMap(j -> toString(j), range(i)), range(number % 3)), (number, toString(number * 11)), " +
           "(-number, range(number % 3)), number + 100, [NULL, toString(number)] FROM numbers(8)"},
  {name: "lc",
   cols: "k UInt32, lc LowCardinality(String), lcn LowCardinality(Nullable(String)), lcf LowCardinality(FixedString(2)), " +
         "lcu LowCardinality(UInt32), alc Array(LowCardinality(String))",
   order: "k",
   insert: "SELECT number, ['red', 'green', '', 'blue'][number % 4 + 1], if(number % 3 = 0, NULL, ['p', '', 'q'][number % 3 + 1]), " +
           "toFixedString(['ab', 'cd', 'e'][number % 3 + 1], 2), [7, 0, 9][number % 3 + 1], " +
           "arrayMap(i -> ['x', 'y', 'z'][(i + number) % 3 + 1], range(number % 3)) FROM numbers(10)"},
  {name: "strv1", set: SET_V1,
   cols: "k UInt32, s String, n Nullable(String), a Array(String), an Array(Nullable(String)), aa Array(Array(String)), " +
         "tu Tuple(x Int8, y String), lc LowCardinality(String), lcn LowCardinality(Nullable(String)), fs FixedString(2), " +
         "nn Nested(x String, y UInt8), tn Tuple(a Array(String), b Nullable(String))",
   order: "k",
   insert: "SELECT number, repeat(char(97 + number % 26), number * 23), if(number % 3 = 0, NULL, toString(number)), " +
           "arrayMap(i -> toString(i * number), range(number % 4)), [NULL, toString(number), ''], " +
           "arrayMap(i -> arrayMap(j -> repeat('q', j), range(i)), range(number % 3)), (number, toString(number * 11)), " +
           "['red', 'green', ''][number % 3 + 1], if(number % 4 = 0, NULL, ['p', '', 'q'][number % 3 + 1]), " +
           "toFixedString(['ab', 'c', ''][number % 3 + 1], 2), ['u', toString(number)], [1, 2], " +
           "(arrayMap(i -> toString(i), range(number % 2 + 1)), if(number % 2, NULL, 'zz')) FROM numbers(11)"},
  {name: "sparse", set: SET_SPARSE,
   cols: "k UInt32, u UInt64, s String, fs FixedString(2), tu Tuple(a UInt8, b String), f Float64, n Nullable(String), " +
         "dense String",
   order: "k",
   insert: "SELECT number, if(number IN (4, 5, 9, 30), number * 1000, 0), if(number IN (2, 38), repeat('h', number), ''), " +
           "if(number = 1, 'ab', ''), (if(number = 6, 1, 0), if(number IN (6, 39), 'x', '')), " +
           "if(number = 7, -0., if(number = 20, 1.5, 0)), if(number = 3, 'v', NULL), toString(number) FROM numbers(40)"},
];
for (const c of cases) {
  sess.query("DROP TABLE IF EXISTS t SYNC");
  const parts = [];
  let depth = 0, cur = "";
  for (const ch of c.cols) {
    if (ch === "," && depth === 0) { parts.push(cur); cur = ""; continue; }
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    cur += ch;
  }
  parts.push(cur);
  const cols = parts.map(x => x.trim() + " CODEC(NONE)").join(", ");
  sess.query(`CREATE TABLE t (${cols}) ENGINE = MergeTree ORDER BY ${c.order} SETTINGS ${c.set || SET}`);
  // (ClickHouse 26.7's MergeTree writer ignores low_cardinality_max_dictionary_size, so
  // LowCardinality parts always hold one dictionary written at the end; the other forms are
  // tested with hand-made streams.)
  sess.query(`INSERT INTO t ${c.insert}`);
  const part = sess.query("SELECT path FROM system.parts WHERE table = 't' AND active", "TSV").trim();
  const dst = path.join(out, c.name);
  fs.rmSync(dst, {recursive: true, force: true});
  fs.mkdirSync(dst, {recursive: true});
  for (const f of fs.readdirSync(part))
    if (/\.(bin|mrk2|idx|txt|json)$/.test(f) && f !== "checksums.txt")
      fs.copyFileSync(path.join(part, f), path.join(dst, f));
  fs.writeFileSync(path.join(dst, "expected.tsv"), sess.query("SELECT * FROM t ORDER BY " + c.order, "TSV"));
  console.log(c.name, fs.readdirSync(dst).length, "files");
}
