// chdb (ClickHouse 26.7 embedded) as a client of shale's native protocol: the same query
// over remote('127.0.0.1:PORT', …) and over the same data in chdb itself must give
// byte-identical TabSeparated results; errors must carry shale's code and message.
//   node native-test.js TCP_A TCP_B COLUMNS INSERT_SELECT
// Server A holds all rows of default.full and rows k < 10 of default.t; B holds k >= 10
// of default.t. Run from an empty directory (chdb's session lives there).
const { Session } = require('../queries/node_modules/chdb');
const [A, B, cols, sel] = process.argv.slice(2);
const s = new Session();
s.query(`CREATE TABLE full (${cols}) ENGINE = MergeTree ORDER BY k`);
s.query(`INSERT INTO full ${sel}`);
let pass = 0, fail = 0;
function run(q) { try { return s.query(q, 'TSV'); } catch (e) { return 'ERR ' + e.message; } }
function same(name, local, remote) {
  const a = run(local), b = run(remote);
  if (a === b && !a.startsWith('ERR')) { pass++; return; }
  fail++;
  console.log(`FAIL: ${name}\n  local:  ${a.slice(0, 400)}\n  remote: ${b.slice(0, 400)}`);
}
function error(name, remote, ...needles) {
  const b = run(remote);
  if (b.startsWith('ERR') && needles.every(n => b.includes(n))) { pass++; return; }
  fail++;
  console.log(`FAIL: ${name}\n  expected an error with ${JSON.stringify(needles)}\n  got: ${b.slice(0, 600)}`);
}
const one = `remote('127.0.0.1:${A}', default.full)`;
const two = `remote('127.0.0.1:{${A},${B}}', default.t)`;

// The protocol itself, with ClickHouse's smallest query.
same('system.one', 'SELECT * FROM system.one', `SELECT * FROM remote('127.0.0.1:${A}', system.one)`);
// Every type shale has, through one shard (stage Complete), LZ4 and ZSTD.
same('all types', 'SELECT * FROM full ORDER BY k', `SELECT * FROM ${one} ORDER BY k`);
same('all types, ZSTD', 'SELECT * FROM full ORDER BY k',
     `SELECT * FROM ${one} ORDER BY k SETTINGS network_compression_method = 'ZSTD'`);
same('all types, ZSTD level 5', 'SELECT * FROM full ORDER BY k',
     `SELECT * FROM ${one} ORDER BY k SETTINGS network_compression_method = 'ZSTD', network_zstd_compression_level = 5`);
same('where/order/limit', 'SELECT k, s, n FROM full WHERE k % 3 = 1 ORDER BY k DESC LIMIT 4',
     `SELECT k, s, n FROM ${one} WHERE k % 3 = 1 ORDER BY k DESC LIMIT 4`);
same('limit offset (one shard)', 'SELECT k FROM full ORDER BY k LIMIT 3 OFFSET 5',
     `SELECT k FROM ${one} ORDER BY k LIMIT 3 OFFSET 5`);
same('group by', 'SELECT lc, count(), sum(i64), min(s), max(f64), avg(u16), groupArray(k), uniqExact(e) FROM full GROUP BY lc ORDER BY lc',
     `SELECT lc, count(), sum(i64), min(s), max(f64), avg(u16), groupArray(k), uniqExact(e) FROM ${one} GROUP BY lc ORDER BY lc`);
same('group by having limit', 'SELECT b, count() c FROM full GROUP BY b HAVING c > 1 ORDER BY b LIMIT 1',
     `SELECT b, count() c FROM ${one} GROUP BY b HAVING c > 1 ORDER BY b LIMIT 1`);
same('expressions', 'SELECT k * 2, concat(s, \'!\'), toString(dtm), length(a), a[1] FROM full ORDER BY k',
     `SELECT k * 2, concat(s, '!'), toString(dtm), length(a), a[1] FROM ${one} ORDER BY k`);
same('nullable and low cardinality', 'SELECT n, lcn, isNull(n) FROM full ORDER BY k',
     `SELECT n, lcn, isNull(n) FROM ${one} ORDER BY k`);
same('empty result', 'SELECT k, s FROM full WHERE k > 1000', `SELECT k, s FROM ${one} WHERE k > 1000`);
// System tables and table functions on the shard.
same('system.numbers', 'SELECT number FROM system.numbers LIMIT 5',
     `SELECT number FROM remote('127.0.0.1:${A}', system.numbers) LIMIT 5`);
same('table function numbers()', 'SELECT sum(number), count() FROM numbers(100000)',
     `SELECT sum(number), count() FROM remote('127.0.0.1:${A}', numbers(100000))`);
