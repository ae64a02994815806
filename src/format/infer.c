/* Schema inference for CSV, TSV and JSONEachRow, following ClickHouse's rules with
 * default settings: numbers → Int64 / Float64 (exponent floats only in JSON, as
 * input_format_try_infer_exponent_floats = 0), true/false → Bool, YYYY-MM-DD → Date,
 * YYYY-MM-DD hh:mm:ss → DateTime (with a fraction: DateTime64(9)), [..] → Array, else
 * String; CSV quoted values are only tried as dates. Types of a column over rows merge
 * (Int64+Float64 → Float64, Date+DateTime → DateTime, anything else mixed → String); a
 * column that is always NULL is String. Results are made Nullable when
 * schema_inference_make_columns_nullable is set (arrays: their elements). */
#include "format/rd.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NULL = no information yet (only NULLs seen). FAIL marks an unmergeable mix. */
static const type FAIL_T;
#define FAIL (&FAIL_T)

static bool is_digits(const char *s, size_t n)
{
    if (!n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

static const type *infer_datetime(const char *s, size_t n)
{
    if (n >= 10 && is_digits(s, 4) && s[4] == '-' && is_digits(s + 5, 2) && s[7] == '-' && is_digits(s + 8, 2)) {
        if (n == 10)
            return type_simple(T_DATE);
        if (n >= 19 && (s[10] == ' ' || s[10] == 'T') && is_digits(s + 11, 2) && s[13] == ':' &&
            is_digits(s + 14, 2) && s[16] == ':' && is_digits(s + 17, 2)) {
            if (n == 19)
                return type_datetime(NULL);
            if (s[19] == '.' && is_digits(s + 20, n - 20))
                return type_datetime64(9, NULL);
        }
    }
    return NULL;
}

static const type *infer_number(const char *s, size_t n, bool exp_ok)
{
    size_t i = 0;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        i++;
    if (n - i == 3 && (strncmp(s + i, "inf", 3) == 0 || strncmp(s + i, "nan", 3) == 0))
        return type_simple(T_FLOAT64);
    size_t d0 = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    size_t intd = i - d0;
    if (i == n && intd) {
        /* integers outside Int64 become Float64 */
        if (intd < 19)
            return type_simple(T_INT64);
        char tmp[32];
        if (intd > 19)
            return type_simple(T_FLOAT64);
        memcpy(tmp, s + d0, 19);
        tmp[19] = 0;
        bool neg = s[0] == '-';
        return strcmp(tmp, neg ? "9223372036854775808" : "9223372036854775807") <= 0 ? type_simple(T_INT64)
                                                                                    : type_simple(T_FLOAT64);
    }
    size_t fd = 0;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++, fd++;
    }
    if (!intd && !fd)
        return NULL;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        if (!exp_ok)
            return NULL;
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            i++;
        if (!is_digits(s + i, n - i))
            return NULL;
        return type_simple(T_FLOAT64);
    }
    return i == n ? type_simple(T_FLOAT64) : NULL;
}

static const type *merge(const type *a, const type *b)
{
    if (a == FAIL || b == FAIL)
        return FAIL;
    if (!a)
        return b;
    if (!b || a == b)
        return a;
    type_id x = a->id, y = b->id;
    if ((x == T_INT64 && y == T_FLOAT64) || (x == T_FLOAT64 && y == T_INT64))
        return type_simple(T_FLOAT64);
    bool dx = x == T_DATE || x == T_DATETIME || x == T_DATETIME64, dy = y == T_DATE || y == T_DATETIME || y == T_DATETIME64;
    if (dx && dy)
        return x == T_DATETIME64 || y == T_DATETIME64 ? type_datetime64(9, NULL) : type_datetime(NULL);
    if (x == T_ARRAY && y == T_ARRAY) {
        const type *m = merge(a->inner == type_simple(T_NOTHING) ? NULL : a->inner,
                              b->inner == type_simple(T_NOTHING) ? NULL : b->inner);
        return m == FAIL ? FAIL : type_array(m ? m : type_simple(T_NOTHING));
    }
    return FAIL;
}

/* Elements of a quoted-style or JSON list at s[*i] == '['. */
static const type *infer_list(const char *s, size_t n, size_t *i, bool json, int depth);

