-- toUUID and its OrNull/OrZero forms, UUIDStringToNum / UUIDNumToString, generateUUIDv4's shape
SELECT toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0') AS u, toTypeName(u);
SELECT toUUIDOrNull('x'), toUUIDOrZero('y'), toUUIDOrNull('61f0c404-5cb3-11e7-907b-a6006ad3dba0');
SELECT toTypeName(toUUIDOrNull('x')), toTypeName(toUUIDOrZero('x'));
SELECT toUUID('61f0c4045cb311e7907ba6006ad3dba0');
SELECT toUUID(toNullable('61f0c404-5cb3-11e7-907b-a6006ad3dba0')) AS u, toTypeName(u);
SELECT empty(toUUID('00000000-0000-0000-0000-000000000000')), notEmpty(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'));
SELECT hex(UUIDStringToNum('61f0c404-5cb3-11e7-907b-a6006ad3dba0')), hex(UUIDStringToNum('61f0c404-5cb3-11e7-907b-a6006ad3dba0', 2));
SELECT hex(UUIDStringToNum('not a uuid'));
SELECT UUIDNumToString(UUIDStringToNum('61f0c404-5cb3-11e7-907b-a6006ad3dba0', 2), 2);
SELECT UUIDNumToString(toFixedString('0123456789abcdef', 16)), UUIDNumToString(toFixedString('0123456789abcdef', 16), 2);
SELECT toTypeName(UUIDStringToNum('61f0c404-5cb3-11e7-907b-a6006ad3dba0'));
SELECT length(toString(generateUUIDv4())), toTypeName(generateUUIDv4(1)), substring(toString(generateUUIDv4()), 15, 1);
SELECT count(DISTINCT generateUUIDv4(number)) FROM numbers(1000);
SELECT toUUID('xx'); -- { serverError CANNOT_PARSE_UUID }
SELECT UUIDStringToNum('61f0c404-5cb3-11e7-907b-a6006ad3dba0', 3); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT UUIDNumToString(toFixedString('abc', 3)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toUUIDOrNull(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
