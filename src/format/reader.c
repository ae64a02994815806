/* Input format registry and the block-producing reader loop shared by CSV, TSV and
 * JSONEachRow (the syntax of each lives in in_*.c; inference in infer.c). */
#include "format/rd.h"
#include "format/split.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- rowf ---- */

void rowf_clear(rowf *f)
{
    f->n = 0;
    f->data.len = 0;
    buf_reserve(&f->data, 1); /* data.p is never NULL, so data.p + offset is defined */
}

void rowf_add(rowf *f, size_t nstart, size_t nend, size_t start, size_t end, int kind)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 16;
        f->start = xrealloc(f->start, (size_t)f->cap * sizeof(size_t));
        f->end = xrealloc(f->end, (size_t)f->cap * sizeof(size_t));
        f->nstart = xrealloc(f->nstart, (size_t)f->cap * sizeof(size_t));
        f->nend = xrealloc(f->nend, (size_t)f->cap * sizeof(size_t));
        f->kind = xrealloc(f->kind, (size_t)f->cap);
    }
    f->start[f->n] = start;
    f->end[f->n] = end;
    f->nstart[f->n] = nstart;
    f->nend[f->n] = nend;
    f->kind[f->n] = (uint8_t)kind;
    f->n++;
}

void rowf_free(rowf *f)
{
    buf_free(&f->data);
    free(f->start);
    free(f->end);
    free(f->nstart);
    free(f->nend);
    free(f->kind);
    memset(f, 0, sizeof *f);
}

/* ---- registry ---- */

static const fmt_fmtinfo formats[] = {
    {"CSV", RK_CSV, false, false, false},
    {"CSVWithNames", RK_CSV, true, false, false},
    {"CSVWithNamesAndTypes", RK_CSV, true, true, false},
    {"TabSeparated", RK_TSV, false, false, false},
    {"TabSeparatedWithNames", RK_TSV, true, false, false},
    {"TabSeparatedWithNamesAndTypes", RK_TSV, true, true, false},
    {"TabSeparatedRaw", RK_TSV, false, false, true},
    {"TabSeparatedRawWithNames", RK_TSV, true, false, true},
    {"TabSeparatedRawWithNamesAndTypes", RK_TSV, true, true, true},
    {"JSONEachRow", RK_JSON, false, false, false},
    {"Native", RK_NATIVE, false, false, false},
    {"RawBLOB", RK_RAWBLOB, false, false, false},
    {"Parquet", RK_PARQUET, false, false, false},
    {"JSONCompactEachRow", RK_JSONC, false, false, false},
    {"JSONCompactEachRowWithNames", RK_JSONC, true, false, false},
    {"JSONCompactEachRowWithNamesAndTypes", RK_JSONC, true, true, false},
    {"RowBinary", RK_ROWBINARY, false, false, false},
    {"RowBinaryWithNames", RK_ROWBINARY, true, false, false},
    {"RowBinaryWithNamesAndTypes", RK_ROWBINARY, true, true, false},
};

static const struct {
    const char *alias, *name;
} aliases[] = {
    {"TSV", "TabSeparated"},
    {"TSVWithNames", "TabSeparatedWithNames"},
    {"TSVWithNamesAndTypes", "TabSeparatedWithNamesAndTypes"},
    {"TSVRaw", "TabSeparatedRaw"},
    {"Raw", "TabSeparatedRaw"},
    {"TSVRawWithNames", "TabSeparatedRawWithNames"},
    {"RawWithNames", "TabSeparatedRawWithNames"},
    {"TSVRawWithNamesAndTypes", "TabSeparatedRawWithNamesAndTypes"},
    {"RawWithNamesAndTypes", "TabSeparatedRawWithNamesAndTypes"},
    {"JSONLines", "JSONEachRow"},
    {"NDJSON", "JSONEachRow"},
};

const char *fmt_input_canonical(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (strcmp(name, aliases[i].alias) == 0)
            name = aliases[i].name;
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (strcmp(name, formats[i].name) == 0)
            return formats[i].name;
    return NULL;
}

