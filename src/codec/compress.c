/* ClickHouse's compressed blocks: codec parsing and text, block encode/decode (including
 * Multiple chains), the file writer and the file reader. See compress.h. */
#include "codec/compress.h"

#include "base/err.h"
#include "base/mem.h"
#include "codec/codec_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <lz4.h>
#include <lz4hc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

/* ClickHouse refuses blocks above 1 GiB (DBMS_MAX_COMPRESSED_SIZE). */
#define MAX_BLOCK_SIZE 0x40000000u
#define MAX_CHAIN 8

typedef enum kind { K_NONE, K_LZ4, K_LZ4HC, K_ZSTD, K_DELTA, K_DOUBLEDELTA, K_GORILLA, K_T64 } kind;

typedef struct one {
    kind k;
    int64_t level;   /* LZ4HC, ZSTD */
    int window_log;  /* ZSTD, 0 = not given */
    int width;       /* Delta, DoubleDelta, Gorilla */
    bool width_varies; /* a Tuple of different widths: printed without the width */
    int t64_magic;
    bool t64_bit;
} one;

struct mt_codec {
    int n;
    one c[MAX_CHAIN];
    char text[512];
};

static const char *kind_name[] = {"NONE", "LZ4", "LZ4HC", "ZSTD", "Delta", "DoubleDelta", "Gorilla", "T64"};

static uint8_t kind_method(kind k)
{
    switch (k) {
    case K_NONE: return MT_METHOD_NONE;
    case K_LZ4: case K_LZ4HC: return MT_METHOD_LZ4;
    case K_ZSTD: return MT_METHOD_ZSTD;
    case K_DELTA: return MT_METHOD_DELTA;
    case K_DOUBLEDELTA: return MT_METHOD_DOUBLEDELTA;
    case K_GORILLA: return MT_METHOD_GORILLA;
    case K_T64: return MT_METHOD_T64;
    }
    return 0;
}

static bool is_generic(kind k) { return k == K_LZ4 || k == K_LZ4HC || k == K_ZSTD || k == K_NONE; }

static void one_text(const one *o, buf *b)
{
    buf_puts(b, kind_name[o->k]);
    switch (o->k) {
    case K_LZ4HC: buf_printf(b, "(%" PRIu64 ")", (uint64_t)o->level); break;
    case K_ZSTD:
        buf_printf(b, "(%" PRIu64, (uint64_t)o->level);
        if (o->window_log)
            buf_printf(b, ", %d", o->window_log);
        buf_putc(b, ')');
        break;
    case K_DELTA:
    case K_GORILLA:
        if (!o->width_varies)
            buf_printf(b, "(%d)", o->width);
        break;
    case K_T64:
        if (o->t64_bit)
            buf_puts(b, "('bit')");
        break;
    default: break;
    }
}

static void list_text(const mt_codec *c, buf *b)
{
    for (int i = 0; i < c->n; i++) {
        if (i)
            buf_puts(b, ", ");
        one_text(&c->c[i], b);
    }
}

/* ---- parsing ---- */

typedef struct carg {
    enum { A_UINT, A_INT, A_STR, A_OTHER } kind;
    uint64_t u;
    int64_t i;
    const char *s;
} carg;

static const char *suspicious_note = " (Note: you can enable setting 'allow_suspicious_codecs' to skip this check).";

/* Finds the leaf types a specialised codec meets in t (ClickHouse applies it to the
 * nested numeric streams of Nullable, LowCardinality, Array and Tuple) and checks them. */
static int type_walk(kind k, const type *t, int *width, bool *varies, int *magic, bool *any_float)
{
    switch (t->id) {
    case T_NULLABLE:
    case T_LOWCARDINALITY:
    case T_ARRAY: return type_walk(k, t->inner, width, varies, magic, any_float);
    case T_TUPLE:
        for (int i = 0; i < t->nfields; i++)
            if (type_walk(k, t->fields[i], width, varies, magic, any_float))
                return -1;
        return 0;
    default: break;
    }
    const char *cn = kind_name[k];
    bool fixed = t->id != T_STRING && t->width > 0;
    if (t->id == T_FLOAT32 || t->id == T_FLOAT64)
        *any_float = true;
    if (k == K_T64) {
        int m = 0;
        switch (t->id) {
        case T_UINT8: case T_BOOL: m = 1; break;
        case T_UINT16: m = 2; break;
        case T_UINT32: m = 3; break;
        case T_UINT64: m = 4; break;
        case T_INT8: m = 6; break;
        case T_INT16: m = 7; break;
        case T_INT32: m = 8; break;
        case T_INT64: m = 9; break;
        case T_DATE: m = 13; break;
        case T_DATETIME: m = 14; break;
        case T_DATETIME64: m = 15; break;
        case T_ENUM8: m = 17; break;
        case T_ENUM16: m = 18; break;
        case T_DECIMAL32: m = 19; break;
        case T_DECIMAL64: m = 20; break;
        case T_DATE32: m = 22; break;
        default:
            return err_set(MT_ERR_ILLEGAL_SYNTAX_FOR_CODEC_TYPE, "T64 codec is not supported for specified type %s", t->name);
        }
        if (!*magic)
            *magic = m;
        return 0;
    }
    if (k == K_DOUBLEDELTA && (t->id == T_STRING || t->id == T_FIXEDSTRING || t->id == T_UUID))
        return err_set(ERR_BAD_ARGUMENTS, "Codec DoubleDelta is not applicable for %s because the data type is not numeric", t->name);
    if (!fixed)
        return err_set(ERR_BAD_ARGUMENTS, "Codec %s is not applicable for %s because the data type is not of fixed size", cn, t->name);
    if (t->width != 1 && t->width != 2 && t->width != 4 && t->width != 8)
        return err_set(ERR_BAD_ARGUMENTS, "Codec %s is only applicable for data types of size 1, 2, 4, 8 bytes. Given type %s", cn, t->name);
    if (*width && *width != (int)t->width)
        *varies = true;
    if (!*width)
        *width = (int)t->width;
    return 0;
}

