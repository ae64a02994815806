-- src/func/scalar/array.c (not mine): has([NULL, 1], NULL) gives NULL, ClickHouse 1
SELECT has([NULL, 1], NULL);