const fmt_fmtinfo *rd_lookup(const char *name)
{
    const char *c = fmt_input_canonical(name);
    if (!c) {
        err_set(ERR_UNKNOWN_FORMAT, "Unknown input format %s", name ? name : "(null)");
        return NULL;
    }
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (strcmp(c, formats[i].name) == 0)
            return &formats[i];
    return NULL;
}

/* ClickHouse matches a file extension case-insensitively against format names, plus a
 * few registered extensions. Compression suffixes are stripped first. */
const char *fmt_from_filename(const char *path)
{
    static const char *const comp[] = {"gz", "gzip", "zst", "zstd", "xz", "lzma", "lz4", "bz2", "br", "deflate", "z"};
    static const struct {
        const char *ext, *fmt;
    } exts[] = {
        {"csv", "CSV"}, {"tsv", "TSV"}, {"tabseparated", "TabSeparated"}, {"json", "JSON"},
        {"jsonl", "JSONEachRow"}, {"ndjson", "JSONEachRow"}, {"jsoneachrow", "JSONEachRow"},
        {"parquet", "Parquet"}, {"native", "Native"}, {"arrow", "Arrow"}, {"arrowstream", "ArrowStream"},
        {"orc", "ORC"}, {"avro", "Avro"}, {"xml", "XML"}, {"values", "Values"}, {"markdown", "Markdown"},
        {"md", "Markdown"}, {"rowbinary", "RowBinary"}, {"msgpack", "MsgPack"}, {"npy", "Npy"},
        {"bson", "BSONEachRow"}, {"sql", "SQLInsert"}, {"csvwithnames", "CSVWithNames"},
        {"tsvwithnames", "TSVWithNames"}, {"jsoncompacteachrow", "JSONCompactEachRow"}, {"capnp", "CapnProto"},
        {"protobuf", "Protobuf"}, {"template", "Template"}, {"regexp", "Regexp"}, {"pretty", "Pretty"},
        {"prettycompact", "PrettyCompact"}, {"vertical", "Vertical"}, {"tskv", "TSKV"}, {"raw", "Raw"},
        {"rawblob", "RawBLOB"}, {"lineasstring", "LineAsString"}, {"jsonobjecteachrow", "JSONObjectEachRow"},
    };
    if (!path)
        return NULL;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t len = strlen(base);
    for (int round = 0; round < 2; round++) {
        const char *dot = NULL;
        for (size_t i = len; i > 0; i--)
            if (base[i - 1] == '.') {
                dot = base + i - 1;
                break;
            }
        if (!dot || dot == base)
            return NULL;
        const char *ext = dot + 1;
        size_t el = len - (size_t)(ext - base);
        if (round == 0) {
            bool is_comp = false;
            for (size_t i = 0; i < sizeof comp / sizeof *comp; i++)
                if (strlen(comp[i]) == el && strncasecmp(ext, comp[i], el) == 0)
                    is_comp = true;
            if (is_comp) {
                len = (size_t)(dot - base);
                continue;
            }
        }
        for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
            if (strlen(exts[i].ext) == el && strncasecmp(ext, exts[i].ext, el) == 0)
                return exts[i].fmt;
        return NULL;
    }
    return NULL;
}

/* ---- parallel parsing support ---- */

int fmt_find_row_start(const char *format, const char *p, size_t n, size_t *offset)
{
    const fmt_fmtinfo *fi = rd_lookup(format);
    if (!fi)
        return -1;
    if (fi->kind == RK_NATIVE || fi->kind == RK_RAWBLOB || fi->kind == RK_PARQUET || fi->kind == RK_ROWBINARY ||
        fi->kind == RK_JSONC)
        return err_set(ERR_UNKNOWN_FORMAT, "Format %s cannot be split into chunks for parallel parsing", format);
    if (fi->kind == RK_CSV) {
        /* A newline after which the rest of the line has an even number of quotes is
         * taken as a row end (see the caveat in split.h). */
        for (size_t i = 0; i < n; i++) {
            if (p[i] != '\n')
                continue;
            size_t q = 0, j = i + 1;
            while (j < n && p[j] != '\n')
                q += p[j++] == '"';
            if (q % 2 == 0) {
                *offset = i + 1;
                return 0;
            }
        }
        return 1;
    }
    if (fi->kind == RK_TSV) {
        const char *nl = memchr(p, '\n', n);
        if (!nl)
            return 1;
        *offset = (size_t)(nl - p) + 1;
        return 0;
    }
    /* JSONEachRow: a newline followed (after blanks) by '{' */
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '\n')
            continue;
        size_t j = i + 1;
        while (j < n && (p[j] == ' ' || p[j] == '\t' || p[j] == '\r' || p[j] == '\n'))
            j++;
        if (j < n && p[j] == '{') {
            *offset = j;
            return 0;
        }
    }
    return 1;
}

