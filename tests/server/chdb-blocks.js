// Writes ClickHouse's compressed blocks of some bytes, as ClickHouse itself writes them (chdb,
// the ClickHouse the SQL tests take their references from): a MergeTree table with one
// FixedString(N) column of the given codec holds the bytes as they are, so its wide part's
// <column>.bin is the compressed blocks of exactly those bytes.
//   node chdb-blocks.js CODEC FILE-IN FILE-OUT     (CODEC: LZ4, ZSTD(1), NONE …)
// Exits 2 when chdb is not installed (the caller skips the comparison and says so).
const fs = require('fs');
const os = require('os');
const path = require('path');
let chdb;
try {
  chdb = require(path.join(__dirname, '../queries/node_modules/chdb'));
} catch (e) {
  process.exit(2);
}
const [codec, input, output] = process.argv.slice(2);
const data = fs.readFileSync(input);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chdb-blocks-'));
try {
  const s = new chdb.Session(dir);
  s.query(`CREATE TABLE b (s FixedString(${data.length}) CODEC(${codec})) ENGINE = MergeTree ORDER BY tuple() ` +
          `SETTINGS min_bytes_for_wide_part = 0`);
  s.query(`INSERT INTO b SELECT unhex('${data.toString('hex')}')`);
  const part = s.query("SELECT path FROM system.parts WHERE table = 'b' AND active", 'TSV').toString().trim();
  fs.copyFileSync(path.join(part, 's.bin'), output);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
