// The typed random query generator. An expression is a node {cls, tpl, args}: `tpl` is SQL
// text where $0..$9 stand for the rendered args, `cls` the expression class (see schema.js).
// Productions are chosen by the class wanted, so a call is only built with argument classes
// its function accepts. A query is a plain object (see genQuery) rendered by renderQuery;
// both are plain data, so minimize.js can clone and shrink them.
//
// Every feature is behind a flag (FEATURES); a production or clause whose flag is off is
// never generated.
'use strict';
const { STRINGS, TIME_ZONES, sq } = require('./schema');

const FEATURES = {
  // clauses
  where: 'WHERE', groupby: 'GROUP BY with aggregates', having: 'HAVING', rollup: 'GROUP BY ROLLUP',
  cube: 'GROUP BY CUBE', groupingsets: 'GROUP BY GROUPING SETS', grouping: 'grouping() after ROLLUP/CUBE/SETS',
  usenulls: 'group_by_use_nulls = 1 with ROLLUP/CUBE/SETS', totals: 'WITH TOTALS', orderby: 'ORDER BY (always total)', limit: 'LIMIT/OFFSET',
  limitby: 'LIMIT n BY', fill: 'ORDER BY … WITH FILL', distinct: 'SELECT DISTINCT',
  join: 'INNER/LEFT/RIGHT/FULL/CROSS joins', semijoin: 'SEMI/ANTI joins', anyjoin: 'ANY joins',
  asof: 'ASOF JOIN', using: 'JOIN … USING', subquery: 'subqueries in FROM, WITH and scalar',
  in: 'IN (list) and IN (subquery)', union: 'UNION ALL', uniondistinct: 'UNION DISTINCT',
  setops: 'INTERSECT / EXCEPT [ALL | DISTINCT] (with union)',
  window: 'window functions', nofrom: 'queries without FROM',
  // expression families
  arith: 'arithmetic', compare: 'comparisons and logic', string: 'string functions',
  date: 'date and time functions', array: 'array functions', lambda: 'array functions with lambdas',
  arrayjoin: 'arrayJoin() and [LEFT] ARRAY JOIN',
  tuple: 'tuples and tupleElement', cond: 'if/multiIf/ifNull/coalesce', hash: 'hash functions',
  conv: 'type conversions', math: 'math functions', typename: 'toTypeName', nulls: 'isNull/isNotNull',
  decimal: 'decimal arithmetic', agg: 'aggregate functions', aggif: '-If combinators',
  stats: 'stddevPop/varSamp/median/quantileExact',
  funcs: 'transform, formatReadable*, hasToken, bin, ascii, isZeroOrNull, arrayEnumerate*, arrayResize, UUID text, distances/norms, toJSONString',
  mapfuncs: 'Map functions (mapFromArrays, mapFilter, mapApply, mapSort, mapUpdate, …) over generated maps',
  urljson: 'URL functions (domain, path, extractURLParameter, …) and JSON functions (JSONExtract*, JSON_VALUE, …) over strings',
  // data
  mergetree: 'MergeTree tables', map: 'Map columns', ipv4: 'IPv4 columns', ipv6: 'IPv6 columns',
  int256: 'Int256/UInt256 columns',
};
// Off by default: types shale does not have yet.
const DEFAULT_OFF = ['map', 'int256'];

function parseFeatures(spec) {
  const flags = {};
  for (const f of Object.keys(FEATURES)) flags[f] = !DEFAULT_OFF.includes(f);
  if (!spec) return flags;
  for (const part of spec.split(',').map(s => s.trim()).filter(Boolean)) {
    if (part === 'all') { for (const f of Object.keys(FEATURES)) flags[f] = true; continue; }
    if (part === 'none') { for (const f of Object.keys(FEATURES)) flags[f] = false; continue; }
    const off = part.startsWith('-');
    const name = part.replace(/^[-+]/, '');
    if (!(name in FEATURES)) throw new Error(`unknown feature ${name}; known: ${Object.keys(FEATURES).join(', ')}`);
    flags[name] = !off;
  }
  return flags;
}

const N = (cls, tpl, ...args) => ({ cls, tpl, args });
function render(n) {
  return n.tpl.replace(/\$(\d)/g, (_, i) => render(n.args[Number(i)]));
}

const SCALARS = ['int', 'float', 'dec', 'str', 'bool', 'date', 'dt'];
const ORDERED = ['int', 'float', 'dec', 'str', 'date', 'dt', 'ip4', 'ip6'];

function literal(rng, cls) {
  switch (cls) {
    case 'int': return rng.weighted([[8, () => String(rng.int(-3, 10))],
      [1, () => rng.pick(['255', '-128', '65536', '2147483647', '-9223372036854775808', '18446744073709551615', '4294967296'])]])();
    case 'float': return rng.pick(['0.5', '-1.25', '1e10', 'nan', 'inf', '-inf', '0.1', '2.5', '1e-5', '3.']);
    case 'dec': return rng.pick(["toDecimal32('1.25', 2)", "toDecimal64('-3.5', 3)", "CAST('12.345' AS Decimal(10, 3))",
      "toDecimal128('0.001', 5)", "toDecimal32(7, 0)"]);
    case 'str': return sq(rng.pick(STRINGS));
    case 'bool': return rng.pick(['true', 'false', '1', '0']);
    case 'date': return rng.pick(["toDate('2020-02-29')", "toDate('1970-01-01')", "toDate32('1900-01-01')",
      "toDate('2149-06-06')", "toDate('2021-12-31')", "toDate32('2299-12-31')"]);
    case 'dt': {
      const tz = rng.pick(TIME_ZONES);
      return rng.pick([`toDateTime('2020-01-01 10:00:00', '${tz}')`, `toDateTime('2021-03-28 02:30:00', '${tz}')`,
        `toDateTime64('2021-10-31 01:30:00.123', 3, '${tz}')`, `toDateTime('1970-01-01 00:00:00', '${tz}')`]);
    }
    case 'enum': return "CAST('a' AS Enum8('a' = 1, 'b' = 2))";
    case 'uuid': return "toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')";
    case 'ip4': return "toIPv4('10.0.0.1')";
    case 'ip6': return "toIPv6('::1')";
    case 'map': return "map('a', 1)";
    case 'tup': return `tuple(${literal(rng, 'int')}, ${literal(rng, 'str')})`;
    default:
      if (cls.startsWith('arr:')) {
        const e = cls.slice(4);
        if (rng.chance(0.15)) return e === 'str' ? 'emptyArrayString()' : e === 'int' ? 'emptyArrayInt32()' : `[${literal(rng, e)}]`;
        return `[${Array.from({ length: rng.int(1, 3) }, () => literal(rng, e)).join(', ')}]`;
      }
      throw new Error(`no literal for ${cls}`);
  }
}

// Scope entries: {sql, cls, name?} — name is the pool column name (for IN and UNION arms).
function scopeOf(table, prefix) {
  const out = [];
  for (const c of table.cols) {
    const sql = prefix ? `${prefix}.${c.name}` : c.name;
    out.push({ sql, cls: c.type.cls, name: c.name, type: c.type });
  }
  return out;
}

