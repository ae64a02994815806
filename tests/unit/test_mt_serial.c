/* MergeTree Wide-part column serialization against parts written by ClickHouse 26.7
 * (tests/data/mergetree/serial/<case>/, made by tests/data/mergetree/make-serial-fixtures.js
 * with CODEC(NONE), so each .bin is a chain of uncompressed blocks). */
#include "check.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/text.h"
#include "storage/mergetree/serial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIR "tests/data/mergetree/serial/"

static bool load_file(const char *path, buf *out)
{
    out->len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char tmp[4096];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        buf_append(out, tmp, n);
    fclose(f);
    return true;
}

/* A .bin stream with its block headers stripped (method 0x02 = NONE). */
typedef struct stream {
    buf data;
    size_t blk_comp[64], blk_dec[64]; /* block start: offset in file, offset in data */
    int nblk;
    buf marks; /* uint64 triples */
    size_t pos, limit;
} stream;

static bool load_stream(const char *dir, const char *name, stream *s)
{
    char path[512];
    buf raw = {0};
    memset(s, 0, sizeof *s);
    snprintf(path, sizeof path, "%s/%s.bin", dir, name);
    if (!load_file(path, &raw)) {
        buf_free(&raw);
        return false;
    }
    size_t p = 0;
    while (p + 25 <= raw.len) {
        uint32_t csize, usize;
        memcpy(&csize, raw.p + p + 17, 4);
        memcpy(&usize, raw.p + p + 21, 4);
        if (raw.p[p + 16] != 0x02 || csize != usize + 9 || p + 16 + csize > raw.len || s->nblk == 64)
            break;
        s->blk_comp[s->nblk] = p;
        s->blk_dec[s->nblk++] = s->data.len;
        buf_append(&s->data, raw.p + p + 25, usize);
        p += 16 + csize;
    }
    bool ok = p == raw.len;
    buf_free(&raw);
    snprintf(path, sizeof path, "%s/%s.mrk2", dir, name);
    ok = load_file(path, &s->marks) && ok;
    s->limit = s->data.len;
    return ok;
}

static size_t nmarks(const stream *s) { return s->marks.len / 24; }
static uint64_t mark(const stream *s, size_t g, int k)
{
    uint64_t v;
    memcpy(&v, s->marks.p + g * 24 + (size_t)k * 8, 8);
    return v;
}
/* Decompressed position of mark g. */
static size_t mark_pos(const stream *s, size_t g)
{
    uint64_t comp = mark(s, g, 0);
    for (int b = 0; b < s->nblk; b++)
        if (s->blk_comp[b] == comp)
            return s->blk_dec[b] + mark(s, g, 1);
    if (comp == 0 && s->nblk == 0) /* nothing was ever written (all values empty) */
        return mark(s, g, 1);
    return (size_t)-1;
}

static int src_read(void *ctx, void *dst, size_t n)
{
    stream *s = ctx;
    if (n > s->limit - s->pos)
        return err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read all data: %zu bytes wanted at %zu, %zu left", n, s->pos,
                       s->limit - s->pos);
    memcpy(dst, s->data.p + s->pos, n);
    s->pos += n;
    return 0;
}

typedef struct sinkbuf {
    buf b;
    size_t marks[64];
    int nm;
} sinkbuf;
static void sink_write(void *ctx, const void *p, size_t n) { buf_append(&((sinkbuf *)ctx)->b, p, n); }

/* ---- one ClickHouse part ---- */

typedef struct colspec {
    char name[64];
    const type *t;
} colspec;

