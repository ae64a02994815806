-- Positions in ORDER BY / LIMIT BY count the columns `*` expands to; past the list is an error
select * from numbers(3) order by 1 desc;
select 10 - number as a, * from numbers(3) order by 2 desc;
select *, 5 from numbers(3) order by 1 desc;
select * from (select 3 union all select 2 union all select 1) order by 1;
select * from (select number % 2 x, number y from numbers(6)) order by 1, 2 desc limit 1 by 1;
select 1 x, 2 y order by 3; -- { serverError BAD_ARGUMENTS }
select 1 x order by 0; -- { serverError BAD_ARGUMENTS }
select * from (select 1 x, 2 y) order by 3; -- { serverError BAD_ARGUMENTS }
select number from numbers(3) group by 2; -- { serverError BAD_ARGUMENTS }
select number from numbers(3) limit 1 by 2; -- { serverError BAD_ARGUMENTS }
select number from numbers(3) order by 1 + 1;