class Gen {
  constructor(rng, flags, tables) {
    this.rng = rng; this.f = flags; this.tables = tables;
    this.maxDepth = 3;
    this.lambdaDepth = 0;
  }

  classesIn(scope) { return [...new Set(scope.map(c => c.cls))]; }

  // A class to generate: mostly one the scope has columns of.
  anyClass(ctx) {
    const have = this.classesIn(ctx.scope);
    if (have.length && this.rng.chance(0.7)) return this.rng.pick(have);
    return this.rng.pick([...SCALARS, 'arr:int', 'arr:str', ...(this.f.tuple ? ['tup'] : [])]);
  }

  leaf(ctx, cls) {
    const rng = this.rng;
    if (ctx.agg && rng.chance(0.7)) {
      const a = this.aggregate(ctx, cls);
      if (a) return a;
    }
    let cols = ctx.scope.filter(c => c.cls === cls);
    if (ctx.agg) cols = ctx.keys.filter(k => k.cls === cls);
    if (cols.length && rng.chance(0.85)) {
      const c = rng.pick(cols);
      return c.tpl !== undefined ? c : N(cls, c.sql);
    }
    if (!ctx.agg && this.f.tuple && rng.chance(0.2)) {
      const tups = ctx.scope.filter(c => c.type && c.type.elems && c.type.elems.some(e => e.cls === cls));
      if (tups.length) {
        const t = rng.pick(tups);
        const i = t.type.elems.findIndex(e => e.cls === cls);
        return N(cls, `${t.sql}.${i + 1}`);
      }
    }
    if (!ctx.agg && this.f.array && rng.chance(0.2)) {
      const arrs = ctx.scope.filter(c => c.cls === `arr:${cls}`);
      if (arrs.length) return N(cls, `$0[${rng.int(-2, 3)}]`, N(`arr:${cls}`, rng.pick(arrs).sql));
    }
    if (this.f.subquery && !ctx.agg && rng.chance(0.05)) {
      const t = rng.pick(this.tables);
      const cs = t.cols.filter(c => c.type.cls === cls && ORDERED.includes(cls));
      if (cs.length) return N(cls, `(SELECT ${rng.pick(['min', 'max'])}(${rng.pick(cs).name}) FROM ${t.name})`);
    }
    return N(cls, literal(rng, cls));
  }

  aggregate(ctx, cls) {
    const rng = this.rng, f = this.f;
    const inner = Object.assign({}, ctx, { agg: false });
    const arg = c => this.expr(inner, c, 2);
    const opts = [];
    if (cls === 'int') {
      opts.push(() => N('int', 'count()'), () => N('int', 'count($0)', arg(this.anyClass(inner))),
        () => N('int', 'sum($0)', arg('int')), () => N('int', 'uniqExact($0)', arg(this.anyClass(inner))),
        () => N('int', rng.pick(['uniq($0)', 'uniqCombined($0)', 'uniqCombined64($0)', 'uniqCombined(12)($0)', 'uniqHLL12($0)']), arg(rng.pick(SCALARS))));
      if (f.aggif) opts.push(() => N('int', 'countIf($0)', arg('bool')), () => N('int', 'sumIf($0, $1)', arg('int'), arg('bool')));
      if (f.funcs) opts.push(() => N('int', rng.pick(['groupBitAnd($0)', 'groupBitOr($0)', 'groupBitXor($0)', 'sumWithOverflow($0)']), arg('int')));
    }
    if (cls === 'float') opts.push(() => N('float', 'avg($0)', arg(rng.pick(['int', 'float']))),
      () => N('float', 'sum($0)', arg('float')));
    if (cls === 'float' && f.stats) opts.push(() => N('float', rng.pick(['stddevPop($0)', 'varSamp($0)', 'median($0)']), arg(rng.pick(['int', 'float']))));
    if (cls === 'dec' && f.decimal) opts.push(() => N('dec', 'sum($0)', arg('dec')), () => N('dec', 'avg($0)', arg('dec')));
    if (ORDERED.includes(cls)) opts.push(() => N(cls, rng.pick(['min($0)', 'max($0)']), arg(cls)));
    if ((cls === 'int' || cls === 'float') && f.stats) opts.push(() => N(cls, 'quantileExact(0.5)($0)', arg(cls)));
    if (cls === 'float' && f.stats) opts.push(() => N('float', rng.pick(['quantileTDigest(0.5)($0)', 'medianTDigest($0)']), arg(rng.pick(['int', 'float']))));
    if (cls.startsWith('arr:') && f.array && SCALARS.includes(cls.slice(4)))
      opts.push(() => N(cls, rng.pick(['arraySort(groupArray($0))', 'arraySort(groupUniqArray($0))']), arg(cls.slice(4))));
    if (!opts.length || !f.agg) return null;
    return rng.pick(opts)();
  }

