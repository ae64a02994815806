'use strict';
// Shared bits of the peer runners (run-chdb.js, run-duckdb.js): argument parsing and the
// JSON report. A runner prints exactly one JSON object on stdout:
//   {"engine", "version", "runs": [{"elapsed_s", "user_s", "sys_s"}], "result", "max_rss_kib"}
// or {"error": "..."} with exit code 1. Timings cover only the query (send + fetch of the full
// result), not node's start-up nor loading the engine's library; CPU is process.cpuUsage(),
// i.e. getrusage(RUSAGE_SELF): all threads of the process, including the engine's workers.

function parseArgs(argv) {
  const o = { runs: 1, threads: 2, sql: null, path: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') o.runs = parseInt(argv[++i], 10);
    else if (a === '--threads') o.threads = parseInt(argv[++i], 10);
    else if (a === '--sql') o.sql = argv[++i];
    else if (a === '--sql-file') o.sql = require('fs').readFileSync(argv[++i], 'utf8');
    else if (a === '--path') o.path = argv[++i]; // chdb: a Session on this data directory
    else throw new Error(`unknown argument ${a}`);
  }
  if (!o.sql) throw new Error('--sql or --sql-file is required');
  if (!(o.runs >= 1)) throw new Error('--runs must be >= 1');
  return o;
}

// Runs fn() (sync or async, returns the result as text) `runs` times and reports.
async function measure(engine, version, runs, fn) {
  const out = { engine, version, runs: [], result: null };
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    out.result = await fn();
    const t1 = process.hrtime.bigint();
    const c = process.cpuUsage(c0);
    out.runs.push({ elapsed_s: Number(t1 - t0) / 1e9, user_s: c.user / 1e6, sys_s: c.system / 1e6 });
  }
  out.max_rss_kib = process.resourceUsage().maxRSS;
  return out;
}

function main(fn) {
  Promise.resolve()
    .then(fn)
    .then((out) => { process.stdout.write(JSON.stringify(out) + '\n'); })
    .catch((e) => {
      process.stdout.write(JSON.stringify({ error: String(e && e.message || e) }) + '\n');
      process.exit(1);
    });
}

module.exports = { parseArgs, measure, main };
