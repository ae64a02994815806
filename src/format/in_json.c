/* JSONEachRow row splitting: one object per row (newlines between objects optional; an
 * enclosing [ ... ] with commas is accepted as ClickHouse does). Strings are unescaped
 * (\uXXXX with surrogate pairs → UTF-8); arrays and objects are kept as raw JSON text,
 * which text_parse_array reads for Array columns and String columns store as is. */
#include "format/rd.h"

#include "base/err.h"

#include <string.h>

static void put_utf8(buf *b, uint32_t cp)
{
    if (cp < 0x80) {
        buf_putc(b, (char)cp);
    } else if (cp < 0x800) {
        buf_putc(b, (char)(0xC0 | cp >> 6));
        buf_putc(b, (char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        buf_putc(b, (char)(0xE0 | cp >> 12));
        buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        buf_putc(b, (char)(0x80 | (cp & 0x3F)));
    } else {
        buf_putc(b, (char)(0xF0 | cp >> 18));
        buf_putc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
        buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        buf_putc(b, (char)(0x80 | (cp & 0x3F)));
    }
}

static int perr(rbuf *in, size_t k, uint64_t row, const char *what)
{
    char shown[32];
    size_t m = 0;
    while (m < 20 && rd_peek(in, k + m) >= 0)
        m++;
    memcpy(shown, in->pos + k, m);
    shown[m] = 0;
    return err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                   "Cannot parse input: expected %s before: '%s': (at row %llu, byte offset %llu)", what, shown,
                   (unsigned long long)row, (unsigned long long)(rbuf_offset(in) + k));
}

static size_t skip_ws(rbuf *in, size_t k)
{
    int c;
    while ((c = rd_peek(in, k)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        k++;
    return k;
}

static int read_4hex(rbuf *in, size_t k, uint32_t *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        int h = text_hex_digit(rd_peek(in, k + (size_t)i));
        if (h < 0)
            return -1;
        *v = *v << 4 | (uint32_t)h;
    }
    return 0;
}

/* Reads a JSON string at k (the opening quote) into b; returns the index after it. */
static int read_str(rbuf *in, size_t *kp, buf *b, uint64_t row)
{
    size_t k = *kp + 1;
    for (;;) {
        int c = rd_peek(in, k);
        if (c == -2)
            return -1;
        if (c == -1)
            return perr(in, k, row, "'\"' (end of string)");
        if (c == '"') {
            *kp = k + 1;
            return 0;
        }
        if (c == '\\') {
            int e = rd_peek(in, k + 1);
            k += 2;
            switch (e) {
            case 'n': buf_putc(b, '\n'); break;
            case 't': buf_putc(b, '\t'); break;
            case 'r': buf_putc(b, '\r'); break;
            case 'b': buf_putc(b, '\b'); break;
            case 'f': buf_putc(b, '\f'); break;
            case '0': buf_putc(b, '\0'); break;
            case 'u': {
                uint32_t cp;
                if (read_4hex(in, k, &cp))
                    return perr(in, k, row, "4 hex digits after \\u");
                k += 4;
                if (cp >= 0xD800 && cp < 0xDC00 && rd_peek(in, k) == '\\' && rd_peek(in, k + 1) == 'u') {
                    uint32_t lo;
                    if (read_4hex(in, k + 2, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        k += 6;
                    }
                }
                put_utf8(b, cp);
                break;
            }
            case -1: case -2: return perr(in, k - 1, row, "escape sequence");
            default: buf_putc(b, (char)e); break;
            }
            continue;
        }
        buf_putc(b, (char)c);
        k++;
    }
}

/* Copies a balanced [..] or {..} verbatim. */
static int read_raw(rbuf *in, size_t *kp, buf *b, uint64_t row)
{
    size_t k = *kp;
    int depth = 0;
    bool in_str = false;
    for (;;) {
        int c = rd_peek(in, k);
        if (c == -2)
            return -1;
        if (c == -1)
            return perr(in, k, row, "closing bracket");
        buf_putc(b, (char)c);
        k++;
        if (in_str) {
            if (c == '\\') {
                int e = rd_peek(in, k);
                if (e >= 0) {
                    buf_putc(b, (char)e);
                    k++;
                }
            } else if (c == '"') {
                in_str = false;
            }
            continue;
        }
        if (c == '"')
            in_str = true;
        else if (c == '[' || c == '{')
            depth++;
        else if (c == ']' || c == '}') {
            if (--depth == 0)
                break;
        }
    }
    *kp = k;
    return 0;
}

/* One JSON value at k into b (strings unescaped, arrays/objects verbatim); its kind. */
static int read_value(rbuf *in, size_t *kp, buf *b, uint64_t row, int *kindp)
{
    size_t k = *kp, vs = b->len;
    int c = rd_peek(in, k), kind;
    if (c == '"') {
        kind = FK_STRING;
        if (read_str(in, &k, b, row))
            return -1;
    } else if (c == '[' || c == '{') {
        kind = c == '[' ? FK_ARRAY : FK_OBJECT;
        if (read_raw(in, &k, b, row))
            return -1;
    } else {
        kind = FK_PLAIN;
        while ((c = rd_peek(in, k)) >= 0 && c != ',' && c != '}' && c != ' ' && c != '\n' && c != '\t' &&
               c != '\r' && c != ']') {
            buf_putc(b, (char)c);
            k++;
        }
        if (c == -2)
            return -1;
        if (b->len == vs)
            return perr(in, k, row, "a value");
        if (b->len - vs == 4 && memcmp(b->p + vs, "null", 4) == 0)
            kind = FK_NULL;
    }
    *kp = k;
    *kindp = kind;
    return 0;
}

int json_compact_split_row(rbuf *in, rowf *f, uint64_t row)
{
    rowf_clear(f);
    size_t k = skip_ws(in, 0);
    int c = rd_peek(in, k);
    if (c == -2)
        return -1;
    if (c == -1) {
        in->pos += k;
        return 1;
    }
    if (c != '[')
        return perr(in, k, row, "'['");
    k = skip_ws(in, k + 1);
    if (rd_peek(in, k) == ']') {
        in->pos += k + 1;
        return 0;
    }
    for (;;) {
        k = skip_ws(in, k);
        size_t vs = f->data.len;
        int kind;
        if (read_value(in, &k, &f->data, row, &kind))
            return -1;
        rowf_add(f, 0, 0, vs, f->data.len, kind);
        k = skip_ws(in, k);
        c = rd_peek(in, k);
        if (c == ',') {
            k++;
            continue;
        }
        if (c == ']') {
            k++;
            break;
        }
        if (c == -2)
            return -1;
        return perr(in, k, row, "',' or ']'");
    }
    in->pos += k;
    return 0;
}

int json_split_row(rbuf *in, rowf *f, uint64_t row)
{
    rowf_clear(f);
    size_t k = 0;
    int c;
    for (;;) { /* separators between objects */
        k = skip_ws(in, k);
        c = rd_peek(in, k);
        if (c == ',' || c == '[' || c == ']' || c == ';')
            k++;
        else
            break;
    }
    if (c == -2)
        return -1;
    if (c == -1) {
        in->pos += k;
        return 1;
    }
    if (c != '{')
        return perr(in, k, row, "'{'");
    k = skip_ws(in, k + 1);
    if (rd_peek(in, k) == '}') {
        in->pos += k + 1;
        return 0;
    }
    for (;;) {
        k = skip_ws(in, k);
        if (rd_peek(in, k) != '"')
            return perr(in, k, row, "'\"' (field name)");
        size_t ns = f->data.len;
        if (read_str(in, &k, &f->data, row))
            return -1;
        size_t ne = f->data.len;
        k = skip_ws(in, k);
        if (rd_peek(in, k) != ':')
            return perr(in, k, row, "':'");
        k = skip_ws(in, k + 1);
        size_t vs = f->data.len;
        int kind;
        if (read_value(in, &k, &f->data, row, &kind))
            return -1;
        rowf_add(f, ns, ne, vs, f->data.len, kind);
        k = skip_ws(in, k);
        c = rd_peek(in, k);
        if (c == ',') {
            k++;
            continue;
        }
        if (c == '}') {
            k++;
            break;
        }
        if (c == -2)
            return -1;
        return perr(in, k, row, "',' or '}'");
    }
    in->pos += k;
    return 0;
}

int json_push_value(column *c, const char *s, size_t n, int kind, const text_opts *o)
{
    const type *b = type_base(c->type);
    if (kind == FK_NULL) {
        if (type_is_nullable(c->type))
            col_push_null(c);
        else
            col_push_default(c);
        return 0;
    }
    if (kind == FK_PLAIN && type_is_number(b) && b->id != T_BOOL && !type_is_decimal(b)) {
        if (n == 4 && memcmp(s, "true", 4) == 0)
            return text_parse(c, "1", 1, o);
        if (n == 5 && memcmp(s, "false", 5) == 0)
            return text_parse(c, "0", 1, o);
    }
    if (kind == FK_OBJECT && b->id != T_STRING)
        return err_set(ERR_INCORRECT_DATA, "Cannot read a JSON object into a column of type %s", c->type->name);
    return text_parse(c, s, n, o);
}