  // Productions per class: [weight, flag, () => node].
  productions(ctx, cls, d) {
    const rng = this.rng;
    const e = c => this.expr(ctx, c, d + 1);
    const small = () => N('int', String(rng.int(0, 4)));
    const P = [];
    const add = (w, flag, fn) => { if (!flag || this.f[flag]) P.push([w, fn]); };
    const tz = () => sq(rng.pick(TIME_ZONES));
    switch (cls) {
      case 'int':
        add(3, 'arith', () => N('int', rng.pick(['($0 + $1)', '($0 - $1)', '($0 * $1)', 'intDiv($0, $1)', '($0 % $1)',
          'greatest($0, $1)', 'least($0, $1)', 'bitAnd($0, $1)', 'bitXor($0, $1)', 'gcd($0, $1)']), e('int'), e('int')));
        add(2, 'arith', () => N('int', rng.pick(['abs($0)', 'negate($0)', 'sign($0)', 'bitCount($0)']), e('int')));
        add(1, 'math', () => N('int', 'factorial($0 % 21)', e('int')));
        add(1, 'funcs', () => N('int', rng.pick(['bitRotateLeft($0, $1)', 'bitRotateRight($0, $1)', 'bitHammingDistance($0, $1)']), e('int'), e('int')));
        add(1, 'funcs', () => N('int', rng.pick(['byteSwap($0)', 'bitTestAll($0, 0, 2)', 'bitTestAny($0, 1, 3)', 'length(bitPositionsToArray($0))',
          'arraySum(bitmaskToArray($0))', 'length(bitmaskToList($0))']), e('int')));
        add(2, 'string', () => N('int', rng.pick(['length($0)', 'lengthUTF8($0)', 'position($0, $1)', 'countSubstrings($0, $1)']), e('str'), N('str', sq(rng.pick(['a', 'l', ',', ''])))));
        add(2, 'date', () => N('int', rng.pick(['toYear($0)', 'toMonth($0)', 'toDayOfMonth($0)', 'toDayOfWeek($0)', 'toYYYYMM($0)',
          'toDayOfYear($0)', 'toISOWeek($0)', 'toQuarter($0)', 'toYYYYMMDD($0)', 'toRelativeDayNum($0)',
          'toRelativeYearNum($0)', 'toRelativeQuarterNum($0)', 'toRelativeMonthNum($0)', 'toRelativeWeekNum($0)',
          'toRelativeHourNum($0)', 'toRelativeMinuteNum($0)', 'toRelativeSecondNum($0)']), e(rng.pick(['date', 'dt']))));
        add(1, 'date', () => N('int', rng.pick(['toHour($0)', 'toMinute($0)', 'toSecond($0)', 'toUnixTimestamp($0)']), e('dt')));
        add(1, 'date', () => N('int', rng.pick(['toUnixTimestamp64Milli(toDateTime64($0, 3))', 'toUnixTimestamp64Nano(toDateTime64($0, 2))',
          'toUnixTimestamp64Second(toDateTime64($0, 1))']), e('dt')));
        add(1, 'date', () => N('int', rng.pick(["toUnixTimestamp64Micro(fromUnixTimestamp64Milli($0, 'UTC'))", 'toUnixTimestamp64Second(fromUnixTimestamp64Nano($0))']), e('int')));
        add(1, 'date', () => { const c = rng.pick(['date', 'dt']); return N('int', `dateDiff('${rng.pick(['day', 'month', 'hour', 'year', 'week'])}', $0, $1)`, e(c), e(c)); });
        add(1, 'conv', () => N('int', rng.pick(['toInt8($0)', 'toUInt16($0)', 'toInt32($0)', 'toUInt64($0)', 'toInt128($0)', 'CAST($0 AS Int16)']), e('int')));
        add(1, 'conv', () => N('int', rng.pick(['toInt64OrZero($0)', 'toUInt32OrNull($0)', 'toInt32OrNull($0)']), e('str')));
        add(1, 'conv', () => N('int', 'toUInt8($0)', e('bool')));
        add(1, 'hash', () => N('int', rng.pick(['cityHash64($0)', 'sipHash64($0)', 'xxHash64($0)', 'murmurHash3_32($0)', 'intHash64($0)']), e(rng.pick(['int', 'str']))));
        add(2, 'array', () => N('int', rng.pick(['length($0)', 'arrayUniq($0)']), e(rng.pick(['arr:int', 'arr:str']))));
        add(1, 'array', () => N('int', rng.pick(['arraySum($0)', 'arrayMin($0)', 'arrayMax($0)']), e('arr:int')));
        add(1, 'array', () => { const c = rng.pick(['int', 'str']); return N('int', rng.pick(['indexOf($0, $1)', 'countEqual($0, $1)']), e(`arr:${c}`), e(c)); });
        add(1, 'lambda', () => this.lambda(ctx, d, 'int'));
        add(1, 'arrayjoin', () => (this.lambdaDepth === 0 && !ctx.agg ? N('int', 'arrayJoin($0)', e('arr:int')) : null));
        add(1, 'cond', () => N('int', 'if($0, $1, $2)', e('bool'), e('int'), e('int')));
        add(1, 'cond', () => N('int', rng.pick(['ifNull($0, $1)', 'coalesce($0, $1)']), e('int'), e('int')));
        add(1, 'window', () => (ctx.windowOk ? this.window(ctx, 'int') : null));
        add(1, 'funcs', () => N('int', `transform($0, [0, 1, 2, -1], [10, 20, 30, 40], ${rng.int(-2, 2)})`, e('int')));
        add(1, 'funcs', () => N('int', `transform($0, ['a', 'b', ''], [1, 2, 3], 0)`, e('str')));
        add(1, 'funcs', () => N('int', rng.pick(['isZeroOrNull($0)', 'isNullable($0)']), e(rng.pick(['int', 'float']))));
        add(1, 'funcs', () => N('int', 'ascii($0)', e('str')));
        add(1, 'funcs', () => N('int', rng.pick(['editDistance($0, $1)', 'editDistanceUTF8($0, $1)', 'damerauLevenshteinDistance($0, $1)',
          'isValidUTF8(concat($0, $1))', 'isASCII(concat($0, $1))']), e('str'), e('str')));
        add(1, 'funcs', () => N('int', rng.pick(['reinterpretAsUInt16($0)', 'reinterpretAsInt32($0)', 'reinterpretAsUInt8($0)', "reinterpret($0, 'Int64')"]),
          e(rng.pick(['int', 'str', 'float']))));
        add(1, 'mapfuncs', () => N('int', rng.pick(['length(mapFilter((k, v) -> v > 0, $0))', 'mapExists((k, v) -> v = 1, $0)',
          'mapAll((k, v) -> v != 0, $0)', 'length(mapKeys(mapConcat($0, $0)))', "mapContainsKeyLike($0, 'a%')"]), e('map')));
        break;
      case 'float':
        add(1, 'funcs', () => N('float', rng.pick(['max2($0, $1)', 'min2($0, $1)']), e(rng.pick(['int', 'float'])), e(rng.pick(['int', 'float']))));
        add(1, 'funcs', () => N('float', rng.pick(['L1Distance($0, arrayReverse($0))', 'L2Distance($0, arrayMap(x -> x * 2, $0))',
          'L2SquaredDistance($0, $0)', 'LinfDistance(arrayReverse($0), $0)', 'LpDistance($0, arrayMap(x -> x + 1, $0), 3)',
          'cosineDistance($0, arrayMap(x -> x + 1, $0))', 'L1Norm($0)', 'L2Norm($0)', 'L2SquaredNorm($0)', 'LinfNorm($0)',
          'LpNorm($0, 2.5)', 'dotProduct($0, arrayReverse($0))']), e('arr:int')));
        add(2, 'arith', () => N('float', '($0 / $1)', e(rng.pick(['int', 'float'])), e(rng.pick(['int', 'float']))));
        add(2, 'arith', () => N('float', rng.pick(['($0 + $1)', '($0 * $1)', '($0 - $1)']), e('float'), e(rng.pick(['int', 'float']))));
        add(2, 'math', () => N('float', rng.pick(['sqrt($0)', 'exp($0)', 'log($0)', 'sin($0)', 'floor($0)', 'ceil($0)', 'round($0, 2)',
          'round($0)', 'trunc($0)', 'abs($0)', 'cbrt($0)', 'exp2($0)', 'log10($0)', 'roundBankers($0, 1)']), e(rng.pick(['float', 'int']))));
        add(1, 'math', () => N('float', 'pow($0, $1)', e('float'), small()));
        add(1, 'math', () => N('float', rng.pick(['degrees($0)', 'radians($0)', 'sigmoid($0)']), e(rng.pick(['float', 'int']))));
        add(1, 'math', () => N('float', 'hypot($0, $1)', e(rng.pick(['float', 'int'])), e(rng.pick(['float', 'int']))));
        add(1, 'conv', () => N('float', rng.pick(['toFloat64($0)', 'toFloat32($0)']), e(rng.pick(['int', 'float', 'dec']))));
        add(1, 'conv', () => N('float', 'toFloat64OrNull($0)', e('str')));
        add(1, 'lambda', () => this.lambda(ctx, d, 'float'));
        add(1, 'cond', () => N('float', 'if($0, $1, $2)', e('bool'), e('float'), e('float')));
        break;
      case 'dec':
        add(2, 'decimal', () => N('dec', rng.pick(['($0 + $1)', '($0 - $1)']), e('dec'), e('dec')));
        add(2, 'decimal', () => N('dec', '($0 * $1)', e('dec'), e('int')));
        add(1, 'decimal', () => N('dec', rng.pick(['negate($0)', 'abs($0)', 'round($0, 1)']), e('dec')));
        add(1, 'conv', () => N('dec', rng.pick(['toDecimal32($0, 2)', 'toDecimal64($0, 4)', 'toDecimal128($0, 6)']), e('int')));
        add(1, 'cond', () => N('dec', 'if($0, $1, $2)', e('bool'), e('dec'), e('dec')));
        break;
      case 'str':
        add(2, 'string', () => N('str', rng.pick(['concat($0, $1)', '($0 || $1)']), e('str'), e('str')));
        add(3, 'string', () => N('str', rng.pick(['lower($0)', 'upper($0)', 'reverse($0)', 'trimBoth($0)', 'upperUTF8($0)',
          'hex($0)', 'base64Encode($0)', 'repeat($0, 2)', "leftPad($0, 6, '*')", "rightPad($0, 4, '.')",
          "replaceAll($0, 'a', 'XY')", "replaceRegexpAll($0, '[a-c]', '_')"]), e('str')));
        add(2, 'string', () => N('str', `${rng.pick(['substring', 'substringUTF8'])}($0, ${rng.int(-3, 4)}, ${rng.int(0, 5)})`, e('str')));
        add(1, 'string', () => N('str', `${rng.pick(['left', 'right'])}($0, ${rng.int(0, 3)})`, e('str')));
        add(2, 'conv', () => N('str', 'toString($0)', e(this.anyClass(ctx))));
        add(1, 'date', () => N('str', `formatDateTime($0, '${rng.pick(['%Y-%m-%d', '%H:%M:%S', '%F %T', '%j %u %V', '%D %p'])}')`, e('dt')));
        add(1, 'array', () => N('str', "arrayStringConcat($0, ',')", e('arr:str')));
        add(1, 'lambda', () => this.lambda(ctx, d, 'str'));
        add(2, 'urljson', () => N('str', rng.pick(['domain($0)', 'domainWithoutWWW($0)', 'protocol($0)', 'path($0)',
          'pathFull($0)', 'queryString($0)', 'fragment($0)', 'netloc($0)', 'topLevelDomain($0)', 'cutWWW($0)',
          'firstSignificantSubdomain($0)', 'cutQueryStringAndFragment($0)', "extractURLParameter($0, 'a')",
          "cutURLParameter($0, 'a')", 'encodeURLComponent($0)', 'decodeURLComponent($0)', 'decodeURLFormComponent($0)',
          "domain(concat('http://', $0, '.com/p?a=', $0))", "extractURLParameter(concat('?a=', $0, '&b=1'), 'a')"]), e('str')));
        add(2, 'urljson', () => N('str', rng.pick(["JSONExtractString($0, 'a')", 'JSONExtractRaw($0)', "JSON_VALUE($0, '$.a')",
          "JSON_QUERY($0, '$[*]')", "JSONExtractString(concat('{\"a\":\"', $0, '\"}'), 'a')",
          "JSONExtractRaw(concat('[', $0, ']'), 1)", "toString(JSONExtractKeys(concat('{\"', $0, '\":1}')))"]), e('str')));
        add(1, 'arrayjoin', () => (this.lambdaDepth === 0 && !ctx.agg ? N('str', 'arrayJoin($0)', e('arr:str')) : null));
        add(1, 'typename', () => N('str', 'toTypeName($0)', e(this.anyClass(ctx))));
        add(1, 'hash', () => N('str', 'hex($0)', e('int')));
        add(1, 'cond', () => N('str', 'if($0, $1, $2)', e('bool'), e('str'), e('str')));
        add(1, 'cond', () => N('str', 'multiIf($0, $1, $2, $3, $4)', e('bool'), e('str'), e('bool'), e('str'), e('str')));
        add(1, 'funcs', () => N('str', rng.pick(['formatReadableSize($0)', 'formatReadableQuantity($0)', 'formatReadableDecimalSize($0)']),
          e(rng.pick(['int', 'float', 'dec']))));
        add(1, 'funcs', () => N('str', `transform($0, ['a', 'b', ''], ['x', 'yy', 'empty'], 'other')`, e('str')));
        add(1, 'funcs', () => N('str', `transform($0, ['a', 'b'], ['x', 'yy'])`, e('str')));
        add(1, 'funcs', () => N('str', rng.pick(["substringIndex($0, ',', 1)", "substringIndex($0, 'a', -2)", "substringIndexUTF8($0, 'é', 1)",
          "translate($0, 'abc', 'xy')", "translateUTF8($0, 'aé', 'Eb')", 'initcap($0)', 'reverseUTF8($0)', 'toValidUTF8($0)', 'firstLine($0)',
          "appendTrailingCharIfAbsent($0, 'a')", "toString(splitByWhitespace($0))", "toString(splitByNonAlpha($0, 2))", "toString(alphaTokens($0))"]), e('str')));
        add(1, 'funcs', () => N('str', 'concat(space($0 % 5), $1)', e('int'), e('str')));
        add(1, 'funcs', () => N('str', 'toJSONString($0)', e(rng.pick(['int', 'str', 'float', 'bool', 'arr:int', 'arr:str']))));
        add(1, 'funcs', () => N('str', 'bin($0)', e(rng.pick(['int', 'str', 'float']))));
        add(1, 'funcs', () => N('str', 'toString(toUUIDOrZero($0))', e('str')));
        add(1, 'mapfuncs', () => N('str', rng.pick(['toString(mapSort($0))', 'toString(mapReverseSort($0))',
          'toString(mapApply((k, v) -> (k, v * 2), $0))', 'toString(mapUpdate($0, mapFilter((k, v) -> v > 0, $0)))',
          "toString(mapExtractKeyLike($0, '%b%'))", 'toString(mapFromArrays(mapValues($0), mapKeys($0)))',
          'toString(mapSort((k, v) -> v, $0))']), e('map')));
        break;
      case 'bool': {
        const c = rng.pick([...ORDERED, ...this.classesIn(ctx.scope).filter(x => ['enum', 'uuid', 'bool'].includes(x))]);
        add(4, 'compare', () => N('bool', `($0 ${rng.pick(['=', '!=', '<', '<=', '>', '>='])} $1)`, e(c), e(c)));
        add(2, 'compare', () => N('bool', rng.pick(['($0 AND $1)', '($0 OR $1)', 'xor($0, $1)']), e('bool'), e('bool')));
        add(1, 'compare', () => N('bool', 'NOT $0', e('bool')));
        add(1, 'compare', () => N('bool', '($0 BETWEEN $1 AND $2)', e('int'), e('int'), e('int')));
        add(1, 'nulls', () => N('bool', rng.pick(['isNull($0)', 'isNotNull($0)', '($0 IS NULL)']), e(this.anyClass(ctx))));
        add(2, 'string', () => N('bool', `($0 ${rng.pick(['LIKE', 'NOT LIKE', 'ILIKE'])} '${rng.pick(['%a%', 'a_c', '', '%', 'H%', '%\\_%'])}')`, e('str')));
        add(1, 'string', () => N('bool', `${rng.pick(['startsWith', 'endsWith'])}($0, '${rng.pick(['a', 'H', ''])}')`, e('str')));
        add(1, 'string', () => N('bool', rng.pick(['empty($0)', 'notEmpty($0)']), e('str')));
        add(1, 'string', () => N('bool', `match($0, '${rng.pick(['^a', 'b+', '[0-9]', ''])}')`, e('str')));
        add(1, 'math', () => N('bool', rng.pick(['isNaN($0)', 'isFinite($0)', 'isInfinite($0)']), e('float')));
        add(1, 'array', () => { const x = rng.pick(['int', 'str']); return N('bool', 'has($0, $1)', e(`arr:${x}`), e(x)); });
        add(1, 'funcs', () => { const x = rng.pick(['int', 'str']); return N('bool', `${rng.pick(['hasAll', 'hasAny', 'hasSubstr'])}($0, $1)`, e(`arr:${x}`), e(`arr:${x}`)); });
        add(1, 'array', () => N('bool', rng.pick(['empty($0)', 'notEmpty($0)']), e(rng.pick(['arr:int', 'arr:str']))));
        add(1, 'lambda', () => this.lambda(ctx, d, 'bool'));
        add(2, 'in', () => this.inExpr(ctx, d));
        add(1, 'funcs', () => N('bool', `${rng.pick(['hasToken', 'hasTokenCaseInsensitive'])}($0, '${rng.pick(['a', 'abc', 'Hello', 'x1'])}')`, e('str')));
        break;
      }
      case 'date':
        add(2, 'date', () => N('date', rng.pick(['toDate($0)', 'toStartOfMonth($0)', 'toMonday($0)', 'toStartOfYear($0)',
          'toLastDayOfMonth($0)', 'toStartOfQuarter($0)']), e(rng.pick(['date', 'dt']))));
        add(2, 'date', () => N('date', `${rng.pick(['addDays', 'subtractMonths', 'addYears', 'addWeeks'])}($0, $1)`, e('date'), small()));
        add(1, 'date', () => N('date', 'toDate32($0)', e('date')));
        add(1, 'date', () => N('date', rng.pick(['makeDate(toYear($0), toMonth($0), toDayOfMonth($0) + $1)', 'makeDate(toYear($0), toDayOfYear($0) + $1)',
          'makeDate32(toYear($0) - $1 * 30, toMonth($0) + $1, 31)']), e('date'), small()));
        add(1, 'cond', () => N('date', 'if($0, $1, $2)', e('bool'), e('date'), e('date')));
        break;
      case 'dt':
        add(1, 'date', () => N('dt', `toDateTime($0, ${tz()})`, e('date')));
        add(2, 'date', () => N('dt', `${rng.pick(['addHours', 'addMinutes', 'subtractSeconds', 'addDays', 'addMonths'])}($0, $1)`, e('dt'), small()));
        add(2, 'date', () => N('dt', rng.pick(['toStartOfHour($0)', 'toStartOfDay($0)', 'toStartOfFifteenMinutes($0)', 'toStartOfMinute($0)']), e('dt')));
        add(1, 'date', () => N('dt', `toTimeZone($0, ${tz()})`, e('dt')));
        add(1, 'date', () => N('dt', `toDateTime64($0, ${rng.int(0, 6)})`, e('dt')));
        add(1, 'date', () => N('dt', `toStartOfInterval($0, INTERVAL ${rng.int(1, 20)} ${rng.pick(['minute', 'hour', 'day'])})`, e('dt')));
        add(1, 'cond', () => N('dt', 'if($0, $1, $2)', e('bool'), e('dt'), e('dt')));
        break;
      case 'tup':
        add(1, 'tuple', () => N('tup', 'tuple($0, $1)', e(this.anyClass(ctx)), e(this.anyClass(ctx))));
        break;
      default:
        if (cls.startsWith('arr:')) {
          const x = cls.slice(4);
          add(2, 'array', () => N(cls, `[$0, $1]`, e(x), e(x)));
          add(3, 'array', () => N(cls, rng.pick(['arraySort($0)', 'arrayReverse($0)', 'arrayDistinct($0)', 'arrayReverseSort($0)',
            `arraySlice($0, ${rng.int(-2, 2)}, ${rng.int(0, 3)})`]), e(cls)));
          add(1, 'array', () => N(cls, 'arrayConcat($0, $1)', e(cls), e(cls)));
          add(1, 'array', () => N(cls, rng.pick(['arrayPushBack($0, $1)', 'arrayPushFront($0, $1)']), e(cls), e(x)));
          add(1, 'funcs', () => N(cls, `arrayResize($0, ${rng.int(-3, 3)}, $1)`, e(cls), e(x)));
          add(1, 'funcs', () => N(cls, rng.pick(['arrayPopFront($0)', 'arrayPopBack($0)', 'arrayCompact($0)', 'emptyArrayToSingle($0)',
            `arrayRotateLeft($0, ${rng.int(-4, 4)})`, `arrayShiftRight($0, ${rng.int(-4, 4)})`]), e(cls)));
          if (x === 'int') {
            add(1, 'funcs', () => N(cls, rng.pick(['arrayEnumerateUniq($0)', 'arrayEnumerateDense($0)']), e(rng.pick(['arr:int', 'arr:str']))));
            add(1, 'array', () => N(cls, 'range($0)', small()));
            add(1, 'lambda', () => N(cls, 'arrayCumSum($0)', e(cls)));
          }
          if (x === 'str') {
            add(2, 'string', () => N(cls, "splitByChar(',', $0)", e('str')));
            add(1, 'string', () => N(cls, "extractAll($0, '[a-z]+')", e('str')));
          }
          add(2, 'lambda', () => this.lambda(ctx, d, cls));
        }
    }
    return P;
  }

