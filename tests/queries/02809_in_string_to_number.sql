-- A string in the set of IN that does not parse as the left side's number type is an error
-- (TYPE_MISMATCH); a number out of range matches nothing.
select (toUInt8(1)) in (-1), (toUInt8(255)) in (-1);
select 1 in ('1');
select (toUInt8(1)) in ('a'); -- { serverError TYPE_MISMATCH }
select [toUInt8(1)] in ['a']; -- { serverError TYPE_MISMATCH }
select 1 in ('a', 1); -- { serverError TYPE_MISMATCH }
