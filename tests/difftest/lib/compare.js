// Classifies a pair of results (ClickHouse through chdb, shale) and shrinks a diverging query.
//
// Classes: pass, both-fail (same error code), code-mismatch (both fail, other codes: reported,
// not a failure), unsupported (shale says it lacks the feature where ClickHouse answers),
// rejects (shale fails with another code where ClickHouse answers), and the divergences:
// wrong (both answer, differently), accepts (shale answers where ClickHouse fails), crash, hang.
'use strict';
const { renderQuery, isOrdered, render, literal, N } = require('./gen');

const DIVERGENCES = ['wrong', 'accepts', 'crash', 'hang'];
const UNSUPPORTED = new Set(['NOT_IMPLEMENTED', 'UNKNOWN_FUNCTION', 'UNKNOWN_AGGREGATE_FUNCTION', 'UNKNOWN_TYPE',
  'UNKNOWN_SETTING', 'UNKNOWN_TABLE_FUNCTION', 'UNSUPPORTED_METHOD']);

const sortLines = s => s.split('\n').sort().join('\n');

function classify(ch, sh, ordered) {
  if (sh.crash) return 'crash';
  if (sh.hang) return 'hang';
  if (ch.ok && sh.ok) return (ordered ? ch.out === sh.out : sortLines(ch.out) === sortLines(sh.out)) ? 'pass' : 'wrong';
  if (!ch.ok && !sh.ok) return ch.name === sh.name ? 'both-fail' : 'code-mismatch';
  if (!ch.ok) return 'accepts';
  if (UNSUPPORTED.has(sh.name) || (sh.name === 'SYNTAX_ERROR' && /not supported/i.test(sh.msg))) return 'unsupported';
  return 'rejects';
}

// What shale lacks, for the unsupported tally: the function name, or the message's gist.
function unsupportedKey(sh) {
  const m = /Function with name `([^`]+)`/.exec(sh.msg) || /function (\w+)/i.exec(sh.msg);
  if (sh.name === 'UNKNOWN_FUNCTION' && m) return `UNKNOWN_FUNCTION ${m[1]}`;
  return `${sh.name}: ${sh.msg.replace(/'[^']*'|`[^`]*`|\d+/g, '…').slice(0, 90)}`;
}

// Every expression slot of a query, as [getter, setter] over a cloned object.
function slots(q) {
  const out = [];
  const walk = (holder, key) => {
    const n = holder[key];
    if (!n || typeof n !== 'object' || n.tpl === undefined) return;
    out.push([() => holder[key], v => { holder[key] = v; }]);
    n.args.forEach((_, i) => walk(n.args, i));
  };
  q.items.forEach((_, i) => walk(q.items, i));
  if (q.where) walk(q, 'where');
  if (q.having) walk(q, 'having');
  if (q.groupBy) q.groupBy.forEach((_, i) => walk(q.groupBy, i));
  if (q.union && q.union.where) walk(q.union, 'where');
  return out;
}

const clone = q => JSON.parse(JSON.stringify(q));

// Smaller variants of q, the boldest first.
function* candidates(q, rng) {
  const drop = (fn) => { const c = clone(q); fn(c); return c; };
  for (const key of ['union', 'where', 'having', 'limitBy', 'limit', 'offset', 'totals', 'groupMod', 'distinct', 'with']) {
    if (q[key] !== undefined && q[key] !== null && q[key] !== false) yield drop(c => { delete c[key]; });
  }
  if (q.order) yield drop(c => { delete c.order; delete c.limit; delete c.offset; delete c.limitBy; });
  if (q.union && q.union.where) yield drop(c => { delete c.union.where; });
  for (let i = 0; i < q.items.length && q.items.length > 1; i++) {
    yield drop(c => {
      c.items.splice(i, 1);
      if (c.order) c.order = c.order.filter(o => o.i !== i).map(o => ({ i: o.i > i ? o.i - 1 : o.i, dir: o.dir }));
      if (c.limitBy && c.limitBy.i >= c.items.length) c.limitBy.i = 0;
    });
  }
  if (q.groupBy) for (let i = 0; i < q.groupBy.length; i++) yield drop(c => { c.groupBy.splice(i, 1); });
  const n = slots(q).length;
  for (let s = 0; s < n; s++) {
    const node = slots(q)[s][0]();
    for (let a = 0; a < node.args.length; a++) {
      if (node.args[a].cls !== node.cls) continue;
      yield drop(c => { const sl = slots(c)[s]; sl[1](sl[0]().args[a]); });
    }
    if (node.args.length || !/^'|^-?\d/.test(node.tpl)) {
      yield drop(c => { slots(c)[s][1](N(node.cls, literal(rng, node.cls))); });
    }
  }
}

// Greedy shrinking: keep a smaller variant while `sameClass(variant)` holds.
function minimize(q, sameClass, rng, budget = 150) {
  let cur = q;
  let tries = 0;
  let progress = true;
  while (progress && tries < budget) {
    progress = false;
    for (const c of candidates(cur, rng)) {
      if (++tries > budget) break;
      let ok = false;
      try { ok = sameClass(c); } catch (e) { ok = false; }
      if (ok) { cur = c; progress = true; break; }
    }
  }
  return cur;
}

module.exports = { DIVERGENCES, classify, unsupportedKey, minimize, renderQuery, isOrdered, render, sortLines };
