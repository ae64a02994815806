'use strict';
// Object-storage benchmarks (issue 5), `run(ctx)` benchmarks of bench/run (they run their own
// steps and return the report's Markdown) because they compare more rows than the generic
// shale / ClickHouse / DuckDB loop has:
//
// posts_q1_s3_best  Q1 (top-5 OwnerDisplayName) over the posts set via s3() from the harness's
//                   radosgw at max_threads 2: shale with default settings against ClickHouse
//                   with its default settings and with each settings variant issue 5 names
//                   (prefetch off, exact ranges, Parquet row-group prefetch off, combinations),
//                   each its own row. The best ClickHouse row (lowest median elapsed) is
//                   named and shale / best reported.
// s3_large_object   one large object (the groupby_csv file, 1.096 GB, at the default --scale;
//                   34 M × scale / 6 M rows of the same generator otherwise) uploaded once to
//                   radosgw and read end to end: shale `SELECT count() FROM s3(…, 'TSV', 'line String')`
//                   ClickHouse the same query, and parallel curl (4 and 8 processes, each a
//                   byte range to /dev/null, SigV4-signed as the harness's uploads are).
//                   Throughput = object bytes / elapsed.
//
// shale's process rows are a fresh child process per run under /usr/bin/time (ctx.lib.timed);
// posts_q1_s3_best's warm rows (shale server, one chdb Session for every ClickHouse variant)
// come from bench/lib/warm.js. Runs interleave the rows, one untimed warm-up each, medians
// reported, as bench/run does.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const warm = require('./warm');

