-- A tuple against a list of tuples: a NULL element matches nothing (ClickHouse's set keys
-- are the elements), unless transform_null_in; a subquery of one tuple column keeps them.
SELECT (NULL, NULL) IN ((NULL, 0), (3, 1), (3, 2), (8, 0), (NULL, NULL));
SELECT (1, NULL) IN ((1, NULL), (2, 2));
SELECT (1, NULL) NOT IN ((1, NULL), (2, 2));
SELECT (1, (NULL, 2)) IN ((1, (NULL, 2)));
SELECT (1, NULL) IN ((1, NULL), (2, 2)) SETTINGS transform_null_in = 1;
SELECT (1, NULL) IN (SELECT (1, NULL));
-- several subquery columns are the elements of the left tuple
SELECT (1, NULL) IN (SELECT 1, NULL);
SELECT (1, NULL) IN (SELECT 1, NULL) SETTINGS transform_null_in = 1;
SELECT (1, 5) IN (SELECT 1, 2), (1, 2) IN (SELECT 1, 2);
SELECT (number, number + 1) IN (SELECT number, number + 1 FROM numbers(3)) FROM numbers(5);
SELECT 1 IN (SELECT 1, 2); -- { serverError NUMBER_OF_COLUMNS_DOESNT_MATCH }
SELECT (1, 2, 3) IN (SELECT 1, 2); -- { serverError NUMBER_OF_COLUMNS_DOESNT_MATCH }