/* ---- the reader ---- */

struct fmt_reader {
    const fmt_fmtinfo *fi;
    rbuf *in;
    schema *s;
    fmt_settings st;
    text_opts to;
    uint64_t row;     /* rows of data read so far */
    bool started, done;
    bool pending;     /* f holds a data row read while looking for a header */
    uint64_t pending_off;
    rowf f;
    int nmap, *map;   /* file field → schema column or -1 (CSV/TSV with names) */
    int *jcache;      /* JSON: field position → column guess */
    int njcache;
    uint8_t *seen;
    uint8_t *skip;    /* columns the caller does not need: not parsed, NULL = parse all */
    rd_bin *bin;      /* binary formats: their own reader */
};

void fmt_reader_select(fmt_reader *r, const bool *needed)
{
    if (r->bin) {
        if (r->bin->select)
            r->bin->select(r->bin, needed);
        return;
    }
    if (!r->s)
        return;
    int n = r->s->n;
    free(r->skip);
    r->skip = xcalloc((size_t)n + 1, 1);
    for (int c = 0; c < n; c++)
        r->skip[c] = !needed[c];
}

int fmt_reader_new_ra(const char *format, const char *name, uint64_t size, fmt_read_at_fn read_at, void *ctx,
                      void (*ctx_free)(void *ctx), const fmt_cache_key *ck, const schema *s, const fmt_settings *st,
                      fmt_reader **out)
{
    const fmt_fmtinfo *fi = rd_lookup(format);
    if (!fi) {
        err_clear();
        return 1;
    }
    if (fi->kind != RK_PARQUET)
        return 1;
    fmt_reader *r = xcalloc(1, sizeof *r);
    r->fi = fi;
    if (parquet_reader_new_ra(name, size, read_at, ctx, ctx_free, ck, s, st, &r->bin)) {
        fmt_reader_free(r);
        return -1;
    }
    *out = r;
    return 0;
}

int fmt_infer_schema_ra(const char *format, const char *name, uint64_t size, fmt_read_at_fn read_at, void *ctx,
                        const fmt_cache_key *ck, schema **out)
{
    const fmt_fmtinfo *fi = rd_lookup(format);
    if (!fi || fi->kind != RK_PARQUET) {
        err_clear();
        return 1;
    }
    return parquet_infer_schema_ra(name, size, read_at, ctx, ck, out);
}

int fmt_reader_new(const char *format, rbuf *in, const schema *s, const fmt_settings *st, fmt_reader **out)
{
    const fmt_fmtinfo *fi = rd_lookup(format);
    if (!fi) {
        rbuf_free(in);
        return -1;
    }
    fmt_reader *r = xcalloc(1, sizeof *r);
    r->fi = fi;
    r->in = in;
    if (fi->kind == RK_ROWBINARY) {
        if (rowbinary_reader_new(fi->name, in, s, st, &r->bin)) {
            fmt_reader_free(r);
            return -1;
        }
        *out = r;
        return 0;
    }
    if (fi->kind == RK_NATIVE || fi->kind == RK_RAWBLOB || fi->kind == RK_PARQUET) {
        if ((fi->kind == RK_NATIVE    ? native_reader_new
             : fi->kind == RK_RAWBLOB ? rawblob_reader_new
                                      : parquet_reader_new)(in, s, st, &r->bin)) {
            fmt_reader_free(r);
            return -1;
        }
        *out = r;
        return 0;
    }
    r->s = schema_clone(s);
    r->st = *st;
    if (r->st.max_block_rows <= 0)
        r->st.max_block_rows = 65536;
    if (r->st.max_block_bytes <= 0)
        r->st.max_block_bytes = 1 << 20;
    if (!r->st.csv_delimiter)
        r->st.csv_delimiter = ',';
    r->to.tz = st->timezone ? st->timezone : "UTC";
    r->to.json_quote_64bit_integers = true;
    r->to.csv_delimiter = r->st.csv_delimiter;
    r->seen = xcalloc((size_t)(s->n ? s->n : 1), 1);
    *out = r;
    return 0;
}

