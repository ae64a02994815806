// Random tables for a differential run: a seeded PRNG, the column types shale has (and,
// behind flags, those it does not have yet), literal values with their edge cases, and
// the CREATE TABLE / INSERT … VALUES script both engines run.
//
// Every type carries `cls`, the expression class the query generator works with:
// int, float, dec, str, bool, date, dt, enum, uuid, ip4, ip6, map, tup, arr:<class>.
'use strict';

// splitmix32-style generator: the same seed gives the same tables and queries everywhere.
class Rng {
  constructor(seed) { this.s = (seed >>> 0) ^ 0x9e3779b9; }
  next() {
    let z = (this.s = (this.s + 0x9e3779b9) >>> 0);
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  }
  int(lo, hi) { return lo + Math.floor(this.next() * (hi - lo + 1)); }
  pick(a) { return a[Math.floor(this.next() * a.length)]; }
  chance(p) { return this.next() < p; }
  // Picks from [[weight, value], ...].
  weighted(items) {
    let total = 0;
    for (const [w] of items) total += w;
    let x = this.next() * total;
    for (const [w, v] of items) { if ((x -= w) < 0) return v; }
    return items[items.length - 1][1];
  }
}

const TIME_ZONES = ['UTC', 'Asia/Tokyo', 'America/New_York', 'Europe/Moscow', 'Asia/Kolkata',
  'Australia/Lord_Howe', 'America/St_Johns'];

const INT_RANGES = {
  UInt8: [0n, 255n], UInt16: [0n, 65535n], UInt32: [0n, 4294967295n], UInt64: [0n, (1n << 64n) - 1n],
  UInt128: [0n, (1n << 128n) - 1n], Int8: [-128n, 127n], Int16: [-32768n, 32767n],
  Int32: [-(1n << 31n), (1n << 31n) - 1n], Int64: [-(1n << 63n), (1n << 63n) - 1n],
  Int128: [-(1n << 127n), (1n << 127n) - 1n],
  UInt256: [0n, (1n << 256n) - 1n], Int256: [-(1n << 255n), (1n << 255n) - 1n],
};

const sq = s => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const pad = (n, w) => String(n).padStart(w, '0');

function randInt(rng, name) {
  const [lo, hi] = INT_RANGES[name];
  return rng.weighted([
    [6, () => BigInt(rng.int(lo < 0n ? -5 : 0, 9))],
    [1, () => lo], [1, () => hi], [1, () => (lo < 0n ? -1n : 1n)],
    [2, () => lo + BigInt(Math.floor(rng.next() * Number(hi - lo)))],
  ])().toString();
}

function randDate(rng, minYear, maxYear) {
  const y = rng.int(minYear, maxYear), m = rng.int(1, 12), d = rng.int(1, 28);
  return `${y}-${pad(m, 2)}-${pad(d, 2)}`;
}

const STRINGS = ['', 'a', 'abc', 'ABC', 'Hello, world', 'x,y,z', 'tab\there', 'new\nline', "O'Reilly",
  'back\\slash', 'ünïcödé', '日本語', '  padded  ', '123', '-4.5', '2020-01-01', 'NULL', 'a%b_c'];

