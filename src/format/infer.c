/* Schema inference for CSV, TSV and JSONEachRow, following ClickHouse's rules with
 * default settings: numbers → Int64 / Float64 (exponent floats only in JSON, as
 * input_format_try_infer_exponent_floats = 0), true/false → Bool, YYYY-MM-DD → Date,
 * YYYY-MM-DD hh:mm:ss → DateTime (with a fraction: DateTime64(9)), [..] → Array (TSV,
 * JSON, and quoted CSV only), else String. Types of a column over rows merge
 * (Int64+Float64 → Float64, Date+DateTime → DateTime, anything else mixed → String); a
 * column that is always NULL is String. Results are made Nullable when
 * schema_inference_make_columns_nullable is set (arrays: their elements).
 *
 * CSV values (input_format_csv_use_best_effort_in_schema_inference = 1,
 * input_format_csv_try_infer_numbers_from_strings = 0): a value in quotes — "..." or,
 * for an unquoted field, '...' — is tried as Date/DateTime or Array only; anything that
 * would be a number or Bool inside quotes is String ("0" → String, "true" → String).
 * Unquoted values are tried as numbers, Bool, Date/DateTime, never as arrays.
 *
 * Header detection (input_format_csv_detect_header / input_format_tsv_detect_header,
 * plain CSV/TSV only), established against ClickHouse 26.7:
 *   - row 1 is a header candidate only if every value in it is a String (an empty or
 *     NULL value disqualifies it); a file of one row has no header;
 *   - if every value of row 2 is a String that names a data type, row 2 is a candidate
 *     types row and row 3 is the "check" row (no row 3: no header at all); otherwise
 *     row 2 is the check row;
 *   - NULL/empty values of the check row are filled from the following rows (the first
 *     non-NULL value of that column), reading on until none is left or the data ends;
 *   - row 1 is a header iff some check value is not a String. Then the names come from
 *     row 1 and, with a types row, the types from row 2 as written (not Nullable).
 * The reader does not need to be told: like ClickHouse it recognises the header by
 * comparing the first row with the schema's column names (reader.c). */
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

/* A CSV value inside quotes: only dates and arrays keep their type (numbers and Bool in
 * quotes are Strings, as input_format_csv_try_infer_numbers_from_strings = 0). */
static const type *infer_csv_quoted(const char *s, size_t n)
{
    const type *d = infer_datetime(s, n);
    if (d)
        return d;
    if (n && s[0] == '[') {
        const type *t = infer_array_text(s, n, false);
        /* "[]" has no element type to offer: String, as ClickHouse says */
        if (t != FAIL && t->inner != type_simple(T_NOTHING))
            return t;
    }
    return type_simple(T_STRING);
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
    if (fmt_kind == RK_CSV) {
        if (kind == FK_QUOTED)
            return infer_csv_quoted(s, n);
        if (n == 0)
            return NULL;
        /* ClickHouse strips single quotes around an unquoted CSV value before inference */
        if (n > 1 && s[0] == '\'' && s[n - 1] == '\'')
            return infer_csv_quoted(s + 1, n - 2);
    }
    if (n == 0)
        return NULL;
    const type *d = infer_datetime(s, n);
    if (d)
        return d;
    if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 5 && memcmp(s, "false", 5) == 0))
        return type_simple(T_BOOL);
    const type *t = infer_number(s, n, false);
    if (t)
        return t;
    if (fmt_kind == RK_TSV && s[0] == '[') {
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

/* Merges one row's field types into the accumulator (CSV/TSV: by position). */
static void merge_row(col_acc *a, const type *const *t, int n)
{
    for (int c = 0; c < n; c++) {
        while (c >= a->n)
            acc_add(a, NULL, 0);
        a->types[c] = merge(a->types[c], t[c]);
        /* ClickHouse falls back to String for mixed types */
        if (a->types[c] == FAIL)
            a->types[c] = type_simple(T_STRING);
    }
}

static bool all_string(const type *const *t, int n)
{
    for (int i = 0; i < n; i++)
        if (t[i] != type_simple(T_STRING))
            return false;
    return n > 0;
}

/* Rows read while deciding whether row 1 is a header; their types are merged into the
 * result afterwards (minus the header rows). */
typedef struct rowbuf {
    int n, cap;
    const type ***t;
    int *nt;
} rowbuf;

static const type **rowbuf_add(rowbuf *b, const fmt_fmtinfo *fi, const rowf *f)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 8;
        b->t = xrealloc(b->t, (size_t)b->cap * sizeof *b->t);
        b->nt = xrealloc(b->nt, (size_t)b->cap * sizeof *b->nt);
    }
    const type **t = xmalloc((size_t)(f->n ? f->n : 1) * sizeof *t);
    for (int i = 0; i < f->n; i++)
        t[i] = infer_field(fi->kind, (const char *)f->data.p + f->start[i], f->end[i] - f->start[i], f->kind[i]);
    b->t[b->n] = t;
    b->nt[b->n] = f->n;
    b->n++;
    return t;
}