int fmt_reader_count_rows(fmt_reader *r, int64_t *rows)
{
    if (r->bin && r->bin->count_rows)
        return r->bin->count_rows(r->bin, rows);
    return -1;
}

void fmt_reader_set_filters(fmt_reader *r, const fmt_filter *f, int n)
{
    if (r->bin && r->bin->set_filters)
        r->bin->set_filters(r->bin, f, n);
}

void fmt_reader_set_prefilter(fmt_reader *r, const bool *cols, fmt_prefilter_fn fn, void *ctx)
{
    if (r->bin && r->bin->set_prefilter)
        r->bin->set_prefilter(r->bin, cols, fn, ctx);
}

void fmt_reader_keep_codes(fmt_reader *r, const bool *coded)
{
    if (r->bin && r->bin->keep_codes)
        r->bin->keep_codes(r->bin, coded);
}

int fmt_reader_prefetch(fmt_reader *r)
{
    return r->bin && r->bin->prefetch ? r->bin->prefetch(r->bin) : 0;
}

int64_t fmt_reader_prefetch_bytes(fmt_reader *r)
{
    return r->bin && r->bin->prefetch_bytes ? r->bin->prefetch_bytes(r->bin) : -1;
}

int fmt_reader_prefetch_ranges(fmt_reader *r, fmt_range **out, int *n)
{
    *out = NULL;
    *n = 0;
    return r->bin && r->bin->prefetch_ranges ? r->bin->prefetch_ranges(r->bin, out, n) : -1;
}

void fmt_reader_free(fmt_reader *r)
{
    if (r)
        free(r->skip);
    if (!r)
        return;
    if (r->bin)
        r->bin->free(r->bin);
    rbuf_free(r->in);
    schema_free(r->s);
    rowf_free(&r->f);
    free(r->map);
    free(r->jcache);
    free(r->seen);
    free(r);
}

static int split(fmt_reader *r)
{
    if (r->fi->kind == RK_CSV)
        return csv_split_row(r->in, r->st.csv_delimiter, &r->f, r->row + 1);
    if (r->fi->kind == RK_TSV)
        return tsv_split_row(r->in, r->fi->raw, &r->f, r->row + 1);
    if (r->fi->kind == RK_JSONC)
        return json_compact_split_row(r->in, &r->f, r->row + 1);
    return json_split_row(r->in, &r->f, r->row + 1);
}

/* Builds the file field → schema column map from the names in the current row. */
static int map_names(fmt_reader *r)
{
    r->nmap = r->f.n;
    r->map = xcalloc((size_t)(r->f.n ? r->f.n : 1), sizeof(int));
    for (int i = 0; i < r->f.n; i++) {
        char *nm = xstrndup((const char *)r->f.data.p + r->f.start[i], r->f.end[i] - r->f.start[i]);
        r->map[i] = schema_find(r->s, nm);
        if (r->map[i] < 0 && !r->st.skip_unknown_fields) {
            err_set(ERR_INCORRECT_DATA, "Unknown field found in format header: '%s' at position %d", nm, i);
            free(nm);
            return -1;
        }
        free(nm);
    }
    return 0;
}

static bool field_is(const rowf *f, int i, const char *s)
{
    size_t n = f->end[i] - f->start[i];
    return strlen(s) == n && memcmp(f->data.p + f->start[i], s, n) == 0;
}

/* The current row as the type names of the header's columns
 * (input_format_with_types_use_header: each must be the schema's type exactly, as in
 * ClickHouse). 1 = they are, 0 = not type names (detect: the row is data; else an error),
 * -1 = error. */
