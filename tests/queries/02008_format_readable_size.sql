-- formatReadableSize, as used with system.parts.
SELECT formatReadableSize(toUInt64(1234567)), formatReadableSize(NULL), formatReadableSize(toNullable(3000)), formatReadableSize(0), formatReadableSize(1023), formatReadableSize(1024), formatReadableSize(-2048), formatReadableSize(0.5), formatReadableSize(1e20), toTypeName(formatReadableSize(1));
SELECT formatReadableSize(number * 1000003) FROM numbers(5);
SELECT formatReadableSize('x'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