static int width_arg(const char *cn, int nargs, const carg *a, int *width)
{
    if (nargs > 1)
        return err_set(MT_ERR_ILLEGAL_SYNTAX_FOR_CODEC_TYPE, "%s codec must have 1 parameter, given %d", cn, nargs);
    if (a[0].kind != A_UINT)
        return err_set(ERR_ILLEGAL_CODEC_PARAMETER, "%s codec argument must be unsigned integer", cn);
    uint64_t w = a[0].u;
    if (w != 1 && w != 2 && w != 4 && w != 8) {
        if (!strcmp(cn, "Delta"))
            return err_set(ERR_ILLEGAL_CODEC_PARAMETER, "Delta value for delta codec can be 1, 2, 4 or 8, given %" PRIu64, w);
        return err_set(ERR_ILLEGAL_CODEC_PARAMETER, "Argument value for %s codec can be 1, 2, 4 or 8, given %" PRIu64, cn, w);
    }
    *width = (int)w;
    return 0;
}

static int level_arg(const carg *a, int64_t *level)
{
    if (a->kind == A_UINT)
        *level = (int64_t)a->u;
    else if (a->kind == A_INT)
        *level = a->i;
    else
        return -1;
    return 0;
}

static int build_one(const char *name, bool has_args, int nargs, const carg *a, const type *t, one *o)
{
    memset(o, 0, sizeof *o);
    int k = -1;
    for (int i = 0; i < 8; i++)
        if (!strcmp(name, kind_name[i]))
            k = i;
    if (k < 0) {
        if (!strcmp(name, "Multiple"))
            return err_set(ERR_UNKNOWN_CODEC, "Codec Multiple cannot be specified directly");
        return err_set(ERR_UNKNOWN_CODEC, "Unknown codec family: %s", name);
    }
    o->k = (kind)k;
    switch (o->k) {
    case K_NONE:
    case K_LZ4:
        if (has_args)
            return err_set(MT_ERR_DATA_TYPE_CANNOT_HAVE_ARGUMENTS, "Compression codec %s cannot have arguments", name);
        return 0;
    case K_LZ4HC:
        if (nargs > 1)
            return err_set(MT_ERR_ILLEGAL_SYNTAX_FOR_CODEC_TYPE, "LZ4HC codec must have 1 parameter, given %d", nargs);
        if (nargs == 1 && level_arg(&a[0], &o->level))
            return err_set(ERR_ILLEGAL_CODEC_PARAMETER, "LZ4HC codec argument must be integer");
        return 0;
    case K_ZSTD:
        o->level = 1;
        if (nargs > 2)
            return err_set(MT_ERR_ILLEGAL_SYNTAX_FOR_CODEC_TYPE, "ZSTD codec must have 1 or 2 parameters, given %d", nargs);
        if (nargs >= 1 && level_arg(&a[0], &o->level))
            return err_set(ERR_ILLEGAL_CODEC_PARAMETER, "ZSTD codec argument must be integer");
        if (o->level > 22)
            return err_set(ERR_ILLEGAL_CODEC_PARAMETER, "ZSTD codec can't have level more than 22, given %" PRId64, o->level);
        if (nargs == 2) {
            int64_t wl;
            if (level_arg(&a[1], &wl))
                return err_set(ERR_ILLEGAL_CODEC_PARAMETER, "ZSTD codec window log must be integer");
            if (wl < 10 || wl > 31)
                return err_set(ERR_ILLEGAL_CODEC_PARAMETER,
                               "ZSTD codec can't have window log more than 31 and lower than 10, given %" PRId64, wl);
            o->window_log = (int)wl;
        }
        return 0;
    case K_DELTA:
    case K_DOUBLEDELTA:
    case K_GORILLA: {
        int w = 0, magic = 0;
        bool varies = false, flt = false;
        if (nargs && width_arg(name, nargs, a, &w))
            return -1;
        int tw = 0;
        /* an explicit width is taken as is, whatever the type (ClickHouse does the same) */
        if (t && !(w && o->k != K_DOUBLEDELTA) && type_walk(o->k, t, &tw, &varies, &magic, &flt))
            return -1;
        o->width = w ? w : tw ? tw : 1;
        o->width_varies = !w && varies;
        return 0;
    }
    case K_T64: {
        if (nargs > 1)
            return err_set(MT_ERR_ILLEGAL_SYNTAX_FOR_CODEC_TYPE, "T64 support zero or one parameter, given %d", nargs);
        if (nargs == 1) {
            if (a[0].kind != A_STR)
                return err_set(ERR_ILLEGAL_CODEC_PARAMETER, "Wrong modification for T64. Expected: 'bit', 'byte')");
            if (!strcmp(a[0].s, "bit"))
                o->t64_bit = true;
            else if (strcmp(a[0].s, "byte"))
                return err_set(ERR_ILLEGAL_CODEC_PARAMETER, "Wrong modification for T64: %s", a[0].s);
        }
        int w = 0, magic = 0;
        bool varies = false, flt = false;
        if (!t)
            return err_set(ERR_CANNOT_COMPRESS, "T64 codec doesn't support compression without information about column type");
        if (type_walk(K_T64, t, &w, &varies, &magic, &flt))
            return -1;
        o->t64_magic = magic;
        return 0;
    }
    }
    return 0;
}