// type: {sql, cls, elem?, elems?, nullable, value(rng) -> literal SQL}
function makeType(rng, flags, depth = 0) {
  const kinds = [
    [6, 'int'], [2, 'float'], [flags.decimal ? 2 : 0, 'dec'], [4, 'str'], [1, 'fstr'], [1, 'bool'],
    [flags.date ? 2 : 0, 'date'], [flags.date ? 2 : 0, 'dt'], [flags.date ? 1 : 0, 'dt64'], [1, 'enum'], [1, 'uuid'],
    [depth === 0 && flags.array ? 2 : 0, 'arr'], [depth === 0 && flags.tuple ? 1 : 0, 'tup'],
    [flags.ipv4 ? 1 : 0, 'ip4'], [flags.ipv6 ? 1 : 0, 'ip6'], [flags.map && depth === 0 ? 1 : 0, 'map'],
  ];
  const kind = rng.weighted(kinds.map(([w, k]) => [w, k]));
  let t;
  switch (kind) {
    case 'int': {
      const names = ['UInt8', 'UInt16', 'UInt32', 'UInt64', 'UInt128', 'Int8', 'Int16', 'Int32', 'Int64', 'Int128'];
      if (flags.int256) names.push('Int256', 'UInt256');
      const name = rng.pick(names);
      t = { sql: name, cls: 'int', value: r => randInt(r, name) };
      break;
    }
    case 'float': {
      const name = rng.pick(['Float32', 'Float64']);
      t = { sql: name, cls: 'float', value: r => r.pick(['0', '1.5', '-2.25', '0.1', '3', 'nan', 'inf', '-inf',
        '1e30', '-1e-10', '123456.789', String(r.int(-9, 9))]) };
      break;
    }
    case 'dec': {
      // Decimal256 (P 39..76) comes with the int256 flag, the 256-bit kinds together
      const p = rng.pick(flags.int256 ? [9, 18, 38, rng.int(1, 38), 76, rng.int(39, 76)] : [9, 18, 38, rng.int(1, 38)]),
        s = rng.int(0, Math.min(p, 6));
      t = { sql: `Decimal(${p}, ${s})`, cls: 'dec', value: r => {
        const intDigits = p - s;
        const ip = r.chance(0.1) && intDigits > 0 ? '9'.repeat(intDigits) : String(r.int(0, Math.min(99, 10 ** Math.min(intDigits, 2) - 1)));
        const fp = s ? '.' + (r.chance(0.1) ? '9'.repeat(s) : pad(r.int(0, 10 ** Math.min(s, 3) - 1), Math.min(s, 3))) : '';
        return (r.chance(0.3) ? '-' : '') + (intDigits > 0 ? ip : '0') + fp;
      } };
      break;
    }
    case 'str':
      t = { sql: 'String', cls: 'str', value: r => sq(r.pick(STRINGS)) };
      break;
    case 'fstr': {
      const n = rng.int(1, 6);
      t = { sql: `FixedString(${n})`, cls: 'str', value: r => sq(r.pick(STRINGS.filter(s => Buffer.byteLength(s) <= n))) };
      break;
    }
    case 'bool':
      t = { sql: 'Bool', cls: 'bool', value: r => r.pick(['true', 'false']) };
      break;
    case 'date': {
      const d32 = rng.chance(0.4);
      const edges = d32 ? ['1900-01-01', '2299-12-31', '1969-12-31'] : ['1970-01-01', '2149-06-06'];
      t = { sql: d32 ? 'Date32' : 'Date', cls: 'date', value: r => sq(r.chance(0.15) ? r.pick(edges)
        : r.chance(0.1) ? '2000-02-29' : randDate(r, d32 ? 1950 : 1990, 2030)) };
      break;
    }
    case 'dt':
    case 'dt64': {
      const tz = rng.pick(TIME_ZONES);
      const p = rng.int(0, 6);
      const is64 = kind === 'dt64';
      const edges = is64 ? ['1900-01-01 00:00:00', '2299-12-31 23:59:59'] : ['1970-01-02 00:00:00', '2106-02-06 00:00:00'];
      t = { sql: is64 ? `DateTime64(${p}, '${tz}')` : `DateTime('${tz}')`, cls: 'dt', value: r => {
        if (r.chance(0.1)) return sq(r.pick(edges));
        let v = `${randDate(r, 1990, 2030)} ${pad(r.int(0, 23), 2)}:${pad(r.int(0, 59), 2)}:${pad(r.int(0, 59), 2)}`;
        if (is64 && p > 0) v += '.' + pad(r.int(0, 10 ** p - 1), p);
        if (r.chance(0.1)) v = '2021-03-28 02:30:00';   /* a DST gap in several zones */
        return sq(v);
      } };
      break;
    }
    case 'enum': {
      const bits = rng.pick([8, 16]);
      const names = ['a', 'b', 'c', 'hello', ''].slice(0, rng.int(1, 5));
      const vals = names.map((n, i) => `'${n}' = ${[1, -1, 2, bits === 8 ? 127 : 1000, 0][i]}`);
      t = { sql: `Enum${bits}(${vals.join(', ')})`, cls: 'enum', value: r => sq(r.pick(names)) };
      break;
    }
    case 'uuid':
      t = { sql: 'UUID', cls: 'uuid', value: r => sq(r.chance(0.2) ? '00000000-0000-0000-0000-000000000000'
        : [8, 4, 4, 4, 12].map(n => Array.from({ length: n }, () => '0123456789abcdef'[r.int(0, 15)]).join('')).join('-')) };
      break;
    case 'ip4':
      t = { sql: 'IPv4', cls: 'ip4', value: r => sq(r.pick(['0.0.0.0', '255.255.255.255', '127.0.0.1', `10.${r.int(0, 255)}.0.${r.int(0, 255)}`])) };
      break;
    case 'ip6':
      t = { sql: 'IPv6', cls: 'ip6', value: r => sq(r.pick(['::', '::1', '2001:db8::ff00:42:8329', '::ffff:1.2.3.4'])) };
      break;
    case 'arr': {
      const e = makeType(rng, flags, depth + 1);
      t = { sql: `Array(${e.sql})`, cls: `arr:${e.cls}`, elem: e,
        value: r => `[${Array.from({ length: r.weighted([[2, 0], [3, 1], [3, 2], [2, 3]]) }, () => e.value(r)).join(', ')}]` };
      break;
    }
    case 'tup': {
      const es = [makeType(rng, flags, depth + 1), makeType(rng, flags, depth + 1)];
      t = { sql: `Tuple(${es.map(e => e.sql).join(', ')})`, cls: 'tup', elems: es,
        value: r => `(${es.map(e => e.value(r)).join(', ')})` };
      break;
    }
    case 'map': {
      const k = rng.pick(['String', 'Int32']), v = makeType(rng, flags, depth + 1);
      t = { sql: `Map(${k}, ${v.sql})`, cls: 'map', value: r => `map(${Array.from({ length: r.int(0, 2) },
        (_, i) => `${k === 'String' ? sq(r.pick(['a', 'b', ''])) : i}, ${v.value(r)}`).join(', ')})` };
      break;
    }
  }
  // Nullable and LowCardinality wrap scalars only, as ClickHouse allows.
  const scalar = !/^(arr|tup|map)/.test(t.cls);
  if (scalar && rng.chance(0.3)) {
    const inner = t;
    t = { sql: `Nullable(${inner.sql})`, cls: inner.cls, nullable: true, value: r => (r.chance(0.25) ? 'NULL' : inner.value(r)) };
  }
  if (scalar && depth === 0 && t.cls === 'str' && rng.chance(0.3)) {
    t = Object.assign({}, t, { sql: `LowCardinality(${t.sql})`, lc: true });
  }
  return t;
}

