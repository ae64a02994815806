// Regenerates the Native fixtures with ClickHouse (chdb):
//   node tests/data/native/make-fixtures.js [path/to/node_modules/chdb]
// Each NAME.native is ClickHouse's `FORMAT Native` output of the query below; NAME.tsv is
// the same query as TabSeparated, which tests/unit/test_native.c compares its reading with.
const path = require('path');
const fs = require('fs');
const { query } = require(process.argv[2] || require('path').join(__dirname, '../../queries/node_modules/chdb'));

const dir = __dirname;
const fixtures = {
  numbers: `SELECT * FROM VALUES(
      'u8 UInt8, u16 UInt16, u32 UInt32, u64 UInt64, u128 UInt128, i8 Int8, i16 Int16, i32 Int32,
       i64 Int64, i128 Int128, f32 Float32, f64 Float64, b Bool',
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false),
      (255, 65535, 4294967295, 18446744073709551615, '340282366920938463463374607431768211455',
       -128, -32768, -2147483648, -9223372036854775808, '-170141183460469231731687303715884105728',
       1.5, -2.25, true),
      (7, 300, 70000, 5000000000, '12345678901234567890123', 5, -5, 123456, -1234567890123, 99, -0.5, 1e300, true))`,
  strings: `SELECT * EXCEPT u, toLowCardinality(u) lcu FROM VALUES(
      's String, fs FixedString(3), ns Nullable(String), lc LowCardinality(String),
       lcn LowCardinality(Nullable(String)), u UInt32, lcnf LowCardinality(Nullable(FixedString(2)))',
      ('', 'ab', NULL, 'x', NULL, 0, NULL),
      ('hello', 'abc', 'a\\tb', '', 'b', 7, 'zz'),
      ('wörld', '', '', 'y', '', 7, ''),
      ('x\\ny', 'q', 'z', 'x', 'b', 3, 'zz'),
      ('', 'ab', NULL, 'y', 'a', 0, 'ab'))`,
  dates: `SELECT * FROM VALUES(
      'd Date, d32 Date32, dt DateTime, dtz DateTime(\\'UTC\\'), dt64 DateTime64(3), dt64z DateTime64(6, \\'UTC\\'),
       e8 Enum8(\\'a\\' = 1, \\'b\\' = -2), e16 Enum16(\\'x\\' = 1000, \\'y\\' = 2), d9 Decimal(9, 2),
       d18 Decimal(18, 5), d38 Decimal(38, 10), nd Nullable(Decimal(9, 2))',
      ('1970-01-01', '1900-01-01', '1970-01-01 00:00:00', '2020-02-29 12:34:56', '1970-01-01 00:00:00.000',
       '2000-01-01 00:00:00.123456', 'a', 'x', 0, 0, 0, NULL),
      ('2149-06-06', '2299-12-31', '2106-02-07 06:28:15', '2001-09-09 01:46:40', '2020-01-01 10:00:00.123',
       '1969-12-31 23:59:59.999999', 'b', 'y', -1234567.89, 1234567890123.45678, '-12345678901234567890.0123456789', 3.5))`,
  nested: `SELECT * FROM VALUES(
      'a Array(Int32), an Array(Nullable(String)), aa Array(Array(UInt8)), t Tuple(a UInt8, b String),
       tu Tuple(Nullable(Int64), Array(String)), alc Array(LowCardinality(String)), tlc Tuple(UInt8, LowCardinality(String)),
       nn Nullable(Nothing), an2 Array(Nothing)',
      ([], [], [], (1, 'x'), (NULL, []), [], (1, 'p'), NULL, []),
      ([1, -2, 3], ['a', NULL, ''], [[1, 2], [], [3]], (2, ''), (5, ['q', 'r']), ['k', 'l', 'k'], (2, ''), NULL, []),
      ([2147483647], [NULL], [[]], (255, 'long string'), (-1, ['']), [''], (3, 'p'), NULL, []))`,
  // several blocks, each with its own LowCardinality dictionary
  blocks: `SELECT number n, toLowCardinality(toString(number % 4)) lc, toString(number) s FROM numbers(10)
      SETTINGS max_block_size = 3`,
  // more than 256 keys: UInt16 indexes
  lc16: `SELECT toLowCardinality(toString(number * 7 % 300)) lc, toLowCardinality(toNullable(number % 301)) lcn FROM numbers(400)`,
  uuid: `SELECT toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0') u, toUUID('00000000-0000-0000-0000-000000000001') v,
      toLowCardinality(toUUID('0123ffff-0000-0000-8888-000000000000')) lu`,
};

for (const [name, sql] of Object.entries(fixtures)) {
  for (const [ext, fmt] of [['native', 'Native'], ['tsv', 'TabSeparated']]) {
    const file = path.join(dir, `${name}.${ext}`);
    fs.rmSync(file, { force: true });
    query(`${sql} INTO OUTFILE '${file}' FORMAT ${fmt}`);
  }
  console.log(name, fs.statSync(path.join(dir, `${name}.native`)).size, 'bytes');
}
