-- Insert deduplication (non_replicated_deduplication_window) and insert_deduplication_token.
CREATE TABLE d (k UInt32, v String) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 100;
INSERT INTO d VALUES (1, 'a'), (2, 'b');
INSERT INTO d VALUES (1, 'a'), (2, 'b');
SELECT count() FROM d;
INSERT INTO d VALUES (2, 'b'), (1, 'a');
SELECT count() FROM d;
INSERT INTO d SETTINGS insert_deduplication_token = 't1' VALUES (5, 'x');
INSERT INTO d SETTINGS insert_deduplication_token = 't1' VALUES (6, 'y');
SELECT k, v FROM d ORDER BY k, v;
CREATE TABLE nd (k UInt32) ENGINE = MergeTree ORDER BY k;
INSERT INTO nd VALUES (1);
INSERT INTO nd VALUES (1);
SELECT count() FROM nd;
CREATE TABLE pd (d Date, k UInt32) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY k SETTINGS non_replicated_deduplication_window = 10;
INSERT INTO pd VALUES ('2024-01-01', 1), ('2024-02-01', 2);
INSERT INTO pd VALUES ('2024-01-01', 1), ('2024-03-01', 3);
SELECT d, k FROM pd ORDER BY d;
