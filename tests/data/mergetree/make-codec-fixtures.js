#!/usr/bin/env node
/* Regenerates tests/data/mergetree/codec/: compressed column files (<col>.bin) written by
 * real ClickHouse (chdb) for every codec, the column's uncompressed stream (<col>.raw, the
 * RowBinary of the column, which for these types is exactly the serialized stream) and a
 * part's checksums.txt. Usage: node make-codec-fixtures.js [path-to-chdb-module] */
const fs = require("fs"), path = require("path"), os = require("os");
const { Session } = require(process.argv[2] || require('path').join(__dirname, '../../queries/node_modules/chdb'));
const out = path.join(__dirname, "codec");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mtfix-"));
const s = new Session(tmp);
const q = (sql, fmt = "TSV") => s.query(sql, fmt);

/* One table, one column per codec; 500 rows in one part (one block per file). */
const cols = [
  ["c_none", "UInt32 CODEC(NONE)", "toUInt32(number * 7919)"],
  ["c_lz4", "UInt64", "intDiv(number, 3)"],
  ["c_lz4hc", "String CODEC(LZ4HC(9))", "concat('v', toString(number % 37))"],
  ["c_zstd", "Int64 CODEC(ZSTD(3))", "toInt64(number) - 250"],
  ["c_d1", "Int8 CODEC(Delta)", "toInt8(number * 3)"],
  ["c_d2", "UInt16 CODEC(Delta)", "toUInt16(number * 5)"],
  ["c_d4", "Int32 CODEC(Delta)", "toInt32(number * number) - 1000"],
  ["c_d8", "UInt64 CODEC(Delta)", "number * 1000003"],
  ["c_d2fs", "FixedString(3) CODEC(Delta(2))", "toFixedString(leftPad(toString(number % 1000), 3, '0'), 3)"],
  ["c_dd1", "UInt8 CODEC(DoubleDelta)", "toUInt8((number * number) % 256)"],
  ["c_dd2", "Int16 CODEC(DoubleDelta)", "toInt16(number * 7 - 1000 + (number % 5) * 100)"],
  ["c_dd4", "DateTime CODEC(DoubleDelta)", "toDateTime(1700000000 + number * 60 + (number % 7) * 3 + if(number % 50 = 0, 100000, 0))"],
  ["c_dd8", "Int64 CODEC(DoubleDelta)", "toInt64(if(number % 13 = 0, bitShiftLeft(toInt64(1), 40) * (number % 3), number * number * number)) - if(number % 17 = 0, 9000000000000000000, 0)"],
  ["c_g1", "UInt8 CODEC(Gorilla)", "toUInt8(number % 7)"],
  ["c_g2", "Int16 CODEC(Gorilla)", "toInt16(number * 3 - 700)"],
  ["c_g4", "Float32 CODEC(Gorilla)", "toFloat32(sin(number / 10))"],
  ["c_g8", "Float64 CODEC(Gorilla)", "if(number % 10 = 0, 0.1, sin(number / 10) * 100)"],
  ["c_g8fs", "FixedString(3) CODEC(Gorilla(8))", "toFixedString(leftPad(toString(number % 1000), 3, '0'), 3)"],
  ["c_t64u8", "UInt8 CODEC(T64)", "toUInt8(number % 5 + 100)"],
  ["c_t64u32", "UInt32 CODEC(T64)", "toUInt32(number % 1000 + 100000)"],
  ["c_t64i16", "Int16 CODEC(T64)", "toInt16(number) - 250"],
  ["c_t64i64bit", "Int64 CODEC(T64('bit'))", "toInt64(number * 13) - 3000"],
  ["c_t64u64bit", "UInt64 CODEC(T64('bit'))", "number * 1000000007"],
  ["c_t64const", "Int32 CODEC(T64)", "toInt32(-5)"],
  ["c_chain_dz", "UInt32 CODEC(Delta, ZSTD(1))", "toUInt32(number * 3 + 10)"],
  ["c_chain_ddl", "Int64 CODEC(DoubleDelta, LZ4)", "toInt64(number * 1000) - 7"],
  ["c_chain_tz", "Int32 CODEC(T64, LZ4HC(3))", "toInt32(number % 300) - 100"],
  ["c_nul", "Nullable(Int32) CODEC(Delta, LZ4)", "if(number % 4 = 0, NULL, toInt32(number))"],
];
q("CREATE TABLE t (" + cols.map(c => c[0] + " " + c[1]).join(", ") +
  ") ENGINE=MergeTree ORDER BY tuple() SETTINGS min_bytes_for_wide_part=0, allow_suspicious_codecs=1",
  "TSV");
q("INSERT INTO t SELECT " + cols.map(c => c[2]).join(", ") + " FROM numbers(500)");
/* Many small blocks: min/max_compress_block_size 1024/2048, granules of 100 rows. */
q("CREATE TABLE m (c_multi UInt64 CODEC(LZ4)) ENGINE=MergeTree ORDER BY tuple() SETTINGS " +
  "min_bytes_for_wide_part=0, index_granularity=100, min_compress_block_size=1024, max_compress_block_size=2048");
q("INSERT INTO m SELECT number * 2654435761 % 1000003 FROM numbers(1000)");

fs.mkdirSync(out, { recursive: true });
/* Binary output goes through a file: the query result comes back as a JS string. */
const rowbinary = (sql, file) => {
  const f = path.join(tmp, file);
  q(`${sql} INTO OUTFILE '${f}' TRUNCATE FORMAT RowBinary`);
  fs.copyFileSync(f, path.join(out, file));
};
const partOf = t => q(`SELECT path FROM system.parts WHERE table='${t}' AND active`).trim();
const p = partOf("t"), pm = partOf("m");
for (const [name, type] of cols) {
  fs.copyFileSync(path.join(p, name + ".bin"), path.join(out, name + ".bin"));
  if (!type.startsWith("Nullable"))
    rowbinary(`SELECT ${name} FROM t`, name + ".raw");
}
fs.copyFileSync(path.join(p, "c_nul.null.bin"), path.join(out, "c_nul.null.bin"));
fs.copyFileSync(path.join(pm, "c_multi.bin"), path.join(out, "c_multi.bin"));
rowbinary("SELECT c_multi FROM m", "c_multi.raw");
fs.copyFileSync(path.join(pm, "checksums.txt"), path.join(out, "multi_checksums.txt"));
/* The codec each column is declared with, as ClickHouse prints it. */
fs.writeFileSync(path.join(out, "codecs.tsv"),
  q("SELECT name, type, compression_codec FROM system.columns WHERE table='t' ORDER BY position"));
fs.rmSync(tmp, { recursive: true, force: true });