// A pool of columns per seed; each table takes the key `k` and a subset, so a column name
// has the same type in every table (joins, IN and UNION arms line up).
function makeTables(rng, flags) {
  const pool = [];
  const n = rng.int(5, 10);
  for (let i = 0; i < n; i++) {
    const type = makeType(rng, flags);
    pool.push({ name: `${type.cls.replace(':', '_')}${i}`, type });
  }
  const keyType = rng.chance(0.5) ? { sql: 'Int32', cls: 'int', value: r => String(r.int(0, 4)) }
    : { sql: 'Nullable(Int32)', cls: 'int', nullable: true, value: r => (r.chance(0.15) ? 'NULL' : String(r.int(0, 4))) };
  const tables = [];
  const ntables = rng.int(2, 3);
  for (let ti = 0; ti < ntables; ti++) {
    const cols = [{ name: 'k', type: keyType }, ...pool.filter(() => rng.chance(0.7))];
    const engine = flags.mergetree && rng.chance(0.5) ? 'MergeTree ORDER BY tuple()' : 'Memory';
    const rows = [];
    const nrows = rng.weighted([[1, 0], [2, 3], [6, rng.int(5, 25)]]);
    for (let r = 0; r < nrows; r++) {
      // Repeat an earlier row now and then so DISTINCT and GROUP BY see duplicates.
      if (rows.length && rng.chance(0.15)) rows.push(rng.pick(rows));
      else rows.push(`(${cols.map(c => c.type.value(rng)).join(', ')})`);
    }
    tables.push({ name: `t${ti}`, cols, engine, rows });
  }
  return { pool, tables };
}

function setupSql(tables) {
  let s = '';
  for (const t of tables) {
    s += `DROP TABLE IF EXISTS ${t.name};\n`;
    s += `CREATE TABLE ${t.name} (${t.cols.map(c => `${c.name} ${c.type.sql}`).join(', ')}) ENGINE = ${t.engine};\n`;
    if (t.rows.length) s += `INSERT INTO ${t.name} VALUES ${t.rows.join(', ')};\n`;
  }
  return s;
}

module.exports = { Rng, makeTables, setupSql, TIME_ZONES, STRINGS, sq };
