'use strict';
// Engines kept warm for bench/run: each is one long-lived process per benchmark that runs
// every query of it (warm-up and timed runs), as a server or an application runs queries.
//   peer(kind, threads, dir)          ClickHouse (chdb) or DuckDB in bench/lib/peer-serve.js
//   shaleServer(bin, threads, dir)    `shale server` on free 127.0.0.1 ports, queried over HTTP
// Both resolve to {label, version, query(sql, timeoutS) -> measurement, stop()} where a
// measurement is {ok, elapsed_s, cpu_s, rss_mib, result} or {ok: false, error}. rss_mib is the
// process's peak resident memory so far (its lifetime peak, not one query's).
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const net = require('net');
const { spawn, spawnSync } = require('child_process');

function firstLine(s) {
  return (s || '').split('\n').map((l) => l.trim()).find((l) => l) || '(no message)';
}

// A child speaking one JSON object per line on stdout; answers are taken in order.
function lineChild(argv, opts) {
  const ch = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], ...opts });
  const waiting = [];
  const lines = [];
  let buf = '';
  let err = '';
  let dead = null;
  const deliver = () => {
    while (waiting.length && (lines.length || dead)) {
      const w = waiting.shift();
      if (lines.length) w.resolve(lines.shift()); else w.reject(new Error(dead));
    }
  };
  ch.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) { lines.push(buf.slice(0, i)); buf = buf.slice(i + 1); }
    deliver();
  });
  ch.stderr.on('data', (d) => { err = (err + d).slice(-4000); });
  ch.on('close', (code, sig) => { dead = `exited (${sig || code}): ${firstLine(err)}`; deliver(); });
  return {
    ch,
    next: () => new Promise((resolve, reject) => { waiting.push({ resolve, reject }); deliver(); }),
    send: (obj) => ch.stdin.write(JSON.stringify(obj) + '\n'),
  };
}

function withTimeout(p, s, onTimeout) {
  let t;
  return Promise.race([p, new Promise((_, rej) => { t = setTimeout(() => { onTimeout(); rej(new Error(`timed out after ${s} s`)); }, s * 1000); })])
    .finally(() => clearTimeout(t));
}

async function peer(kind, threads, dir) {
  const argv = [process.execPath, path.join(__dirname, 'peer-serve.js'), '--engine', kind, '--threads', String(threads),
    ...(dir ? ['--path', dir] : [])];
  const c = lineChild(argv);
  const hello = JSON.parse(await c.next());
  if (!hello.ready) throw new Error(`${kind}: ${hello.error}`);
  return {
    version: hello.version,
    async query(sql, timeoutS) {
      c.send({ sql });
      let j;
      try { j = JSON.parse(await withTimeout(c.next(), timeoutS, () => c.ch.kill('SIGKILL'))); } catch (e) { return { ok: false, error: e.message }; }
      if (j.error) return { ok: false, error: firstLine(j.error) };
      return { ok: true, elapsed_s: j.elapsed_s, cpu_s: j.user_s + j.sys_s, rss_mib: j.max_rss_kib / 1024, result: j.result };
    },
    stop() { try { c.ch.stdin.end(); c.ch.kill('SIGTERM'); } catch (e) { /* gone */ } },
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
    s.on('error', reject);
  });
}

const TICK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

// user + system CPU seconds of a process, from /proc (clock-tick resolution)
function procCpu(pid) {
  const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / TICK;
}

function procPeakMib(pid) {
  const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
  return m ? Number(m[1]) / 1024 : NaN;
}

function post(port, params, body, timeoutS) {
  return new Promise((resolve) => {
    const q = new URLSearchParams(params).toString();
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/?${q}`, agent: false }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(parts).toString() }));
    });
    req.setTimeout(timeoutS * 1000, () => req.destroy(new Error(`timed out after ${timeoutS} s`)));
    req.on('error', (e) => resolve({ status: 0, body: e.message }));
    req.end(body);
  });
}

// `shale server` on a private copy of dir (hard links: parts are immutable, and the server's
// own merges must not touch the directory `shale local` runs on in the same benchmark).
async function shaleServer(bin, threads, dir) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shale-bench-server-'));
  const data = path.join(work, 'data');
  if (dir) {
    const r = spawnSync('cp', ['-al', dir, data]);
    if (r.status !== 0) throw new Error(`cannot link ${dir}: ${r.stderr}`);
  }
  const [hp, tp] = [await freePort(), await freePort()];
  const ch = spawn(bin, ['server', '--', `--http_port=${hp}`, `--tcp_port=${tp}`, '--listen_host=127.0.0.1',
    `--path=${data}/`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  ch.stderr.on('data', (d) => { err = (err + d).slice(-4000); });
  const stop = () => { try { ch.kill('SIGTERM'); } catch (e) { /* gone */ } fs.rmSync(work, { recursive: true, force: true }); };
  for (let i = 0; ; i++) {
    const r = await post(hp, {}, 'SELECT version()', 5);
    if (r.status === 200) break;
    if (i > 100 || ch.exitCode !== null) { stop(); throw new Error(`shale server did not start: ${firstLine(err || r.body)}`); }
    await new Promise((res) => setTimeout(res, 100));
  }
  return {
    async query(sql, timeoutS) {
      const c0 = procCpu(ch.pid);
      const t0 = process.hrtime.bigint();
      const r = await post(hp, { max_threads: String(threads) }, sql, timeoutS);
      const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
      if (r.status !== 200) return { ok: false, error: firstLine(r.body) };
      return { ok: true, elapsed_s: elapsed, cpu_s: procCpu(ch.pid) - c0, rss_mib: procPeakMib(ch.pid), result: r.body };
    },
    stop,
  };
}

module.exports = { peer, shaleServer };
