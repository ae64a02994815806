-- String columns read as dictionary codes (WHERE conjuncts on one column evaluated once per
-- dictionary entry, GROUP BY on codes) must answer exactly as over plain values: tag is
-- dictionary-encoded, name is PLAIN (never coded), ntag is Nullable (never coded).
SELECT tag, count() AS c FROM file('../data/parquet/ch_dict.parquet') WHERE tag NOT IN ('', 'anon') GROUP BY tag ORDER BY c DESC, tag;
SELECT tag, count() AS c, sum(score) FROM file('../data/parquet/ch_dict.parquet') GROUP BY tag ORDER BY tag SETTINGS max_threads = 1;
SELECT tag, count() AS c, sum(score) FROM file('../data/parquet/ch_dict.parquet') GROUP BY tag ORDER BY tag SETTINGS max_threads = 2;
SELECT tag, count() FROM file('../data/parquet/ch_dict.parquet') WHERE tag LIKE '%a%' GROUP BY tag ORDER BY tag;
SELECT count() FROM file('../data/parquet/ch_dict.parquet') WHERE tag = 'bob';
SELECT count(), sum(score) FROM file('../data/parquet/ch_dict.parquet') WHERE tag IN ('alice', 'bob') AND score > 5;
SELECT count() FROM file('../data/parquet/ch_dict.parquet') WHERE length(tag) > 3 AND tag != 'carol';
SELECT count() FROM file('../data/parquet/ch_dict.parquet') WHERE tag NOT LIKE '%o%' SETTINGS max_threads = 1;
SELECT count() FROM file('../data/parquet/ch_dict.parquet') WHERE tag = 'nobody';
-- the coded column only filters; the output reads other columns
SELECT id FROM file('../data/parquet/ch_dict.parquet') WHERE tag = 'erin' AND id > 11950 ORDER BY id;
SELECT sum(id), max(score) FROM file('../data/parquet/ch_dict.parquet') WHERE tag IN ('dave', 'frank') AND score < 3;
-- read as values: in the output, in an aggregate's argument, in a key expression, with OR
SELECT tag, id FROM file('../data/parquet/ch_dict.parquet') WHERE tag = 'erin' ORDER BY id LIMIT 3;
SELECT uniqExact(tag), count() FROM file('../data/parquet/ch_dict.parquet') WHERE tag != '';
SELECT lower(tag) AS t, count() FROM file('../data/parquet/ch_dict.parquet') GROUP BY t ORDER BY t;
SELECT tag, count() FROM file('../data/parquet/ch_dict.parquet') WHERE tag IN ('alice', 'nobody') OR score = 1 GROUP BY tag ORDER BY tag;
SELECT tag, max(id) FROM file('../data/parquet/ch_dict.parquet') WHERE tag IN (SELECT 'dave' UNION ALL SELECT 'frank') GROUP BY tag ORDER BY tag;
SELECT tag, count() FROM file('../data/parquet/ch_dict.parquet') GROUP BY tag HAVING count() > 1500 ORDER BY tag;
SELECT tag, count() FROM file('../data/parquet/ch_dict.parquet') WHERE score = 4 GROUP BY tag ORDER BY tag SETTINGS group_by_two_level_threshold = 2;
SELECT tag, count() FROM file('../data/parquet/ch_dict.parquet', Parquet, 'tag String, score Int32') GROUP BY tag ORDER BY tag;
-- columns that are never coded
SELECT name, count() FROM file('../data/parquet/ch_dict.parquet') WHERE name LIKE 'few-%' GROUP BY name ORDER BY name;
SELECT ntag, count() FROM file('../data/parquet/ch_dict.parquet') WHERE ntag != 't1' GROUP BY ntag ORDER BY ntag;
SELECT tag, ntag, count() FROM file('../data/parquet/ch_dict.parquet') WHERE tag = 'bob' GROUP BY tag, ntag ORDER BY tag, ntag;