  // Higher-order array functions; the lambda body sees the element as `xN`.
  lambda(ctx, d, cls) {
    const rng = this.rng;
    if (this.lambdaDepth > 1) return null;
    const elem = rng.pick(['int', 'str', ...(this.classesIn(ctx.scope).filter(c => c.startsWith('arr:') && SCALARS.includes(c.slice(4))).map(c => c.slice(4)))]);
    const v = `x${this.lambdaDepth}`;
    const vars = [0, 1, 2].map(() => ({ sql: v, cls: elem }));
    const inner = Object.assign({}, ctx, { scope: [...ctx.scope, ...vars], keys: [...ctx.keys, ...vars.map(x => N(elem, v))] });
    this.lambdaDepth++;
    try {
      const arr = this.expr(ctx, `arr:${elem}`, d + 1);
      const body = c => this.expr(inner, c, d + 1);
      // two arrays zipped: (x, y) -> …; arrays of different sizes fail in both engines
      const two = rng.chance(0.2);
      const v2 = `y${this.lambdaDepth - 1}`;
      const inner2 = two ? Object.assign({}, inner, { scope: [...inner.scope, { sql: v2, cls: 'int' }] }) : inner;
      const body2 = c => this.expr(inner2, c, d + 1);
      const params = two ? `(${v}, ${v2})` : v;
      const arrs = two ? [arr, rng.chance(0.5) ? N('arr:int', `range(length($0))`, arr) : this.expr(ctx, 'arr:int', d + 1)] : [arr];
      const call = (fn, body) => N(cls, `${fn}(${params} -> $0, ${arrs.map((_, i) => `$${i + 1}`).join(', ')})`, body, ...arrs);
      if (cls === 'bool') return N('bool', '$0', call(rng.pick(['arrayExists', 'arrayAll']), body2('bool')));
      if (cls === 'int') {
        return rng.pick([
          () => call(rng.pick(['arrayCount', 'arrayFirstIndex', 'arrayLastIndex']), body2('bool')),
          () => call(rng.pick(['arraySum', 'arrayMin', 'arrayMax']), body2('int')),
          () => (elem === 'int' ? N('int', `arrayFold((acc, ${v}) -> acc + toInt64($0), $1, toInt64(${rng.int(-3, 3)}))`, body('int'), arr) : null),
          () => (elem === 'int' ? call(rng.pick(['arrayFirst', 'arrayLast']), body2('bool')) : null),
        ])();
      }
      if (cls === 'float') return call('arrayAvg', body2(rng.pick(['int', 'float'])));
      if (cls === 'str' && elem === 'str') return call(rng.pick(['arrayFirst', 'arrayLast']), body2('bool'));
      if (!cls.startsWith('arr:')) return null;
      const x = cls.slice(4);
      if (x === elem && rng.chance(0.5)) {
        const fn = rng.pick(['arrayFilter', 'arraySort', 'arrayReverseSort', 'arrayFill', 'arrayReverseFill']);
        return call(fn, body2(/Sort/.test(fn) ? rng.pick(['int', 'str', 'float']) : 'bool'));
      }
      if (x === 'int' && rng.chance(0.3)) return call(rng.pick(['arrayCumSum', 'arrayDifference', 'arrayCumSumNonNegative']), body2('int'));
      if (!SCALARS.includes(x)) return null;
      return call('arrayMap', body2(x));
    } finally { this.lambdaDepth--; }
  }