function median(xs) {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
function firstLine(s) { return (s || '').split('\n').map((l) => l.trim()).find((l) => l) || '(no message)'; }
const norm = (s) => (s || '').replace(/\s+$/, '');

async function runOnce(ctx, row) {
  if (row.run) return row.run(); // a warm engine (bench/lib/warm.js)
  const r = await ctx.lib.timed(row.argv, ctx.timeout);
  if (r.timedOut) return { ok: false, error: `timed out after ${ctx.timeout} s` };
  const m = row.parse(r);
  if (r.signal) return { ok: false, error: `killed by ${r.signal}` + (m.ok ? '' : `: ${m.error}`) };
  if (m.ok) { m.rss_mib = r.time ? r.time.rss_kib / 1024 : NaN; m.proc = r.time; }
  return m;
}

// Warm-up, then ctx.runs interleaved timed runs of every row; fills row.runs/warm/error/med.
async function measureRows(ctx, rows) {
  for (const row of rows) {
    ctx.log(`warm-up ${row.label}`);
    row.warm = await runOnce(ctx, row);
    row.runs = [];
    if (!row.warm.ok) { row.error = row.warm.error; ctx.log(`  failed: ${row.error}`); }
  }
  for (let i = 0; i < ctx.runs; i++) {
    for (const row of rows) {
      if (row.error) continue;
      const m = await runOnce(ctx, row);
      if (!m.ok) { row.error = `run ${i + 1}: ${m.error}`; row.runs = []; ctx.log(`  ${row.label} failed: ${m.error}`); continue; }
      row.runs.push(m);
      ctx.log(`run ${i + 1}/${ctx.runs} ${row.label}: ${ctx.lib.fmt(m.elapsed_s, 3)} s, ${ctx.lib.fmt(m.rss_mib, 1)} MiB, ` +
        `${ctx.lib.fmt(m.cpu_s, 2)} CPU s`);
    }
  }
  for (const row of rows) {
    row.med = row.error ? null : ['elapsed_s', 'rss_mib', 'cpu_s'].reduce((o, k) => ({ ...o, [k]: median(row.runs.map((m) => m[k])) }), {});
    row.result = row.error ? null : norm((row.runs[row.runs.length - 1] || row.warm).result);
  }
}

function header(ctx, b, threads, data, load) {
  return [`# ${b.name}: ${b.title}`, '',
    `Run ${ctx.started} (UTC) with \`${ctx.cmdline}\`: ${ctx.runs} timed runs per row after one warm-up, ` +
      `interleaved; each figure is the median. Threads: ${threads}.`, '',
    `Machine: ${ctx.machine}; 1-minute load average ${load[0].toFixed(2)} when the benchmark started, ` +
      `${load[1].toFixed(2)} when it ended.`, '',
    `Engines: shale ${ctx.shaleVersion}; ClickHouse ${ctx.chVersion} (npm chdb).`, '',
    `Data: ${data}`, ''];
}

function perRunTable(ctx, rows) {
  const L = ['Per run (elapsed s / peak RSS MiB / CPU s; warm-up first, in brackets):', '',
    '| row | ' + ['warm-up'].concat(Array.from({ length: ctx.runs }, (_, i) => `run ${i + 1}`)).join(' | ') + ' |',
    '|---|' + '---:|'.repeat(ctx.runs + 1)];
  const f = ctx.lib.fmt;
  const cell = (m) => (m && m.ok !== false && m.elapsed_s !== undefined ? `${f(m.elapsed_s, 3)} / ${f(m.rss_mib, 1)} / ${f(m.cpu_s, 2)}` : '—');
  for (const r of rows) L.push(`| ${r.label} | ` + [`(${cell(r.warm)})`].concat(Array.from({ length: ctx.runs }, (_, i) => cell(r.runs[i]))).join(' | ') + ' |');
  L.push('');
  return L;
}

const engine = (ctx, key) => ctx.engines.find((e) => e.key === key);

// ---- posts_q1_s3_best ----------------------------------------------------------------------

const CH_VARIANTS = [
  ['default', ''],
  ['remote_filesystem_read_prefetch = 0', 'remote_filesystem_read_prefetch = 0'],
  ['remote_read_min_bytes_for_seek = 0', 'remote_read_min_bytes_for_seek = 0'],
  ['input_format_parquet_enable_row_group_prefetch = 0', 'input_format_parquet_enable_row_group_prefetch = 0'],
  ['read_prefetch = 0, row_group_prefetch = 0',
    'remote_filesystem_read_prefetch = 0, input_format_parquet_enable_row_group_prefetch = 0'],
  ['read_prefetch = 0, min_bytes_for_seek = 0', 'remote_filesystem_read_prefetch = 0, remote_read_min_bytes_for_seek = 0'],
];

function q1Best(deps) {
  const THREADS = 2;
  return {
    name: 'posts_q1_s3_best', threads: THREADS,
    title: 'top-5 OwnerDisplayName over the posts Parquet set via s3() from radosgw, max_threads 2: shale (default settings) ' +
      'against ClickHouse with its best settings for this query',
    async run(ctx) {
      const p = deps.postsOnS3(ctx);
      const load0 = require('os').loadavg()[0];
      const src = deps.S3SRC.replace('{ep}', p.ep);
      const sql = deps.Q1(src);
      const sh = engine(ctx, 'shale');
      const shArgv = sh.argv(sql).map((a) => (a.startsWith('--max_threads=') ? `--max_threads=${THREADS}` : a));
      // ClickHouse warm: one chdb Session runs every variant; shale as a process and warm
      const chw = await warm.peer('clickhouse', THREADS, null);
      const shw = await warm.shaleServer(ctx.shaleBin, THREADS, null);
      const rows = [{ key: 'shale', label: 'shale (process, default settings)', sql, argv: shArgv, parse: sh.parse },
        { key: 'shale', label: 'shale (warm, server)', sql, run: () => shw.query(sql, ctx.timeout) }];
      for (const [label, set] of CH_VARIANTS) {
        const chSql = `${sql} SETTINGS max_threads = ${THREADS}${set ? `, ${set}` : ''}`;
        rows.push({ key: 'clickhouse', label: `ClickHouse ${label}`, sql: chSql, run: () => chw.query(chSql, ctx.timeout) });
      }
      try { await measureRows(ctx, rows); } finally { chw.stop(); shw.stop(); }
      const load = [load0, require('os').loadavg()[0]];
      const f = ctx.lib.fmt; const ratio = ctx.lib.ratio;
      const shr = rows[0]; const shwr = rows[1];
      const chRows = rows.slice(2).filter((r) => !r.error);
      const best = chRows.reduce((a, r) => (!a || r.med.elapsed_s < a.med.elapsed_s ? r : a), null);
      const L = header(ctx, this, THREADS, deps.postsDescription({ ...p, scale: ctx.scale },
        `served by a local Ceph radosgw (memstore) at ${p.ep}`), load);
      L.push('| row | elapsed (s) | peak RSS (MiB) | CPU (s) | shale / row (elapsed, RSS, CPU) |', '|---|---:|---:|---:|---|');
      for (const r of rows) {
        if (r.error) { L.push(`| ${r.label} | ${r.key === 'shale' ? 'not supported yet' : 'failed'}: ${ctx.lib.mdEscape(r.error)} | — | — | — |`); continue; }
        const rat = r.key === 'shale' || shr.error ? '' : ['elapsed_s', 'rss_mib', 'cpu_s'].map((k) => ratio(shr.med[k], r.med[k])).join(', ');
        L.push(`| ${r === best ? '**' + r.label + '** (best)' : r.label} | ${f(r.med.elapsed_s, 3)} | ${f(r.med.rss_mib, 1)} | ` +
          `${f(r.med.cpu_s, 2)} | ${rat} |`);
      }
      L.push('');
      if (best && !shr.error) {
        const def = chRows.find((r) => r.label === 'ClickHouse default');
        L.push(`**shale / ClickHouse-best (${best.label.replace('ClickHouse ', '')}) elapsed: ${ratio(shr.med.elapsed_s, best.med.elapsed_s)}**` +
          (def ? `; shale / ClickHouse-default: ${ratio(shr.med.elapsed_s, def.med.elapsed_s)}` : '') +
          ` (issue 17 asks ≤ 0.6× best and ≤ 0.25× default, ClickHouse warm); peak RSS shale / best: ${ratio(shr.med.rss_mib, best.med.rss_mib)}.` +
          (shwr.error ? '' : ` shale warm (server) / ClickHouse-best: ${ratio(shwr.med.elapsed_s, best.med.elapsed_s)}` +
            (def ? `, / ClickHouse-default: ${ratio(shwr.med.elapsed_s, def.med.elapsed_s)}` : '') + '.'), '');
      }
      const ref = chRows.length ? chRows[0].result : null;
      const checks = rows.filter((r) => !r.error && ref !== null && r !== chRows[0]).map((r) => `${r.label} ${r.result === ref ? 'equals' : '**differs**'}`);
      if (checks.length) L.push(`Result check against ${chRows[0].label}: ${checks.join('; ')}.`, '');
      const s3line = !shr.error && (shr.runs[shr.runs.length - 1] || shr.warm).s3;
      if (s3line) L.push(`shale's S3 traffic per run (its \`--time\` line): ${s3line}.`, '');
      if (ref !== null) L.push('ClickHouse result:', '', '```', ref, '```', '');
      L.push('How the figures are taken: as in bench/README.md (shale: the whole process, and warm through one ' +
        '`shale server`; ClickHouse warm: every variant in one chdb Session in bench/lib/peer-serve.js, the query alone, ' +
        'its RSS the process peak including node and the library).', '', 'SQL:', '');
      for (const r of rows) L.push(`- ${r.label}: \`${r.sql}\``);
      L.push('', ...perRunTable(ctx, rows));
      return L.join('\n');
    },
  };
}

// ---- s3_large_object -------------------------------------------------------------------------

function largeObject(deps) {
  const THREADS = 2;
  const CURLS = [4, 8];
  return {
    name: 's3_large_object', threads: THREADS,
    title: 'one ≥ 1 GB object (CSV text) read end to end via s3() from radosgw: shale and ClickHouse ' +
      '`count()` of its lines (TSV, one String column) against parallel ranged curl',
    async run(ctx) {
      // The default --scale (6 M) reads the groupby_csv file itself (1.096 GB); other scales a
      // proportional file of the same generator.
      const rows = Math.max(1000, Math.round(deps.GROUPBY_ROWS * ctx.scale / 6000000));
      const gen = (target) => deps.groupbyGenerator(target).replace(`numbers(${deps.GROUPBY_ROWS})`, `numbers(${rows})`);
      const file = path.join(ctx.dataDir, rows === deps.GROUPBY_ROWS ? 'groupby.csv' : `large-${rows}.csv`);
      deps.cachedFile(ctx, file, gen);
      const size = fs.statSync(file).size;
      const ep = deps.startRgw(ctx);
      const url = `${ep}/large/object.csv`;
      const curl = deps.S3_CURL;
      spawnSync('curl', [...curl, '-X', 'PUT', `${ep}/large`]); // exists already on a second call
      const head = spawnSync('curl', [...curl, '-I', url], { encoding: 'utf8' });
      if (head.status !== 0 || !new RegExp(`content-length: ${size}\\b`, 'i').test(head.stdout)) {
        ctx.log(`uploading ${path.relative(ctx.repo, file)} (${size} bytes) to ${url} ...`);
        const up = spawnSync('curl', [...curl, '-T', file, url, '-o', '/dev/null']);
        if (up.status !== 0) throw new Error(`upload of the large object failed: ${firstLine(String(up.stderr))}`);
      }
      const load0 = require('os').loadavg()[0];
      const src = `s3('${url}', 'TESTKEY', 'TESTSECRET', 'TSV', 'line String')`;
      const sql = `SELECT count() FROM ${src}`;
      const sh = engine(ctx, 'shale'); const ch = engine(ctx, 'clickhouse');
      const shArgv = sh.argv(sql).map((a) => (a.startsWith('--max_threads=') ? `--max_threads=${THREADS}` : a));
      const chSql = `${sql} SETTINGS max_threads = ${THREADS}`;
      const list = [
        { key: 'shale', label: 'shale', sql, argv: shArgv, parse: sh.parse },
        { key: 'clickhouse', label: 'ClickHouse', sql: chSql, argv: ch.argv(chSql), parse: ch.parse },
      ];
      const q = (a) => `'${a.replace(/'/g, "'\\''")}'`;
      for (const n of CURLS) {
        const piece = Math.ceil(size / n);
        const cmds = Array.from({ length: n }, (_, i) => {
          const a = i * piece; const b = Math.min(size, (i + 1) * piece) - 1;
          return `curl ${curl.map(q).join(' ')} -r ${a}-${b} -o /dev/null ${q(url)} &`;
        });
        // each curl's exit status is checked; the bytes received are summed by -w
        const script = cmds.join('\n') + '\nfail=0; for j in $(jobs -p); do wait $j || fail=1; done; exit $fail';
        list.push({ key: 'curl', label: `curl × ${n} (ranges of ${(piece / 2 ** 20).toFixed(0)} MiB)`, sql: script,
          argv: ['bash', '-c', script],
          parse: (r) => (r.code !== 0 ? { ok: false, error: `curl failed (${r.code}): ${firstLine(r.stderr)}` }
            : { ok: true, elapsed_s: r.wall_s, cpu_s: r.time ? r.time.user_s + r.time.sys_s : NaN, result: '' }) });
      }
      await measureRows(ctx, list);
      const load = [load0, require('os').loadavg()[0]];
      const f = ctx.lib.fmt; const ratio = ctx.lib.ratio;
      const mbs = (r) => size / r.med.elapsed_s / 1e6;
      const curls = list.filter((r) => r.key === 'curl' && !r.error);
      const bestCurl = curls.reduce((a, r) => (!a || r.med.elapsed_s < a.med.elapsed_s ? r : a), null);
      const shr = list[0];
      const L = header(ctx, this, THREADS, `\`${path.relative(ctx.repo, file)}\`: ${size.toLocaleString('en-US')} bytes ` +
        `(${(size / 2 ** 30).toFixed(2)} GiB), ${rows.toLocaleString('en-US')} CSV rows + header, generated by ` +
        `\`${gen(path.relative(ctx.repo, file))}\`, uploaded once as ${url} to a local Ceph radosgw (memstore).`, load);
      L.push('| row | elapsed (s) | throughput (MB/s) | peak RSS (MiB) | CPU (s) | throughput / best curl |', '|---|---:|---:|---:|---:|---:|');
      for (const r of list) {
        if (r.error) { L.push(`| ${r.label} | failed: ${ctx.lib.mdEscape(r.error)} | — | — | — | — |`); continue; }
        L.push(`| ${r.label} | ${f(r.med.elapsed_s, 3)} | ${f(mbs(r), 1)} | ${f(r.med.rss_mib, 1)} | ${f(r.med.cpu_s, 2)} | ` +
          `${bestCurl ? ratio(mbs(r), mbs(bestCurl)) : '—'} |`);
      }
      L.push('');
      if (!shr.error && bestCurl) {
        const chr = list[1];
        L.push(`**shale reaches ${(100 * mbs(shr) / mbs(bestCurl)).toFixed(0)} % of the best parallel curl (${bestCurl.label})** ` +
          `(issue 5 asks ≥ 90 %), with ${f(shr.med.cpu_s, 2)} CPU s and ${f(shr.med.rss_mib, 1)} MiB peak RSS` +
          (chr.error ? '' : `; shale / ClickHouse elapsed ${ratio(shr.med.elapsed_s, chr.med.elapsed_s)}, CPU ${ratio(shr.med.cpu_s, chr.med.cpu_s)}`) + '.', '');
      }
      if (!shr.error && !list[1].error) L.push(`Result check: shale's count ${shr.result === list[1].result ? 'equals' : '**differs from**'} ClickHouse's (${list[1].result}).`, '');
      const s3line = !shr.error && (shr.runs[shr.runs.length - 1] || shr.warm).s3;
      if (s3line) L.push(`shale's S3 traffic per run (its \`--time\` line): ${s3line}.`, '');
      L.push('How the figures are taken: as in bench/README.md. curl rows: one `bash` running N `curl` processes at once, ' +
        'each a `-r a-b` range of the object to /dev/null, SigV4-signed like the harness\'s uploads; elapsed is the ' +
        'wall time of the whole group, CPU and peak RSS those of bash and its curls (maxrss: the largest single process). ' +
        'Throughput = object bytes / elapsed (10^6 bytes per MB).', '', 'Commands:', '');
      for (const r of list) L.push(`- ${r.label}: \`${r.sql.replace(/\n/g, ' ').replace(/TESTSECRET/g, '…')}\``);
      L.push('', ...perRunTable(ctx, list));
      return L.join('\n');
    },
  };
}

// ---- posts_q1_s3_rate -------------------------------------------------------------------------
// Issue 17's request-rate figure: with its Parquet metadata cache warm, shale's Q1 over s3() costs
// one LIST and one ranged GET per object (the OwnerDisplayName column chunk). The ceiling is
// what parallel curl gets from the same radosgw for the same byte ranges: one curl process
// with --parallel and --parallel-max N (N connections, no process per request), the ranges
// taken from the files' own metadata (DuckDB's parquet_metadata(): dictionary/data page offset
// and total_compressed_size of the column chunk). Rate = GET requests / elapsed; shale's
// elapsed is its query's (the `--time` summary line), its GETs those its S3 line counts.

async function chunkRanges(ctx, dir, column) {
  const { DuckDBInstance } = require(path.join(ctx.benchDir, 'node_modules', '@duckdb', 'node-api'));
  const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await inst.connect();
  const rows = (await (await con.run(
    `SELECT file_name, dictionary_page_offset, data_page_offset, total_compressed_size FROM parquet_metadata('${dir}/by_month/*.parquet') ` +
    `WHERE path_in_schema = '${column}' ORDER BY file_name, row_group_id`)).getRows());
  return rows.map(([file, dict, data, size]) => {
    const d = dict === null || Number(dict) <= 0 ? Number(data) : Math.min(Number(dict), Number(data));
    return { file: path.basename(String(file)), from: d, to: d + Number(size) - 1 };
  });
}

function q1Rate(deps) {
  const THREADS = 2;
  const PARALLEL = [4, 16, 32, 64, 128];
  return {
    name: 'posts_q1_s3_rate', threads: THREADS,
    title: 'request rate of Q1 over s3() with the Parquet metadata cache warm (one ranged GET per object) against ' +
      'parallel curl fetching the same byte ranges from the same radosgw',
    async run(ctx) {
      const p = deps.postsOnS3(ctx);
      const ranges = await chunkRanges(ctx, p.dir, 'OwnerDisplayName');
      if (!ranges.length) throw new Error('no OwnerDisplayName column chunks found');
      const load0 = require('os').loadavg()[0];
      const sql = deps.Q1(deps.S3SRC.replace('{ep}', p.ep));
      const sh = engine(ctx, 'shale');
      const shArgv = sh.argv(sql).map((a) => (a.startsWith('--max_threads=') ? `--max_threads=${THREADS}` : a));
      const cfg = path.join(require('os').tmpdir(), `bench-curl-ranges-${process.pid}.cfg`);
      const [user, pass] = deps.S3_CURL[deps.S3_CURL.indexOf('--user') + 1].split(':');
      fs.writeFileSync(cfg, ranges.map((r) => [`url = "${p.ep}/posts/by_month/${r.file}"`, `range = "${r.from}-${r.to}"`,
        'output = "/dev/null"', 'fail', 'silent', 'aws-sigv4 = "aws:amz:us-east-1:s3"', `user = "${user}:${pass}"`,
        'header = "x-amz-content-sha256: UNSIGNED-PAYLOAD"'].join('\n')).join('\nnext\n') + '\n');
      const bytes = ranges.reduce((a, r) => a + r.to - r.from + 1, 0);
      const rows = [{ key: 'shale', label: 'shale (process, metadata cache warm)', sql, argv: shArgv,
        parse: (r) => {
          const m = sh.parse(r);
          if (!m.ok) return m;
          const el = (r.stderr.match(/Elapsed: ([0-9.]+) sec/) || [])[1];
          const gets = (String(m.s3 || '').match(/(\d+) GET/) || [])[1];
          if (!el || !gets) return { ok: false, error: 'no --time summary or S3 line on stderr' };
          return { ...m, query_s: Number(el), gets: Number(gets) };
        } }];
      // the same with twice the requests in flight (shale opens 4 × max_download_threads per worker ahead)
      rows.push({ ...rows[0], label: 'shale, max_download_threads = 8 (metadata cache warm)',
        argv: shArgv.flatMap((a) => (a === '--time' ? ['--time', '--max_download_threads=8'] : [a])) });
      for (const n of PARALLEL) {
        rows.push({ key: 'curl', label: `curl --parallel-max ${n}`, sql: `curl --parallel --parallel-max ${n} -K <ranges>`,
          argv: ['curl', '--parallel', '--parallel-max', String(n), '-K', cfg],
          parse: (r) => (r.code !== 0 ? { ok: false, error: `curl failed (${r.code}): ${firstLine(r.stderr)}` }
            : { ok: true, elapsed_s: r.wall_s, query_s: r.wall_s, gets: ranges.length, cpu_s: r.time ? r.time.user_s + r.time.sys_s : NaN, result: '' }) });
      }
      try { await measureRows(ctx, rows); } finally { fs.rmSync(cfg, { force: true }); }
      const load = [load0, require('os').loadavg()[0]];
      const f = ctx.lib.fmt;
      const rate = (r) => median(r.runs.map((m) => m.gets / m.query_s));
      const curls = rows.filter((r) => r.key === 'curl' && !r.error);
      const best = curls.reduce((a, r) => (!a || rate(r) > rate(a) ? r : a), null);
      const shr = rows[0];
      const L = header(ctx, this, THREADS, deps.postsDescription({ ...p, scale: ctx.scale },
        `served by a local Ceph radosgw (memstore) at ${p.ep}; the ranges: ${ranges.length} column chunks of ` +
        `OwnerDisplayName, ${(bytes / 2 ** 20).toFixed(1)} MiB in all`), load);
      // the same over the whole process (shale: start-up, library loading and exit included)
      const prate = (r) => median(r.runs.map((m) => m.gets / m.elapsed_s));
      L.push('| row | GETs per run | elapsed (s) | requests/s | CPU (s) | peak RSS (MiB) | rate / best curl | process wall (s) | process rate / best curl |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|');
      for (const r of rows) {
        if (r.error) { L.push(`| ${r.label} | failed: ${ctx.lib.mdEscape(r.error)} | — | — | — | — | — | — | — |`); continue; }
        L.push(`| ${r === best ? '**' + r.label + '** (best)' : r.label} | ${median(r.runs.map((m) => m.gets))} | ` +
          `${f(median(r.runs.map((m) => m.query_s)), 3)} | ${f(rate(r), 0)} | ${f(r.med.cpu_s, 2)} | ${f(r.med.rss_mib, 1)} | ` +
          `${best ? (100 * rate(r) / rate(best)).toFixed(0) + ' %' : '—'} | ${f(r.med.elapsed_s, 3)} | ` +
          `${best ? (100 * prate(r) / rate(best)).toFixed(0) + ' %' : '—'} |`);
      }
      L.push('');
      if (!shr.error && best) {
        L.push(`**shale reaches ${(100 * rate(shr) / rate(best)).toFixed(0)} % of the request rate of the best parallel curl ` +
          `(${best.label})** (issue 17 asks ≥ 90 %). shale's elapsed is its query's (\`--time\`), which also covers the ` +
          'LIST of the glob, planning and the aggregation; curl\'s is its whole process. Over its whole process ' +
          `(start-up, loading libcurl, exit) shale reaches ${(100 * prate(shr) / rate(best)).toFixed(0)} %.`, '');
        const s3line = (shr.runs[shr.runs.length - 1] || shr.warm).s3;
        if (s3line) L.push(`shale's S3 traffic per run (its \`--time\` line): ${s3line}.`, '');
      }
      L.push('How the figures are taken: as in bench/README.md (one untimed warm-up per row — it also fills shale\'s ' +
        'persisted Parquet metadata cache — then interleaved runs, medians). curl: one process, `--parallel ' +
        '--parallel-max N -K <config>` where the config holds one url/range block per column chunk (separated by ' +
        '`next`), SigV4-signed like the harness\'s uploads, output to /dev/null.', '', 'SQL:', '', `- shale: \`${sql}\``, '');
      L.push(...perRunTable(ctx, rows));
      return L.join('\n');
    },
  };
}

module.exports = (deps) => [q1Best(deps), largeObject(deps), q1Rate(deps)];