static int check_types(fmt_reader *r, int nnames, bool must)
{
    const type **ft = xcalloc((size_t)(r->f.n ? r->f.n : 1), sizeof *ft);
    bool types = r->f.n == nnames;
    for (int i = 0; i < r->f.n && types; i++) {
        ft[i] = type_parse((const char *)r->f.data.p + r->f.start[i], r->f.end[i] - r->f.start[i]);
        if (!ft[i]) {
            if (must) {
                err_prefix("Cannot parse the type name of column %d in the header: ", i + 1);
                free(ft);
                return -1;
            }
            err_clear(); /* not a type name: the row is data */
            types = false;
        }
    }
    if (must && !types) {
        free(ft);
        return err_set(ERR_INCORRECT_DATA, "The header has %d type names for %d columns", r->f.n, nnames);
    }
    if (types && r->map)
        for (int i = 0; i < r->f.n; i++) {
            int c = r->map[i];
            if (c >= 0 && strcmp(ft[i]->name, r->s->types[c]->name) != 0) {
                err_set(ERR_INCORRECT_DATA, "Type of '%s' must be %s, not %s: (while reading header)", r->s->names[c],
                        r->s->types[c]->name, ft[i]->name);
                free(ft);
                return -1;
            }
        }
    free(ft);
    return types ? 1 : 0;
}

/* ClickHouse's reader-side header detection (input_format_csv/tsv_detect_header) for
 * plain CSV/TSV: the first row is a header when the set of its values is a subset of
 * the schema's column names or contains all of them. This is what makes a file whose
 * schema was inferred with a header (infer.c) skip that header, and it also applies to
 * an explicit structure. A following row of type names is then checked and skipped. */
static int detect_header(fmt_reader *r)
{
    uint64_t off = rbuf_offset(r->in);
    int rc = split(r);
    if (rc < 0)
        return -1;
    if (rc == 1)
        return 0;
    bool vals_in_names = true, names_in_vals = true;
    for (int i = 0; i < r->f.n && vals_in_names; i++) {
        bool found = false;
        for (int c = 0; c < r->s->n && !found; c++)
            found = field_is(&r->f, i, r->s->names[c]);
        vals_in_names = found;
    }
    for (int c = 0; c < r->s->n && names_in_vals; c++) {
        bool found = false;
        for (int i = 0; i < r->f.n && !found; i++)
            found = field_is(&r->f, i, r->s->names[c]);
        names_in_vals = found;
    }
    if (!vals_in_names && !names_in_vals) {
        r->pending = true; /* data, not a header */
        r->pending_off = off;
        return 0;
    }
    if (r->st.with_names_use_header && map_names(r))
        return -1;
    int nnames = r->f.n;
    off = rbuf_offset(r->in);
    rc = split(r);
    if (rc < 0)
        return -1;
    if (rc == 1)
        return 0;
    int types = check_types(r, nnames, false);
    if (types < 0)
        return -1;
    if (!types) {
        r->pending = true;
        r->pending_off = off;
    }
    return 0;
}

static int read_header(fmt_reader *r)
{
    if (rd_skip_bom(r->in))
        return -1;
    if (!r->fi->names) {
        if (r->fi->kind != RK_JSON && r->fi->kind != RK_JSONC && (r->fi->kind == RK_CSV ? r->st.csv_detect_header : r->st.tsv_detect_header))
            return detect_header(r);
        return 0;
    }
    int rc = split(r);
    if (rc < 0)
        return -1;
    if (rc == 1)
        return 0;
    if (r->st.with_names_use_header && map_names(r))
        return -1;
    if (r->fi->types) {
        int nnames = r->f.n;
        rc = split(r);
        if (rc < 0)
            return -1;
        if (rc == 0 && r->fi->kind == RK_JSONC && check_types(r, nnames, true) < 0)
            return -1;
    }
    return 0;
}

static int value_error(fmt_reader *r, int col, uint64_t off)
{
    return err_suffix(": (at row %llu)\n: Column %d,   name: %s, type: %s, at byte offset %llu of '%s'",
                      (unsigned long long)(r->row + 1), col, r->s->names[col], r->s->types[col]->name,
                      (unsigned long long)off, r->in->in->name ? r->in->in->name : "");
}

