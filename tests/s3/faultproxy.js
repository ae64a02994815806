#!/usr/bin/env node
// A fault-injecting HTTP proxy for shale's S3 tests (Node, no dependencies).
//
//   node faultproxy.js LISTEN_PORT UPSTREAM_PORT [UPSTREAM_HOST] [--rules JSON]
//
// Listens on 127.0.0.1:LISTEN_PORT and forwards every request unchanged (method, path,
// query, headers including Host, body) to UPSTREAM_HOST:UPSTREAM_PORT, so SigV4 signatures
// made for the proxy's address stay valid: the client signs "Host: 127.0.0.1:LISTEN_PORT",
// the proxy passes that Host on, and radosgw checks the signature against it.
//
// Control endpoint (not forwarded):
//   POST /__faults   body = JSON array of rules: replaces the rules and resets the stats
//   GET  /__faults   the current rules (with their remaining `times`)
//   GET  /__stats    {"requests":N,"injected":{action:count},"maxInflight":M}
//
// A rule applies to a request when every condition given matches; the first rule that
// applies decides. Conditions:
//   method       "GET", "PUT", ...
//   path, query  regular expressions on the path / the query string
//   header       {"range": "regex"} regexes on request headers (lower-case names)
//   skip         let this many matching requests through first
//   times        apply to at most this many requests ("the first N")
//   prob         apply with this probability ("at a rate")
//   overInflight apply only while more than this many matching requests are in flight
//                (a server that throttles concurrency)
//   overRate     apply only when more than this many matching requests arrived in the
//                last second (a server that throttles the request rate)
// Actions:
//   error      answer `status` (503) with an S3 XML error body: `code` (SlowDown),
//              `message`; `retryAfter` adds a Retry-After header
//   reset      reset the connection before any response byte (TCP RST)
//   close      close the connection before any response byte (FIN)
//   truncate   forward the headers (Content-Length unchanged) and the first `afterBytes`
//              bytes of the body, then close the socket (`mode`: "close" = FIN after
//              flushing, "reset" = RST, which may drop bytes still queued)
//   delay      wait `ms` before forwarding
//   throttle   forward the body at `bps` bytes per second
//   hang       never answer
//   pass       forward unchanged (with dropHeaders: a server that ignores If-Match, say)
// Any forwarding action (delay, truncate, throttle, pass) also takes `dropHeaders`: request
// headers to remove (only unsigned ones, such as if-match, keep the signature valid).
'use strict';
const http = require('http');

const args = process.argv.slice(2);
let cliRules = [];
const pos = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rules') cliRules = JSON.parse(args[++i]);
  else pos.push(args[i]);
}
const listenPort = +pos[0], upPort = +pos[1], upHost = pos[2] || '127.0.0.1';
if (!listenPort || !upPort) {
  console.error('usage: faultproxy.js LISTEN_PORT UPSTREAM_PORT [UPSTREAM_HOST] [--rules JSON]');
  process.exit(2);
}

let rules = [];
let stats;
function setRules(list) {
  rules = list.map(r => ({ ...r, _inflight: 0, _arrivals: [] }));
  stats = { requests: 0, injected: {}, maxInflight: 0 };
}
setRules(cliRules);
let inflight = 0;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function matches(r, req, path, query) {
  if (r.method && r.method !== req.method) return false;
  if (r.path && !new RegExp(r.path).test(path)) return false;
  if (r.query && !new RegExp(r.query).test(query)) return false;
  if (r.header)
    for (const [k, v] of Object.entries(r.header))
      if (!new RegExp(v).test(req.headers[k.toLowerCase()] || '')) return false;
  return true;
}

// Marks req as in flight for every rule it matches (until the response finishes) and
// returns the rule to apply, or null.
function pick(req, res) {
  const [path, query = ''] = req.url.split('?');
  const now = Date.now();
  let chosen = null;
  for (const r of rules) {
    if (!matches(r, req, path, query)) continue;
    r._inflight++;
    res.on('close', () => r._inflight--);
    r._arrivals.push(now);
    while (r._arrivals.length && r._arrivals[0] < now - 1000) r._arrivals.shift();
    if (chosen) continue;
    if (r.skip > 0) { r.skip--; continue; }
    if (r.times !== undefined && r.times <= 0) continue;
    if (r.overInflight !== undefined && r._inflight <= r.overInflight) continue;
    if (r.overRate !== undefined && r._arrivals.length <= r.overRate) continue;
    if (r.prob !== undefined && Math.random() >= r.prob) continue;
    if (r.times !== undefined) r.times--;
    stats.injected[r.action] = (stats.injected[r.action] || 0) + 1;
    chosen = r;
  }
  return chosen;
}