static const type *infer_elem(const char *s, size_t n, size_t *i, bool json, int depth)
{
    while (*i < n && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r'))
        (*i)++;
    if (*i >= n)
        return FAIL;
    if (s[*i] == '[')
        return infer_list(s, n, i, json, depth + 1);
    if (s[*i] == '\'' || s[*i] == '"') {
        char q = s[(*i)++];
        size_t st = *i;
        bool esc = false;
        while (*i < n && s[*i] != q) {
            if (s[*i] == '\\') {
                esc = true;
                (*i)++;
            }
            (*i)++;
        }
        if (*i >= n)
            return FAIL;
        size_t en = (*i)++;
        const type *d = esc ? NULL : infer_datetime(s + st, en - st);
        return d ? d : type_simple(T_STRING);
    }
    if (s[*i] == '{')
        return FAIL;
    size_t st = *i;
    while (*i < n && s[*i] != ',' && s[*i] != ']' && s[*i] != ' ')
        (*i)++;
    size_t len = *i - st;
    if ((len == 4 && strncmp(s + st, "null", 4) == 0) || (len == 4 && strncmp(s + st, "NULL", 4) == 0))
        return NULL;
    if ((len == 4 && strncmp(s + st, "true", 4) == 0) || (len == 5 && strncmp(s + st, "false", 5) == 0))
        return type_simple(T_BOOL);
    const type *t = infer_number(s + st, len, json);
    return t ? t : FAIL;
}

static const type *infer_list(const char *s, size_t n, size_t *i, bool json, int depth)
{
    if (depth > 50)
        return FAIL;
    (*i)++; /* '[' */
    const type *acc = NULL;
    for (;;) {
        while (*i < n && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r'))
            (*i)++;
        if (*i < n && s[*i] == ']') {
            (*i)++;
            break;
        }
        const type *e = infer_elem(s, n, i, json, depth);
        acc = merge(acc, e);
        if (acc == FAIL)
            return FAIL;
        while (*i < n && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r'))
            (*i)++;
        if (*i < n && s[*i] == ',') {
            (*i)++;
            continue;
        }
        if (*i < n && s[*i] == ']') {
            (*i)++;
            break;
        }
        return FAIL;
    }
    return type_array(acc ? acc : type_simple(T_NOTHING));
}

static const type *infer_array_text(const char *s, size_t n, bool json)
{
    size_t i = 0;
    const type *t = infer_list(s, n, &i, json, 0);
    if (t == FAIL)
        return FAIL;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i == n ? t : FAIL;
}

static const type *infer_field(int fmt_kind, const char *s, size_t n, int kind)
{
    if (kind == FK_NULL)
        return NULL;
    if (fmt_kind == RK_JSON) {
        if (kind == FK_STRING) {
            const type *d = infer_datetime(s, n);
            return d ? d : type_simple(T_STRING);
        }
        if (kind == FK_ARRAY) {
            const type *t = infer_array_text(s, n, true);
            return t == FAIL ? type_simple(T_STRING) : t;
        }
        if (kind == FK_OBJECT)
            return type_simple(T_STRING);
        if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 5 && memcmp(s, "false", 5) == 0))
            return type_simple(T_BOOL);
        const type *t = infer_number(s, n, true);
        return t ? t : type_simple(T_STRING);
    }
    if (n == 0)
        return NULL;
    const type *d = infer_datetime(s, n);
    if (d)
        return d;
    if (kind == FK_QUOTED)
        return type_simple(T_STRING);
    if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 5 && memcmp(s, "false", 5) == 0))
        return type_simple(T_BOOL);
    const type *t = infer_number(s, n, false);
    if (t)
        return t;
    if (s[0] == '[') {
        t = infer_array_text(s, n, false);
        if (t != FAIL)
            return t;
    }
    return type_simple(T_STRING);
}

static const type *finish(const type *t, bool nullable)
{
    if (!t || t == FAIL || t->id == T_NOTHING)
        t = type_simple(T_STRING);
    if (t->id == T_ARRAY)
        return type_array(finish(t->inner, nullable));
    return nullable ? type_nullable(t) : t;
}

typedef struct col_acc {
    int n, cap;
    char **names;
    const type **types;
} col_acc;