/* ClickHouse's checks that allow_suspicious_codecs turns off. */
static int check_suspicious(const mt_codec *c, const type *t)
{
    buf b = {0};
    list_text(c, &b);
    const char *txt = buf_cstr(&b);
    int rc = 0;
    bool generic = false, compresses = false, has_none = false;
    for (int i = 0; i < c->n; i++) {
        if (c->c[i].k == K_NONE)
            has_none = true;
        else if (generic) {
            rc = err_set(ERR_BAD_ARGUMENTS,
                         "The combination of compression codecs %s is meaningless, because it does not make sense to apply any transformations after generic compression algorithm.%s",
                         txt, suspicious_note);
            goto out;
        }
        if (is_generic(c->c[i].k) && c->c[i].k != K_NONE)
            generic = true;
        if (c->c[i].k != K_DELTA)
            compresses = true;
    }
    if (has_none && c->n > 1) {
        rc = err_set(ERR_BAD_ARGUMENTS, "It does not make sense to have codec NONE along with other compression codecs: %s.%s", txt,
                     suspicious_note);
        goto out;
    }
    if (!compresses) {
        rc = err_set(ERR_BAD_ARGUMENTS,
                     "Compression codec %s does not compress anything. You may want to add generic compression algorithm after other transformations, like: %s, LZ4.%s",
                     txt, txt, suspicious_note);
        goto out;
    }
    for (int i = 0; i < c->n && t; i++) {
        if (c->c[i].k != K_GORILLA)
            continue;
        int w = 0, m = 0;
        bool v = false, flt = false;
        err_saved keep;
        err_save(&keep);
        if (type_walk(K_GORILLA, t, &w, &v, &m, &flt) == 0 && !flt) {
            rc = err_set(ERR_BAD_ARGUMENTS,
                         "The combination of compression codecs %s is meaningless, because it does not make sense to apply a floating-point time series codec to non-floating-point columns.%s",
                         txt, suspicious_note);
            goto out;
        }
        err_restore(&keep);
        err_clear();
    }
out:
    buf_free(&b);
    return rc;
}

static mt_codec *finish_codec(mt_codec *c)
{
    buf b = {0};
    buf_puts(&b, "CODEC(");
    list_text(c, &b);
    buf_putc(&b, ')');
    size_t n = b.len < sizeof c->text - 1 ? b.len : sizeof c->text - 1;
    memcpy(c->text, b.p, n);
    c->text[n] = 0;
    buf_free(&b);
    return c;
}

static mt_codec *default_codec(void)
{
    mt_codec *c = mem_calloc(sizeof *c);
    c->n = 1;
    c->c[0].k = K_LZ4;
    return finish_codec(c);
}

int mt_codec_from_ast_ex(const ast_list *args, const type *t, bool allow_suspicious, mt_codec **out)
{
    *out = NULL;
    if (!args || args->n == 0) {
        *out = default_codec();
        return 0;
    }
    if (args->n > MAX_CHAIN)
        return err_set(ERR_BAD_ARGUMENTS, "Too many codecs in a chain: %d (at most %d)", args->n, MAX_CHAIN);
    mt_codec *c = mem_calloc(sizeof *c);
    for (int i = 0; i < args->n; i++) {
        const ast *a = args->items[i];
        const char *name;
        carg ca[4];
        int na = 0;
        bool has_args = false;
        if (a->kind == AST_IDENT && a->nparts == 1)
            name = a->parts[0];
        else if (a->kind == AST_FUNC) {
            name = a->name;
            has_args = true;
            if (a->args.n > 4) {
                mem_free(c);
                return err_set(MT_ERR_ILLEGAL_SYNTAX_FOR_CODEC_TYPE, "%s codec: too many parameters (%d)", name, a->args.n);
            }
            for (int j = 0; j < a->args.n; j++) {
                const ast *v = a->args.items[j];
                carg x = {A_OTHER, 0, 0, NULL};
                if (v->kind == AST_LITERAL && v->lit == LIT_UINT)
                    x.kind = A_UINT, x.u = v->u;
                else if (v->kind == AST_LITERAL && v->lit == LIT_INT)
                    x.kind = A_INT, x.i = v->i;
                else if (v->kind == AST_LITERAL && v->lit == LIT_STRING)
                    x.kind = A_STR, x.s = v->str;
                else if (v->kind == AST_FUNC && v->name && !strcmp(v->name, "negate") && v->args.n == 1 &&
                         v->args.items[0]->kind == AST_LITERAL && v->args.items[0]->lit == LIT_UINT)
                    x.kind = A_INT, x.i = -(int64_t)v->args.items[0]->u;
                ca[na++] = x;
            }
        } else {
            mem_free(c);
            return err_set(ERR_UNKNOWN_CODEC, "Codec must be a name or a function, e.g. ZSTD(3)");
        }
        if (build_one(name, has_args, na, ca, t, &c->c[i])) {
            mem_free(c);
            return -1;
        }
        c->n++;
    }
    if (!allow_suspicious && check_suspicious(c, t)) {
        mem_free(c);
        return -1;
    }
    *out = finish_codec(c);
    return 0;
}

