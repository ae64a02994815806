#!/usr/bin/env node
// Generates the posts-like data set of the source guide: 189 monthly Parquet files
// posts/by_month/2008-07.parquet … 2024-03.parquet with the columns of ClickHouse's
// stackoverflow `posts` table, written by ClickHouse (chdb), as the real set was.
//
//   node bench/lib/gen-posts.js --rows N --out DIR [--chdb PATH]
//
// Deterministic (every value is a hash of the row number), no network. Rows per month grow
// over time like the real site's; Body is ~400 bytes of varied text; OwnerDisplayName is
// mostly empty, sometimes 'anon', otherwise a Zipf-like tail of user names.
'use strict';
const fs = require('fs');
const path = require('path');

function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
}
const rows = Number(arg('--rows', '6000000'));
const out = arg('--out', path.join(__dirname, '..', 'data', 'posts'));
const chdbPath = arg('--chdb', path.join(__dirname, '..', 'node_modules', 'chdb'));
const { query } = require(chdbPath);

const months = [];
for (let y = 2008, m = 7; y < 2024 || (y === 2024 && m <= 3); m === 12 ? (y++, m = 1) : m++)
  months.push([y, m]);
if (months.length !== 189) throw new Error(`expected 189 months, got ${months.length}`);

// Rows per month grow with the month index (weights (i + 12)^1.6), summing to `rows`.
const weights = months.map((_, i) => Math.pow(i + 12, 1.6));
const total = weights.reduce((a, b) => a + b, 0);
const counts = weights.map(w => Math.floor(rows * w / total));
counts[counts.length - 1] += rows - counts.reduce((a, b) => a + b, 0);

const WORDS = ['the', 'a', 'to', 'of', 'and', 'in', 'is', 'it', 'you', 'that', 'for', 'on', 'with', 'this',
  'function', 'array', 'string', 'value', 'error', 'code', 'data', 'file', 'query', 'table', 'class', 'object',
  'return', 'python', 'javascript', 'java', 'sql', 'server', 'client', 'request', 'response', 'list', 'loop',
  'variable', 'method', 'exception', 'null', 'type', 'index', 'database', 'memory', 'thread', 'using', 'how',
  'why', 'when', 'can', 'not', 'but', 'if', 'get', 'set', 'new', 'from', 'by', 'be', 'are', 'or', 'have',
  '<p>', '</p>', '<code>', '</code>', 'performance', 'issue', 'example', 'working', 'problem', 'solution'];
const wordsLit = '[' + WORDS.map(w => `'${w}'`).join(',') + ']';
const TAGS = ['python', 'javascript', 'java', 'c#', 'php', 'android', 'html', 'jquery', 'c++', 'css', 'ios',
  'sql', 'mysql', 'r', 'reactjs', 'node.js', 'arrays', 'c', 'asp.net', 'json', 'python-3.x', 'sql-server',
  'swift', 'django', 'linux', 'clickhouse'];
const tagsLit = '[' + TAGS.map(t => `'${t}'`).join(',') + ']';

fs.mkdirSync(path.join(out, 'by_month'), { recursive: true });
let first = 0;
months.forEach(([y, m], i) => {
  const name = `${y}-${String(m).padStart(2, '0')}`;
  const file = path.join(out, 'by_month', `${name}.parquet`);
  const n = counts[i];
  const start = `toDateTime64('${name}-01 00:00:00', 3, 'UTC')`;
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  const span = `dateDiff('second', ${start}, toDateTime64('${next}-01 00:00:00', 3, 'UTC'))`;
  const h = k => `cityHash64(number, ${k})`;
  const sql = `INSERT INTO FUNCTION file('${file}', Parquet)
SELECT
  toInt32(number + 1) AS Id,
  CAST(multiIf(${h(1)} % 100 < 45, 1, ${h(1)} % 100 < 97, 2, ${h(1)} % 100 < 98, 3, ${h(1)} % 100 < 99, 4, 5),
       'Enum8(\\'Question\\' = 1, \\'Answer\\' = 2, \\'Wiki\\' = 3, \\'TagWikiExcerpt\\' = 4, \\'TagWiki\\' = 5, \\'ModeratorNomination\\' = 6, \\'WikiPlaceholder\\' = 7, \\'PrivilegeWiki\\' = 8)') AS PostTypeId,
  toUInt32(if(${h(2)} % 3 = 0, ${h(2)} % (number + 1), 0)) AS AcceptedAnswerId,
  addMilliseconds(${start}, toInt64(${h(3)} % (${span} * 1000))) AS CreationDate,
  toInt32(toInt32(intDiv(100, ${h(4)} % 200 + 1)) - 3) AS Score,
  toUInt32(${h(5)} % 5000) AS ViewCount,
  arrayStringConcat(arrayMap(k -> ${wordsLit}[1 + cityHash64(number, k) % ${WORDS.length}], range(10, 10 + 50 + toUInt32(${h(6)} % 40))), ' ') AS Body,
  toInt32(${h(7)} % 5000000) AS OwnerUserId,
  multiIf(${h(8)} % 100 < 85, '', ${h(8)} % 100 < 88, 'anon', concat('user', toString(intDiv(200000, ${h(9)} % 200000 + 1)))) AS OwnerDisplayName,
  toInt32(if(${h(10)} % 2 = 0, ${h(10)} % 5000000, 0)) AS LastEditorUserId,
  if(${h(11)} % 50 = 0, concat('editor', toString(${h(11)} % 1000)), '') AS LastEditorDisplayName,
  addSeconds(CreationDate, toInt64(${h(12)} % 100000000)) AS LastEditDate,
  addSeconds(CreationDate, toInt64(${h(13)} % 200000000)) AS LastActivityDate,
  if(PostTypeId = 'Question', arrayStringConcat(arrayMap(k -> ${wordsLit}[1 + cityHash64(number, k) % ${WORDS.length}], range(100, 106 + toUInt32(${h(14)} % 8))), ' '), '') AS Title,
  if(PostTypeId = 'Question', concat('<', ${tagsLit}[1 + ${h(15)} % ${TAGS.length}], '><', ${tagsLit}[1 + ${h(16)} % ${TAGS.length}], '>'), '') AS Tags,
  toUInt16(${h(17)} % 12) AS AnswerCount,
  toUInt8(${h(18)} % 25) AS CommentCount,
  toUInt8(${h(19)} % 10) AS FavoriteCount,
  toLowCardinality(multiIf(${h(20)} % 3 = 0, 'CC BY-SA 2.5', ${h(20)} % 3 = 1, 'CC BY-SA 3.0', 'CC BY-SA 4.0')) AS ContentLicense,
  if(PostTypeId = 'Answer', toString(${h(21)} % (number + 1)), '') AS ParentId,
  if(${h(22)} % 100 = 0, addSeconds(CreationDate, toInt64(${h(22)} % 1000000)), toDateTime64(0, 3, 'UTC')) AS CommunityOwnedDate,
  if(${h(23)} % 20 = 0, addSeconds(CreationDate, toInt64(${h(23)} % 1000000)), toDateTime64(0, 3, 'UTC')) AS ClosedDate
FROM numbers(${first}, ${n})
SETTINGS engine_file_truncate_on_insert = 1, output_format_parquet_row_group_size = 1000000`;
  query(sql, 'TSV');
  first += n;
});
const bytes = fs.readdirSync(path.join(out, 'by_month')).reduce((a, f) => a + fs.statSync(path.join(out, 'by_month', f)).size, 0);
console.log(`posts: ${rows} rows in ${months.length} files, ${(bytes / 2 ** 20).toFixed(1)} MiB, in ${out}/by_month`);