  inExpr(ctx, d) {
    const rng = this.rng;
    const cols = ctx.scope.filter(c => c.name && ORDERED.includes(c.cls));
    if (cols.length && this.f.subquery && rng.chance(0.5)) {
      const c = rng.pick(cols);
      const ts = this.tables.filter(t => t.cols.some(x => x.name === c.name));
      const t = rng.pick(ts);
      return N('bool', `($0 ${rng.pick(['IN', 'NOT IN'])} (SELECT ${c.name} FROM ${t.name}))`, N(c.cls, c.sql));
    }
    const cls = rng.pick(ORDERED);
    const x = this.expr(ctx, cls, d + 1);
    const items = Array.from({ length: rng.int(1, 3) }, () => N(cls, literal(rng, cls)));
    return N('bool', `($0 ${rng.pick(['IN', 'NOT IN'])} (${items.map((_, i) => `$${i + 1}`).join(', ')}))`, x, ...items);
  }

  // A window function of class cls (or null). Functions whose value depends on how peers
  // (rows equal in the window's ORDER BY) are ordered — row_number, ntile, lag/lead, nth_value,
  // any, ROWS frames — get an ORDER BY over every column in scope (over every GROUP BY key
  // after aggregation), a total order up to identical rows, so that the engines' different
  // tie orders cannot change the multiset of output rows. Sums are over integers only.
  window(ctx, cls) {
    const rng = this.rng;
    const inner = Object.assign({}, ctx, { windowOk: false });
    const sqlOf = c => (c.tpl !== undefined ? render(c) : c.sql);
    const cols = ctx.agg ? ctx.keys.map(k => ({ sql: render(k), cls: k.cls })) : ctx.scope;
    const ordered = cols.filter(c => ORDERED.includes(c.cls) || c.cls === 'bool');
    if (!ordered.length) return null;
    const canTotal = ordered.length === cols.length;
    const arg = c => this.expr(inner, c, 2);
    const need = []; // [weight, needs a total order, () => [template, args]]
    const add = (w, total, fn) => { if (!total || canTotal) need.push([w, total, fn]); };
    if (cls === 'int') {
      add(2, false, () => [rng.pick(['rank()', 'dense_rank()', 'count()'])]);
      add(2, false, () => ['count($0)', arg(this.anyClass(inner))]);
      add(2, false, () => [rng.pick(['sum($0)', 'max($0)', 'min($0)']), arg('int')]);
      add(2, true, () => ['row_number()']);
      add(1, true, () => [`ntile(${rng.int(1, 4)})`]);
      add(1, true, () => ['any($0)', arg('int')]);
    }
    if (cls === 'float') {
      add(2, false, () => [rng.pick(['percent_rank()', 'cume_dist()'])]);
      add(1, false, () => ['avg($0)', arg('int')]);
    }
    if (ORDERED.includes(cls) && cls !== 'float') add(1, false, () => [rng.pick(['min($0)', 'max($0)']), arg(cls)]);
    if (ORDERED.includes(cls) || cls === 'bool') {
      add(2, true, () => {
        const fn = rng.pick(['lag', 'lead', 'lagInFrame', 'leadInFrame']);
        const x = arg(cls);
        if (rng.chance(0.4)) return [`${fn}($0)`, x];
        if (rng.chance(0.5)) return [`${fn}($0, ${rng.int(0, 3)})`, x];
        return [`${fn}($0, ${rng.int(1, 2)}, $1)`, x, N(cls, literal(rng, cls))];
      });
      add(1, true, () => [rng.pick(['first_value($0)', 'last_value($0)', `nth_value($0, ${rng.int(1, 3)})`]), arg(cls)]);
    }
    if (!need.length) return null;
    const [, total, make] = rng.weighted(need.map(n => [n[0], n]));
    const [tpl, ...args] = make();
    // PARTITION BY and ORDER BY
    const part = rng.chance(0.5) ? [rng.pick(ordered)] : [];
    let order;
    if (total) order = rng.chance(0.5) ? [...ordered] : [...ordered].reverse();
    else order = rng.chance(0.85) ? [rng.pick(ordered)] : [];
    const dirs = order.map(() => rng.pick(['', ' DESC', ' ASC NULLS FIRST', ' DESC NULLS LAST']));
    if (/^ntile/.test(tpl) && !order.length) order = [ordered[0]];
    let spec = '';
    if (part.length) spec += `PARTITION BY ${part.map(sqlOf).join(', ')}`;
    if (order.length) spec += `${spec ? ' ' : ''}ORDER BY ${order.map((c, i) => sqlOf(c) + (dirs[i] || '')).join(', ')}`;
    // a frame, for aggregates and the *InFrame / value functions
    const framed = /^(count|sum|max|min|avg|any|lagInFrame|leadInFrame|first_value|last_value|nth_value)\(/.test(tpl);
    if (framed && rng.chance(0.5)) {
      const start = rng.weighted([[3, 'UNBOUNDED PRECEDING'], [3, `${rng.int(0, 3)} PRECEDING`], [2, 'CURRENT ROW'], [1, `${rng.int(0, 2)} FOLLOWING`]]);
      const end = rng.weighted([[3, 'CURRENT ROW'], [3, `${rng.int(0, 3)} FOLLOWING`], [2, 'UNBOUNDED FOLLOWING'], [1, `${rng.int(0, 2)} PRECEDING`]]);
      const rangeOk = order.length === 1 && order[0].cls === 'int';
      const kind = (total && rng.chance(0.6)) || !rangeOk ? (total ? 'ROWS' : 'RANGE') : 'RANGE';
      if (kind === 'ROWS' || rangeOk || (/^(UNBOUNDED|CURRENT)/.test(start) && /^(UNBOUNDED|CURRENT)/.test(end)))
        spec += `${spec ? ' ' : ''}${kind} BETWEEN ${start} AND ${end}`;
    }
    const over = `(${spec})`;
    let ref = over;
    if (ctx.q && rng.chance(0.25)) {
      ctx.q.windows = ctx.q.windows || [];
      const name = `w${ctx.q.windows.length}`;
      ctx.q.windows.push(`${name} AS ${over}`);
      ref = name;
    }
    const resCls = /^(row_number|rank|dense_rank|count|ntile)/.test(tpl) ? 'int'
      : /^(percent_rank|cume_dist|avg)/.test(tpl) ? 'float' : cls;
    return N(resCls, `${tpl} OVER ${ref}`, ...args);
  }

  expr(ctx, cls, d = 0) {
    if (ctx.windowOk && this.f.window && this.rng.chance(0.12)) {
      const w = this.window(ctx, cls);
      if (w && w.cls === cls) return w;
    }
    if (d >= this.maxDepth || this.rng.chance(0.3 + 0.15 * d)) return this.leaf(ctx, cls);
    const P = this.productions(ctx, cls, d);
    for (let tries = 0; tries < 3 && P.length; tries++) {
      const n = this.rng.weighted(P)();
      if (n) return n;
    }
    return this.leaf(ctx, cls);
  }
}

// FROM clause and scope: a table, a join of two, a subquery, numbers(), or nothing.
function genFrom(g, q) {
  const rng = g.rng, f = g.f;
  const kinds = [[6, 'table'], [f.join ? 3 : 0, 'join'], [f.subquery ? 1 : 0, 'sub'], [f.nofrom ? 1 : 0, 'none'], [1, 'numbers']];
  const kind = rng.weighted(kinds);
  if (kind === 'none') return { sql: '', scope: [] };
  if (kind === 'numbers') return arrayJoinClause(g, { sql: `FROM numbers(${rng.int(0, 12)})`, scope: [{ sql: 'number', cls: 'int' }] });
  if (kind === 'table') {
    const t = rng.pick(g.tables);
    return arrayJoinClause(g, { sql: `FROM ${t.name}`, scope: scopeOf(t, null), table: t });
  }
  if (kind === 'sub') {
    const t = rng.pick(g.tables);
    const inner = genQuery(g, { depth: (q.depth || 0) + 1, from: { sql: `FROM ${t.name}`, scope: scopeOf(t, null), table: t } });
    const scope = inner.items.map((n, i) => ({ sql: `sq.c${i}`, cls: n.cls }));
    if (rng.chance(0.3)) q.with = `sq AS (${renderQuery(inner)})`;
    return { sql: q.with ? 'FROM sq' : `FROM (${renderQuery(inner)}) AS sq`, scope };
  }
  const a = rng.pick(g.tables), b = rng.pick(g.tables);
  const kinds2 = [[4, 'INNER'], [3, 'LEFT'], [2, 'RIGHT'], [2, 'FULL'], [1, 'CROSS'],
    [f.semijoin ? 2 : 0, rng.pick(['LEFT SEMI', 'LEFT ANTI', 'RIGHT SEMI', 'RIGHT ANTI'])],
    [f.anyjoin ? 1 : 0, rng.pick(['ANY LEFT', 'ANY INNER'])], [f.asof ? 1 : 0, 'ASOF LEFT']];
  const jk = rng.weighted(kinds2);
  let scope = [...scopeOf(a, 'a'), ...scopeOf(b, 'b')];
  if (/LEFT (SEMI|ANTI)/.test(jk)) scope = scopeOf(a, 'a');
  if (/RIGHT (SEMI|ANTI)/.test(jk)) scope = scopeOf(b, 'b');
  if (jk === 'CROSS') return { sql: `FROM ${a.name} AS a CROSS JOIN ${b.name} AS b`, scope };
  let on;
  if (jk === 'ASOF LEFT') {
    on = 'ON a.k = b.k AND a.k >= b.k';
  } else if (f.using && rng.chance(0.2)) {
    on = 'USING (k)';
  } else {
    on = 'ON a.k = b.k';
    const common = a.cols.filter(c => c.name !== 'k' && ORDERED.includes(c.type.cls) && b.cols.some(x => x.name === c.name));
    if (common.length && rng.chance(0.3)) { const c = rng.pick(common); on += ` AND a.${c.name} = b.${c.name}`; }
  }
  return { sql: `FROM ${a.name} AS a ${jk} JOIN ${b.name} AS b ${on}`, scope };
}

// [LEFT] ARRAY JOIN after FROM (feature arrayjoin): arrays of the scope or generated ones,
// zipped (a size mismatch fails in both engines), each under an alias added to the scope.
function arrayJoinClause(g, from) {
  const rng = g.rng;
  if (!g.f.arrayjoin || !rng.chance(0.3)) return from;
  const ctx = { scope: from.scope, agg: false, keys: [] };
  const n = rng.chance(0.7) ? 1 : 2;
  const items = [], scope = [...from.scope];
  for (let i = 0; i < n; i++) {
    const elem = rng.pick(['int', 'str']);
    const cols = from.scope.filter(c => c.cls === `arr:${elem}`);
    const arr = cols.length && rng.chance(0.6) ? rng.pick(cols).sql : render(g.expr(ctx, `arr:${elem}`, 1));
    const alias = `aj${g.ajCount = (g.ajCount || 0) + 1}`;
    items.push(`${arr} AS ${alias}`);
    scope.push({ sql: alias, cls: elem });
  }
  const sql = `${from.sql} ${rng.chance(0.3) ? 'LEFT ' : ''}ARRAY JOIN ${items.join(', ')}`;
  return Object.assign({}, from, { sql, scope, table: undefined });
}

// A query object: {with, distinct, items, from, where, groupBy, groupMod, totals, having,
// order: [{i, dir}] | null, fill, limit, offset, limitBy, union}.
function genQuery(g, opts = {}) {
  const rng = g.rng, f = g.f;
  const q = { depth: opts.depth || 0 };
  const from = opts.from || genFrom(g, q);
  q.from = from.sql;
  const ctx = { scope: from.scope, agg: false, keys: [], windowOk: f.window && q.depth === 0 && !!from.sql, q };
  if (from.sql && f.where && rng.chance(0.5)) q.where = g.expr(Object.assign({}, ctx, { windowOk: false }), 'bool');
  const nitems = rng.int(1, 4);
  if (f.groupby && f.agg && from.sql && rng.chance(0.35)) {
    // A literal integer key would be positional (GROUP BY 1): keys are never bare numbers.
    const kctx = Object.assign({}, ctx, { windowOk: false }); // window functions are not keys
    const keys = Array.from({ length: rng.int(0, 2) }, () => g.expr(kctx, g.anyClass(ctx), 2))
      .filter(k => !/^(-?[\d.e]+|true|false)$/.test(render(k)));
    q.groupBy = keys;
    if (keys.length) {
      const mods = [[6, null], [f.rollup ? 1 : 0, 'ROLLUP'], [f.cube ? 1 : 0, 'CUBE'], [f.groupingsets ? 1 : 0, 'SETS']];
      q.groupMod = rng.weighted(mods);
      if (q.groupMod === 'SETS') // each set a subset of the keys (maybe empty)
        q.sets = Array.from({ length: rng.int(1, 3) }, () => keys.map((k, i) => i).filter(() => rng.chance(0.5)));
      q.groupWith = !!q.groupMod && q.groupMod !== 'SETS' && rng.chance(0.3); // `k WITH ROLLUP` instead of ROLLUP(k)
      if (f.totals && rng.chance(0.2)) q.totals = true;
      if (q.groupMod && f.usenulls && rng.chance(0.3)) q.settings = 'group_by_use_nulls = 1';
    }
    // windows over the groups (not with TOTALS, which shale does not combine with them)
    const actx = Object.assign({}, ctx, { agg: true, keys, windowOk: ctx.windowOk && !q.totals && !q.groupMod });
    q.items = [...keys.filter(() => rng.chance(0.8)), ...Array.from({ length: nitems }, () => g.expr(actx, g.anyClass(ctx), 1))];
    if (q.groupMod && f.grouping && rng.chance(0.5))
      q.items.push(N('int', `grouping(${keys.map(render).filter(() => rng.chance(0.7)).concat([render(keys[0])]).join(', ')})`));
    if (f.having && rng.chance(0.3)) q.having = g.expr(Object.assign({}, actx, { windowOk: false }), 'bool', 1);
  } else {
    q.items = Array.from({ length: nitems }, () => g.expr(ctx, g.anyClass(ctx)));
    if (f.distinct && rng.chance(0.15)) q.distinct = true;
  }
  if (!q.items.length) q.items.push(N('int', 'count()'));
  if (f.orderby && rng.chance(q.depth ? 0.2 : 0.6)) {
    const idx = [...q.items.keys()].filter(() => rng.chance(0.5));
    q.order = idx.map(i => ({ i, dir: rng.pick(['', ' DESC', ' ASC NULLS FIRST', ' DESC NULLS LAST']) }));
    if (f.fill && !q.distinct && rng.chance(0.15)) {
      q.items.unshift(N('int', '(toInt64(ifNull($0, 0)) % 7)', g.expr(ctx, 'int', 2)));
      q.order = [{ i: 0, dir: ` WITH FILL${rng.chance(0.5) ? ` FROM -2 TO 9 STEP ${rng.int(1, 3)}` : ''}` }, ...q.order.map(o => ({ i: o.i + 1, dir: o.dir }))];
      if (q.groupBy) q.groupBy = [...q.groupBy, q.items[0]];
      if (q.sets) q.sets = q.sets.map(set => [...set, q.groupBy.length - 1]);
    }
    if (f.limit && rng.chance(0.4)) { q.limit = rng.int(0, 6); if (rng.chance(0.3)) q.offset = rng.int(1, 4); }
    if (f.limitby && rng.chance(0.15)) q.limitBy = { n: rng.int(1, 2), i: rng.int(0, q.items.length - 1) };
  }
  if (f.union && q.depth === 0 && from.table && !q.groupBy && !q.order && rng.chance(0.15)) {
    const text = q.items.map(render).join(' ') + (q.where ? ` ${render(q.where)}` : '');
    const used = from.table.cols.filter(c => new RegExp(`\\b${c.name}\\b`).test(text)).map(c => c.name);
    const other = g.tables.filter(t => used.every(u => t.cols.some(c => c.name === u)));
    const t = rng.pick(other.length ? other : [from.table]);
    const w = f.where && rng.chance(0.5) ? g.expr({ scope: scopeOf(t, null), agg: false, keys: [] }, 'bool') : null;
    let op = f.uniondistinct && rng.chance(0.3) ? 'UNION DISTINCT' : 'UNION ALL';
    if (f.setops && rng.chance(0.4)) op = `${rng.pick(['INTERSECT', 'EXCEPT'])}${rng.pick(['', ' ALL', ' DISTINCT'])}`;
    q.union = { op, from: `FROM ${t.name}`, where: w };
  }
  return q;
}

function renderQuery(q) {
  const items = q.items.map((n, i) => `${render(n)} AS c${i}`);
  let s = q.with ? `WITH ${q.with} ` : '';
  s += `SELECT ${q.distinct ? 'DISTINCT ' : ''}${items.join(', ')}`;
  if (q.from) s += ` ${q.from}`;
  if (q.where) s += ` WHERE ${render(q.where)}`;
  if (q.groupBy) {
    if (!q.groupBy.length) {
      if (q.totals) s += ' GROUP BY tuple()';
    } else {
      const keys = q.groupBy.map(render).join(', ');
      if (q.groupMod === 'SETS')
        s += ` GROUP BY GROUPING SETS (${q.sets.map(set => `(${set.map(i => render(q.groupBy[i])).join(', ')})`).join(', ')})`;
      else if (q.groupMod && q.groupWith) s += ` GROUP BY ${keys} WITH ${q.groupMod}`;
      else s += q.groupMod ? ` GROUP BY ${q.groupMod}(${keys})` : ` GROUP BY ${keys}`;
    }
    if (q.totals && q.groupBy.length) s += ' WITH TOTALS';
  }
  if (q.having) s += ` HAVING ${render(q.having)}`;
  if (q.windows && q.windows.length) s += ` WINDOW ${q.windows.join(', ')}`;
  if (q.order) {
    // Every output column follows the chosen keys, so the order is total.
    const keys = q.order.map(o => `c${o.i}${o.dir}`);
    for (let i = 0; i < q.items.length; i++) if (!q.order.some(o => o.i === i)) keys.push(`c${i}`);
    s += ` ORDER BY ${keys.join(', ')}`;
    if (q.limitBy) s += ` LIMIT ${q.limitBy.n} BY c${Math.min(q.limitBy.i, q.items.length - 1)}`;
    if (q.limit !== undefined) s += ` LIMIT ${q.limit}${q.offset ? ` OFFSET ${q.offset}` : ''}`;
  }
  if (q.settings && !q.union) s += ` SETTINGS ${q.settings}`;
  if (q.union) {
    s += ` ${q.union.op} SELECT ${q.items.map((n, i) => `${render(n)} AS c${i}`).join(', ')} ${q.union.from}`;
    if (q.union.where) s += ` WHERE ${render(q.union.where)}`;
  }
  return s;
}

const isOrdered = q => !!q.order && !q.union;

module.exports = { FEATURES, DEFAULT_OFF, parseFeatures, Gen, genQuery, renderQuery, render, isOrdered, N, literal };
