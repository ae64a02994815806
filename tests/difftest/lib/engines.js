// The two engines of a differential run: ClickHouse in-process through chdb (one Session)
// and `shale local` as a child process, fed many statements per process.
//
// Results are {ok, out, code, name, msg} for a finished statement, or {crash, msg} /
// {hang} for a shale process that died or ran over its time. `name` is ClickHouse's
// error code name (NOT_IMPLEMENTED, ...), parsed from the "(NAME)" at the end of the
// message both engines print.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const QUERIES_DIR = path.join(ROOT, 'tests', 'queries');
const CHDB_VERSION = '3.4.0';

// chdb is shared with tests/queries/update-references (tests/queries/node_modules, git-ignored).
// Two test processes may start at once: the install runs under flock, and each checks again
// under the lock whether the other one already installed it.
function loadChdb() {
  const mod = path.join(QUERIES_DIR, 'node_modules', 'chdb');
  if (!fs.existsSync(mod)) {
    const lock = path.join(os.tmpdir(), 'shale-chdb-install.lock');
    execFileSync('flock', [lock, 'sh', '-c',
      `test -d node_modules/chdb || npm install --no-save --silent chdb@${CHDB_VERSION}`],
    { cwd: QUERIES_DIR, stdio: 'inherit' });
  }
  return require(mod);
}

function parseError(text) {
  const t = String(text);
  const at = t.lastIndexOf('Code: ');
  const tail = at >= 0 ? t.slice(at) : t;
  const m = /^Code: (\d+)\. DB::Exception: ([\s\S]*?)\s*\((\w+)\)\s*(\(version [^)]*\))?\s*$/.exec(tail);
  if (!m) return { code: -1, name: 'UNPARSED', msg: tail.slice(0, 500) };
  return { code: Number(m[1]), name: m[3], msg: m[2].slice(0, 500) };
}

class Chdb {
  constructor() {
    const { Session } = loadChdb();
    this.session = new Session();
  }
  run(sql) {
    try {
      const r = this.session.query(sql, 'TabSeparated');
      return { ok: true, out: r === undefined || r === null ? '' : String(r) };
    } catch (e) {
      return Object.assign({ ok: false }, parseError(e.message));
    }
  }
  close() {
    if (this.session.cleanup) this.session.cleanup();
    else if (this.session.close) this.session.close();
  }
}

const MARK = 'difftest-mark-';

// Runs `setup` then the statements of `queries` in one `shale local` process, each followed
// by a marker SELECT so the output splits by statement. shale stops at the first error: the
// statement after the last marker failed, and a new process goes on after it. A process that
// dies from a signal or runs over its time is replayed one statement per process so the
// culprit is known. Returns one result per query.
function runShale(shale, setup, queries, opts = {}) {
  const timeoutMs = opts.timeoutMs || 10000;
  const results = new Array(queries.length);
  let next = 0;
  let singleLeft = 0;            // statements still to run one per process after a crash or hang
  while (next < queries.length) {
    const end = singleLeft > 0 ? next + 1 : queries.length;
    let script = setup.endsWith('\n') ? setup : setup + '\n';
    script += `SELECT '${MARK}setup';\n`;
    for (let i = next; i < end; i++) script += `${queries[i]};\nSELECT '${MARK}${i}';\n`;
    const r = spawnSync(shale, ['local', ...(opts.args || [])], {
      input: script, encoding: 'utf8', maxBuffer: 1 << 28,
      timeout: timeoutMs + (end - next - 1) * Math.min(timeoutMs, 1000),
      killSignal: 'SIGKILL',
    });
    const out = r.stdout || '';
    const stderr = r.stderr || '';
    // parts: [before the setup marker, 'setup', text, index, text, index, ...]
    const parts = out.split(new RegExp(`^${MARK}(setup|\\d+)\\n`, 'm'));
    let done = next;
    for (let p = 3; p < parts.length; p += 2) {
      const idx = Number(parts[p]);
      results[idx] = { ok: true, out: parts[p - 1] };
      done = idx + 1;
    }
    if (singleLeft > 0) singleLeft--;
    if (done >= end) { next = done; continue; }
    const timedOut = !!(r.error && r.error.code === 'ETIMEDOUT');
    const sanitizer = /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:/.test(stderr);
    if (!timedOut && !sanitizer && r.signal === null && r.status !== 0 && /Code: \d+\./.test(stderr)) {
      if (parts.length < 2) throw new Error(`shale failed on the setup script: ${stderr.slice(0, 2000)}`);
      const tail = parts[parts.length - 1];
      results[done] = Object.assign({ ok: false, partial: tail }, parseError(stderr));
      next = done + 1;
      continue;
    }
    if (end - next > 1) { singleLeft = Math.min(50, end - done); next = done; continue; }
    results[done] = timedOut ? { hang: true, msg: `no answer in ${timeoutMs} ms` }
      : { crash: true, msg: `signal ${r.signal}, status ${r.status}: ${stderr.slice(-1500)}` };
    next = done + 1;
  }
  return results;
}

module.exports = { Chdb, runShale, parseError, loadChdb, ROOT };