static int acc_add(col_acc *a, const char *name, size_t nl)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->names = xrealloc(a->names, (size_t)a->cap * sizeof(char *));
        a->types = xrealloc(a->types, (size_t)a->cap * sizeof(type *));
    }
    a->names[a->n] = name ? xstrndup(name, nl) : NULL;
    a->types[a->n] = NULL;
    return a->n++;
}

int fmt_infer_schema(const char *format, rbuf *in, const fmt_settings *st, schema **out)
{
    *out = NULL;
    const fmt_fmtinfo *fi = rd_lookup(format);
    if (!fi)
        return -1;
    if (fi->kind == RK_NATIVE || fi->kind == RK_RAWBLOB)
        return (fi->kind == RK_NATIVE ? native_infer_schema : rawblob_infer_schema)(in, st, out);
    char delim = st->csv_delimiter ? st->csv_delimiter : ',';
    int64_t maxrows = st->max_rows_to_read_for_schema_inference > 0 ? st->max_rows_to_read_for_schema_inference
                                                                     : 25000;
    rowf f = {0};
    col_acc a = {0};
    int rc = 0;
    bool have_types = false, any = false;
    rd_skip_bom(in);
#define SPLIT(row)                                                                                         \
    (fi->kind == RK_CSV ? csv_split_row(in, delim, &f, row)                                                \
                        : fi->kind == RK_TSV ? tsv_split_row(in, fi->raw, &f, row) : json_split_row(in, &f, row))
    if (fi->names) {
        rc = SPLIT(1);
        if (rc < 0)
            goto fail;
        if (rc == 0) {
            any = true;
            for (int i = 0; i < f.n; i++)
                acc_add(&a, (const char *)f.data.p + f.start[i], f.end[i] - f.start[i]);
            if (fi->types) {
                rc = SPLIT(2);
                if (rc < 0)
                    goto fail;
                if (rc == 0) {
                    for (int i = 0; i < f.n && i < a.n; i++) {
                        const type *t = type_parse((const char *)f.data.p + f.start[i], f.end[i] - f.start[i]);
                        if (!t)
                            goto fail;
                        a.types[i] = t;
                    }
                    have_types = true;
                }
            }
        }
    }
    if (!have_types) {
        for (int64_t row = 0; row < maxrows; row++) {
            rc = SPLIT((uint64_t)row + 1);
            if (rc < 0)
                goto fail;
            if (rc == 1)
                break;
            any = true;
            for (int i = 0; i < f.n; i++) {
                int c = i;
                if (fi->kind == RK_JSON) {
                    const char *nm = (const char *)f.data.p + f.nstart[i];
                    size_t nl = f.nend[i] - f.nstart[i];
                    c = -1;
                    for (int j = 0; j < a.n; j++)
                        if (strlen(a.names[j]) == nl && memcmp(a.names[j], nm, nl) == 0)
                            c = j;
                    if (c < 0)
                        c = acc_add(&a, nm, nl);
                } else {
                    while (c >= a.n)
                        acc_add(&a, NULL, 0);
                }
                a.types[c] = merge(a.types[c], infer_field(fi->kind, (const char *)f.data.p + f.start[i],
                                                           f.end[i] - f.start[i], f.kind[i]));
                /* ClickHouse falls back to String for mixed types */
                if (a.types[c] == FAIL)
                    a.types[c] = type_simple(T_STRING);
            }
        }
    }
    if (!any || a.n == 0) {
        err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                "The table structure cannot be extracted from a %s format file: the file is empty. You can specify "
                "the structure manually",
                format);
        goto fail;
    }
    {
        schema *s = schema_new(a.n);
        for (int i = 0; i < a.n; i++) {
            char nm[32];
            if (!a.names[i])
                snprintf(nm, sizeof nm, "c%d", i + 1);
            const type *t = have_types ? a.types[i] : finish(a.types[i], st->schema_inference_make_columns_nullable);
            if (!t)
                t = type_simple(T_STRING);
            schema_set(s, i, a.names[i] ? a.names[i] : nm, t);
        }
        *out = s;
    }
    rc = 0;
    goto done;
fail:
    if (err_code() != ERR_CANNOT_EXTRACT_TABLE_STRUCTURE)
        err_prefix("The table structure cannot be extracted from a %s format file. Error: ", format);
    rc = -1;
done:
    for (int i = 0; i < a.n; i++)
        free(a.names[i]);
    free(a.names);
    free(a.types);
    rowf_free(&f);
    return rc;
#undef SPLIT
}