int mt_codec_from_ast(const ast_list *args, const type *t, mt_codec **out)
{
    return mt_codec_from_ast_ex(args, t, false, out);
}

/* Text: "LZ4", "Delta(4), ZSTD(1)", optionally wrapped in CODEC(...). Trusted (it comes
 * from a part's own files or shale's metadata), so the suspicious-combination checks are
 * skipped; the syntax is still checked. */
int mt_codec_parse(const char *text, const type *t, mt_codec **out)
{
    *out = NULL;
    const char *p = text;
    while (*p == ' ')
        p++;
    size_t tl = strlen(p);
    char *tmp = NULL;
    if (!strncmp(p, "CODEC(", 6) && tl > 6 && p[tl - 1] == ')') {
        tmp = xstrndup(p + 6, tl - 7);
        p = tmp;
    }
    if (!*p) {
        free(tmp);
        *out = default_codec();
        return 0;
    }
    mt_codec *c = mem_calloc(sizeof *c);
    char strs[4][64];
    int rc = 0;
    while (*p) {
        while (*p == ' ')
            p++;
        char name[32];
        size_t nl = 0;
        while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')
            if (nl < sizeof name - 1)
                name[nl++] = *p++;
            else
                p++;
        name[nl] = 0;
        if (!nl || c->n >= MAX_CHAIN) {
            rc = err_set(ERR_SYNTAX_ERROR, "Cannot parse codec list '%s' at position %zu", text, (size_t)(p - (tmp ? tmp : text)));
            break;
        }
        carg ca[4];
        int na = 0;
        bool has_args = false;
        while (*p == ' ')
            p++;
        if (*p == '(') {
            has_args = true;
            p++;
            while (*p && *p != ')') {
                while (*p == ' ')
                    p++;
                if (na == 4) {
                    rc = err_set(ERR_SYNTAX_ERROR, "Too many codec parameters in '%s'", text);
                    break;
                }
                carg x = {A_OTHER, 0, 0, NULL};
                if (*p == '\'') {
                    const char *e = strchr(p + 1, '\'');
                    if (!e) {
                        rc = err_set(ERR_SYNTAX_ERROR, "Unterminated string in codec list '%s'", text);
                        break;
                    }
                    size_t l = (size_t)(e - p - 1) < 63 ? (size_t)(e - p - 1) : 63;
                    memcpy(strs[na], p + 1, l);
                    strs[na][l] = 0;
                    x.kind = A_STR, x.s = strs[na];
                    p = e + 1;
                } else {
                    char *e;
                    errno = 0;
                    if (*p == '-') {
                        x.kind = A_INT, x.i = strtoll(p, &e, 10);
                    } else {
                        x.kind = A_UINT, x.u = strtoull(p, &e, 10);
                    }
                    if (e == p || errno) {
                        rc = err_set(ERR_SYNTAX_ERROR, "Cannot parse codec parameter in '%s'", text);
                        break;
                    }
                    p = e;
                }
                ca[na++] = x;
                while (*p == ' ')
                    p++;
                if (*p == ',')
                    p++;
            }
            if (rc)
                break;
            if (*p != ')') {
                rc = err_set(ERR_SYNTAX_ERROR, "Missing ')' in codec list '%s'", text);
                break;
            }
            p++;
        }
        if (build_one(name, has_args, na, ca, t, &c->c[c->n])) {
            rc = -1;
            break;
        }
        c->n++;
        while (*p == ' ')
            p++;
        if (*p == ',')
            p++;
        else if (*p) {
            rc = err_set(ERR_SYNTAX_ERROR, "Cannot parse codec list '%s': unexpected '%c'", text, *p);
            break;
        }
    }
    free(tmp);
    if (rc) {
        mem_free(c);
        return -1;
    }
    *out = finish_codec(c);
    return 0;
}

void mt_codec_free(mt_codec *c) { mem_free(c); }
const char *mt_codec_text(const mt_codec *c) { return c->text; }

bool mt_codec_is_default(const mt_codec *c) { return c->n == 1 && c->c[0].k == K_LZ4; }

int mt_codec_generic_part(const mt_codec *c, mt_codec **out)
{
    mt_codec *g = mem_calloc(sizeof *g);
    for (int i = 0; i < c->n; i++)
        if (is_generic(c->c[i].k))
            g->c[g->n++] = c->c[i];
    if (!g->n) {
        mem_free(g);
        *out = default_codec();
        return 0;
    }
    *out = finish_codec(g);
    return 0;
}

/* ---- blocks ---- */

static inline void st32(uint8_t *p, uint32_t v) { mt_store_le(p, 4, v); }
static inline uint32_t ld32(const uint8_t *p) { return (uint32_t)mt_load_le(p, 4); }

