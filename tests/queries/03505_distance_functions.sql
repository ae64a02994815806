-- Vector distances and norms over arrays (L*Distance, cosineDistance, dotProduct, L*Norm).
SELECT L1Distance([1, 2, 3], [4, 5, 6]), L2Distance([1, 2, 3], [4, 5, 6]), L2SquaredDistance([1, 2, 3], [4, 5, 6]), LinfDistance([1, 2, 3], [4, 5, 7]), LpDistance([1, 2, 3], [4, 5, 6], 3), cosineDistance([1, 2, 3], [4, 5, 6]), dotProduct([1, 2, 3], [4, 5, 6]);
SELECT L1Norm([1, -2, 3]), L2Norm([3, 4]), L2SquaredNorm([3, 4]), LinfNorm([1, -7, 3]), LpNorm([1, 2, 3], 2.5), normL2([3., 4.]), distanceL2([0, 0], [3, 4]), scalarProduct([1, 2], [3, 4]), distanceCosine([1, 0], [0, 1]);
SELECT toTypeName(L2Distance([1::Float32], [2::Float32])), toTypeName(L2Distance([1::Float32], [2::UInt16])), toTypeName(L2Distance([1::Float32], [2::Int32])), toTypeName(L2Norm([1::Float32])), toTypeName(L2Norm([1::Int8]));
SELECT toTypeName(dotProduct([1::UInt8], [2::UInt8])), toTypeName(dotProduct([1::UInt8], [2::Int8])), toTypeName(dotProduct([1::UInt64], [2::Int8])), toTypeName(dotProduct([1::Float32], [2::Float32])), toTypeName(dotProduct([1::Float32], [2::UInt8]));
SELECT dotProduct([200::UInt8, 200], [200::UInt8, 200]), dotProduct([-100::Int8, 100], [100::Int8, 100]), dotProduct([4294967295::UInt32], [4294967295::UInt32]), dotProduct([9223372036854775807::Int64], [2::Int64]);
SELECT L2Distance([1.5::Float32, 2.25], [0.5::Float32, 0.25]), cosineDistance([1::Float32, 1], [1::Float32, 0]), L2Norm([0.5::Float32, 1.5]), LinfNorm([-2.5::Float32]);
SELECT L2Distance(CAST([], 'Array(Float64)'), CAST([], 'Array(Float64)')), L2Norm(CAST([], 'Array(UInt8)')), cosineDistance([0, 0], [1, 1]), dotProduct(CAST([], 'Array(Int32)'), CAST([], 'Array(Int32)'));
CREATE TABLE vec (id UInt32, a Array(Float64), b Array(Float64), i Array(Int16), f Array(Float32)) ENGINE = Memory;
INSERT INTO vec SELECT number, arrayMap(x -> (x * 3 + number) % 7 - 3, range(number % 20)), arrayMap(x -> (x * 5 + number) % 11 - 5, range(number % 20)), arrayMap(x -> toInt16((x * 7 + number) % 13 - 6), range(number % 20)), arrayMap(x -> toFloat32(((x * 3 + number) % 9) / 4), range(number % 20)) FROM numbers(40);
SELECT id, L1Distance(a, b), L2SquaredDistance(a, b), LinfDistance(a, b), dotProduct(a, b), dotProduct(i, i), L1Norm(i), L2SquaredNorm(a), L1Norm(f), L2SquaredNorm(f), LinfNorm(f), dotProduct(f, f) FROM vec ORDER BY id;
SELECT id, L2SquaredDistance(a, arrayMap(x -> 1, range(length(a)))), dotProduct(arrayMap(x -> 2., range(length(a))), a), L1Distance(i, arrayMap(x -> toInt16(1), range(length(i)))) FROM vec WHERE length(a) = 17 ORDER BY id;
SELECT id, L2Norm(if(id % 2 = 0, a, [1., 2.])), dotProduct(toLowCardinality(toString(id)) = '3' ? [1] : [2], [3]) FROM vec WHERE id < 6 ORDER BY id;
SELECT L2Distance(materialize([1, 2]), [3, 5]), L2Distance([1, 2], materialize([3, 5])), L2Distance(materialize([1, 2]), materialize([3, 5]));
SELECT L2Distance([1, 2], [3]); -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
SELECT dotProduct(a, [1, 2, 3]) FROM vec WHERE id IN (3, 4); -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
SELECT L2Distance([], []); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT L2Distance([1, NULL], [1, 2]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT L2Distance([toDecimal32(1, 2)], [2]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT L2Norm([true, false]), dotProduct([true], [true]), toTypeName(dotProduct([true], [true]));
SELECT L2Norm(['a']); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT L2Norm(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT LpDistance([1, 2], [3, 5], 0.5); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT LpNorm([1, 2], inf); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT LpNorm([1, 2], materialize(2)); -- { serverError ILLEGAL_COLUMN }
SELECT L2Distance([1, 2]); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