static void rowbuf_free(rowbuf *b)
{
    for (int i = 0; i < b->n; i++)
        free(b->t[i]);
    free(b->t);
    free(b->nt);
}

/* ClickHouse reports data problems found during inference as CANNOT_EXTRACT_TABLE_STRUCTURE
 * wrapping the original INCORRECT_DATA exception. */
static int incorrect_data(const char *format, const char *what)
{
    return err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                   "The table structure cannot be extracted from a %s format file. Error:\nCode: 117. "
                   "DB::Exception: %s. (INCORRECT_DATA). You can specify the structure manually",
                   format, what);
}

int fmt_infer_schema(const char *format, rbuf *in, const fmt_settings *st, schema **out)
{
    *out = NULL;
    const fmt_fmtinfo *fi = rd_lookup(format);
    if (!fi)
        return -1;
    if (fi->kind == RK_ROWBINARY)
        return rowbinary_infer_schema(fi->name, in, st, out);
    if (fi->kind == RK_JSONC)
        return err_set(ERR_NOT_IMPLEMENTED, "Schema inference for %s is not implemented: specify the structure",
                       fi->name);
    if (fi->kind == RK_NATIVE || fi->kind == RK_RAWBLOB || fi->kind == RK_PARQUET)
        return (fi->kind == RK_NATIVE    ? native_infer_schema
                : fi->kind == RK_RAWBLOB ? rawblob_infer_schema
                                         : parquet_infer_schema)(in, st, out);
    char delim = st->csv_delimiter ? st->csv_delimiter : ',';
    int64_t maxrows = st->max_rows_to_read_for_schema_inference > 0 ? st->max_rows_to_read_for_schema_inference
                                                                     : 25000;
    rowf f = {0};
    col_acc a = {0};
    rowbuf rb = {0};
    char **hnames = NULL; /* row 1's values while it may be a header */
    const type **htypes = NULL;
    int nh = 0;
    int rc = 0;
    int64_t row = 0; /* rows read (for messages and the row limit) */
    int nfields = -1; /* CSV/TSV: every row must have as many values as the first */
    bool have_types = false, any = false;
    if (rd_skip_bom(in))
        goto fail;
#define SPLIT(row)                                                                                         \
    (fi->kind == RK_CSV ? csv_split_row(in, delim, &f, row)                                                \
                        : fi->kind == RK_TSV ? tsv_split_row(in, fi->raw, &f, row) : json_split_row(in, &f, row))
#define CHECK_COUNT()                                                                                      \
    do {                                                                                                   \
        if (nfields < 0)                                                                                   \
            nfields = f.n;                                                                                 \
        else if (f.n != nfields) {                                                                         \
            incorrect_data(format, "Rows have different amount of values");                               \
            goto fail;                                                                                     \
        }                                                                                                  \
    } while (0)
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
    } else if (fi->kind != RK_JSON && (fi->kind == RK_CSV ? st->csv_detect_header : st->tsv_detect_header)) {
        /* Header detection: see the rules at the top of this file. */
        bool header = false, types_row = false;
        rc = SPLIT(1);
        if (rc < 0)
            goto fail;
        if (rc == 1)
            goto decided;
        row = 1;
        nfields = f.n;
        const type **t1 = rowbuf_add(&rb, fi, &f);
        if (!all_string(t1, f.n))
            goto decided;
        nh = f.n;
        hnames = xcalloc((size_t)nh, sizeof *hnames);
        for (int i = 0; i < nh; i++)
            hnames[i] = xstrndup((const char *)f.data.p + f.start[i], f.end[i] - f.start[i]);
        rc = SPLIT(2);
        if (rc < 0)
            goto fail;
        if (rc == 1)
            goto decided;
        row = 2;
        /* rows 1 and 2 may differ in length (a header is compared with the types later) */
        nfields = f.n;
        const type **t2 = rowbuf_add(&rb, fi, &f);
        if (all_string(t2, f.n)) {
            htypes = xcalloc((size_t)f.n, sizeof *htypes);
            types_row = true;
            for (int i = 0; i < f.n && types_row; i++) {
                htypes[i] = type_parse((const char *)f.data.p + f.start[i], f.end[i] - f.start[i]);
                if (!htypes[i]) {
                    err_clear(); /* not a type name: an ordinary value */
                    types_row = false;
                }
            }
        }
        if (types_row) {
            rc = SPLIT(3);
            if (rc < 0)
                goto fail;
            if (rc == 1) {
                types_row = false; /* names and types but no data: ClickHouse sees no header */
                goto decided;
            }
            row = 3;
            nfields = f.n;
            rowbuf_add(&rb, fi, &f);
        }
        {
            int ci = rb.n - 1, nc = rb.nt[ci];
            const type **chk = xmalloc((size_t)(nc ? nc : 1) * sizeof *chk);
            memcpy(chk, rb.t[ci], (size_t)nc * sizeof *chk);
            for (;;) {
                bool unknown = false;
                for (int i = 0; i < nc; i++)
                    unknown |= chk[i] == NULL;
                if (!unknown || row >= maxrows)
                    break;
                rc = SPLIT((uint64_t)row + 1);
                if (rc < 0) {
                    free(chk);
                    goto fail;
                }
                if (rc == 1)
                    break;
                row++;
                if (nfields >= 0 && f.n != nfields) {
                    free(chk);
                    incorrect_data(format, "Rows have different amount of values");
                    goto fail;
                }
                const type **tn = rowbuf_add(&rb, fi, &f);
                for (int i = 0; i < nc && i < f.n; i++)
                    if (!chk[i])
                        chk[i] = tn[i];
            }
            for (int i = 0; i < nc; i++)
                header |= chk[i] && chk[i] != type_simple(T_STRING);
            free(chk);
        }
        if (!header)
            types_row = false;
    decided:
        any = rb.n > 0;
        if (header && rb.nt[1] != nh) {
            char m[200];
            snprintf(m, sizeof m, "The number of column names %d differs with the number of types %d", nh, rb.nt[1]);
            incorrect_data(format, m);
            goto fail;
        }
        if (header) {
            for (int i = 0; i < nh; i++) {
                for (int j = 0; j < i; j++)
                    if (strcmp(hnames[i], hnames[j]) == 0) {
                        char m[300];
                        snprintf(m, sizeof m, "Duplicate column name found while schema inference: \"%.200s\"",
                                 hnames[i]);
                        incorrect_data(format, m);
                        goto fail;
                    }
                acc_add(&a, hnames[i], strlen(hnames[i]));
                if (types_row)
                    a.types[i] = htypes[i];
            }
            have_types = types_row;
        }
        /* Without a header, an all-String row 1 followed by more rows does not count (not
         * even its length, as in ClickHouse): its types could only add String. */
        if (!have_types)
            for (int i = header ? (types_row ? 2 : 1) : (nh && rb.n > 1 ? 1 : 0); i < rb.n; i++)
                merge_row(&a, rb.t[i], rb.nt[i]);
    }
    if (!have_types) {
        for (; row < maxrows; row++) {
            rc = SPLIT((uint64_t)row + 1);
            if (rc < 0)
                goto fail;
            if (rc == 1)
                break;
            any = true;
            if (fi->kind != RK_JSON) {
                if (!fi->names)
                    CHECK_COUNT();
                for (int i = 0; i < f.n; i++) {
                    while (i >= a.n)
                        acc_add(&a, NULL, 0);
                    a.types[i] = merge(a.types[i], infer_field(fi->kind, (const char *)f.data.p + f.start[i],
                                                               f.end[i] - f.start[i], f.kind[i]));
                    if (a.types[i] == FAIL)
                        a.types[i] = type_simple(T_STRING);
                }
                continue;
            }
            for (int i = 0; i < f.n; i++) {
                const char *nm = (const char *)f.data.p + f.nstart[i];
                size_t nl = f.nend[i] - f.nstart[i];
                int c = -1;
                for (int j = 0; j < a.n; j++)
                    if (strlen(a.names[j]) == nl && memcmp(a.names[j], nm, nl) == 0)
                        c = j;
                if (c < 0)
                    c = acc_add(&a, nm, nl);
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
        /* A column whose header name is empty is left out, as ClickHouse does (the reader
         * then finds no column of that name and skips the field). */
        int kept = 0;
        for (int i = 0; i < a.n; i++)
            kept += !(a.names[i] && !a.names[i][0]);
        schema *s = schema_new(kept);
        for (int i = 0, o = 0; i < a.n; i++) {
            char nm[32];
            if (a.names[i] && !a.names[i][0])
                continue;
            if (!a.names[i])
                snprintf(nm, sizeof nm, "c%d", i + 1);
            const type *t = have_types ? a.types[i] : finish(a.types[i], st->schema_inference_make_columns_nullable);
            if (!t)
                t = type_simple(T_STRING);
            schema_set(s, o++, a.names[i] ? a.names[i] : nm, t);
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
    for (int i = 0; i < nh; i++)
        free(hnames[i]);
    free(hnames);
    free(htypes);
    rowbuf_free(&rb);
    rowf_free(&f);
    return rc;
#undef SPLIT
#undef CHECK_COUNT
}