/* Appends one codec's block without checksum: method, sizes, data. */
static void encode_one(const one *o, const uint8_t *src, size_t n, buf *out)
{
    size_t start = out->len;
    uint8_t *h = buf_grow(out, 9);
    h[0] = kind_method(o->k);
    switch (o->k) {
    case K_NONE: buf_append(out, src, n); break;
    case K_LZ4:
    case K_LZ4HC: {
        int bound = LZ4_compressBound((int)n);
        buf_reserve(out, (size_t)bound);
        int got = o->k == K_LZ4 ? LZ4_compress_default((const char *)src, (char *)out->p + out->len, (int)n, bound)
                                : LZ4_compress_HC((const char *)src, (char *)out->p + out->len, (int)n, bound, (int)o->level);
        out->len += (size_t)(got > 0 ? got : 0);
        break;
    }
    case K_ZSTD: {
        size_t bound = ZSTD_compressBound(n);
        buf_reserve(out, bound);
        size_t got;
        if (o->window_log) {
            ZSTD_CCtx *cc = ZSTD_createCCtx();
            ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, (int)o->level);
            ZSTD_CCtx_setParameter(cc, ZSTD_c_enableLongDistanceMatching, 1);
            ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, o->window_log);
            got = ZSTD_compress2(cc, out->p + out->len, bound, src, n);
            ZSTD_freeCCtx(cc);
        } else
            got = ZSTD_compress(out->p + out->len, bound, src, n, (int)o->level);
        out->len += ZSTD_isError(got) ? 0 : got;
        break;
    }
    case K_DELTA: mt_delta_encode(o->width, src, n, out); break;
    case K_DOUBLEDELTA: mt_doubledelta_encode(o->width, src, n, out); break;
    case K_GORILLA: mt_gorilla_encode(o->width, src, n, out); break;
    case K_T64: mt_t64_encode(o->t64_magic, o->t64_bit, src, n, out); break;
    }
    h = out->p + start;
    st32(h + 1, (uint32_t)(out->len - start));
    st32(h + 5, (uint32_t)n);
}

static void encode_chain(const mt_codec *c, const uint8_t *src, size_t n, buf *out)
{
    if (c->n == 1) {
        encode_one(&c->c[0], src, n, out);
        return;
    }
    size_t start = out->len;
    uint8_t *h = buf_grow(out, 9 + 1 + (size_t)c->n);
    h[0] = MT_METHOD_MULTIPLE;
    h[9] = (uint8_t)c->n;
    for (int i = 0; i < c->n; i++)
        h[10 + i] = kind_method(c->c[i].k);
    buf a = {0}, b = {0};
    const uint8_t *in = src;
    size_t inn = n;
    for (int i = 0; i < c->n; i++) {
        b.len = 0;
        encode_one(&c->c[i], in, inn, &b);
        buf t = a;
        a = b;
        b = t;
        in = a.p;
        inn = a.len;
    }
    buf_append(out, in, inn);
    buf_free(&a);
    buf_free(&b);
    h = out->p + start;
    st32(h + 1, (uint32_t)(out->len - start));
    st32(h + 5, (uint32_t)n);
}

void mt_compress_block(const mt_codec *c, const void *src, size_t n, buf *out)
{
    size_t start = out->len;
    buf_grow(out, 16);
    encode_chain(c, src, n, out);
    u128 h = cityhash128_v102(out->p + start + 16, out->len - start - 16);
    mt_store_le(out->p + start, 8, h.lo);
    mt_store_le(out->p + start + 8, 8, h.hi);
}

static bool known_method(uint8_t m)
{
    return m == MT_METHOD_NONE || m == MT_METHOD_LZ4 || m == MT_METHOD_ZSTD || m == MT_METHOD_MULTIPLE ||
           m == MT_METHOD_DELTA || m == MT_METHOD_T64 || m == MT_METHOD_DOUBLEDELTA || m == MT_METHOD_GORILLA;
}