static void push_missing(column *c)
{
    if (type_is_nullable(c->type))
        col_push_null(c);
    else
        col_push_default(c);
}

/* Pushes field i of the current row into column c (CSV/TSV). */
static int push_text_field(fmt_reader *r, column *c, int i)
{
    const char *s = (const char *)r->f.data.p + r->f.start[i];
    size_t n = r->f.end[i] - r->f.start[i];
    int kind = r->f.kind[i];
    if (r->fi->kind == RK_JSONC)
        return json_push_value(c, s, n, kind, &r->to);
    const type *b = type_base(c->type);
    if (kind == FK_NULL) {
        if (type_is_nullable(c->type))
            col_push_null(c);
        else if (r->st.null_as_default)
            col_push_default(c);
        else
            return err_set(ERR_CANNOT_PARSE_TEXT, "Cannot insert NULL value into a column of type '%s'",
                           c->type->name);
        return 0;
    }
    if (r->fi->kind == RK_CSV && kind == FK_PLAIN) {
        /* input_format_csv_empty_as_default: an unquoted empty value is the default, NULL
         * for Nullable(String) too (a quoted "" stays an empty string) */
        if (n == 0 && ((b->id != T_STRING && b->id != T_FIXEDSTRING) || type_is_nullable(c->type))) {
            push_missing(c);
            return 0;
        }
        /* ClickHouse's CSV parsing of simple types skips a quote around the value, so
         * '2020-01-01' (which inference types as Date) reads as a Date */
        if (n >= 2 && s[0] == '\'' && s[n - 1] == '\'' && b->id != T_STRING && b->id != T_FIXEDSTRING &&
            b->id != T_ARRAY && b->id != T_TUPLE) {
            s++;
            n -= 2;
        }
    }
    if (kind == FK_QUOTED && type_phys(c->type)->id == T_NULLABLE) {
        /* "\N" in quotes is the text \N, not NULL */
        if (text_parse(c->inner, s, n, &r->to))
            return -1;
        col_nullable_commit(c, false);
        return 0;
    }
    if (n == 0 && r->fi->kind == RK_TSV && b->id != T_STRING && b->id != T_FIXEDSTRING &&
        type_is_nullable(c->type)) {
        col_push_null(c);
        return 0;
    }
    return text_parse(c, s, n, &r->to);
}

static int read_row_text(fmt_reader *r, block *b, uint64_t off)
{
    int ncols = r->s->n;
    if (r->map) {
        memset(r->seen, 0, (size_t)(ncols ? ncols : 1));
        for (int i = 0; i < r->f.n && i < r->nmap; i++) {
            int c = r->map[i];
            if (c < 0)
                continue;
            r->seen[c] = 1;
            if (r->skip && r->skip[c])
                continue;
            if (push_text_field(r, b->cols[c], i))
                return value_error(r, c, off);
        }
        if (r->f.n != r->nmap && !(r->f.n == 1 && r->f.end[0] == r->f.start[0] && r->nmap > 1))
            return err_set(ERR_INCORRECT_DATA,
                           "Expected %d fields but found %d: (at row %llu, byte offset %llu)", r->nmap, r->f.n,
                           (unsigned long long)(r->row + 1), (unsigned long long)off);
        for (int c = 0; c < ncols; c++)
            if (!r->seen[c] && !(r->skip && r->skip[c]))
                push_missing(b->cols[c]);
        return 0;
    }
    if (r->f.n < ncols) {
        char sep = r->fi->kind == RK_CSV ? r->st.csv_delimiter : '\t';
        return err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                       "Cannot parse input: expected '%s' before: '\\n': (at row %llu, byte offset %llu)\n"
                       ": Column %d,   name: %s, type: %s: the row has %d fields, %d expected",
                       sep == '\t' ? "\\t" : (char[2]){sep, 0}, (unsigned long long)(r->row + 1),
                       (unsigned long long)off, r->f.n, r->s->names[r->f.n], r->s->types[r->f.n]->name, r->f.n,
                       ncols);
    }
    if (r->f.n > ncols)
        return err_set(ERR_INCORRECT_DATA,
                       "Expected end of line: (at row %llu, byte offset %llu): the row has %d fields, %d expected",
                       (unsigned long long)(r->row + 1), (unsigned long long)off, r->f.n, ncols);
    for (int c = 0; c < ncols; c++)
        if (!(r->skip && r->skip[c]) && push_text_field(r, b->cols[c], c))
            return value_error(r, c, off);
    return 0;
}

