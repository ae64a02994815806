-- INTERSECT / EXCEPT (ALL, DISTINCT, default modes) and UNION DISTINCT, grouped as ClickHouse does
select 1 intersect select 1;
select 2 intersect select 1;
select 1 except select 1;
select 2 except select 1;
-- ALL: multisets over the left side's rows, in their order
select number % 3 from numbers(10) intersect select 1;
select number % 2 from numbers(5) intersect select number % 3 from numbers(5);
select number % 3 from numbers(5) intersect all select number % 2 from numbers(5);
select number % 2 from numbers(6) except all select 0;
select number % 3 from numbers(10) except select 5;
-- DISTINCT
select number % 2 from numbers(6) except distinct select 0;
select number % 3 from numbers(9) except distinct select 0;
select number % 2 from numbers(6) intersect distinct select number from numbers(5);
-- the default modes
select number % 3 from numbers(6) except select 1 settings except_default_mode = 'DISTINCT';
select number % 3 from numbers(6) intersect select 1 settings intersect_default_mode = 'DISTINCT';
select 1 except select 2 settings except_default_mode = ''; -- { serverError EXPECTED_ALL_OR_DISTINCT }
select 1 intersect select 2 settings intersect_default_mode = ''; -- { serverError EXPECTED_ALL_OR_DISTINCT }
select 1 union select 1; -- { serverError EXPECTED_ALL_OR_DISTINCT }
select x from (select 1 x union select 1 union select 2) order by x settings union_default_mode = 'DISTINCT';
-- precedence: INTERSECT binds to the SELECT before it, EXCEPT takes all on its left
select 1 except select 2 intersect select 1;
select 1 except select 2 intersect select 2;
select 1 intersect select 1 except select 2;
select 1 intersect select 1 except select 1;
select number % 2 from numbers(6) except select number from numbers(5) intersect select 1;
select 1 intersect select 1 except select 2 intersect select 1 except select 3 intersect select 1;
select number from numbers(100) intersect select number from numbers(20, 60) except select number from numbers(30, 20) except select number from numbers(60, 20);
select count() from (select number from numbers(1000000) intersect select number from numbers(200000, 600000));
select count() from (select number from numbers(10) union all select number from numbers(5) intersect select number % 3 from numbers(10));
-- UNION DISTINCT: everything up to the last DISTINCT is one DISTINCT union
select x from (select 1 x union distinct select 1 union distinct select 2) order by x;
select x from (select 1 x union all select 1 union distinct select 2 union all select 2) order by x;
select x from (select 2 x union distinct select 1 union all select 1 union all select 1) order by x;
-- NULLs compare equal; tuples, arrays; common supertypes
select NULL intersect select NULL;
select (1, NULL) except select (1, NULL);
select (1, 2) intersect select (1, 2);
select [1, 2] except select [1];
select 1.0 except select 1;
select x, toTypeName(x) from (select 1::UInt8 x except select 257::Nullable(UInt16));
select x, toTypeName(x) from (select 1::UInt8 x intersect select 1::Int16);
select 'a' x except select 'b';
-- in subqueries, IN and CTEs
select * from (select 1 intersect select 1);
with (select number from numbers(10) intersect select 5) as a select a * 10;
select number from numbers(10) where number in (select number from numbers(10) except select number from numbers(3, 5));
-- column counts must agree
select 1 intersect select 1, 2; -- { serverError INTERSECT_OR_EXCEPT_RESULT_STRUCTURES_MISMATCH }
select 1, 2 except select 1; -- { serverError INTERSECT_OR_EXCEPT_RESULT_STRUCTURES_MISMATCH }
select 1 union distinct select 1, 2; -- { serverError UNION_ALL_RESULT_STRUCTURES_MISMATCH }