function s3error(res, r) {
  const code = r.code || 'SlowDown', msg = r.message || 'Please reduce your request rate.';
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${msg}</Message>` +
    `<RequestId>faultproxy</RequestId></Error>`;
  const h = { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) };
  if (r.retryAfter) h['Retry-After'] = String(r.retryAfter);
  res.writeHead(r.status || 503, h);
  res.end(body);
}

function forward(req, res, r) {
  const headers = { ...req.headers };
  if (r && r.dropHeaders) for (const h of r.dropHeaders) delete headers[h.toLowerCase()];
  const up = http.request({ host: upHost, port: upPort, method: req.method, path: req.url, headers, agent },
    ur => {
      res.writeHead(ur.statusCode, ur.headers);
      if (r && r.action === 'truncate') {
        let left = r.afterBytes || 0;
        const cut = () => {
          ur.destroy();
          if (r.mode === 'reset') res.socket.resetAndDestroy();
          else res.socket.end(); // FIN once the bytes written so far are flushed
        };
        if (left <= 0) return cut();
        ur.on('data', d => {
          if (left <= 0) return;
          const part = d.subarray(0, left);
          left -= part.length;
          res.write(part);
          if (left <= 0) cut();
        });
        ur.on('end', () => { if (left > 0) res.end(); });
      } else if (r && r.action === 'throttle') {
        const bps = r.bps || 1 << 20, t0 = Date.now();
        let sent = 0;
        ur.on('data', d => {
          sent += d.length;
          res.write(d);
          const ahead = sent / bps * 1000 - (Date.now() - t0);
          if (ahead > 5) { ur.pause(); setTimeout(() => ur.resume(), ahead); }
        });
        ur.on('end', () => res.end());
      } else {
        ur.pipe(res);
      }
    });
  up.on('error', e => {
    if (!res.headersSent) s3error(res, { status: 502, code: 'BadGateway', message: e.message });
    else res.destroy();
  });
  res.on('close', () => { if (!res.writableFinished) up.destroy(); });
  req.pipe(up);
}

const server = http.createServer((req, res) => {
  if (req.url.startsWith('/__faults')) {
    let b = '';
    req.on('data', d => (b += d));
    req.on('end', () => {
      try {
        if (req.method === 'POST') setRules(JSON.parse(b || '[]'));
      } catch (e) {
        res.writeHead(400);
        return res.end(`bad rules: ${e.message}\n`);
      }
      res.end(JSON.stringify(rules, (k, v) => (k.startsWith('_') ? undefined : v)) + '\n');
    });
    return;
  }
  if (req.url.startsWith('/__stats')) return res.end(JSON.stringify(stats) + '\n');
  stats.requests++;
  inflight++;
  if (inflight > stats.maxInflight) stats.maxInflight = inflight;
  res.on('close', () => inflight--);
  const r = pick(req, res);
  if (!r) return forward(req, res, null);
  switch (r.action) {
    case 'error': req.resume(); return req.on('end', () => s3error(res, r));
    case 'reset': return req.socket.resetAndDestroy();
    case 'close': return req.socket.end();
    case 'hang': return;
    case 'delay': return setTimeout(() => forward(req, res, { dropHeaders: r.dropHeaders }), r.ms || 1000);
    case 'truncate': case 'throttle': case 'pass': return forward(req, res, r);
    default: s3error(res, { status: 500, code: 'FaultProxy', message: `unknown action ${r.action}` });
  }
});
server.keepAliveTimeout = 30000;
server.listen(listenPort, '127.0.0.1', () => console.log(`faultproxy 127.0.0.1:${listenPort} -> ${upHost}:${upPort}`));
