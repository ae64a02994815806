// ClickHouse (chdb) side of bench/server/insert-query-bench.sh: the guide's top-5 query, warm,
// over the posts Parquet files and over a MergeTree table loaded from them, in one Session.
//   node chdb-q1.js CHDB_DIR PARQUET_DIR DDL_FILE QUERY_FILE RUNS  → "file_ms mergetree_ms" (medians)
const fs = require('fs');
const os = require('os');
const path = require('path');
const [chdbDir, dir, ddlFile, queryFile, runs] = process.argv.slice(2);
const { Session } = require(path.resolve(chdbDir));
const q1 = fs.readFileSync(queryFile, 'utf8').trim();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chdb-q1-'));
const median = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
function warm(s, sql) {
  s.query(sql, 'TSV'); // warm-up
  const t = [];
  for (let i = 0; i < Number(runs); i++) {
    const t0 = process.hrtime.bigint();
    s.query(sql, 'TSV');
    t.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(t);
}
try {
  const s = new Session(tmp);
  const fileMs = warm(s, q1.replace(/\bposts\b/, `file('${dir}/by_month/*.parquet', Parquet)`));
  s.query(fs.readFileSync(ddlFile, 'utf8'));
  s.query(`INSERT INTO posts SELECT * FROM file('${dir}/by_month/*.parquet', Parquet)`);
  const mtMs = warm(s, q1);
  console.log(`${fileMs.toFixed(1)} ${mtMs.toFixed(1)}`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
