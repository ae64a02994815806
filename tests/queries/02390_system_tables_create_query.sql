-- system.tables shows CREATE statements on one line, and engine_full without the COMMENT
CREATE TABLE t_one_line (a UInt32, `b c` String DEFAULT 'x\ny', d Date CODEC(Delta, ZSTD(3)), n Nullable(Int8) COMMENT 'col')
ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY (a, d) SETTINGS index_granularity = 128 COMMENT 'table comment';
SELECT create_table_query, engine_full FROM system.tables WHERE database = currentDatabase() AND name = 't_one_line';
CREATE TABLE t_mem (x Array(String)) ENGINE = Memory;
SELECT create_table_query, engine_full FROM system.tables WHERE database = currentDatabase() AND name = 't_mem';