/* Decodes a block without checksum (header + data, exactly n bytes) into dst (dn bytes). */
static int decode_block(const uint8_t *p, size_t n, uint8_t *dst, size_t dn, bool inner)
{
    if (n < 9)
        return err_set(ERR_CORRUPTED_DATA, "Compressed block is shorter than its 9-byte header (%zu bytes)", n);
    uint8_t m = p[0];
    uint32_t cs = ld32(p + 1), us = ld32(p + 5);
    if (cs != n || us != dn)
        return err_set(ERR_CORRUPTED_DATA,
                       "Compressed block%s has sizes %u/%u where %zu/%zu were expected", inner ? " inside a codec chain" : "",
                       cs, us, n, dn);
    const uint8_t *d = p + 9;
    size_t len = n - 9;
    switch (m) {
    case MT_METHOD_NONE:
        if (len != dn)
            return err_set(ERR_CORRUPTED_DATA, "Uncompressed block holds %zu bytes, its header says %zu", len, dn);
        if (dn)
            memcpy(dst, d, dn);
        return 0;
    case MT_METHOD_LZ4: {
        if (len > INT32_MAX || dn > INT32_MAX)
            return err_set(ERR_CANNOT_DECOMPRESS, "LZ4 block too large");
        int got = LZ4_decompress_safe((const char *)d, (char *)dst, (int)len, (int)dn);
        if (got != (int)dn)
            return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress LZ4-encoded data: %s",
                           got < 0 ? "malformed input" : "it holds fewer bytes than its header says");
        return 0;
    }
    case MT_METHOD_ZSTD: {
        ZSTD_DCtx *dc = ZSTD_createDCtx();
        ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 31);
        size_t got = ZSTD_decompressDCtx(dc, dst, dn, d, len);
        ZSTD_freeDCtx(dc);
        if (ZSTD_isError(got))
            return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress ZSTD-encoded data: %s", ZSTD_getErrorName(got));
        if (got != dn)
            return err_set(ERR_CANNOT_DECOMPRESS, "Cannot decompress ZSTD-encoded data: it holds %zu bytes, its header says %zu", got, dn);
        return 0;
    }
    case MT_METHOD_DELTA: return mt_delta_decode(d, len, dst, dn);
    case MT_METHOD_DOUBLEDELTA: return mt_doubledelta_decode(d, len, dst, dn);
    case MT_METHOD_GORILLA: return mt_gorilla_decode(d, len, dst, dn);
    case MT_METHOD_T64: return mt_t64_decode(d, len, dst, dn);
    case MT_METHOD_MULTIPLE: {
        if (inner)
            return err_set(ERR_CORRUPTED_DATA, "Codec chain nested in a codec chain");
        if (len < 1 || d[0] == 0 || len < 1 + (size_t)d[0])
            return err_set(ERR_CORRUPTED_DATA, "Codec chain header is truncated");
        int k = d[0];
        const uint8_t *methods = d + 1;
        const uint8_t *cur = d + 1 + k;
        size_t curn = len - 1 - (size_t)k;
        uint8_t *tmp = NULL;
        int rc = 0;
        for (int i = k - 1; i >= 0 && !rc; i--) {
            if (curn < 9 || cur[0] != methods[i] || cur[0] == MT_METHOD_MULTIPLE) {
                rc = err_set(ERR_CORRUPTED_DATA, "Codec chain step %d is not a block of method 0x%02x", i, methods[i]);
                break;
            }
            if (ld32(cur + 1) != curn) {
                rc = err_set(ERR_CORRUPTED_DATA, "Codec chain step %d has size %u, %zu bytes are left", i, ld32(cur + 1), curn);
                break;
            }
            size_t outn = i == 0 ? dn : ld32(cur + 5);
            /* an intermediate step never expands far beyond the final size */
            if (i > 0 && outn > (size_t)4 * dn + 65536) {
                rc = err_set(ERR_CORRUPTED_DATA, "Codec chain step %d claims %zu bytes for a %zu-byte block", i, outn, dn);
                break;
            }
            uint8_t *o = i == 0 ? dst : mem_alloc(outn ? outn : 1);
            rc = decode_block(cur, curn, o, outn, true);
            mem_free(tmp);
            tmp = i == 0 ? NULL : o;
            cur = o;
            curn = outn;
        }
        mem_free(tmp);
        return rc;
    }
    default: return err_set(ERR_UNKNOWN_COMPRESSION_METHOD, "Unknown codec family code: %u", m);
    }
}

int mt_block_header(const uint8_t *p, size_t avail, uint32_t *compressed_size, uint32_t *uncompressed_size,
                    const char *where, uint64_t offset)
{
    if (avail < 25)
        return err_set(ERR_CANNOT_READ_ALL_DATA,
                       "Cannot read all data: compressed block header needs 25 bytes, %zu are left (file %s, offset %" PRIu64 ")",
                       avail, where, offset);
    uint8_t m = p[16];
    uint32_t cs = ld32(p + 17), us = ld32(p + 21);
    if (!known_method(m))
        return err_set(ERR_UNKNOWN_COMPRESSION_METHOD, "Unknown compression method: 0x%02x (file %s, block at offset %" PRIu64 ")", m,
                       where, offset);
    if (cs < 9 || cs > MAX_BLOCK_SIZE)
        return err_set(ERR_CORRUPTED_DATA,
                       "Too large or too small size_compressed_without_checksum: %u. Most likely corrupted data (file %s, block at offset %" PRIu64 ")",
                       cs, where, offset);
    if (us > MAX_BLOCK_SIZE)
        return err_set(ERR_CORRUPTED_DATA,
                       "Too large size_decompressed: %u. Most likely corrupted data (file %s, block at offset %" PRIu64 ")", us, where,
                       offset);
    *compressed_size = cs;
    *uncompressed_size = us;
    return 0;
}