static int load_columns(const char *dir, colspec *cols, int max)
{
    char path[512];
    buf f = {0};
    snprintf(path, sizeof path, "%s/columns.txt", dir);
    if (!load_file(path, &f))
        return 0;
    int n = 0;
    char *save = NULL;
    for (char *line = strtok_r((char *)buf_cstr(&f), "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] != '`' || n == max)
            continue;
        char *end = strchr(line + 1, '`');
        if (!end)
            continue;
        snprintf(cols[n].name, sizeof cols[n].name, "%.*s", (int)(end - line - 1), line + 1);
        cols[n].t = type_parse_cstr(end + 2);
        if (cols[n].t)
            n++;
    }
    buf_free(&f);
    return n;
}

/* expected.tsv cell (row r, column k) */
static bool tsv_cell(const buf *tsv, size_t r, int k, const char **p, size_t *len)
{
    const char *s = (const char *)tsv->p, *e = s + tsv->len;
    for (size_t i = 0; i < r; i++) {
        s = memchr(s, '\n', (size_t)(e - s));
        if (!s)
            return false;
        s++;
    }
    const char *le = memchr(s, '\n', (size_t)(e - s));
    if (!le)
        le = e;
    for (int i = 0; i < k; i++) {
        s = memchr(s, '\t', (size_t)(le - s));
        if (!s)
            return false;
        s++;
    }
    const char *ce = memchr(s, '\t', (size_t)(le - s));
    *p = s;
    *len = (size_t)((ce ? ce : le) - s);
    return true;
}

/* Compares rows [0, c->len) of c with column k of expected.tsv rows [row0, ...). */
static int compare_rows(const column *c, const buf *tsv, int k, size_t row0, const char *what)
{
    text_opts o;
    text_opts_default(&o);
    o.tz = "UTC";
    buf t = {0};
    int bad = 0;
    for (size_t i = 0; i < c->len; i++) {
        t.len = 0;
        text_write(&t, c, i, TEXT_TSV, &o);
        const char *p = "";
        size_t n = 0;
        if (!tsv_cell(tsv, row0 + i, k, &p, &n) || n != t.len || memcmp(p, t.p, n) != 0) {
            if (bad++ < 3)
                fprintf(stderr, "%s row %zu: got '%s' want '%.*s'\n", what, row0 + i, buf_cstr(&t), (int)n, p);
        }
    }
    buf_free(&t);
    return bad;
}

/* Reads column col of the part from granule g0 on; returns the column or NULL. */
static column *read_from(const char *dir, const colspec *col, size_t g0, stream *ss, mt_serial *s)
{
    int ns = mt_serial_nstreams(s);
    mt_byte_src srcs[16];
    for (int k = 0; k < ns; k++) {
        ss[k].pos = g0 ? mark_pos(&ss[k], g0) : 0;
        srcs[k] = (mt_byte_src){src_read, &ss[k]};
    }
    (void)dir;
    column *c = col_new(col->t);
    if (g0) {
        /* the prefix is read once at the part's start, then the reader moves */
        for (int k = 0; k < ns; k++)
            ss[k].pos = 0;
        if (mt_serial_read_start(s, srcs, true) < 0)
            goto fail;
        for (int k = 0; k < ns; k++)
            ss[k].pos = mark_pos(&ss[k], g0);
        if (mt_serial_read_start(s, srcs, false) < 0)
            goto fail;
    } else if (mt_serial_read_start(s, srcs, true) < 0) {
        goto fail;
    }
    for (size_t g = g0; g < nmarks(&ss[0]); g++) {
        uint64_t rows = mark(&ss[0], g, 2);
        if (rows && mt_serial_read(s, c, rows, srcs) < 0)
            goto fail;
    }
    return c;
fail:
    col_free(c);
    return NULL;
}

/* The serialization options of column name from the part's serialization.json (ClickHouse
 * writes its keys in a fixed order: {"kind":…,"name":…,"num_defaults":…,"num_rows":…
 * [,"subcolumns":[{"kind":…},…]]}). No file: all false. */
static mt_serial_opts part_opts(const char *dir, const char *name)
{
    mt_serial_opts o = {0};
    char path[512];
    buf j = {0};
    snprintf(path, sizeof path, "%s/serialization.json", dir);
    if (!load_file(path, &j)) {
        buf_free(&j);
        return o;
    }
    const char *t = buf_cstr(&j);
    o.string_size_stream = strstr(t, "\"types_serialization_versions\":{\"string\":1}") != NULL;
    char key[128];
    snprintf(key, sizeof key, "\"name\":\"%s\",", name);
    const char *at = strstr(t, key);
    if (at) {
        o.sparse = at - t >= 16 && memcmp(at - 16, "\"kind\":\"Sparse\",", 16) == 0;
        const char *next = strstr(at + 1, "\"name\":");
        const char *sub = strstr(at, "\"subcolumns\":[");
        if (sub && (!next || sub < next)) {
            const char *end = strstr(sub, "]");
            int i = 0;
            for (const char *k = strstr(sub, "\"kind\":\""); k && k < end && i < 64; k = strstr(k + 1, "\"kind\":\""), i++)
                if (strncmp(k + 8, "Sparse", 6) == 0)
                    o.sparse_elems |= 1ull << i;
        }
    }
    buf_free(&j);
    return o;
}

/* The streams columns_substreams.txt lists for column name, space-separated ("" if the part
 * has no such file or column). */
static void part_substreams(const char *dir, const char *name, buf *out)
{
    char path[512];
    buf f = {0};
    out->len = 0;
    buf_puts(out, "");
    snprintf(path, sizeof path, "%s/columns_substreams.txt", dir);
    if (load_file(path, &f)) {
        char key[128];
        snprintf(key, sizeof key, "for column `%s`:\n", name);
        const char *p = strstr(buf_cstr(&f), key);
        if (p) {
            p += strlen(key);
            while (*p == '\t') {
                const char *e = strchr(p, '\n');
                if (!e)
                    break;
                if (out->len)
                    buf_putc(out, ' ');
                buf_append(out, p + 1, (size_t)(e - p - 1));
                p = e + 1;
            }
        }
    }
    buf_free(&f);
}

static void check_part(const char *cname, int nkeys)
{
    char dir[256];
    snprintf(dir, sizeof dir, DIR "%s", cname);
    colspec cols[32];
    int ncols = load_columns(dir, cols, 32);
    CHECK(ncols > 0);
    buf tsv = {0};
    char path[512];
    snprintf(path, sizeof path, "%s/expected.tsv", dir);
    CHECK(load_file(path, &tsv));
    column *keys[8] = {0};
    size_t grows[64];
    int ngr = 0;
    for (int ci = 0; ci < ncols; ci++) {
        mt_serial_opts opts = part_opts(dir, cols[ci].name);
        mt_serial *s = mt_serial_new_ex(cols[ci].name, cols[ci].t, &opts);
        int ns = mt_serial_nstreams(s);
        /* the stream list and its order are ClickHouse's */
        buf want = {0}, got = {0};
        part_substreams(dir, cols[ci].name, &want);
        buf_puts(&got, "");
        for (int k = 0; k < ns; k++) {
            if (k)
                buf_putc(&got, ' ');
            buf_puts(&got, mt_serial_stream_name(s, k));
        }
        if (want.len)
            CHECK_STR(buf_cstr(&got), buf_cstr(&want));
        buf_free(&want);
        buf_free(&got);
        stream ss[16];
        bool ok = ns <= 16;
        for (int k = 0; ok && k < ns; k++) {
            ok = load_stream(dir, mt_serial_stream_name(s, k), &ss[k]);
            if (!ok)
                fprintf(stderr, "%s: missing stream %s\n", cname, mt_serial_stream_name(s, k));
        }
        CHECK(ok);
        if (!ok) {
            mt_serial_free(s);
            continue;
        }
        /* whole part */
        column *c = read_from(dir, &cols[ci], 0, ss, s);
        if (!c)
            fprintf(stderr, "%s.%s: %s\n", cname, cols[ci].name, err_msg());
        CHECK(c != NULL);
        char what[128];
        snprintf(what, sizeof what, "%s.%s", cname, cols[ci].name);
        if (c) {
            CHECK(compare_rows(c, &tsv, ci, 0, what) == 0);
            if (ci < nkeys)
                keys[ci] = col_ref(c);
        }
        /* from the marks of granule 1 and of the last granule */
        size_t nm = nmarks(&ss[0]);
        ngr = 0;
        size_t rsum = 0;
        for (size_t g = 0; g < nm; g++) {
            grows[ngr++] = rsum;
            rsum += mark(&ss[0], g, 2);
        }
        size_t probe[2] = {1, nm >= 2 ? nm - 2 : 1};
        for (int pi = 0; pi < 2; pi++) {
            size_t g = probe[pi];
            if (g >= nm)
                continue;
            column *m = read_from(dir, &cols[ci], g, ss, s);
            CHECK(m != NULL);
            if (m) {
                CHECK(compare_rows(m, &tsv, ci, grows[g], what) == 0);
                col_free(m);
            }
        }
        /* the writer reproduces ClickHouse's bytes and marks */
        if (c) {
            mt_serial *w = mt_serial_new_ex(cols[ci].name, cols[ci].t, &opts);
            sinkbuf sb[16];
            mt_byte_sink sinks[16];
            memset(sb, 0, sizeof sb);
            for (int k = 0; k < ns; k++)
                sinks[k] = (mt_byte_sink){sink_write, &sb[k]};
            mt_serial_write_prefix(w, sinks);
            size_t from = 0;
            for (size_t g = 0; g < nm; g++) {
                size_t rows = mark(&ss[0], g, 2);
                if (rows == 0 && g == nm - 1) /* the final mark: taken after the suffix */
                    break;
                for (int k = 0; k < ns; k++)
                    if (sb[k].nm < 64)
                        sb[k].marks[sb[k].nm++] = sb[k].b.len;
                mt_serial_write(w, c, from, rows, sinks);
                from += rows;
            }
            mt_serial_write_suffix(w, sinks);
            for (int k = 0; k < ns; k++)
                if (sb[k].nm < 64 && (size_t)sb[k].nm < nm)
                    sb[k].marks[sb[k].nm++] = sb[k].b.len;
            for (int k = 0; k < ns; k++) {
                bool same = sb[k].b.len == ss[k].data.len &&
                            (sb[k].b.len == 0 || memcmp(sb[k].b.p, ss[k].data.p, sb[k].b.len) == 0);
                if (!same)
                    fprintf(stderr, "%s stream %s: written bytes differ (%zu vs %zu)\n", cname,
                            mt_serial_stream_name(s, k), sb[k].b.len, ss[k].data.len);
                CHECK(same);
                for (size_t g = 0; g < nm && g < 64; g++)
                    {
                    CHECK(sb[k].marks[g] == mark_pos(&ss[k], g));
                    if (sb[k].marks[g] != mark_pos(&ss[k], g))
                        fprintf(stderr, "%s %s mark %zu: %zu vs %zu\n", cname, mt_serial_stream_name(s, k), g,
                                sb[k].marks[g], mark_pos(&ss[k], g));
                }
                buf_free(&sb[k].b);
            }
            mt_serial_free(w);
        }
        /* truncated streams fail cleanly */
        for (int k = 0; k < ns; k++) {
            size_t full = ss[k].data.len;
            size_t cuts[3] = {full / 2, full ? full - 1 : 0, full > 9 ? 9 : 0};
            /* (a sparse column ending in a non-default row never needs the final
             * end-of-granule token, as in ClickHouse: cutting into it goes unnoticed) */
            const char *sn = mt_serial_stream_name(s, k);
            bool sparse_idx = strlen(sn) > 11 && strcmp(sn + strlen(sn) - 11, ".sparse.idx") == 0;
            for (int ti = 0; ti < 3; ti++) {
                if (cuts[ti] >= full || (ti == 1 && sparse_idx))
                    continue;
                ss[k].limit = cuts[ti];
                column *t = read_from(dir, &cols[ci], 0, ss, s);
                CHECK(t == NULL);
                col_free(t);
                ss[k].limit = full;
            }
        }
        /* garbage: every byte flipped in turn must never crash */
        for (int k = 0; k < ns; k++) {
            for (size_t i = 0; i < ss[k].data.len; i++) {
                uint8_t keep = ss[k].data.p[i];
                ss[k].data.p[i] ^= (uint8_t)(0xA5 + i);
                col_free(read_from(dir, &cols[ci], 0, ss, s));
                ss[k].data.p[i] = keep;
            }
        }
        for (int k = 0; k < ns; k++) {
            buf_free(&ss[k].data);
            buf_free(&ss[k].marks);
        }
        col_free(c);
        mt_serial_free(s);
    }
    /* primary.idx: the key columns' values at each granule's first row and at the last row */
    if (nkeys) {
        buf idx = {0};
        snprintf(path, sizeof path, "%s/primary.idx", dir);
        CHECK(load_file(path, &idx));
        buf mine = {0};
        size_t nrows = keys[0] ? keys[0]->len : 0;
        for (int g = 0; g <= ngr; g++) {
            size_t r = g < ngr ? grows[g] : nrows - 1;
            if (g < ngr && (r >= nrows))
                continue;
            if (g == ngr && ngr && grows[ngr - 1] == nrows) /* a final mark already covers it */
                r = nrows - 1;
            for (int k = 0; k < nkeys; k++)
                if (keys[k])
                    mt_value_write(keys[k], r, &mine);
        }
        CHECK(mine.len == idx.len && memcmp(mine.p, idx.p, idx.len) == 0);
        /* and reads back */
        column *rk[8];
        for (int k = 0; k < nkeys; k++)
            rk[k] = col_new(cols[k].t);
        size_t pos = 0;
        while (pos < idx.len) {
            int k;
            for (k = 0; k < nkeys; k++) {
                size_t used;
                if (mt_value_read(rk[k], idx.p + pos, idx.len - pos, &used) < 0)
                    break;
                pos += used;
            }
            if (k < nkeys)
                break;
        }
        CHECK(pos == idx.len);
        buf again = {0};
        for (size_t r = 0; r < rk[0]->len; r++)
            for (int k = 0; k < nkeys; k++)
                mt_value_write(rk[k], r, &again);
        CHECK(again.len == idx.len && memcmp(again.p, idx.p, idx.len) == 0);
        /* truncated values fail */
        for (size_t cut = 0; cut < idx.len && cut < 40; cut++) {
            column *t = col_new(cols[0].t);
            size_t used;
            int rc = 0;
            size_t p2 = 0;
            while (rc == 0 && p2 < cut) {
                rc = mt_value_read(t, idx.p + p2, cut - p2, &used);
                if (rc == 0)
                    p2 += used;
            }
            col_free(t);
        }
        for (int k = 0; k < nkeys; k++)
            col_free(rk[k]);
        buf_free(&again);
        buf_free(&mine);
        buf_free(&idx);
    }
    for (int k = 0; k < 8; k++)
        col_free(keys[k]);
    buf_free(&tsv);
}

/* ---- names ---- */

static void test_names(void)
{
    buf b = {0};
    mt_escape_file_name("we ird.c/é", &b);
    CHECK_STR(buf_cstr(&b), "we%20ird%2Ec%2F%C3%A9");
    buf_free(&b);
    struct {
        const char *name, *type, *streams;
    } cases[] = {
        {"x", "UInt8", "x"},
        {"n", "Nullable(String)", "n.null n"},
        {"a", "Array(Nullable(Int32))", "a.size0 a.null a"},
        {"aa", "Array(Array(String))", "aa.size0 aa.size1 aa"},
        {"t", "Tuple(x Int8, y Array(String))", "t%2Ex t%2Ey.size0 t%2Ey"},
        {"t", "Tuple(Int8, String)", "t%2E1 t%2E2"},
        {"l", "LowCardinality(Nullable(String))", "l.dict l"},
        {"al", "Array(LowCardinality(String))", "al.dict al.size0 al"},
        {"n.x", "Array(UInt8)", "n.size0 n%2Ex"},
        {"at", "Array(Tuple(a Nullable(UInt8), b String))", "at.size0 at%2Ea.null at%2Ea at%2Eb"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        mt_serial *s = mt_serial_new(cases[i].name, type_parse_cstr(cases[i].type));
        buf got = {0};
        for (int k = 0; k < mt_serial_nstreams(s); k++) {
            if (k)
                buf_putc(&got, ' ');
            buf_puts(&got, mt_serial_stream_name(s, k));
        }
        CHECK_STR(buf_cstr(&got), cases[i].streams);
        CHECK(mt_serial_stream_name(s, 99) == NULL);
        buf_free(&got);
        mt_serial_free(s);
    }
}

static void test_names_ex(void)
{
    struct {
        const char *name, *type;
        mt_serial_opts o;
        const char *streams;
    } cases[] = {
        {"s", "String", {.string_size_stream = true}, "s.size s"},
        {"n", "Nullable(String)", {.string_size_stream = true}, "n.null n.size n"},
        {"aa", "Array(Array(String))", {.string_size_stream = true}, "aa.size0 aa.size1 aa.size aa"},
        {"t", "Tuple(x Int8, y String)", {.string_size_stream = true}, "t%2Ex t%2Ey.size t%2Ey"},
        {"l", "LowCardinality(String)", {.string_size_stream = true}, "l.dict l"},
        {"al", "Array(LowCardinality(String))", {.string_size_stream = true}, "al.dict al.size0 al"},
        {"f", "FixedString(3)", {.string_size_stream = true}, "f"},
        {"n.x", "Array(String)", {.string_size_stream = true}, "n.size0 n%2Ex.size n%2Ex"},
        {"s", "String", {.string_size_stream = true, .sparse = true}, "s.sparse.idx s.size s"},
        {"u", "UInt64", {.sparse = true}, "u.sparse.idx u"},
        {"t", "Tuple(a UInt8, b String, c String)", {.string_size_stream = true, .sparse_elems = 5},
         "t%2Ea.sparse.idx t%2Ea t%2Eb.size t%2Eb t%2Ec.sparse.idx t%2Ec.size t%2Ec"},
        {"a", "Array(UInt8)", {.sparse = true}, "a.size0 a"}, /* not a sparse type: ignored */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        mt_serial *s = mt_serial_new_ex(cases[i].name, type_parse_cstr(cases[i].type), &cases[i].o);
        buf got = {0};
        for (int k = 0; k < mt_serial_nstreams(s); k++) {
            if (k)
                buf_putc(&got, ' ');
            buf_puts(&got, mt_serial_stream_name(s, k));
        }
        CHECK_STR(buf_cstr(&got), cases[i].streams);
        buf_free(&got);
        mt_serial_free(s);
    }
}

/* Sparse columns read in pieces that do not follow the granules (a group of defaults and
 * its value split between reads, reads spanning granule ends): the same rows. */
static void sparse_partial_reads(void)
{
    const char *dir = DIR "sparse";
    const char *names[] = {"s", "fs", "f", "tu"};
    colspec cols[16];
    int ncols = load_columns(dir, cols, 16);
    buf tsv = {0};
    CHECK(load_file(DIR "sparse/expected.tsv", &tsv));
    for (size_t ni = 0; ni < sizeof names / sizeof *names; ni++) {
        int ci = 0;
        while (ci < ncols && strcmp(cols[ci].name, names[ni]) != 0)
            ci++;
        CHECK(ci < ncols);
        if (ci == ncols)
            continue;
        mt_serial_opts o = part_opts(dir, names[ni]);
        CHECK(o.sparse || o.sparse_elems);
        mt_serial *s = mt_serial_new_ex(names[ni], cols[ci].t, &o);
        int ns = mt_serial_nstreams(s);
        stream ss[8];
        mt_byte_src srcs[8];
        bool ok = ns <= 8;
        for (int k = 0; ok && k < ns; k++) {
            ok = load_stream(dir, mt_serial_stream_name(s, k), &ss[k]);
            srcs[k] = (mt_byte_src){src_read, &ss[k]};
        }
        CHECK(ok);
        for (size_t step = 1; ok && step <= 7; step += 3) {
            for (int k = 0; k < ns; k++)
                ss[k].pos = 0;
            column *c = col_new(cols[ci].t);
            CHECK(mt_serial_read_start(s, srcs, true) == 0);
            for (size_t r = 0; r < 40; r += step)
                CHECK(mt_serial_read(s, c, r + step <= 40 ? step : 40 - r, srcs) == 0);
            CHECK(c->len == 40);
            CHECK(compare_rows(c, &tsv, ci, 0, names[ni]) == 0);
            col_free(c);
        }
        /* corrupt offsets: an error or some rows, never a crash; reading past the end fails */
        if (ok) {
            for (int k = 0; k < ns; k++)
                ss[k].pos = 0;
            column *c = col_new(cols[ci].t);
            CHECK(mt_serial_read_start(s, srcs, true) == 0);
            CHECK(mt_serial_read(s, c, 40, srcs) == 0);
            CHECK(mt_serial_read(s, c, 1, srcs) < 0);
            CHECK(c->len == 40);
            col_free(c);
        }
        for (int k = 0; k < ns; k++) {
            buf_free(&ss[k].data);
            buf_free(&ss[k].marks);
        }
        mt_serial_free(s);
    }
    buf_free(&tsv);
}

/* ---- LowCardinality variants ClickHouse's MergeTree writer does not produce by default ---- */

static void lc_roundtrip(const char *tname, size_t maxdict, bool nulls)
{
    const type *t = type_parse_cstr(tname);
    column *c = col_new(t);
    const size_t N = 40, G = 3;
    for (size_t i = 0; i < N; i++) {
        if (nulls && i % 5 == 0) {
            col_push_null(c);
            continue;
        }
        char v[16];
        int n = snprintf(v, sizeof v, "k%zu", (i * 7) % 13);
        if (i % 6 == 1)
            n = 0; /* the default value */
        if (nulls) {
            col_push_str(c->inner, v, (size_t)n);
            col_nullable_commit(c, false);
        } else {
            col_push_str(c, v, (size_t)n);
        }
    }
    mt_serial *w = mt_serial_new("l", t);
    mt_serial_set_lc_max_dict(w, maxdict);
    sinkbuf sb[2];
    memset(sb, 0, sizeof sb);
    mt_byte_sink sinks[2] = {{sink_write, &sb[0]}, {sink_write, &sb[1]}};
    mt_serial_write_prefix(w, sinks);
    for (size_t from = 0; from < N; from += G) {
        for (int k = 0; k < 2; k++)
            sb[k].marks[sb[k].nm++] = sb[k].b.len;
        mt_serial_write(w, c, from, from + G <= N ? G : N - from, sinks);
    }
    mt_serial_write_suffix(w, sinks);
    mt_serial_free(w);

    stream ss[2];
    memset(ss, 0, sizeof ss);
    for (int k = 0; k < 2; k++) {
        buf_append(&ss[k].data, sb[k].b.p, sb[k].b.len);
        ss[k].limit = ss[k].data.len;
    }
    mt_byte_src srcs[2] = {{src_read, &ss[0]}, {src_read, &ss[1]}};
    for (size_t g0 = 0; g0 < (size_t)sb[0].nm; g0++) {
        mt_serial *r = mt_serial_new("l", t);
        ss[0].pos = ss[1].pos = 0;
        CHECK(mt_serial_read_start(r, srcs, true) == 0);
        if (g0) {
            for (int k = 0; k < 2; k++)
                ss[k].pos = sb[k].marks[g0];
            CHECK(mt_serial_read_start(r, srcs, false) == 0);
        }
        column *got = col_new(t);
        size_t from = g0 * G;
        int rc = 0;
        for (size_t f = from; f < N && rc == 0; f += G)
            rc = mt_serial_read(r, got, f + G <= N ? G : N - f, srcs);
        if (rc)
            fprintf(stderr, "lc %s max %zu from granule %zu: %s\n", tname, maxdict, g0, err_msg());
        CHECK(rc == 0);
        CHECK(got->len == N - from);
        bool same = rc == 0;
        for (size_t i = 0; same && i < got->len; i++)
            same = col_equal_rows(got, i, c, from + i) && col_is_null(got, i) == col_is_null(c, from + i);
        CHECK(same);
        col_free(got);
        mt_serial_free(r);
    }
    /* the forms the writer picked */
    uint64_t flags0;
    memcpy(&flags0, sb[1].b.p, 8);
    if (maxdict == 0)
        CHECK(flags0 == (0x200 | 0x400));
    else
        CHECK((flags0 & 0x500) == 0x500);
    if (maxdict && maxdict < 13) { /* the dictionary filled up: several dictionaries in .dict */
        uint64_t n1;
        memcpy(&n1, sb[0].b.p + 8, 8);
        CHECK(n1 == maxdict);
    }
    for (int k = 0; k < 2; k++) {
        buf_free(&sb[k].b);
        buf_free(&ss[k].data);
    }
    col_free(c);
}

/* A chunk ClickHouse could write after its dictionary filled: shared dictionary plus
 * additional keys, indexes past the dictionary pointing at them. */
static void lc_handmade(void)
{
    const type *t = type_parse_cstr("LowCardinality(Nullable(String))");
    buf dict = {0}, keys = {0};
    uint64_t v = 1;
    buf_append(&dict, &v, 8);
    v = 3;
    buf_append(&dict, &v, 8);
    buf_append(&dict, "\0\0\1a", 4); /* NULL, '', 'a' */
    v = 0x100 | 0x200 | 0x400 | 1;   /* UInt16 indexes */
    buf_append(&keys, &v, 8);
    v = 2;
    buf_append(&keys, &v, 8);
    buf_append(&keys, "\1b\2cc", 5);
    v = 5;
    buf_append(&keys, &v, 8);
    uint16_t ix[5] = {0, 1, 2, 3, 4};
    buf_append(&keys, ix, sizeof ix);
    stream ss[2];
    memset(ss, 0, sizeof ss);
    ss[0].data = dict;
    ss[1].data = keys;
    ss[0].limit = dict.len;
    ss[1].limit = keys.len;
    mt_byte_src srcs[2] = {{src_read, &ss[0]}, {src_read, &ss[1]}};
    mt_serial *r = mt_serial_new("l", t);
    CHECK(mt_serial_read_start(r, srcs, true) == 0);
    column *got = col_new(t);
    CHECK(mt_serial_read(r, got, 2, srcs) == 0); /* a chunk read in two pieces */
    CHECK(mt_serial_read(r, got, 3, srcs) == 0);
    CHECK(got->len == 5);
    if (got->len == 5) {
        CHECK(col_is_null(got, 0));
        const char *want[] = {"", "", "a", "b", "cc"};
        for (int i = 1; i < 5; i++) {
            size_t n;
            const char *p = col_str(got->inner, (size_t)i, &n);
            CHECK(!col_is_null(got, (size_t)i) && n == strlen(want[i]) && memcmp(p, want[i], n) == 0);
        }
    }
    /* an index past both key sets is an error, not a crash */
    ss[1].pos = 8;
    ss[1].data.p[keys.len - 2] = 9;
    ss[0].pos = 8;
    CHECK(mt_serial_read_start(r, srcs, false) == 0);
    CHECK(mt_serial_read(r, got, 5, srcs) < 0);
    CHECK(err_code() == ERR_INCORRECT_DATA);
    /* a bad version */
    ss[0].pos = 0;
    ss[0].data.p[0] = 7;
    CHECK(mt_serial_read_start(r, srcs, true) < 0);
    col_free(got);
    mt_serial_free(r);
    buf_free(&dict);
    buf_free(&keys);
}

int main(void)
{
    test_names();
    check_part("nums", 3);
    check_part("nested", 1);
    check_part("lc", 1);
    check_part("strv1", 1);
    check_part("sparse", 1);
    test_names_ex();
    sparse_partial_reads();
    lc_roundtrip("LowCardinality(String)", 8192, false);
    lc_roundtrip("LowCardinality(String)", 4, false);
    lc_roundtrip("LowCardinality(String)", 0, false);
    lc_roundtrip("LowCardinality(Nullable(String))", 8192, true);
    lc_roundtrip("LowCardinality(Nullable(String))", 5, true);
    lc_roundtrip("LowCardinality(Nullable(String))", 0, true);
    lc_handmade();
    return check_done("mt_serial");
}
