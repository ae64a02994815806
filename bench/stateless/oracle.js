// Worker for bench/stateless/run.js: reads one .sql path per stdin line, runs the script in
// a fresh chdb Session statement by statement (honouring "-- { serverError X }" hints as
// ClickHouse's test runner does) and prints one JSON line: {file, ok, out, problem}.
// A separate process so a ClickHouse crash or endless query can be killed from outside.
'use strict';
const readline = require('readline');
const { loadChdb } = require('../../tests/difftest/lib/engines');
const { splitScript, substitute } = require('./script');

const { Session } = loadChdb();
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (file) => {
  const fs = require('fs');
  const res = { file, ok: true, out: '', problem: null };
  const sess = new Session();
  try {
    for (const { text, hint } of splitScript(substitute(fs.readFileSync(file, 'utf8')))) {
      try {
        const r = sess.query(text, 'TabSeparated');
        if (hint) { res.ok = false; res.problem = `expected ${hint}, ClickHouse succeeded`; break; }
        res.out += r === undefined || r === null ? '' : String(r);
      } catch (e) {
        const m = /\((\w+)\)\s*(\(version[^)]*\))?\s*$/.exec(e.message) || [];
        if (!hint) { res.ok = false; res.problem = `ClickHouse failed: ${m[1] || e.message.slice(0, 200)}`; break; }
        if (hint !== '*' && !/^\d+$/.test(hint) && !hint.split('|').includes(m[1])) {
          res.ok = false; res.problem = `expected ${hint}, ClickHouse said ${m[1]}`; break;
        }
      }
    }
  } finally {
    if (sess.cleanup) sess.cleanup(); else if (sess.close) sess.close();
  }
  // ClickHouse may print to stdout itself: the answer line carries a marker.
  process.stdout.write('\n@@oracle@@' + JSON.stringify(res) + '\n');
});