int mt_decompress_block(const uint8_t *p, size_t avail, buf *out, const char *where, uint64_t offset)
{
    uint32_t cs, us;
    if (mt_block_header(p, avail, &cs, &us, where, offset))
        return -1;
    if (avail - 16 < cs)
        return err_set(ERR_CANNOT_READ_ALL_DATA,
                       "Cannot read all data: compressed block of %u bytes is truncated to %zu (file %s, block at offset %" PRIu64 ")",
                       cs + 16, avail, where, offset);
    u128 want = {mt_load_le(p, 8), mt_load_le(p + 8, 8)};
    u128 got = cityhash128_v102(p + 16, cs);
    if (want.lo != got.lo || want.hi != got.hi)
        return err_set(ERR_CHECKSUM_DOESNT_MATCH,
                       "Checksum doesn't match: corrupted data. Reference: %016" PRIx64 "%016" PRIx64 ". Actual: %016" PRIx64
                       "%016" PRIx64 ". Size of compressed block: %u (file %s, block at offset %" PRIu64 ")",
                       want.hi, want.lo, got.hi, got.lo, cs, where, offset);
    /* sizes the data cannot produce are refused before the allocation (a corrupted header
     * must not make the reader allocate 1 GiB) */
    uint8_t m = p[16];
    size_t len = cs - 9;
    bool absurd = (m == MT_METHOD_NONE && us != len) || (m == MT_METHOD_LZ4 && us > len * (size_t)255 + 64) ||
                  (m == MT_METHOD_DELTA && us > len);
    if (m == MT_METHOD_ZSTD) {
        unsigned long long fcs = ZSTD_getFrameContentSize(p + 25, len);
        absurd = fcs == ZSTD_CONTENTSIZE_ERROR || (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != us);
    }
    if (absurd)
        return err_set(ERR_CORRUPTED_DATA,
                       "Compressed block of method 0x%02x and %u bytes cannot hold %u uncompressed bytes. Most likely corrupted data (file %s, block at offset %" PRIu64 ")",
                       m, cs, us, where, offset);
    size_t old = out->len;
    uint8_t *dst = buf_grow(out, us);
    if (decode_block(p + 16, cs, dst, us, false)) {
        out->len = old;
        return err_suffix(" (file %s, block at offset %" PRIu64 ")", where, offset);
    }
    return 0;
}

/* ---- writer ---- */

struct mt_cwriter {
    int fd;
    char *path;
    const mt_codec *c;
    size_t min_block, max_block;
    buf pending, block;
    uint64_t file_off;
    mt_hasher fh, uh;
    bool failed;
    err_saved err;
};

int mt_cwriter_open(const char *path, const mt_codec *c, size_t min_block, size_t max_block, mt_cwriter **out)
{
    *out = NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return err_set(errno == ENOSPC ? ERR_NOT_ENOUGH_SPACE : ERR_CANNOT_OPEN_FILE, "Cannot open file %s: %s", path, strerror(errno));
    mt_cwriter *w = mem_calloc(sizeof *w);
    w->fd = fd;
    w->path = xstrdup(path);
    w->c = c;
    w->max_block = max_block ? max_block : 1048576;
    if (w->max_block > MAX_BLOCK_SIZE)
        w->max_block = MAX_BLOCK_SIZE;
    w->min_block = min_block > w->max_block ? w->max_block : min_block;
    mt_hasher_init(&w->fh);
    mt_hasher_init(&w->uh);
    *out = w;
    return 0;
}

static int write_all(mt_cwriter *w, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t k = write(w->fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            int e = k < 0 ? errno : ENOSPC;
            return err_set(e == ENOSPC ? ERR_NOT_ENOUGH_SPACE : ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR,
                           "Cannot write to file %s at offset %" PRIu64 ": %s", w->path, w->file_off, strerror(e));
        }
        p += k;
        n -= (size_t)k;
        w->file_off += (uint64_t)k;
    }
    return 0;
}

static void flush_block(mt_cwriter *w)
{
    if (w->failed) /* the error is reported once; later data is dropped */
        w->pending.len = 0;
    if (!w->pending.len)
        return;
    w->block.len = 0;
    mt_compress_block(w->c, w->pending.p, w->pending.len, &w->block);
    mt_hasher_update(&w->fh, w->block.p, w->block.len);
    if (write_all(w, w->block.p, w->block.len)) {
        w->failed = true;
        err_save(&w->err);
    }
    w->pending.len = 0;
}

void mt_cwriter_write(mt_cwriter *w, const void *p, size_t n)
{
    const uint8_t *s = p;
    mt_hasher_update(&w->uh, s, n);
    while (n) {
        /* like ClickHouse's buffer, a full block is compressed only when more bytes come,
         * so a mark taken right after filling it points at its end */
        if (w->pending.len == w->max_block)
            flush_block(w);
        size_t k = w->max_block - w->pending.len;
        if (k > n)
            k = n;
        buf_append(&w->pending, s, k);
        s += k;
        n -= k;
    }
}

int mt_cwriter_granule_end(mt_cwriter *w)
{
    if (w->pending.len >= w->min_block)
        flush_block(w);
    return w->failed ? err_restore(&w->err) : 0;
}

void mt_cwriter_mark(const mt_cwriter *w, uint64_t *compressed_offset, uint64_t *uncompressed_offset)
{
    *compressed_offset = w->file_off;
    *uncompressed_offset = w->pending.len;
}

static void cwriter_free(mt_cwriter *w)
{
    buf_free(&w->pending);
    buf_free(&w->block);
    free(w->path);
    mem_free(w);
}

int mt_cwriter_finish(mt_cwriter *w, mt_file_checksum *sum)
{
    flush_block(w);
    int rc = 0;
    if (w->failed)
        rc = err_restore(&w->err);
    else if (fsync(w->fd) != 0)
        rc = err_set(ERR_CANNOT_FSYNC, "Cannot fsync file %s: %s", w->path, strerror(errno));
    if (close(w->fd) != 0 && !rc)
        rc = err_set(errno == ENOSPC ? ERR_NOT_ENOUGH_SPACE : ERR_CANNOT_CLOSE_FILE, "Cannot close file %s: %s", w->path, strerror(errno));
    if (!rc && sum) {
        sum->file_size = w->file_off;
        sum->file_hash = mt_hasher_final(&w->fh);
        sum->is_compressed = true;
        sum->uncompressed_size = w->uh.total;
        sum->uncompressed_hash = mt_hasher_final(&w->uh);
    }
    cwriter_free(w);
    return rc;
}

