// ClickHouse stateless-test scripts: the statement splitter (with each statement's
// "-- { serverError A, B }" hint) and the test runner's substitutions.
'use strict';

// Splits a script into [{text, hint}], respecting quotes and comments. hint is the expected
// error names joined by '|' ('*' for any error), or null.
function splitScript(sql) {
  const out = [];
  let start = 0, i = 0;
  const n = sql.length;
  const push = (end) => {
    const text = sql.slice(start, end).trim();
    let lineEnd = sql.indexOf('\n', end);
    if (lineEnd < 0) lineEnd = n;
    const tail = sql.slice(end, lineEnd);
    const m = /(serverError|clientError)\s*([A-Za-z0-9_,|\s]*)/.exec(tail);
    let hint = null;
    if (m) {
      const names = m[2].split(/[\s,|]+/).filter(Boolean);
      hint = names.length ? names.join('|') : '*';
    }
    const stripped = text.replace(/--[^\n]*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '').trim();
    if (stripped.length) out.push({ text, hint });
    start = end + 1;
  };
  while (i < n) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') {
      i++;
      while (i < n && sql[i] !== c) { if (sql[i] === '\\') i++; i++; }
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      while (i < n && sql[i] !== '\n') i++;
    } else if (c === '/' && sql[i + 1] === '*') {
      i += 2;
      while (i < n && !(sql[i] === '*' && sql[i + 1] === '/')) i++;
      i += 2;
    } else if (c === ';') {
      push(i);
      i++;
    } else i++;
  }
  if (start < n) push(n);
  return out;
}

// The test runner passes the test's database as a query parameter; here it is `default`.
function substitute(sql) {
  return sql.replace(/\{CLICKHOUSE_DATABASE:Identifier\}/g, 'default')
    .replace(/\{CLICKHOUSE_DATABASE:String\}/g, "'default'");
}

module.exports = { splitScript, substitute };
