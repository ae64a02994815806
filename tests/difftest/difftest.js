#!/usr/bin/env node
// Differential testing of shale against ClickHouse (chdb): random tables and typed random
// queries from a seed, run in both engines, outputs compared byte for byte (TabSeparated;
// as sorted lines when the query has no ORDER BY). See docs/difftest.md.
//
//   node tests/difftest/difftest.js --shale build/shale [--seeds 1-20] [--n 200]
//        [--features all,-window] [--report FILE] [--timeout 10] [--minimize 20] [--verbose]
//        [--names]   (also compare result column names: FORMAT TabSeparatedWithNames)
//
// Exit status 1 when a divergence (wrong answer, shale answering where ClickHouse fails,
// crash, hang) was found; unsupported features and error-code mismatches are counted only.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Rng, makeTables, setupSql } = require('./lib/schema');
const { FEATURES, parseFeatures, Gen, genQuery, renderQuery, isOrdered } = require('./lib/gen');
const { DIVERGENCES, classify, unsupportedKey, minimize } = require('./lib/compare');
const { Chdb, runShale } = require('./lib/engines');

function parseArgs(argv) {
  const o = { seeds: '1-5', n: 200, features: '', report: null, timeout: 10, minimize: 20, verbose: false, shale: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
    if (a === '--shale') o.shale = val();
    else if (a === '--seeds') o.seeds = val();
    else if (a === '--n') o.n = Number(val());
    else if (a === '--features') o.features = val();
    else if (a === '--report') o.report = val();
    else if (a === '--timeout') o.timeout = Number(val());
    else if (a === '--minimize') o.minimize = Number(val());
    else if (a === '--verbose' || a === '-v') o.verbose = true;
    else if (a === '--names') o.names = true;
    else if (a === '--list-features') {
      for (const [k, v] of Object.entries(FEATURES)) console.log(`${k.padEnd(14)} ${v}`);
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!o.shale) throw new Error('usage: difftest.js --shale path/to/shale [--seeds 1-20] [--n 200] [--features …]');
  return o;
}

// "1-5,9,20-22" -> [1,2,3,4,5,9,20,21,22]
function parseSeeds(spec) {
  const out = [];
  for (const part of String(spec).split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new Error(`bad seed list ${spec}`);
    for (let s = Number(m[1]); s <= Number(m[2] || m[1]); s++) out.push(s);
  }
  return out;
}

const splitStatements = s => s.split(';\n').map(x => x.trim()).filter(Boolean);

function main() {
  const o = parseArgs(process.argv.slice(2));
  const shale = path.resolve(o.shale);
  const flags = parseFeatures(o.features);
  const chdb = new Chdb();
  chdb.run('SET max_execution_time = 60');
  const counts = {};
  const unsupported = {};
  const codeMismatch = {};
  const divergences = [];
  let minimized = 0;
  const t0 = Date.now();
  let total = 0;
  const bump = (m, k) => { m[k] = (m[k] || 0) + 1; };

  for (const seed of parseSeeds(o.seeds)) {
    const rng = new Rng(seed);
    const { tables } = makeTables(rng, flags);
    // MergeTree tables live in a data directory made once per seed; Memory tables are made
    // again by every shale process (`setup`).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shale-difftest-'));
    const sh = { timeoutMs: o.timeout * 1000, args: ['--path', dir] };
    const setup = setupSql(tables.filter(t => t.engine === 'Memory'));
    // The setup statements are compared too (value parsing of every type).
    const fullSetup = setupSql(tables);
    const setupStmts = splitStatements(fullSetup);
    const chSetup = setupStmts.map(s => chdb.run(s));
    const shSetup = runShale(shale, '', setupStmts, sh);
    let setupOk = true;
    setupStmts.forEach((s, i) => {
      const cls = classify(chSetup[i], shSetup[i], true);
      if (cls !== 'pass') {
        setupOk = false;
        bump(counts, `setup-${cls}`);
        if (cls === 'unsupported') bump(unsupported, unsupportedKey(shSetup[i]));
        else divergences.push({ seed, cls, sql: s, setup: '', ch: chSetup[i], sh: shSetup[i] });
      }
    });
    if (!setupOk || chSetup.some(r => !r.ok)) { fs.rmSync(dir, { recursive: true, force: true }); continue; }

    const g = new Gen(rng, flags, tables);
    const qs = tables.map(t => ({ items: [], raw: `SELECT * FROM ${t.name}` }));
    for (let i = 0; i < o.n; i++) qs.push(genQuery(g));
    // --names: compare the result's column names too (TabSeparatedWithNames)
    const sqls = qs.map(q => (q.raw || renderQuery(q)) + (o.names ? ' FORMAT TabSeparatedWithNames' : ''));
    const chRes = sqls.map(s => chdb.run(s));
    const shRes = runShale(shale, setup, sqls, sh);
    for (let i = 0; i < sqls.length; i++) {
      total++;
      const q = qs[i];
      const ordered = q.raw ? false : isOrdered(q);
      const cls = classify(chRes[i], shRes[i], ordered);
      bump(counts, cls);
      if (cls === 'unsupported') bump(unsupported, unsupportedKey(shRes[i]));
      if (cls === 'code-mismatch') bump(codeMismatch, `ClickHouse ${chRes[i].name} / shale ${shRes[i].name}`);
      if (o.verbose && cls !== 'pass' && cls !== 'both-fail') console.log(`[${seed}:${i}] ${cls}: ${sqls[i]}`);
      if (cls === 'rejects' || DIVERGENCES.includes(cls)) {
        const d = { seed, index: i, cls, sql: sqls[i], setup: fullSetup, ch: chRes[i], sh: shRes[i] };
        // Shrink while the class stays the same (each step runs both engines once).
        if (!q.raw && DIVERGENCES.includes(cls) && minimized < o.minimize) {
          minimized++;
          const small = minimize(q, c => {
            const s = renderQuery(c);
            const r1 = chdb.run(s);
            const r2 = runShale(shale, setup, [s], sh)[0];
            return classify(r1, r2, isOrdered(c)) === cls;
          }, new Rng(seed * 7919 + i));
          const s = renderQuery(small);
          d.min = { sql: s, ch: chdb.run(s), sh: runShale(shale, setup, [s], sh)[0] };
        }
        divergences.push(d);
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  chdb.close();

  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  const order = ['pass', 'both-fail', 'code-mismatch', 'unsupported', 'rejects', ...DIVERGENCES];
  const keys = [...order.filter(k => counts[k]), ...Object.keys(counts).filter(k => !order.includes(k))];
  console.log(`difftest: ${total} queries, seeds ${o.seeds}, ${secs} s`);
  for (const k of keys) console.log(`  ${k.padEnd(14)} ${counts[k]}`);
  const top = (m, n) => Object.entries(m).sort((a, b) => b[1] - a[1]).slice(0, n);
  if (Object.keys(unsupported).length) {
    console.log('  unsupported by shale (top):');
    for (const [k, v] of top(unsupported, 10)) console.log(`    ${String(v).padStart(5)}  ${k}`);
  }
  if (o.report) writeReport(o, counts, unsupported, codeMismatch, divergences, total, secs);
  const nfail = divergences.filter(d => DIVERGENCES.includes(d.cls) || d.cls.startsWith('setup-')).length;
  const nrej = divergences.filter(d => d.cls === 'rejects').length;
  console.log(`difftest: ${total - nfail - nrej} passed, ${nfail} failed`);
  process.exit(nfail ? 1 : 0);
}

function show(r) {
  if (!r) return '(not run)';
  if (r.crash) return `CRASH ${r.msg}`;
  if (r.hang) return `HANG ${r.msg}`;
  if (!r.ok) return `error ${r.name} (${r.code}): ${r.msg}`;
  return r.out.length > 3000 ? r.out.slice(0, 3000) + '\n…' : r.out;
}

function writeReport(o, counts, unsupported, codeMismatch, divergences, total, secs) {
  let s = `# difftest report\n\nseeds ${o.seeds}, ${o.n} queries per seed, features \`${o.features || 'default'}\`; ` +
    `${total} queries in ${secs} s.\n\n| class | count |\n| --- | --- |\n`;
  for (const [k, v] of Object.entries(counts)) s += `| ${k} | ${v} |\n`;
  s += '\n## Unsupported in shale (ClickHouse answers)\n\n';
  for (const [k, v] of Object.entries(unsupported).sort((a, b) => b[1] - a[1])) s += `- ${v} × ${k}\n`;
  s += '\n## Error-code mismatches (both fail)\n\n';
  for (const [k, v] of Object.entries(codeMismatch).sort((a, b) => b[1] - a[1])) s += `- ${v} × ${k}\n`;
  s += '\n## Divergences\n';
  for (const d of divergences) {
    const m = d.min || d;
    s += `\n### ${d.cls} (seed ${d.seed}${d.index !== undefined ? `, query ${d.index}` : ''})\n\n`;
    if (d.min) s += `Minimised from:\n\n\`\`\`sql\n${d.sql}\n\`\`\`\n\n`;
    s += `Query:\n\n\`\`\`sql\n${m.sql}\n\`\`\`\n\nClickHouse:\n\n\`\`\`\n${show(m.ch)}\n\`\`\`\n\nshale:\n\n\`\`\`\n${show(m.sh)}\n\`\`\`\n`;
    if (d.setup) s += `\n<details><summary>tables</summary>\n\n\`\`\`sql\n${d.setup}\`\`\`\n</details>\n`;
  }
  fs.writeFileSync(o.report, s);
  console.log(`difftest: report in ${o.report}`);
}

main();
