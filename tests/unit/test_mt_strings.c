/* String columns of MergeTree parts read in place (mt_byte_src.peek) and read
 * dictionary-coded (mt_serial_read_codes): the same values as written, whatever the
 * windows the source exposes (values and their varuint lengths split across them), in both
 * String serializations; the coding dictionary never changes once it is shared; a stream
 * that ends early is an error, not a crash. */
#include "check.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/type.h"
#include "storage/mergetree/serial.h"

#include <stdlib.h>
#include <string.h>

/* A stream in memory whose peek shows at most `window` bytes at a time (the blocks of a
 * compressed file). */
typedef struct wstream {
    buf data;
    size_t pos, window;
} wstream;

static int w_read(void *ctx, void *dst, size_t n)
{
    wstream *s = ctx;
    if (n > s->data.len - s->pos)
        return err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read all data: %zu bytes wanted, %zu left", n,
                       s->data.len - s->pos);
    memcpy(dst, s->data.p + s->pos, n);
    s->pos += n;
    return 0;
}

static int w_peek(void *ctx, const uint8_t **p, size_t *avail)
{
    wstream *s = ctx;
    size_t left = s->data.len - s->pos;
    /* windows end at multiples of `window`, as blocks do */
    size_t w = s->window - s->pos % s->window;
    *avail = left < w ? left : w;
    *p = s->data.p ? s->data.p + s->pos : (const uint8_t *)"";
    return 0;
}

static void w_skip(void *ctx, size_t k) { ((wstream *)ctx)->pos += k; }

static void w_sink(void *ctx, const void *p, size_t n) { buf_append(&((wstream *)ctx)->data, p, n); }

/* Values of every varuint width, many repeats, many empty ones. */
static column *make_values(size_t n)
{
    column *c = col_new(type_simple(T_STRING));
    char *big = xmalloc(20000);
    for (size_t i = 0; i < 20000; i++)
        big[i] = (char)('a' + i % 26);
    for (size_t i = 0; i < n; i++) {
        char tmp[64];
        switch (i % 7) {
        case 0:
        case 1:
        case 2: col_push_str(c, "", 0); break;
        case 3: col_push_str(c, tmp, (size_t)snprintf(tmp, sizeof tmp, "u%zu", i % 13)); break;
        case 4: col_push_str(c, tmp, (size_t)snprintf(tmp, sizeof tmp, "a longer name %zu", i % 5)); break;
        case 5: col_push_str(c, big, i % 3 ? 200 + i % 2 : 17000 + i % 2); break;
        default:
            memset(tmp, 'x', 9);
            col_push_str(c, tmp, i % 9);
            break;
        }
    }
    free(big);
    return c;
}

static bool same(const column *a, const column *b)
{
    if (a->len != b->len)
        return false;
    for (size_t i = 0; i < a->len; i++) {
        size_t la, lb;
        const char *pa = col_str(a, i, &la), *pb = col_str(b, i, &lb);
        if (la != lb || memcmp(pa, pb, la) != 0)
            return false;
    }
    return true;
}

