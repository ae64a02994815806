#!/usr/bin/env node
// The official Node client (@clickhouse/client) against `shale server`, used as its users
// use it: ping, command, insert of JS objects and of a stream, select in JSON and streaming
// formats, query parameters, sessions, abort, compression both ways, and errors parsed by
// the client. Usage: client-test.js URL (the server is started by run-client-tests.sh).
'use strict';
const assert = require('assert');
const { Readable } = require('stream');
const { createClient } = require('@clickhouse/client');

const url = process.argv[2];
let passed = 0, failed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed++;
  } catch (e) {
    failed++;
    console.log(`FAIL: ${name}: ${e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : e}`);
  }
}

(async () => {
  const client = createClient({ url, request_timeout: 20000 });
  await check('ping', async () => {
    const r = await client.ping();
    assert.strictEqual(r.success, true);
  });
  await check('command CREATE', async () => {
    await client.command({ query: 'CREATE TABLE events (id UInt32, name String, score Float64) ENGINE = MergeTree ORDER BY id' });
  });
  await check('insert JS objects', async () => {
    await client.insert({ table: 'events', values: [{ id: 1, name: 'a', score: 1.5 }, { id: 2, name: 'b', score: 2.5 }], format: 'JSONEachRow' });
  });
  await check('insert a stream', async () => {
    const rows = [];
    for (let i = 3; i <= 10002; i++) rows.push({ id: i, name: 'n' + i, score: i / 2 });
    await client.insert({ table: 'events', values: Readable.from(rows), format: 'JSONEachRow' });
  });
  await check('select JSONEachRow', async () => {
    const rs = await client.query({ query: 'SELECT id, name FROM events WHERE id <= 2 ORDER BY id', format: 'JSONEachRow' });
    assert.deepStrictEqual(await rs.json(), [{ id: 1, name: 'a' }, { id: 2, name: 'b' }]);
  });
  await check('select JSON', async () => {
    const rs = await client.query({ query: 'SELECT count() AS c FROM events', format: 'JSON' });
    const j = await rs.json();
    assert.strictEqual(j.data[0].c, 10002); // output_format_json_quote_64bit_integers is 0 in ClickHouse 26.7
    assert.strictEqual(j.rows, 1);
    assert.strictEqual(j.meta[0].type, 'UInt64');
  });
  await check('streaming select', async () => {
    const rs = await client.query({ query: 'SELECT id FROM events ORDER BY id', format: 'JSONEachRow' });
    let n = 0, last = 0;
    for await (const rows of rs.stream()) {
      for (const row of rows) {
        const v = row.json();
        assert.ok(v.id > last);
        last = v.id;
        n++;
      }
    }
    assert.strictEqual(n, 10002);
  });
  await check('query parameters', async () => {
    const rs = await client.query({ query: 'SELECT name FROM events WHERE id = {id:UInt32} AND name = {n:String}', query_params: { id: 2, n: 'b' }, format: 'JSONEachRow' });
    assert.deepStrictEqual(await rs.json(), [{ name: 'b' }]);
  });
  await check('settings per query', async () => {
    const rs = await client.query({ query: "SELECT getSetting('max_threads') AS t", clickhouse_settings: { max_threads: 1 }, format: 'JSONEachRow' });
    assert.deepStrictEqual(await rs.json(), [{ t: 1 }]);
  });
  await check('error code parsed', async () => {
    await assert.rejects(client.query({ query: 'SELECT * FROM no_such_table', format: 'JSONEachRow' }), (e) => {
      assert.strictEqual(e.code, '60');
      assert.strictEqual(e.type, 'UNKNOWN_TABLE');
      return true;
    });
  });
  await check('error mid-stream detected', async () => {
    const rs = await client.query({ query: "SELECT throwIf(number = 1500000, 'boom') AS x FROM numbers(2000000) SETTINGS max_block_size = 1000", format: 'JSONEachRow', clickhouse_settings: { http_headers_progress_interval_ms: '100000' } });
    await assert.rejects((async () => { for await (const rows of rs.stream()) { void rows; } })(), (e) => {
      assert.match(String(e.message), /boom/);
      return true;
    });
  });
  const session = createClient({ url, session_id: 'client-session-' + process.pid });
  await check('session keeps SET', async () => {
    await session.command({ query: 'SET max_threads = 1' });
    const rs = await session.query({ query: "SELECT getSetting('max_threads') AS t", format: 'JSONEachRow' });
    assert.deepStrictEqual(await rs.json(), [{ t: 1 }]);
  });
  await check('session temporary table', async () => {
    await session.command({ query: 'CREATE TEMPORARY TABLE tmp_rows (x UInt32)' });
    await session.insert({ table: 'tmp_rows', values: [{ x: 1 }, { x: 2 }], format: 'JSONEachRow' });
    const rs = await session.query({ query: 'SELECT sum(x) AS s FROM tmp_rows', format: 'JSONEachRow' });
    assert.deepStrictEqual(await rs.json(), [{ s: 3 }]);
    await assert.rejects(client.query({ query: 'SELECT * FROM tmp_rows', format: 'JSONEachRow' }));
  });
  await check('abort a running query', async () => {
    const ac = new AbortController();
    const p = client.query({ query: 'SELECT sleepEachRow(0.5) FROM numbers(20) SETTINGS max_block_size = 1', format: 'JSONEachRow', abort_signal: ac.signal });
    setTimeout(() => ac.abort(), 300);
    await assert.rejects(p);
  });
  const zipped = createClient({ url, compression: { request: true, response: true } });
  await check('compression both ways', async () => {
    await zipped.insert({ table: 'events', values: [{ id: 20000, name: 'zipped', score: 0 }], format: 'JSONEachRow' });
    const rs = await zipped.query({ query: 'SELECT name FROM events WHERE id = 20000', format: 'JSONEachRow' });
    assert.deepStrictEqual(await rs.json(), [{ name: 'zipped' }]);
  });
  await check('insert of bad data rejected', async () => {
    await assert.rejects(client.insert({ table: 'events', values: [{ id: 'x', name: 1 }], format: 'JSONEachRow' }));
    const rs = await client.query({ query: 'SELECT count() AS c FROM events', format: 'JSONEachRow' });
    assert.deepStrictEqual(await rs.json(), [{ c: 10003 }]);
  });
  await client.close();
  await session.close();
  await zipped.close();
  console.log(`client: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})().catch((e) => { console.log('FAIL: ' + e.stack); process.exit(1); });
