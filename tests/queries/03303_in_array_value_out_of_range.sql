-- A value of the set that does not fit the left side's type matches nothing, inside arrays too.
SELECT [toUInt8(255)] IN [-1];
SELECT [toUInt8(1)] IN [-1];
SELECT [toUInt8(1)] IN [1.0];
SELECT [toUInt8(1)] IN [1.5];
SELECT [toUInt8(1), 2] IN [[1, 2], [-1, 300]];
SELECT [toUInt8(44)] IN [300];
SELECT toUInt8(255) IN (-1);
SELECT [toUInt8(1)] IN ['a']; -- { serverError TYPE_MISMATCH }