static void roundtrip(bool size_stream)
{
    const size_t N = 3000, G = 97;
    column *vals = make_values(N);
    mt_serial_opts o = {.string_size_stream = size_stream};
    mt_serial *s = mt_serial_new_ex("s", type_simple(T_STRING), &o);
    int ns = mt_serial_nstreams(s);
    CHECK(ns == (size_stream ? 2 : 1));
    wstream ws[2] = {0};
    mt_byte_sink sinks[2] = {{w_sink, &ws[0]}, {w_sink, &ws[1]}};
    mt_serial_write_prefix(s, sinks);
    for (size_t r = 0; r < N; r += G)
        mt_serial_write(s, vals, r, r + G <= N ? G : N - r, sinks);
    mt_serial_write_suffix(s, sinks);
    size_t windows[] = {1, 2, 3, 7, 64, 1000, 1 << 20};
    for (size_t wi = 0; wi < sizeof windows / sizeof *windows; wi++) {
        for (int coded = 0; coded < 2; coded++) {
            mt_byte_src srcs[2];
            for (int k = 0; k < ns; k++) {
                ws[k].pos = 0;
                ws[k].window = windows[wi];
                srcs[k] = (mt_byte_src){w_read, &ws[k], w_peek, w_skip};
            }
            CHECK(mt_serial_read_start(s, srcs, true) == 0);
            column *got = col_new(type_simple(T_STRING));
            mt_codes *d = coded ? mt_codes_new(type_simple(T_STRING)) : NULL;
            buf codes = {0};
            uint64_t bytes = 0;
            for (size_t r = 0; r < N; r += G) {
                size_t n = r + G <= N ? G : N - r;
                if (!coded) {
                    CHECK(mt_serial_read(s, got, n, srcs) == 0);
                    continue;
                }
                codes.len = 0;
                CHECK(mt_serial_read_codes(s, d, &codes, n, srcs, &bytes) == 0);
                CHECK(codes.len == n * 4);
                column *dict = mt_codes_dict(d);
                const uint32_t *cp = (const uint32_t *)(const void *)codes.p;
                for (size_t i = 0; i < n; i++)
                    CHECK(cp[i] < dict->len);
                col_append_from_dict(got, dict, cp, n);
                col_free(dict);
            }
            CHECK(same(got, vals));
            if (coded) {
                CHECK(bytes == col_offs(vals)[N]);
                /* the distinct values: '', 13 + 5 + 4 (200/201, 17000/17001) + 9 */
                CHECK(mt_codes_size(d) == 1 + 13 + 5 + 4 + 8);
            }
            /* reading past the end: an error */
            if (!coded)
                CHECK(mt_serial_read(s, got, 1, srcs) < 0);
            else
                CHECK(mt_serial_read_codes(s, d, &codes, 1, srcs, &bytes) < 0);
            err_clear();
            buf_free(&codes);
            mt_codes_free(d);
            col_free(got);
        }
    }
    /* a stream cut inside a value: an error for the row, never more rows than there are */
    for (size_t cut = 1; cut < ws[ns - 1].data.len; cut += ws[ns - 1].data.len / 37 + 1) {
        wstream t = ws[ns - 1];
        t.data.len = cut;
        t.pos = 0;
        t.window = 5;
        ws[0].pos = 0;
        ws[0].window = 5;
        mt_byte_src srcs[2] = {{w_read, &ws[0], w_peek, w_skip}, {w_read, &ws[1], w_peek, w_skip}};
        srcs[ns - 1].ctx = &t; /* the stream of the bytes is cut */
        column *got = col_new(type_simple(T_STRING));
        int rc = mt_serial_read(s, got, N, srcs);
        CHECK(rc < 0 && got->len < N);
        err_clear();
        col_free(got);
    }
    for (int k = 0; k < ns; k++)
        buf_free(&ws[k].data);
    mt_serial_free(s);
    col_free(vals);
}

/* A dictionary handed out is never changed: a new value goes into a copy. */
static void shared_dict(void)
{
    mt_codes *d = mt_codes_new(type_simple(T_STRING));
    CHECK(mt_codes_put(d, (const uint8_t *)"ab", 2) == 0);
    CHECK(mt_codes_put(d, (const uint8_t *)"", 0) == 1);
    CHECK(mt_codes_put(d, (const uint8_t *)"ab", 2) == 0);
    column *held = mt_codes_dict(d);
    CHECK(mt_codes_put(d, (const uint8_t *)"", 0) == 1); /* known values: no copy */
    column *same_dict = mt_codes_dict(d);
    CHECK(same_dict == held);
    col_free(same_dict);
    CHECK(mt_codes_put(d, (const uint8_t *)"a much longer value", 19) == 2);
    column *now = mt_codes_dict(d);
    CHECK(now != held && held->len == 2 && now->len == 3);
    /* many values: the table grows, every code stays */
    char tmp[32];
    for (int i = 0; i < 5000; i++)
        CHECK(mt_codes_put(d, (const uint8_t *)tmp, (size_t)snprintf(tmp, sizeof tmp, "v%d", i)) == (uint32_t)(3 + i));
    for (int i = 0; i < 5000; i += 7)
        CHECK(mt_codes_put(d, (const uint8_t *)tmp, (size_t)snprintf(tmp, sizeof tmp, "v%d", i)) == (uint32_t)(3 + i));
    CHECK(mt_codes_size(d) == 5003);
    /* short values that agree in their sampled bytes stay apart */
    CHECK(mt_codes_put(d, (const uint8_t *)"abcXdef", 7) != mt_codes_put(d, (const uint8_t *)"abcYdef", 7));
    CHECK(mt_codes_put(d, (const uint8_t *)"abcdefgh", 8) != mt_codes_put(d, (const uint8_t *)"abcdefgi", 8));
    col_free(held);
    col_free(now);
    mt_codes_free(d);
}

int main(void)
{
    roundtrip(false);
    roundtrip(true);
    shared_dict();
    return check_done("mt_strings");
}
