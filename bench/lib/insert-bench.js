'use strict';
// MergeTree insert benchmarks (issue 6): posts_insert_file, posts_insert_s3, posts_insert_parts.
// Each is a `run(ctx)` benchmark of bench/run (it runs its own steps and returns the report's
// Markdown) because an INSERT needs a fresh table per run and figures the generic SELECT
// loop does not have (compressed size, row count check, parts over time, read_rows).
//
// Per run and engine:
//   shale       `shale local --path D -q CREATE` (untimed), then a second process
//               `shale local --path D [--setting=v] -q INSERT` timed as a whole (wall time,
//               maxrss, CPU: start-up and exit included), then an untimed process reads back
//               count() and sum(data_compressed_bytes) of the active parts from system.parts.
//   ClickHouse  lib/run-chdb-insert.js: chdb Session on D, CREATE untimed, INSERT timed.
//   DuckDB      lib/run-duckdb-insert.js: CREATE TABLE posts AS SELECT * FROM read_parquet(...)
//               into a fresh database file D/posts.duckdb, timed with its CHECKPOINT.
// D is a fresh temporary directory, removed after the run.
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawnSync } = require('child_process');
const { peer } = require('./warm');

const DDL = "CREATE TABLE posts (`Id` Int32 CODEC(Delta(4), ZSTD(1)), `PostTypeId` Enum8('Question' = 1, 'Answer' = 2, 'Wiki' = 3, 'TagWikiExcerpt' = 4, 'TagWiki' = 5, 'ModeratorNomination' = 6, 'WikiPlaceholder' = 7, 'PrivilegeWiki' = 8), `AcceptedAnswerId` UInt32, `CreationDate` DateTime64(3, 'UTC'), `Score` Int32, `ViewCount` UInt32 CODEC(Delta(4), ZSTD(1)), `Body` String, `OwnerUserId` Int32, `OwnerDisplayName` String, `LastEditorUserId` Int32, `LastEditorDisplayName` String, `LastEditDate` DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)), `LastActivityDate` DateTime64(3, 'UTC'), `Title` String, `Tags` String, `AnswerCount` UInt16 CODEC(Delta(2), ZSTD(1)), `CommentCount` UInt8, `FavoriteCount` UInt8, `ContentLicense` LowCardinality(String), `ParentId` String, `CommunityOwnedDate` DateTime64(3, 'UTC'), `ClosedDate` DateTime64(3, 'UTC')) ENGINE = MergeTree PARTITION BY toYear(CreationDate) ORDER BY (PostTypeId, toDate(CreationDate), CreationDate)";

// The memory budget of the "tuned" variant (the guide's rule: blocks of budget / (3 × threads)).
const BUDGET = 1 << 30;
const INSERT_THREADS = 2;
const SAMPLE_SECONDS = 60;
// the guide's form (a String literal against DateTime64) and the same bound typed explicitly
const RANGES = ["SELECT count() FROM posts WHERE PostTypeId = 'Question' AND CreationDate >= '2020-01-01'",
  "SELECT count() FROM posts WHERE PostTypeId = 'Question' AND CreationDate >= toDateTime64('2020-01-01 00:00:00', 3, 'UTC')"];
const PARTS = "SELECT 'S', now64(3), sum(c), count(), max(c) FROM (SELECT partition, count() AS c " +
  "FROM system.parts WHERE database = currentDatabase() AND table = 'posts' AND active GROUP BY partition)";

const VARIANTS = [
  { name: 'default', shale: [], ch: '' },
  { name: `max_insert_threads = ${INSERT_THREADS}`, shale: [`--max_insert_threads=${INSERT_THREADS}`],
    ch: ` SETTINGS max_insert_threads = ${INSERT_THREADS}` },
  { name: 'tuned',
    shale: ['--max_insert_threads=0', '--min_insert_block_size_bytes=0', `--max_insert_memory_usage=${BUDGET}`],
    ch: ` SETTINGS min_insert_block_size_rows = 0, min_insert_block_size_bytes = ${Math.floor(BUDGET / (3 * INSERT_THREADS))}, ` +
      `max_insert_threads = ${INSERT_THREADS}` },
];