static int read_row_json(fmt_reader *r, block *b, uint64_t off)
{
    int ncols = r->s->n;
    memset(r->seen, 0, (size_t)(ncols ? ncols : 1));
    if (r->njcache < r->f.n) {
        r->jcache = xrealloc(r->jcache, (size_t)r->f.n * sizeof(int));
        for (int i = r->njcache; i < r->f.n; i++)
            r->jcache[i] = -1;
        r->njcache = r->f.n;
    }
    for (int i = 0; i < r->f.n; i++) {
        const char *nm = (const char *)r->f.data.p + r->f.nstart[i];
        size_t nl = r->f.nend[i] - r->f.nstart[i];
        int c = r->jcache[i];
        if (c < 0 || strlen(r->s->names[c]) != nl || memcmp(r->s->names[c], nm, nl) != 0) {
            c = -1;
            for (int j = 0; j < ncols; j++)
                if (strlen(r->s->names[j]) == nl && memcmp(r->s->names[j], nm, nl) == 0) {
                    c = j;
                    break;
                }
            r->jcache[i] = c;
        }
        if (c < 0) {
            if (r->st.skip_unknown_fields)
                continue;
            return err_set(ERR_INCORRECT_DATA,
                           "Unknown field found while parsing JSONEachRow format: %.*s: (at row %llu, byte offset %llu)",
                           (int)nl, nm, (unsigned long long)(r->row + 1), (unsigned long long)off);
        }
        if (r->seen[c])
            return err_set(ERR_INCORRECT_DATA,
                           "Duplicate field found while parsing JSONEachRow format: %s: (at row %llu)",
                           r->s->names[c], (unsigned long long)(r->row + 1));
        r->seen[c] = 1;
        if (r->skip && r->skip[c])
            continue;
        if (json_push_value(b->cols[c], (const char *)r->f.data.p + r->f.start[i], r->f.end[i] - r->f.start[i],
                            r->f.kind[i], &r->to))
            return value_error(r, c, off);
    }
    for (int c = 0; c < ncols; c++)
        if (!r->seen[c] && !(r->skip && r->skip[c]))
            push_missing(b->cols[c]);
    return 0;
}

int fmt_reader_next(fmt_reader *r, block **out)
{
    *out = NULL;
    if (r->bin)
        return r->bin->next(r->bin, out);
    if (r->done)
        return 0;
    if (!r->started) {
        r->started = true;
        if (read_header(r))
            return -1;
    }
    block *b = block_new_empty(r->s);
    size_t rows = 0;
    for (;;) {
        uint64_t off = rbuf_offset(r->in);
        int rc;
        if (r->pending) {
            r->pending = false;
            off = r->pending_off;
            rc = 0;
        } else {
            rc = split(r);
        }
        if (rc < 0)
            goto fail;
        if (rc == 1) {
            r->done = true;
            break;
        }
        if (r->fi->kind == RK_JSON ? read_row_json(r, b, off) : read_row_text(r, b, off))
            goto fail;
        r->row++;
        rows++;
        if (rows >= (size_t)r->st.max_block_rows)
            break;
        if ((rows & 63) == 0 && (int64_t)block_bytes(b) >= r->st.max_block_bytes)
            break;
    }
    if (rows == 0) {
        block_free(b);
        return 0;
    }
    b->rows = rows;
    if (r->skip)
        for (int c = 0; c < b->ncols; c++)
            if (r->skip[c]) { /* unread columns: a constant default stands in */
                col_free(b->cols[c]);
                b->cols[c] = col_new_const(col_new_defaults(r->s->types[c], 1), rows);
            }
    *out = b;
    return 0;
fail:
    block_free(b);
    r->done = true;
    return -1;
}