void mt_cwriter_abort(mt_cwriter *w)
{
    if (!w)
        return;
    close(w->fd);
    cwriter_free(w);
}

/* ---- reader ---- */

struct mt_creader {
    int fd;
    char *path;
    uint64_t size;
    buf raw, data;
    size_t pos;
    uint64_t next_off; /* compressed offset of the block after the loaded one */
};

int mt_creader_open(const char *path, mt_creader **out)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(errno == ENOENT ? ERR_FILE_DOESNT_EXIST : ERR_CANNOT_OPEN_FILE, "Cannot open file %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return err_set(ERR_CANNOT_STAT, "Cannot stat file %s: %s", path, strerror(e));
    }
    mt_creader *r = mem_calloc(sizeof *r);
    r->fd = fd;
    r->path = xstrdup(path);
    r->size = (uint64_t)st.st_size;
    *out = r;
    return 0;
}

static int pread_all(mt_creader *r, uint8_t *dst, size_t n, uint64_t off)
{
    while (n) {
        ssize_t k = pread(r->fd, dst, n, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "Cannot read from file %s at offset %" PRIu64 ": %s", r->path, off,
                           strerror(errno));
        if (k == 0)
            return err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read all data from file %s: it ends at offset %" PRIu64, r->path, off);
        dst += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return 0;
}

static int load_block(mt_creader *r, uint64_t off)
{
    r->data.len = 0;
    r->pos = 0;
    uint8_t h[25];
    uint64_t left = off < r->size ? r->size - off : 0;
    if (left < 25)
        return err_set(ERR_CANNOT_READ_ALL_DATA,
                       "Cannot read all data: compressed block header needs 25 bytes, %" PRIu64 " are left (file %s, offset %" PRIu64 ")",
                       left, r->path, off);
    if (pread_all(r, h, 25, off))
        return -1;
    uint32_t cs, us;
    if (mt_block_header(h, 25, &cs, &us, r->path, off))
        return -1;
    if ((uint64_t)cs + 16 > left)
        return err_set(ERR_CANNOT_READ_ALL_DATA,
                       "Cannot read all data: compressed block of %u bytes at offset %" PRIu64 " runs past the end of file %s (%" PRIu64 " bytes)",
                       cs + 16, off, r->path, r->size);
    r->raw.len = 0;
    uint8_t *p = buf_grow(&r->raw, (size_t)cs + 16);
    memcpy(p, h, 25);
    if (pread_all(r, p + 25, (size_t)cs + 16 - 25, off + 25))
        return -1;
    if (mt_decompress_block(r->raw.p, r->raw.len, &r->data, r->path, off))
        return -1;
    r->next_off = off + 16 + cs;
    return 0;
}

int mt_creader_seek(mt_creader *r, uint64_t compressed_offset, uint64_t uncompressed_offset)
{
    if (compressed_offset == r->size && uncompressed_offset == 0) {
        r->data.len = r->pos = 0;
        r->next_off = r->size;
        return 0;
    }
    if (load_block(r, compressed_offset))
        return -1;
    if (uncompressed_offset > r->data.len)
        return err_set(ERR_CORRUPTED_DATA,
                       "Seek position %" PRIu64 " is beyond the %zu bytes of the block at offset %" PRIu64 " in file %s",
                       uncompressed_offset, r->data.len, compressed_offset, r->path);
    r->pos = (size_t)uncompressed_offset;
    return 0;
}

int mt_creader_read_some(mt_creader *r, void *dst, size_t n, size_t *got)
{
    *got = 0;
    uint8_t *d = dst;
    while (*got < n) {
        if (r->pos == r->data.len) {
            if (r->next_off >= r->size)
                break;
            if (load_block(r, r->next_off))
                return -1;
            continue;
        }
        size_t k = r->data.len - r->pos;
        if (k > n - *got)
            k = n - *got;
        memcpy(d + *got, r->data.p + r->pos, k);
        r->pos += k;
        *got += k;
    }
    return 0;
}

int mt_creader_peek(mt_creader *r, const uint8_t **p, size_t *avail)
{
    while (r->pos == r->data.len && r->next_off < r->size)
        if (load_block(r, r->next_off))
            return -1;
    *p = r->data.p ? r->data.p + r->pos : (const uint8_t *)"";
    *avail = r->data.len - r->pos;
    return 0;
}

void mt_creader_skip(mt_creader *r, size_t k) { r->pos += k; }

int mt_creader_read(mt_creader *r, void *dst, size_t n)
{
    size_t got;
    if (mt_creader_read_some(r, dst, n, &got))
        return -1;
    if (got < n)
        return err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read all data from file %s: read %zu of %zu bytes at its end", r->path, got, n);
    return 0;
}

bool mt_creader_eof(mt_creader *r) { return r->pos == r->data.len && r->next_off >= r->size; }

void mt_creader_close(mt_creader *r)
{
    if (!r)
        return;
    close(r->fd);
    buf_free(&r->raw);
    buf_free(&r->data);
    free(r->path);
    mem_free(r);
}