function tmpDir(tag) { return fs.mkdtempSync(path.join(os.tmpdir(), `bench-${tag}-`)); }
function rm(d) { fs.rmSync(d, { recursive: true, force: true }); }
function firstLine(s) { return (s || '').split('\n').map((l) => l.trim()).find((l) => l) || '(no message)'; }
const mib = (b) => b / 2 ** 20;

// Runs shale synchronously (untimed steps); returns stdout or throws with its first error line.
function shaleSync(ctx, dir, sql, extra = []) {
  const r = spawnSync(ctx.shaleBin, ['local', '--path', dir, ...extra, '-q', sql], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(r.signal ? `killed by ${r.signal}: ${firstLine(r.stderr)}` : firstLine(r.stderr));
  return r.stdout;
}

function shaleTable(ctx, dir) {
  const count = Number(shaleSync(ctx, dir, 'SELECT count() FROM posts').trim());
  const [bytes, parts] = shaleSync(ctx, dir, "SELECT sum(data_compressed_bytes), count() FROM system.parts " +
    "WHERE database = currentDatabase() AND table = 'posts' AND active").trim().split('\t').map(Number);
  return { count, compressed_bytes: bytes, parts };
}

// One shale INSERT run: {ok, elapsed_s, rss_mib, cpu_s, count, compressed_bytes, parts} or {ok: false, error}.
async function shaleInsert(ctx, insert, settings, keep) {
  const dir = tmpDir('shale');
  try {
    try { shaleSync(ctx, dir, DDL); } catch (e) { return { ok: false, error: `CREATE: ${e.message}` }; }
    const r = await ctx.lib.timed([ctx.shaleBin, 'local', '--path', dir, `--max_threads=${ctx.threads}`, ...settings, '-q', insert], ctx.timeout);
    if (r.timedOut) return { ok: false, error: `timed out after ${ctx.timeout} s` };
    if (r.code !== 0) return { ok: false, error: (r.signal ? `killed by ${r.signal}: ` : '') + firstLine(r.stderr) };
    const m = { ok: true, elapsed_s: r.wall_s, rss_mib: r.time ? r.time.rss_kib / 1024 : NaN,
      cpu_s: r.time ? r.time.user_s + r.time.sys_s : NaN };
    try { Object.assign(m, shaleTable(ctx, dir)); } catch (e) { return { ok: false, error: `reading back: ${e.message}` }; }
    if (keep) m.dir = dir;
    return m;
  } finally { if (!keep) rm(dir); }
}

// One runner run (run-chdb-insert.js / run-duckdb-insert.js) in a fresh directory.
async function runnerInsert(ctx, script, argsFor) {
  const dir = tmpDir(script.includes('duck') ? 'duckdb' : 'chdb');
  try {
    const r = await ctx.lib.timed([process.execPath, path.join(ctx.benchDir, 'lib', script), ...argsFor(dir)], ctx.timeout, { cwd: dir });
    if (r.timedOut) return { ok: false, error: `timed out after ${ctx.timeout} s` };
    let j = null;
    try { j = JSON.parse(r.stdout.trim().split('\n').pop()); } catch (e) { /* below */ }
    if (!j) return { ok: false, error: `${script} failed: ${firstLine(r.stderr || r.stdout)}` };
    if (j.error) return { ok: false, error: firstLine(j.error) };
    const run = j.runs[0];
    const m = { ...j, ok: true, elapsed_s: run.elapsed_s, cpu_s: run.user_s + run.sys_s, rss_mib: r.time ? r.time.rss_kib / 1024 : NaN };
    if (script.includes('duck')) {
      m.compressed_bytes = ['posts.duckdb', 'posts.duckdb.wal'].map((f) => path.join(dir, f))
        .filter((f) => fs.existsSync(f)).reduce((a, f) => a + fs.statSync(f).size, 0);
    }
    return m;
  } finally { rm(dir); }
}

function chInsert(ctx, insert, extra = []) {
  return runnerInsert(ctx, 'run-chdb-insert.js', (dir) => ['--path', dir, '--create', DDL, '--insert', insert, ...extra]);
}

// ClickHouse warm (issue 17): one chdb Session per benchmark (bench/lib/peer-serve.js) on its
// own directory; each run drops and re-creates posts (untimed), then times the INSERT alone and
// reads back count() and the active parts. rss_mib is the session process's peak so far.
async function chWarmInsert(ctx, chp, insert) {
  const q = async (sql) => {
    const m = await chp.query(sql, ctx.timeout);
    if (!m.ok) throw new Error(m.error);
    return m;
  };
  try {
    await q('DROP TABLE IF EXISTS posts SYNC');
    await q(DDL);
    const m = await q(insert);
    const count = Number((await q('SELECT count() FROM posts')).result.trim());
    const [bytes, parts] = (await q("SELECT sum(data_compressed_bytes), count() FROM system.parts " +
      "WHERE database = currentDatabase() AND table = 'posts' AND active")).result.trim().split('\t').map(Number);
    return { ok: true, elapsed_s: m.elapsed_s, cpu_s: m.cpu_s, rss_mib: m.rss_mib, count, compressed_bytes: bytes, parts };
  } catch (e) { return { ok: false, error: e.message }; }
}

// Reads every file once so that every engine's timed runs find the set in the page cache.
function warmCache(dir) {
  spawnSync('bash', ['-c', `cat '${dir}'/by_month/*.parquet > /dev/null`]);
}

// The source's row count, asserted against every engine's count() after its INSERT.
function sourceRows(ctx, p) {
  return Number(ctx.chdbQuery(`SELECT count() FROM file('${p.dir}/by_month/*.parquet', Parquet)`).trim());
}

function header(ctx, b, data, load, extra) {
  const L = [`# ${b.name}: ${b.title}`, ''];
  L.push(`Run ${ctx.started} (UTC) with \`${ctx.cmdline}\`. ${extra}`, '');
  L.push(`Machine: ${ctx.machine}; 1-minute load average ${load[0].toFixed(2)} when the benchmark started, ` +
    `${load[1].toFixed(2)} when it ended.`, '');
  L.push(`Engines: shale ${ctx.shaleVersion}; ClickHouse ${ctx.chVersion} (npm chdb); DuckDB ${ctx.dkVersion} (npm @duckdb/node-api).`, '');
  L.push(`Data: ${data}`, '');
  return L;
}

const { median } = { median(xs) {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
} };

// Runs configs (each {label, variant, engine, run()}) interleaved, ctx.runs times; checks counts.
async function runConfigs(ctx, configs, expected) {
  for (const c of configs) { c.runs = []; c.error = null; }
  // One untimed warm-up run per configuration: the warm ClickHouse session's caches, and the
  // page cache for everyone.
  for (let i = -1; i < ctx.runs; i++) {
    for (const c of configs) {
      if (c.error) continue;
      const m = await c.run();
      if (i < 0) {
        if (!m.ok) { c.error = `warm-up: ${m.error}`; ctx.log(`  ${c.label} failed: ${m.error}`); }
        else ctx.log(`warm-up ${c.label} (${c.variant}): ${m.elapsed_s.toFixed(3)} s`);
        continue;
      }
      if (m.ok && m.count !== expected) { m.ok = false; m.error = `count() after the INSERT is ${m.count}, the source has ${expected}`; }
      if (!m.ok) { c.error = `run ${i + 1}: ${m.error}`; ctx.log(`  ${c.label} failed: ${m.error}`); continue; }
      c.runs.push(m);
      ctx.log(`run ${i + 1}/${ctx.runs} ${c.label}: ${m.elapsed_s.toFixed(3)} s, ${m.rss_mib.toFixed(1)} MiB, ` +
        `${mib(m.compressed_bytes).toFixed(1)} MiB on disk, ${m.parts === undefined ? '' : m.parts + ' parts, '}${m.count} rows`);
    }
  }
  for (const c of configs) {
    c.med = c.error ? null : Object.fromEntries(['elapsed_s', 'rss_mib', 'cpu_s', 'compressed_bytes', 'parts']
      .map((k) => [k, median(c.runs.map((m) => m[k]))]));
  }
}

function configTable(ctx, configs, L) {
  const { fmt, ratio, mdEscape } = ctx.lib;
  const dk = configs.find((c) => c.engine === 'duckdb');
  L.push('| settings | engine | elapsed (s) | peak RSS (MiB) | CPU (s) | compressed on disk (MiB) | active parts | ' +
    'elapsed / ClickHouse | RSS / ClickHouse | elapsed / DuckDB | RSS / DuckDB |', '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const c of configs) {
    if (c.error) {
      L.push(`| ${c.variant} | ${c.label} | ${c.engine === 'shale' ? 'not supported yet' : 'failed'}: ${mdEscape(c.error)} | — | — | — | — | — | — | — | — |`);
      continue;
    }
    const chc = configs.find((x) => x.engine === 'clickhouse' && x.variant === c.variant && !x.error);
    const r = (peer, k) => (peer && !peer.error && peer !== c && c.engine !== 'duckdb' ? ratio(c.med[k], peer.med[k]) : '—');
    L.push(`| ${c.variant} | ${c.label} | ${fmt(c.med.elapsed_s, 3)} | ${fmt(c.med.rss_mib, 1)} | ${fmt(c.med.cpu_s, 2)} | ` +
      `${fmt(mib(c.med.compressed_bytes), 1)} | ${Number.isFinite(c.med.parts) ? c.med.parts : '—'} | ` +
      `${r(chc, 'elapsed_s')} | ${r(chc, 'rss_mib')} | ${r(dk, 'elapsed_s')} | ${r(dk, 'rss_mib')} |`);
  }
  L.push('');
  L.push('Per run (elapsed s / peak RSS MiB):', '');
  L.push('| settings | engine | ' + Array.from({ length: ctx.runs }, (_, i) => `run ${i + 1}`).join(' | ') + ' |');
  L.push('|---|---|' + '---:|'.repeat(ctx.runs));
  for (const c of configs) {
    L.push(`| ${c.variant} | ${c.label} | ` + Array.from({ length: ctx.runs }, (_, i) => (c.runs[i]
      ? `${fmt(c.runs[i].elapsed_s, 3)} / ${fmt(c.runs[i].rss_mib, 1)}` : '—')).join(' | ') + ' |');
  }
  L.push('');
}

const HOW = 'How the figures are taken: shale and DuckDB: every run uses a fresh data directory and is its own child process under ' +
  '`/usr/bin/time`; peak RSS is its maxrss. shale: CREATE TABLE runs in a first, untimed `shale local --path D` ' +
  'process; the INSERT runs alone in a second process, timed as a whole (start-up, the INSERT, and exit — shale ' +
  'stops its background merges at exit without waiting for them); CPU = user + sys of that process. ClickHouse ' +
  'runs warm: one chdb Session per benchmark (bench/lib/peer-serve.js, on its own directory) runs every run; each ' +
  'run drops and re-creates the table untimed and times the INSERT alone (hrtime, process.cpuUsage()); its peak RSS ' +
  'is the session process\'s peak so far (node and the chdb library included, ~the runner baseline). DuckDB: ' +
  'bench/lib/run-duckdb-insert.js times `CREATE TABLE posts AS SELECT * FROM read_parquet(...)` plus its CHECKPOINT ' +
  'into a fresh database file. Compressed size: `SELECT sum(data_compressed_bytes) FROM system.parts WHERE ' +
  "table = 'posts' AND active` read back after the INSERT (shale in a third process, ClickHouse in the same session); " +
  'DuckDB: the size of its database file (its own format, compressed column segments, no index). Every engine\'s ' +
  'count() after the INSERT is checked against the source\'s row count. The Parquet files are read once before ' +
  'the timed runs (page cache); runs are interleaved across engines and variants; figures are medians.';

async function postsInsertFile(b, ctx, p) {
  const loadStart = os.loadavg()[0];
  const expected = sourceRows(ctx, p);
  warmCache(p.dir);
  const src = b.s3 ? `s3('${p.ep}/posts/by_month/*.parquet', 'TESTKEY', 'TESTSECRET', 'Parquet')`
    : `file('${p.dir}/by_month/*.parquet', Parquet)`;
  const insert = `INSERT INTO posts SELECT * FROM ${src}`;
  const configs = [];
  const chDir = tmpDir('chdb-warm');
  let chp;
  try { chp = await peer('clickhouse', ctx.threads, chDir); } catch (e) { rm(chDir); throw e; }
  try {
    for (const v of (b.s3 || b.onlyDefault ? VARIANTS.slice(0, 1) : VARIANTS)) {
      configs.push({ label: 'shale', engine: 'shale', variant: v.name, sql: `${insert}  -- command line: ${v.shale.concat(`--max_threads=${ctx.threads}`).join(' ')}`,
        run: () => shaleInsert(ctx, insert, v.shale) });
      const chSql = `${insert}${v.ch ? v.ch + `, max_threads = ${ctx.threads}` : ` SETTINGS max_threads = ${ctx.threads}`}`;
      configs.push({ label: 'ClickHouse (warm)', engine: 'clickhouse', variant: v.name, sql: chSql, run: () => chWarmInsert(ctx, chp, chSql) });
    }
    if (!b.s3) {
      const dsql = `CREATE TABLE posts AS SELECT * FROM read_parquet('${p.dir}/by_month/*.parquet')`;
      configs.push({ label: 'DuckDB', engine: 'duckdb', variant: '—', sql: dsql,
        run: () => runnerInsert(ctx, 'run-duckdb-insert.js', (dir) => ['--path', dir, '--threads', String(ctx.threads), '--sql', dsql]) });
    }
    await runConfigs(ctx, configs, expected);
  } finally { chp.stop(); rm(chDir); }
  const L = header(ctx, b, p.description, [loadStart, os.loadavg()[0]],
    `One untimed warm-up and ${ctx.runs} timed runs per engine and settings variant, interleaved; each figure is the median. max_threads = ${ctx.threads} for every engine.`);
  configTable(ctx, configs, L);
  L.push(`Row check: the source has ${expected.toLocaleString('en-US')} rows; ` + configs.filter((c) => !c.error)
    .map((c) => `${c.label} (${c.variant}) count() = ${c.runs[0].count.toLocaleString('en-US')}`).join(', ') + '.', '');
  L.push(`Settings variants: "default" sets nothing; "max_insert_threads = ${INSERT_THREADS}" sets it in both engines; "tuned" is ` +
    `the guide's rule for a memory budget B = ${BUDGET} bytes (1 GiB): ClickHouse gets min_insert_block_size_rows = 0, ` +
    `min_insert_block_size_bytes = B / (3 × ${INSERT_THREADS}), max_insert_threads = ${INSERT_THREADS}; shale gets its automatic ` +
    `form max_insert_threads = 0, min_insert_block_size_bytes = 0, max_insert_memory_usage = B (cores / 2 writer threads, ` +
    'blocks of B / (3 × threads)).', '');
  L.push(HOW, '');
  if (ctx.baseline) L.push(`Runner baseline (\`SELECT 1\`): ` + ctx.baseline.map((x) => `${x.label} ${ctx.lib.fmt(x.rss_mib, 1)} MiB peak RSS`).join(', ') + '.', '');
  L.push('SQL (besides the CREATE TABLE below):', '');
  for (const c of configs) L.push(`- ${c.label}, ${c.variant}: \`${c.sql}\``);
  L.push('', 'CREATE TABLE (shale and ClickHouse, verbatim from the guide):', '', '```sql', DDL, '```', '');
  return L.join('\n');
}

// A local HTTP server whose every response takes 500 ms: shale has no sleep(), so a
// `SELECT count() FROM s3(<this server>, NOSIGN, ...)` (a HEAD and a GET) makes a shale
// process wait ~1 s without using CPU, while its background merges keep running.
function delayServer() {
  return new Promise((resolve) => {
    const body = Buffer.from('1\n');
    const s = http.createServer((q, r) => setTimeout(() => {
      r.writeHead(200, { 'Content-Length': body.length, 'Content-Type': 'text/plain', ETag: '"x"', 'Last-Modified': new Date(0).toUTCString() });
      r.end(q.method === 'HEAD' ? undefined : body);
    }, 500));
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

async function postsInsertParts(b, ctx, p) {
  const { fmt, mdEscape } = ctx.lib;
  const loadStart = os.loadavg()[0];
  const expected = sourceRows(ctx, p);
  warmCache(p.dir);
  const insert = `INSERT INTO posts SELECT * FROM file('${p.dir}/by_month/*.parquet', Parquet)`;
  // shale: one process runs the INSERT and then samples system.parts once a second.
  const sh = { samples: [], error: null };
  const dir = tmpDir('shale');
  const srv = await delayServer();
  try {
    shaleSync(ctx, dir, DDL);
    const wait = `SELECT 'D', count() FROM s3('http://127.0.0.1:${srv.address().port}/b/x.tsv', NOSIGN, 'TSV', 'x UInt8')`;
    const q = [insert, "SELECT 'E', now64(3)", PARTS];
    for (let k = 0; k < SAMPLE_SECONDS; k++) q.push(wait, PARTS);
    const qf = path.join(dir, 'queries.sql');
    fs.writeFileSync(qf, q.join(';\n') + ';\n');
    const r = await ctx.lib.timed([ctx.shaleBin, 'local', '--path', dir, `--max_threads=${ctx.threads}`, '--queries-file', qf], ctx.timeout + SAMPLE_SECONDS * 3);
    if (r.code !== 0) throw new Error((r.signal ? `killed by ${r.signal}: ` : '') + firstLine(r.stderr));
    const ms = (s) => Date.parse(s.replace(' ', 'T') + 'Z');
    let tEnd = null;
    for (const line of r.stdout.split('\n')) {
      const f = line.split('\t');
      if (f[0] === 'E') tEnd = ms(f[1]);
      else if (f[0] === 'S') sh.samples.push({ t_s: (ms(f[1]) - tEnd) / 1000, parts: Number(f[2]), partitions: Number(f[3]), max_per_partition: Number(f[4]) });
    }
    Object.assign(sh, shaleTable(ctx, dir));
    if (sh.count !== expected) throw new Error(`count() after the INSERT is ${sh.count}, the source has ${expected}`);
    // the key-range queries, each in a later process; read_rows from shale's system.query_log
    sh.ranges = RANGES.map((q) => {
      try {
        const result = shaleSync(ctx, dir, q).trim();
        const rr = shaleSync(ctx, dir, `SELECT read_rows FROM system.query_log WHERE type = 'QueryFinish' AND query = '${q.replace(/'/g, "\\'")}' ` +
          'ORDER BY event_time DESC LIMIT 1').trim();
        return { result, rows_read: Number(rr) };
      } catch (e) { return { error: e.message }; }
    });
  } catch (e) { sh.error = e.message; ctx.log(`  shale failed: ${e.message}`); }
  finally { srv.close(); rm(dir); }
  ctx.log(`shale: ${sh.samples.length} samples, ranges ${JSON.stringify(sh.ranges)}`);
  const ch = await chInsert(ctx, insert, ['--sample-seconds', String(SAMPLE_SECONDS), ...RANGES.flatMap((q) => ['--range', q])]);
  if (ch.ok && ch.count !== expected) { ch.ok = false; ch.error = `count() after the INSERT is ${ch.count}, the source has ${expected}`; }
  if (!ch.ok) ctx.log(`  ClickHouse failed: ${ch.error}`);
  ctx.log(`ClickHouse: ${ch.ok ? ch.samples.length : 0} samples, ranges ${JSON.stringify(ch.ranges)}`);

  const L = header(ctx, b, p.description, [loadStart, os.loadavg()[0]],
    `One INSERT per engine with default settings, max_threads = ${ctx.threads}, then the active parts sampled about once a second for ${SAMPLE_SECONDS} s.`);
  L.push('Active parts of `posts` after the INSERT (t = seconds since the INSERT returned; total / partitions / most in one partition):', '');
  L.push('| t (s) shale | shale parts | shale max per partition | t (s) ClickHouse | ClickHouse parts | ClickHouse max per partition |', '|---:|---:|---:|---:|---:|---:|');
  const chs = ch.ok ? ch.samples : [];
  for (let k = 0; k < Math.max(sh.samples.length, chs.length); k++) {
    const a = sh.samples[k]; const c = chs[k];
    L.push(`| ${a ? fmt(a.t_s, 1) : '—'} | ${a ? `${a.parts} (${a.partitions} partitions)` : '—'} | ${a ? a.max_per_partition : '—'} | ` +
      `${c ? fmt(c.t_s, 1) : '—'} | ${c ? `${c.parts} (${c.partitions} partitions)` : '—'} | ${c ? c.max_per_partition : '—'} |`);
  }
  L.push('');
  if (sh.error) L.push(`shale: not supported yet: ${mdEscape(sh.error)}`, '');
  if (!ch.ok) L.push(`ClickHouse: failed: ${mdEscape(ch.error)}`, '');
  L.push(`Key-prefix range queries (run after the sampling; the source has ${expected.toLocaleString('en-US')} rows):`, '');
  L.push('| query | engine | result | rows read |', '|---|---|---:|---:|');
  RANGES.forEach((q, i) => {
    const row = (label, r) => {
      if (!r) return;
      if (r.error) L.push(`| \`${q}\` | ${label} | ${label === 'shale' ? 'not supported yet' : 'failed'}: ${mdEscape(r.error)} | — |`);
      else L.push(`| \`${q}\` | ${label} | ${r.result} | ${r.rows_read.toLocaleString('en-US')} |`);
    };
    row('shale', sh.ranges && sh.ranges[i]);
    row('ClickHouse', ch.ok && ch.ranges[i]);
  });
  L.push('');
  if (ch.ok) L.push('ClickHouse\'s `EXPLAIN ESTIMATE` (database, table, parts, rows, marks): ' +
    ch.ranges.map((r) => `\`${r.estimate.replace(/\t/g, ' ')}\``).join('; ') + '.', '');
  L.push('How: shale has no sleep() and `shale local` stops its background merges when the process exits, so one ' +
    '`shale local --path D --queries-file F` process runs the INSERT, then alternates a system.parts sample with ' +
    '`SELECT count() FROM s3(<local HTTP server>, NOSIGN, ...)` whose server answers each of its two requests after ' +
    '500 ms: the process waits ~1 s without using CPU while its merge threads run. ClickHouse: the chdb session that ' +
    'ran the INSERT samples system.parts every second (setTimeout), its merges running in the background. ' +
    'Rows read: shale\'s `read_rows` in its system.query_log (kept in D by `shale local --path D`), for the query run ' +
    'in a separate process after the sampling; ClickHouse\'s `statistics.rows_read` of the JSON output format (chdb ' +
    'has no system.query_log), in the same session after the sampling. Both read granules of 8192 rows, ' +
    'so rows read is a multiple of the granules the key analysis keeps.', '');
  L.push('SQL: the CREATE TABLE of posts_insert_file, then', '', `- \`${insert}\``, `- sample: \`${PARTS}\``, ...RANGES.map((q) => `- range: \`${q}\``), '');
  return L.join('\n');
}

// The benchmark entries; postsSet/postsOnS3 come from benchmarks.js (they make/serve the data set).
module.exports = function insertBenchmarks(postsSet, postsOnS3, describe, postsSet10) {
  const local = (ctx) => { const p = postsSet(ctx); return { ...p, description: describe({ ...p, scale: ctx.scale }, 'read from local disk (page cache)') }; };
  return [
    { name: 'posts_insert_file', title: 'INSERT INTO a MergeTree posts table SELECT * FROM the posts Parquet files (3 settings variants); DuckDB CREATE TABLE AS',
      run(ctx) { return postsInsertFile(this, ctx, local(ctx)); } },
    { name: 'posts_insert_file_x10', onlyDefault: true,
      title: 'INSERT INTO a MergeTree posts table SELECT * FROM the posts set ten times over (1 890 files, 60 M rows at the default scale), default settings; DuckDB CREATE TABLE AS',
      run(ctx) { const p = postsSet10(ctx); return postsInsertFile(this, ctx, { ...p, description: describe(p, p.where) }); } },
    { name: 'posts_insert_s3', s3: true, title: 'INSERT INTO a MergeTree posts table SELECT * FROM s3() (radosgw), default settings',
      run(ctx) { const p = postsOnS3(ctx); return postsInsertFile(this, ctx, { ...p, description: describe({ ...p, scale: ctx.scale }, `served by a local Ceph radosgw (memstore) at ${p.ep}`) }); } },
    { name: 'posts_insert_parts', title: 'active parts over 60 s after a default INSERT (background merges), and rows read by a key-prefix range query',
      run(ctx) { return postsInsertParts(this, ctx, local(ctx)); } },
  ];
};
module.exports.DDL = DDL;