same('many blocks', 'SELECT number, toString(number) FROM numbers(300000) ORDER BY number',
     `SELECT number, toString(number) FROM remote('127.0.0.1:${A}', numbers(300000)) ORDER BY number`);
same('system.databases', "SELECT name FROM system.databases WHERE name = 'system'",
     `SELECT name FROM remote('127.0.0.1:${A}', system.databases) WHERE name = 'system'`);
// Two shards holding halves of the data (stage WithMergeableStateAfterAggregationAndLimit).
same('two shards', 'SELECT * FROM full ORDER BY k', `SELECT * FROM ${two} ORDER BY k`);
same('two shards where/order/limit', 'SELECT k, s FROM full WHERE k % 2 = 0 ORDER BY k DESC LIMIT 5',
     `SELECT k, s FROM ${two} WHERE k % 2 = 0 ORDER BY k DESC LIMIT 5`);
same('two shards order by two keys', 'SELECT s, e FROM full ORDER BY e, k LIMIT 7',
     `SELECT s, e FROM ${two} ORDER BY e, k LIMIT 7`);
same('two shards order by expressions', 'SELECT s, k + 1 FROM full ORDER BY k % 7, length(s) DESC, k LIMIT 6',
     `SELECT s, k + 1 FROM ${two} ORDER BY k % 7, length(s) DESC, k LIMIT 6`);
same('two shards order by a string function', "SELECT k FROM full ORDER BY concat(s, 'x') DESC LIMIT 3",
     `SELECT k FROM ${two} ORDER BY concat(s, 'x') DESC LIMIT 3`);
same('two shards, aggregation on the initiator',
     'SELECT lc, count(), sum(k) FROM (SELECT lc, k FROM full) GROUP BY lc ORDER BY lc',
     `SELECT lc, count(), sum(k) FROM (SELECT lc, k FROM ${two}) GROUP BY lc ORDER BY lc`);
same('two shards, aggregation in the shards (WithMergeableState)',
     'SELECT lc, count(), sum(k) FROM full GROUP BY lc ORDER BY lc',
     `SELECT lc, count(), sum(k) FROM ${two} GROUP BY lc ORDER BY lc`);
error('two shards, an aggregate without a state in shale', `SELECT uniq([s]) FROM ${two}`,
      'uniq', 'NOT_IMPLEMENTED');
// Errors found by shale reach ClickHouse with shale's code and message.
error('shale error code and message', `SELECT * FROM remote('127.0.0.1:${A}', system.no_such_table)`,
      'Received from 127.0.0.1:' + A, 'UNKNOWN_TABLE', 'no_such_table');
error('runtime error', `SELECT intDiv(1, k - 5) FROM ${one}`, 'Received from 127.0.0.1:' + A, 'ILLEGAL_DIVISION');
// Users.
same('user with password', 'SELECT dummy + 1 FROM system.one',
     `SELECT dummy + 1 FROM remote('127.0.0.1:${A}', system.one, 'alice', 'secret1')`);
error('wrong password', `SELECT * FROM remote('127.0.0.1:${A}', system.one, 'alice', 'wrong')`, 'AUTHENTICATION_FAILED');
error('unknown user', `SELECT * FROM remote('127.0.0.1:${A}', system.one, 'nobody', '')`, 'AUTHENTICATION_FAILED');
// INSERT INTO FUNCTION remote(…): the initiator sends Native blocks.
run(`INSERT INTO FUNCTION remote('127.0.0.1:${A}', default.ins) SELECT number, toString(number) FROM numbers(1000)`);
same('insert into function remote', 'SELECT count(), sum(x), max(y) FROM (SELECT number x, toString(number) y FROM numbers(1000))',
     `SELECT count(), sum(x), max(y) FROM remote('127.0.0.1:${A}', default.ins)`);
// Every type back through INSERT INTO FUNCTION remote(…), and a column's DEFAULT computed
// by shale for the columns the INSERT leaves out.
run(`INSERT INTO FUNCTION remote('127.0.0.1:${A}', default.copy) SELECT * FROM full`);
same('insert every type', 'SELECT * FROM full ORDER BY k', `SELECT * FROM remote('127.0.0.1:${A}', default.copy) ORDER BY k`);
run(`INSERT INTO FUNCTION remote('127.0.0.1:${A}', default.defaults) (x) SELECT number FROM numbers(3)`);
same('insert with defaults', "SELECT number, concat('d', toString(number)) FROM numbers(3)",
     `SELECT x, y FROM remote('127.0.0.1:${A}', default.defaults) ORDER BY x`);
s.close();
console.log(`native chdb: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
