/* Values as text, in each of ClickHouse's escaping styles.
 *
 * Output: text_write appends row i of column c, formatted byte-for-byte as ClickHouse
 * prints it in the given style. Floats use the shortest representation that round-trips
 * (ClickHouse's rules: "0.1", "1e21", "100000000000000000000", "inf", "-inf", "nan"),
 * dates and times use the column type's time zone or `tz` (the session zone).
 *
 * Input: text_parse parses one unescaped value (already cut out of the row by the
 * format reader) and appends it to a column; a value that does not fit the type fails
 * with a clear error (never wraps silently): ERR_CANNOT_PARSE_TEXT and friends, with
 * the value and the type in the message.
 *
 * Thread-safe (no shared state). */
#ifndef SHALE_COLUMN_TEXT_H
#define SHALE_COLUMN_TEXT_H

#include "base/buf.h"
#include "column/column.h"
#include "column/datetime.h"

typedef enum text_style {
    TEXT_RAW,     /* toString(): no escaping at all */
    TEXT_TSV,     /* TabSeparated escaping: \t \n \\ \0 \b \f \r \' */
    TEXT_CSV,     /* strings double-quoted with "" doubling; numbers bare */
    TEXT_JSON,    /* JSON strings; 64-bit ints quoted per settings; nan/inf as null */
    TEXT_QUOTED,  /* SQL literal: 'it\'s', used by Values, and inside arrays/tuples */
} text_style;

typedef struct text_opts {
    const char *tz;                 /* session time zone name */
    bool json_quote_64bit_integers; /* default true */
    bool json_quote_decimals;       /* default false */
    char csv_delimiter;             /* for arrays inside CSV; default ',' */
} text_opts;

void text_opts_default(text_opts *o);
void text_write(buf *out, const column *c, size_t i, text_style style, const text_opts *o);
/* The shortest round-trip text for a double / float, as ClickHouse prints it. */
size_t text_format_f64(double v, char *out);
size_t text_format_f32(float v, char *out);
/* s as a JSON string literal, escaped as ClickHouse's writeJSONString does (", \\, \b \f \n \r \t,
 * other control characters as \u00XX, U+2028/U+2029; '/' as \/ when escape_slash). */
void text_put_json_string(buf *out, const char *s, size_t n, bool escape_slash);

int text_parse(column *dst, const char *s, size_t n, const text_opts *o);

/* The value of a hexadecimal digit, or -1 (shared by the text readers). */
static inline int text_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
/* Parses a quoted/escaped literal list such as "[1,2,3]" or "['a','b']" into an Array column. */
int text_parse_array(column *dst, const char *s, size_t n, const text_opts *o);

#endif
