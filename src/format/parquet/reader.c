/* Parquet reader (see reader.h). */
#include "format/parquet/reader.h"
#include "format/parquet/decode.h"
#include "format/parquet/meta_cache.h"

#include "base/err.h"
#include "base/mem.h"
#include "codec/stream_codec.h"
#include "func/func.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <strings.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

enum { PQ_BLOCK_ROWS = 65409, PQ_MAX_DEPTH = 32 };
#define PARQUET_DEFAULT_PREFER_BLOCK_BYTES 16744704 /* input_format_parquet_prefer_block_bytes */

/* ---- the file: positioned reads from a local file or from memory ---- */

typedef struct pq_file {
    const char *name;
    char *path;          /* local file for pread, or NULL */
    int fd;              /* path held open for pread (shared by readers of a parquet_file), or -1 */
    uint8_t *mem;        /* whole file in memory, or NULL */
    uint64_t size;
    fmt_read_at_fn read_at;   /* remote object: ranged reads, or NULL */
    void *ra_ctx;
    void (*ra_free)(void *ctx);
} pq_file;

static int pf_read(pq_file *f, uint64_t off, size_t n, uint8_t *dst)
{
    if (off > f->size || n > f->size - off)
        return err_set(ERR_INCORRECT_DATA,
                       "Malformed Parquet file %s: byte range %llu..%llu is outside the file (%llu bytes)", f->name,
                       (unsigned long long)off, (unsigned long long)(off + n), (unsigned long long)f->size);
    if (f->mem) {
        memcpy(dst, f->mem + off, n);
        return 0;
    }
    if (f->read_at)
        return f->read_at(f->ra_ctx, off, n, dst);
    size_t got = 0;
    if (f->fd >= 0) {
        while (got < n) {
            ssize_t k = pread(f->fd, dst + got, n - got, (off_t)(off + got));
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0)
                return err_set(ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "Cannot read from file '%s' at offset %llu: %s",
                               f->name, (unsigned long long)(off + got), strerror(errno));
            if (k == 0)
                break;
            got += (size_t)k;
        }
    } else if (file_pread(f->path, off, dst, n, &got)) {
        return -1;
    }
    if (got != n)
        return err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read all data from %s: %zu of %zu bytes at offset %llu",
                       f->name, got, n, (unsigned long long)off);
    return 0;
}

/* Local Parquet files held open at once (parquet_file keeps its descriptor so that its
 * readers need no open() per row group); past this, reads open the file each time, so a
 * glob of many thousand files stays within the process's descriptor limit. */
#define PQ_MAX_HELD_FDS 256
static _Atomic int held_fds;

/* A local regular file by path: opened for positioned reads. 1 when it is not a regular
 * file (the caller reads it as a stream). */
static int pf_open_path(const char *path, pq_file *f, struct stat *stp)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    f->name = path;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open file %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return 1;
    }
    *stp = st;
    f->path = xstrdup(path);
    f->size = (uint64_t)st.st_size;
    if (atomic_fetch_add(&held_fds, 1) < PQ_MAX_HELD_FDS) {
        f->fd = fd;
    } else {
        atomic_fetch_sub(&held_fds, 1);
        close(fd);
    }
    return 0;
}

static int pf_open(rbuf *in, pq_file *f)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    f->name = in->in && in->in->name ? in->in->name : "(stream)";
    struct stat st;
    /* A local uncompressed file that nothing has been read from: positioned reads. */
    if (in->in && in->in->name && in->in->offset == 0 && in->pos == in->end &&
        strcmp(codec_method_from_path(in->in->name), "none") == 0 && stat(in->in->name, &st) == 0 &&
        S_ISREG(st.st_mode)) {
        f->path = xstrdup(in->in->name);
        f->size = (uint64_t)st.st_size;
        return 0;
    }
    buf b = {0};
    for (;;) {
        buf_append(&b, in->pos, (size_t)(in->end - in->pos));
        in->pos = in->end;
        long got = rbuf_fill(in);
        if (got < 0) {
            buf_free(&b);
            return -1;
        }
        if (got == 0 && in->pos == in->end)
            break;
    }
    f->mem = b.p ? b.p : mem_alloc(1);
    f->size = b.len;
    return 0;
}

static void pf_close(pq_file *f)
{
    if (f->fd >= 0) {
        close(f->fd);
        atomic_fetch_sub(&held_fds, 1);
        f->fd = -1;
    }
    if (f->ra_free)
        f->ra_free(f->ra_ctx);
    f->ra_free = NULL;
    f->read_at = NULL;
    free(f->path);
    if (f->mem)
        mem_free(f->mem);
    f->path = NULL;
    f->mem = NULL;
}

static pq_meta *read_meta(pq_file *f)
{
    if (f->size < 12)
        return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: %llu bytes is too small for a Parquet file",
                       f->name, (unsigned long long)f->size),
               NULL;
    /* One read of the tail usually holds the whole footer: 64 KiB from a remote object,
     * where a second request costs a round trip; 16 KiB of a local file, where a second
     * read is cheap and copying the excess is not (189 footers of ~4 KB each). */
    size_t guess = f->read_at ? (64 << 10) : (16 << 10);
    size_t tail = f->size < guess ? (size_t)f->size : guess;
    uint8_t *b = xmalloc(tail);
    if (pf_read(f, f->size - tail, tail, b)) {
        free(b);
        return NULL;
    }
    uint8_t head[4] = {'P', 'A', 'R', '1'};
    /* A remote object's leading magic is not fetched: it would cost a request per object,
     * and a file whose footer decodes is not mistaken for something else. */
    if (memcmp(b + tail - 4, "PAR1", 4) != 0 || (!f->read_at && pf_read(f, 0, 4, head)) ||
        memcmp(head, "PAR1", 4) != 0) {
        bool enc = memcmp(b + tail - 4, "PARE", 4) == 0;
        free(b);
        if (enc)
            return err_set(ERR_NOT_IMPLEMENTED, "Encrypted Parquet file %s is not supported", f->name), NULL;
        return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: no PAR1 magic bytes at its start and end",
                       f->name),
               NULL;
    }
    uint32_t flen;
    memcpy(&flen, b + tail - 8, 4);
    if ((uint64_t)flen + 12 > f->size) {
        free(b);
        return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: footer length %u exceeds the file size %llu",
                       f->name, flen, (unsigned long long)f->size),
               NULL;
    }
    uint64_t foff = f->size - 8 - flen;
    const uint8_t *fp;
    if ((size_t)flen + 8 <= tail) {
        fp = b + tail - 8 - flen;
    } else {
        free(b);
        b = xmalloc(flen ? flen : 1);
        if (pf_read(f, foff, flen, b)) {
            free(b);
            return NULL;
        }
        fp = b;
    }
    pq_meta *m = pq_meta_decode(fp, flen, foff, f->name);
    free(b);
    return m;
}

pq_meta *parquet_read_meta_mem(const uint8_t *p, size_t n, const char *name)
{
    pq_file f = {.fd = -1, .name = name, .mem = (uint8_t *)(uintptr_t)p, .size = n};
    return read_meta(&f);
}

/* ---- schema tree → shale types ---- */

typedef struct pq_node {
    int el;                  /* schema element index */
    int kind;                /* N_LEAF, N_TUPLE, N_LIST */
    bool repeated;           /* a repeated leaf or struct outside LIST: an Array level */
    const type *t;           /* ClickHouse's type for this node */
    struct pq_node **ch;     /* N_TUPLE: fields; N_LIST: [0] = element */
    int nch;
    int leaf;                /* N_LEAF: leaf index (column chunk order) */
    int def, rep;            /* levels at this node (inclusive) */
    const char *unsupported; /* non-NULL: the column cannot be read (a type name) */
    bool is_map;             /* N_LIST of a MAP / MAP_KEY_VALUE group: t is Map(K, V) */
} pq_node;

enum { N_LEAF, N_TUPLE, N_LIST };

typedef struct pq_leaf {
    const pq_schema_el *e;
    const type *vt;          /* value type (not Nullable) */
    bool nullable;
    int max_def, max_rep;
    int nrep;
    int rep_def[PQ_MAX_DEPTH]; /* def level of each repeated ancestor (outermost first) */
    const char *name;        /* dotted path for messages */
} pq_leaf;

typedef struct pq_schema {
    arena a;
    pq_node **top;           /* top-level columns */
    int ntop;
    pq_leaf *leaves;
    int nleaves;
} pq_schema;

static bool is_list(const pq_schema_el *e) { return e->converted == PQ_CT_LIST || e->logical == PQ_LT_LIST; }
static bool is_map(const pq_schema_el *e)
{
    return e->converted == PQ_CT_MAP || e->converted == PQ_CT_MAP_KEY_VALUE || e->logical == PQ_LT_MAP;
}

static const type *leaf_type(const pq_schema_el *e, const char *col)
{
    int ct = e->converted, lt = e->logical;
    bool dec = lt == PQ_LT_DECIMAL || ct == PQ_CT_DECIMAL;
    int prec = lt == PQ_LT_DECIMAL ? e->lt_precision : e->precision;
    int scale = lt == PQ_LT_DECIMAL ? e->lt_scale : e->scale;
    if (dec) {
        if (prec < 1 || prec > 76 || scale < 0 || scale > prec)
            return err_set(ERR_NOT_IMPLEMENTED, "unsupported: column %s (Decimal(%d, %d))", col, prec, scale), NULL;
        return type_decimal(prec, scale);
    }
    switch (e->type) {
    case PQ_BOOLEAN: return type_simple(T_BOOL);
    case PQ_INT32:
    case PQ_INT64: {
        int bits = 0;
        bool sig = true;
        if (lt == PQ_LT_INTEGER)
            bits = e->lt_bits, sig = e->lt_signed;
        else if (ct >= PQ_CT_UINT_8 && ct <= PQ_CT_UINT_64)
            bits = 8 << (ct - PQ_CT_UINT_8), sig = false;
        else if (ct >= PQ_CT_INT_8 && ct <= PQ_CT_INT_64)
            bits = 8 << (ct - PQ_CT_INT_8), sig = true;
        if (bits) {
            static const type_id s[] = {T_INT8, T_INT16, T_INT32, T_INT64}, u[] = {T_UINT8, T_UINT16, T_UINT32, T_UINT64};
            int k = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
            return type_simple(sig ? s[k] : u[k]);
        }
        if (lt == PQ_LT_DATE || ct == PQ_CT_DATE)
            return type_simple(T_DATE32);
        if (e->type == PQ_INT64) {
            /* TIME (time of day) reads as ticks since midnight of 1970-01-01, as ClickHouse's */
            int unit = lt == PQ_LT_TIMESTAMP || lt == PQ_LT_TIME ? e->lt_unit
                       : ct == PQ_CT_TIME_MICROS ? PQ_UNIT_MICROS
                       : ct == PQ_CT_TIMESTAMP_MILLIS ? PQ_UNIT_MILLIS
                       : ct == PQ_CT_TIMESTAMP_MICROS ? PQ_UNIT_MICROS : 0;
            if (unit)
                return type_datetime64(unit * 3, "UTC");
            return type_simple(T_INT64);
        }
        return type_simple(T_INT32);
    }
    case PQ_INT96: return type_datetime64(9, "UTC");
    case PQ_FLOAT: return type_simple(T_FLOAT32);
    case PQ_DOUBLE: return type_simple(T_FLOAT64);
    case PQ_BYTE_ARRAY: return type_simple(T_STRING);
    case PQ_FIXED_LEN_BYTE_ARRAY:
        if (e->type_length <= 0)
            return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file: column %s has FIXED_LEN_BYTE_ARRAY of length %d",
                           col, e->type_length),
                   NULL;
        if (lt == PQ_LT_UUID && e->type_length == 16)
            return type_simple(T_UUID);
        if (lt == PQ_LT_FLOAT16 && e->type_length == 2)
            return type_simple(T_FLOAT32);
        return type_fixedstring((uint32_t)e->type_length);
    }
    return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file: column %s has physical type %d", col, e->type), NULL;
}

typedef struct build_ctx {
    const pq_meta *m;
    pq_schema *s;
    int pos;                 /* next schema element */
    int leafcap;
    int rep_def[PQ_MAX_DEPTH];
    int nrep;
    char path[1024];
} build_ctx;

static pq_node *parse_node(build_ctx *b, int def, int rep, int depth, bool in_list_rep);

/* A MAP group whose repeated child is a group of two fields (key, value); any other shape
 * reads as the plain group it is, as ClickHouse reads it (e.g. a key_value without value). */
static bool map_shaped(const build_ctx *b)
{
    if (b->pos >= b->m->nschema)
        return false;
    const pq_schema_el *kv = &b->m->schema[b->pos];
    return kv->repetition == PQ_REPEATED && kv->type < 0 && kv->num_children == 2;
}

static pq_node *new_node(build_ctx *b, int el, int kind)
{
    pq_node *n = arena_zalloc(&b->s->a, sizeof *n, 8);
    n->el = el;
    n->kind = kind;
    n->leaf = -1;
    return n;
}

/* Skips the subtree at b->pos (for element counting in error paths). */
static pq_node *parse_children(build_ctx *b, pq_node *n, int cnt, int def, int rep, int depth)
{
    n->ch = arena_zalloc(&b->s->a, (size_t)(cnt ? cnt : 1) * sizeof *n->ch, 8);
    for (int i = 0; i < cnt; i++) {
        if (!(n->ch[i] = parse_node(b, def, rep, depth + 1, false)))
            return NULL;
        n->nch++;
    }
    return n;
}

static pq_node *make_tuple(build_ctx *b, pq_node *n)
{
    const type **ft = arena_zalloc(&b->s->a, (size_t)(n->nch + 1) * sizeof *ft, 8);
    const char **fn = arena_zalloc(&b->s->a, (size_t)(n->nch + 1) * sizeof *fn, 8);
    for (int i = 0; i < n->nch; i++) {
        ft[i] = n->ch[i]->t;
        fn[i] = b->m->schema[n->ch[i]->el].name;
    }
    n->t = type_tuple(n->nch, ft, fn);
    for (int i = 0; i < n->nch; i++)
        if (n->ch[i]->unsupported)
            n->unsupported = n->ch[i]->unsupported;
    return n;
}

static pq_node *parse_node(build_ctx *b, int def, int rep, int depth, bool as_required)
{
    if (depth > PQ_MAX_DEPTH || b->nrep >= PQ_MAX_DEPTH)
        return err_set(ERR_NOT_IMPLEMENTED, "unsupported: Parquet schema nested deeper than %d levels", PQ_MAX_DEPTH),
               NULL;
    if (b->pos >= b->m->nschema)
        return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file: the schema tree has fewer elements than it says"),
               NULL;
    int el = b->pos++;
    const pq_schema_el *e = &b->m->schema[el];
    size_t plen = strlen(b->path);
    snprintf(b->path + plen, sizeof b->path - plen, "%s%s", plen ? "." : "", e->name);
    int r = e->repetition < 0 ? PQ_REQUIRED : e->repetition;
    if (as_required)
        r = PQ_REPEATED; /* the repeated level of a LIST treated as its element */
    if (r != PQ_REQUIRED)
        def++;
    if (r == PQ_REPEATED) {
        rep++;
        b->rep_def[b->nrep++] = def;
    }
    pq_node *n;
    bool as_map = is_map(e) && map_shaped(b); /* (a group may carry both LIST and MAP) */
    if (e->num_children == 0 && e->type >= 0) {
        n = new_node(b, el, N_LEAF);
        const type *vt = leaf_type(e, b->path);
        if (!vt)
            return NULL;
        if (b->s->nleaves == b->leafcap) {
            b->leafcap = b->leafcap ? b->leafcap * 2 : 16;
            pq_leaf *nl = arena_zalloc(&b->s->a, (size_t)b->leafcap * sizeof *nl, 8);
            if (b->s->nleaves)
                memcpy(nl, b->s->leaves, (size_t)b->s->nleaves * sizeof *nl);
            b->s->leaves = nl;
        }
        pq_leaf *l = &b->s->leaves[b->s->nleaves];
        l->e = e;
        l->vt = vt;
        /* Nullable when the leaf or a group between it and its nearest repeated ancestor
         * is optional (a NULL group makes its fields NULL), as ClickHouse types it. */
        l->nullable = def > (b->nrep ? b->rep_def[b->nrep - 1] : 0) && type_can_be_nullable(vt);
        l->max_def = def;
        l->max_rep = rep;
        l->nrep = b->nrep;
        memcpy(l->rep_def, b->rep_def, sizeof l->rep_def);
        l->name = arena_strdup(&b->s->a, b->path);
        n->leaf = b->s->nleaves++;
        const type *t = l->nullable ? type_nullable(vt) : vt;
        n->t = r == PQ_REPEATED ? type_array(t) : t;
        n->repeated = r == PQ_REPEATED;
    } else if ((is_list(e) || as_map) && e->num_children == 1 &&
               (r != PQ_REPEATED || as_required)) {
        /* as_required: a LIST group that is itself the repeated element of a legacy
         * two-level list (parquet-avro's old list structure): a list of lists. */
        n = new_node(b, el, N_LIST);
        if (b->pos >= b->m->nschema)
            return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file: the schema tree has fewer elements than it says"),
                   NULL;
        const pq_schema_el *re = &b->m->schema[b->pos];
        if (re->repetition != PQ_REPEATED)
            return err_set(ERR_NOT_IMPLEMENTED, "unsupported: column %s (LIST without a repeated field)", b->path), NULL;
        /* The 3-level form: repeated group with a single field which is the element. The
         * legacy forms (a repeated primitive, a group of several fields, or a group named
         * "array" / "<list>_tuple") make the repeated field itself the element. */
        bool three = !as_map && re->num_children == 1 && re->type < 0 && strcmp(re->name, "array") != 0 &&
                     !(strlen(re->name) == strlen(e->name) + 6 && strncmp(re->name, e->name, strlen(e->name)) == 0 &&
                       strcmp(re->name + strlen(e->name), "_tuple") == 0);
        pq_node *elem;
        if (three) {
            b->pos++;
            b->rep_def[b->nrep++] = def + 1;
            size_t pl2 = strlen(b->path);
            elem = parse_node(b, def + 1, rep + 1, depth + 1, false);
            b->path[pl2] = 0;
            b->nrep--;
        } else {
            elem = parse_node(b, def, rep, depth + 1, true);
            if (elem && elem->kind == N_LEAF) {
                /* the element itself is the repeated leaf: its type is the value type */
                elem->repeated = false;
                elem->t = elem->t->inner;
            } else if (elem && elem->kind == N_LIST)
                elem->repeated = false; /* a list element that is a list: t has no extra level */
            else if (elem)
                elem->repeated = false, elem->t = elem->t->inner;
        }
        if (!elem)
            return NULL;
        n->ch = arena_zalloc(&b->s->a, sizeof *n->ch, 8);
        n->ch[0] = elem;
        n->nch = 1;
        n->unsupported = elem->unsupported;
        n->t = type_array(elem->t);
        /* A map's repeated group holds the key and the value: Map(K, V), stored as the
         * Array(Tuple(keys, values)) it was parsed as (build_node retypes the column). */
        if (as_map) {
            pq_node *key = elem->ch[0];
            if (key->kind == N_LEAF && b->s->leaves[key->leaf].nullable) {
                /* an optional key (some writers): ClickHouse's map keys are never NULL, a
                 * missing key reads as the type's default */
                b->s->leaves[key->leaf].nullable = false;
                key->t = b->s->leaves[key->leaf].vt;
                make_tuple(b, elem);
            }
            const type *kv = elem->t;
            if (!(n->t = type_map(kv->fields[0], kv->fields[1])))
                return err_prefix("column %s", b->path), NULL;
            n->is_map = true;
        }
    } else {
        if (e->num_children == 0)
            return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file: group %s has no fields", b->path), NULL;
        n = new_node(b, el, N_TUPLE);
        if (!parse_children(b, n, e->num_children, def, rep, depth))
            return NULL;
        make_tuple(b, n);
        if (r == PQ_REPEATED) {
            n->repeated = true;
            n->t = type_array(n->t);
        }
    }
    n->def = def;
    n->rep = rep;
    if (r == PQ_REPEATED)
        b->nrep--;
    b->path[plen] = 0;
    return n;
}

static void schema_free_(pq_schema *s)
{
    if (!s)
        return;
    arena_free(&s->a);
    free(s);
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static pq_schema *schema_build(const pq_meta *m)
{
    pq_schema *s = xcalloc(1, sizeof *s);
    arena_init(&s->a);
    build_ctx b = {.m = m, .s = s, .pos = 1};
    const pq_schema_el *root = &m->schema[0];
    int n = root->num_children;
    if (n > m->nschema) {
        err_set(ERR_INCORRECT_DATA, "Malformed Parquet file: the root has %d fields but the schema %d elements", n,
                m->nschema);
        schema_free_(s);
        return NULL;
    }
    s->top = arena_zalloc(&s->a, (size_t)(n + 1) * sizeof *s->top, 8);
    for (int i = 0; i < n; i++) {
        b.nrep = 0;
        b.path[0] = 0;
        if (!(s->top[i] = parse_node(&b, 0, 0, 0, false))) {
            schema_free_(s);
            return NULL;
        }
        s->ntop++;
    }
    if (b.pos != m->nschema) {
        err_set(ERR_INCORRECT_DATA, "Malformed Parquet file: %d schema elements but the tree uses %d", m->nschema, b.pos);
        schema_free_(s);
        return NULL;
    }
    /* Columns are found by name: two top-level fields of one name would read one chunk twice. */
    const char **names = xmalloc((size_t)(n + 1) * sizeof *names);
    for (int i = 0; i < n; i++)
        names[i] = m->schema[s->top[i]->el].name;
    qsort(names, (size_t)n, sizeof *names, cmp_name);
    for (int i = 1; i < n; i++)
        if (strcmp(names[i - 1], names[i]) == 0) {
            err_set(ERR_INCORRECT_DATA, "Malformed Parquet file: two columns are named '%s'", names[i]);
            free(names);
            schema_free_(s);
            return NULL;
        }
    free(names);
    for (int g = 0; g < m->nrgs; g++)
        if (m->rgs[g].ncols != s->nleaves) {
            err_set(ERR_INCORRECT_DATA, "Malformed Parquet file: row group %d has %d columns, the schema %d", g,
                    m->rgs[g].ncols, s->nleaves);
            schema_free_(s);
            return NULL;
        }
    return s;
}

/* ---- column chunks → levels and dense values ---- */

typedef struct chunk_rd {
    buf raw;          /* the chunk's bytes when read on its own */
    buf page;         /* decompressed page */
    buf tmp;          /* physical values of a page before conversion */
    buf idx;          /* dictionary indices */
    buf defs, reps;   /* levels of the pages decoded and not yet handed out */
    column *dict;     /* dictionary converted to the value type */
    column *vals;     /* dense values of the pages decoded and not yet handed out */
    bool coded;       /* dictionary pages keep their codes: they go to `codes`, not vals */
    buf codes;        /* coded: uint32 codes decoded and not yet handed out (from cpos) */
    size_t cpos;
    int64_t skip_row; /* flat columns: data pages wholly before this row are not decoded */
    pq_codec_ctx codec;
    /* the chunk being decoded */
    const uint8_t *data;
    size_t clen, pos;          /* bytes, next page header */
    uint64_t start;            /* file offset of data */
    int64_t values, nvalues;   /* values (levels) decoded so far, in the chunk */
    int dbw, rbw;              /* level bit widths */
    size_t lpos, vpos;         /* streaming: levels and dense values already handed out */
    double value_bytes;        /* uncompressed bytes per value in the chunk (an estimate) */
    bool verify_crc;           /* input_format_parquet_verify_checksums */
} chunk_rd;

static void chunk_rd_free(chunk_rd *c)
{
    buf_free(&c->raw);
    buf_free(&c->codes);
    buf_free(&c->page);
    buf_free(&c->tmp);
    buf_free(&c->idx);
    buf_free(&c->defs);
    buf_free(&c->reps);
    if (c->dict)
        col_free(c->dict);
    if (c->vals)
        col_free(c->vals);
    pq_codec_free(&c->codec);
}

static inline uint64_t be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* Big-endian two's complement of n bytes → a 256-bit value (the last 32 bytes when
 * longer: the precision bounds the value). */
static i256 be_int(const uint8_t *p, size_t n)
{
    if (n > 32) {
        p += n - 32;
        n = 32;
    }
    i256 v;
    memset(&v, n && (p[0] & 0x80) ? 0xff : 0, sizeof v);
    uint8_t *le = (uint8_t *)&v; /* little-endian limbs on a little-endian host */
    for (size_t i = 0; i < n; i++)
        le[i] = p[n - 1 - i];
    return v;
}

static void push_decimal(column *dst, i256 w)
{
    const type *t = type_phys(dst->type);
    int128_t v = (int128_t)i256_low128(w);
    if (t->id == T_DECIMAL256) {
        buf_append(&dst->data, &w, 32);
    } else if (t->id == T_DECIMAL32) {
        int32_t x = (int32_t)v;
        buf_append(&dst->data, &x, 4);
    } else if (t->id == T_DECIMAL64) {
        int64_t x = (int64_t)v;
        buf_append(&dst->data, &x, 8);
    } else
        buf_append(&dst->data, &v, 16);
    dst->len++;
}

static float half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023, f;
    if (e == 0) {
        if (m == 0)
            f = s;
        else { /* subnormal */
            int k = -1;
            do {
                k++;
                m <<= 1;
            } while (!(m & 1024));
            f = s | (uint32_t)(127 - 15 - k) << 23 | (m & 1023) << 13;
        }
    } else if (e == 31)
        f = s | 0x7f800000u | m << 13;
    else
        f = s | (e + 127 - 15) << 23 | m << 13;
    float r;
    memcpy(&r, &f, 4);
    return r;
}

/* Appends count fixed-width physical values (p, width w) converted to dst's type.
 * Returns -1 with err_set when a value cannot be represented (an INT96 timestamp out of
 * DateTime64(9)'s range), never a wrapped value. */
static int conv_fixed(const pq_leaf *l, const uint8_t *p, size_t count, column *dst)
{
    const type *t = type_phys(dst->type);
    int phys = l->e->type;
    size_t w = t->width;
    if (phys == PQ_FIXED_LEN_BYTE_ARRAY) {
        size_t n = (size_t)l->e->type_length;
        if (t->id == T_FIXEDSTRING) {
            buf_append(&dst->data, p, n * count);
        } else if (t->id == T_UUID) {
            uint128_t *o = buf_grow(&dst->data, 16 * count);
            /* shale's UUID keeps the high half in the first 8 bytes; Parquet stores the 16
             * bytes big-endian */
            for (size_t i = 0; i < count; i++)
                o[i] = (uint128_t)be64(p + i * 16 + 8) << 64 | be64(p + i * 16);
        } else if (t->id == T_FLOAT32) {
            float *o = buf_grow(&dst->data, 4 * count);
            for (size_t i = 0; i < count; i++)
                o[i] = half_to_float((uint16_t)(p[i * 2] | p[i * 2 + 1] << 8));
        } else {
            for (size_t i = 0; i < count; i++)
                push_decimal(dst, be_int(p + i * n, n));
            return 0;
        }
        dst->len += count;
        return 0;
    }
    if (phys == PQ_INT96) {
        int64_t *o = buf_grow(&dst->data, 8 * count);
        for (size_t i = 0; i < count; i++) {
            uint64_t nanos;
            uint32_t day;
            memcpy(&nanos, p + i * 12, 8);
            memcpy(&day, p + i * 12 + 8, 4);
            int64_t ticks;
            if (__builtin_mul_overflow((int64_t)day - 2440588, 86400000000000LL, &ticks) ||
                __builtin_add_overflow(ticks, (int64_t)nanos, &ticks)) {
                dst->data.len -= 8 * count;
                return err_set(ERR_VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE,
                               "INT96 timestamp out of range of DateTime64(9): julian day %u, time of day %lld ns",
                               day, (long long)nanos);
            }
            o[i] = ticks;
        }
        dst->len += count;
        return 0;
    }
    size_t pw = phys == PQ_INT32 || phys == PQ_FLOAT ? 4 : phys == PQ_BOOLEAN ? 1 : 8;
    if (pw == w) {
        buf_append(&dst->data, p, w * count);
    } else if (phys == PQ_INT32 || phys == PQ_INT64) { /* narrower or wider integer types */
        /* Page values need not be aligned: load them through memcpy. */
        uint8_t *o = buf_grow(&dst->data, w * count);
        bool wide = phys == PQ_INT64, sgn = type_is_signed(t);
        for (size_t i = 0; i < count; i++) {
            int64_t v;
            if (wide) {
                memcpy(&v, p + 8 * i, 8);
            } else {
                int32_t v32;
                memcpy(&v32, p + 4 * i, 4);
                v = sgn ? (int64_t)v32 : (int64_t)(uint32_t)v32;
            }
            switch (w) {
            case 1: o[i] = (uint8_t)v; break;
            case 2: { uint16_t x = (uint16_t)v; memcpy(o + 2 * i, &x, 2); break; }
            case 4: { uint32_t x = (uint32_t)v; memcpy(o + 4 * i, &x, 4); break; }
            case 8: memcpy(o + 8 * i, &v, 8); break;
            case 16: { int128_t x = v; memcpy(o + 16 * i, &x, 16); break; }
            default: memset(o + (size_t)w * i, 0, w);
            }
        }
    } else {
        memset(buf_grow(&dst->data, w * count), 0, w * count);
    }
    dst->len += count;
    return 0;
}

/* Appends count values in String layout (data, ends) converted to dst's type. */
static void conv_bytes(const pq_leaf *l, const uint8_t *data, const uint64_t *ends, uint64_t start, size_t count,
                       column *dst)
{
    const type *t = type_phys(dst->type);
    if (t->id == T_STRING) {
        uint64_t base = dst->data.len;
        buf_append(&dst->data, data + start, (size_t)(ends[count - 1] - start));
        uint64_t *o = buf_grow(&dst->offs, count * 8);
        for (size_t i = 0; i < count; i++)
            o[i] = base + ends[i] - start;
        dst->len += count;
        return;
    }
    uint64_t s = start;
    for (size_t i = 0; i < count; i++) {
        size_t n = (size_t)(ends[i] - s);
        if (t->id == T_FIXEDSTRING)
            col_push_str(dst, (const char *)data + s, n);
        else
            push_decimal(dst, be_int(data + s, n));
        s = ends[i];
    }
    (void)l;
}

static int page_err(const pq_leaf *l, const char *file, uint64_t off)
{
    if (err_code() == ERR_VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE) /* a value, not the file, is the problem */
        err_prefix("Parquet file %s: column %s, page at byte %llu: ", file, l->name, (unsigned long long)off);
    else
        err_prefix("Malformed Parquet file %s: column %s, page at byte %llu: ", file, l->name, (unsigned long long)off);
    return -1;
}

/* Decodes `nv` non-null values of a data page into c->vals. */
static int decode_values(chunk_rd *c, const pq_leaf *l, int enc, const uint8_t *p, size_t n, size_t nv)
{
    int phys = l->e->type;
    size_t pw = phys == PQ_INT32 || phys == PQ_FLOAT ? 4 : phys == PQ_INT64 || phys == PQ_DOUBLE ? 8
                : phys == PQ_INT96 ? 12 : phys == PQ_FIXED_LEN_BYTE_ARRAY ? (size_t)l->e->type_length : 1;
    column *dst = c->vals;
    if (nv == 0)
        return 0;
    switch (enc) {
    case PQ_PLAIN:
        if (phys == PQ_BOOLEAN) {
            c->tmp.len = 0;
            uint8_t *o = buf_grow(&c->tmp, nv);
            if (pq_plain_bool(p, n, o, nv))
                return -1;
            if (conv_fixed(l, o, nv, dst))
                return -1;
            return 0;
        }
        if (phys == PQ_BYTE_ARRAY) {
            size_t used;
            if (type_phys(dst->type)->id == T_STRING)
                return pq_plain_byte_array(p, n, nv, &dst->data, &dst->offs, &used) ? -1 : (dst->len += nv, 0);
            buf d = {0}, o = {0};
            int rc = pq_plain_byte_array(p, n, nv, &d, &o, &used);
            if (!rc)
                conv_bytes(l, d.p, (const uint64_t *)(const void *)o.p, 0, nv, dst);
            buf_free(&d);
            buf_free(&o);
            return rc;
        }
        if (n / pw < nv)
            return err_set(ERR_INCORRECT_DATA, "PLAIN data has %zu bytes for %zu values of %zu bytes", n, nv, pw);
        if (conv_fixed(l, p, nv, dst))
            return -1;
        return 0;
    case PQ_PLAIN_DICTIONARY:
    case PQ_RLE_DICTIONARY: {
        if (!c->dict)
            return err_set(ERR_INCORRECT_DATA, "dictionary-encoded page without a dictionary page");
        if (n < 1)
            return err_set(ERR_INCORRECT_DATA, "dictionary page data is empty");
        buf *ib = c->coded ? &c->codes : &c->idx;
        if (!c->coded)
            ib->len = 0;
        uint32_t *ix = buf_grow(ib, nv * 4);
        if (pq_rle_u32(p + 1, n - 1, p[0], ix, nv))
            return -1;
        size_t dn = c->dict->len;
        uint32_t bad = 0;
        for (size_t i = 0; i < nv; i++)
            bad |= ix[i] >= dn;
        if (bad) {
            for (size_t i = 0; i < nv; i++)
                if (ix[i] >= dn)
                    return err_set(ERR_INCORRECT_DATA, "dictionary index %u out of range (dictionary of %zu values)",
                                   ix[i], dn);
        }
        if (c->coded)
            return 0; /* the codes are the values */
        const type *t = type_phys(dst->type);
        if (t->id == T_STRING) {
            col_append_from_dict(dst, c->dict, ix, nv);
            return 0;
        }
        size_t w = t->width;
        uint8_t *o = buf_grow(&dst->data, w * nv);
        const uint8_t *d = c->dict->data.p;
        switch (w) {
        case 1: for (size_t i = 0; i < nv; i++) o[i] = d[ix[i]]; break;
        case 2: for (size_t i = 0; i < nv; i++) ((uint16_t *)(void *)o)[i] = ((const uint16_t *)(const void *)d)[ix[i]]; break;
        case 4: for (size_t i = 0; i < nv; i++) memcpy(o + 4 * i, d + 4 * (size_t)ix[i], 4); break;
        case 8: for (size_t i = 0; i < nv; i++) memcpy(o + 8 * i, d + 8 * (size_t)ix[i], 8); break;
        default: for (size_t i = 0; i < nv; i++) memcpy(o + i * w, d + (size_t)ix[i] * w, w);
        }
        dst->len += nv;
        return 0;
    }
    case PQ_RLE:
        if (phys != PQ_BOOLEAN)
            break;
        {
            if (n < 4)
                return err_set(ERR_INCORRECT_DATA, "RLE boolean data cut off");
            uint32_t len;
            memcpy(&len, p, 4);
            if (len > n - 4)
                return err_set(ERR_INCORRECT_DATA, "RLE boolean length %u exceeds the page", len);
            c->tmp.len = 0;
            uint8_t *o = buf_grow(&c->tmp, nv);
            if (pq_rle_u8(p + 4, len, 1, o, nv))
                return -1;
            if (conv_fixed(l, o, nv, dst))
                return -1;
            return 0;
        }
    case PQ_DELTA_BINARY_PACKED: {
        if (phys != PQ_INT32 && phys != PQ_INT64)
            break;
        c->tmp.len = 0;
        void *o = buf_grow(&c->tmp, nv * pw);
        size_t used;
        if (pq_delta_binary(p, n, (int)pw, o, nv, &used))
            return -1;
        if (conv_fixed(l, o, nv, dst))
            return -1;
        return 0;
    }
    case PQ_DELTA_LENGTH_BYTE_ARRAY:
    case PQ_DELTA_BYTE_ARRAY: {
        if (phys != PQ_BYTE_ARRAY && phys != PQ_FIXED_LEN_BYTE_ARRAY)
            break;
        buf d = {0}, o = {0};
        int rc = enc == PQ_DELTA_BYTE_ARRAY ? pq_delta_byte_array(p, n, nv, &d, &o)
                                            : pq_delta_length_byte_array(p, n, nv, &d, &o);
        if (!rc) {
            if (phys == PQ_FIXED_LEN_BYTE_ARRAY) {
                const uint64_t *e = (const uint64_t *)(const void *)o.p;
                for (size_t i = 0; i < nv && !rc; i++)
                    if (e[i] - (i ? e[i - 1] : 0) != pw)
                        rc = err_set(ERR_INCORRECT_DATA, "FIXED_LEN_BYTE_ARRAY value of the wrong length");
                if (!rc)
                    if (conv_fixed(l, d.p, nv, dst))
                        return -1;
            } else
                conv_bytes(l, d.p ? d.p : (const uint8_t *)"", (const uint64_t *)(const void *)o.p, 0, nv, dst);
        }
        buf_free(&d);
        buf_free(&o);
        return rc;
    }
    case PQ_BYTE_STREAM_SPLIT: {
        if (phys == PQ_BOOLEAN || phys == PQ_BYTE_ARRAY)
            break;
        c->tmp.len = 0;
        uint8_t *o = buf_grow(&c->tmp, nv * pw);
        if (pq_byte_stream_split(p, n, (int)pw, o, nv))
            return -1;
        if (conv_fixed(l, o, nv, dst))
            return -1;
        return 0;
    }
    default:
        break;
    }
    return err_set(ERR_NOT_IMPLEMENTED, "unsupported encoding %d for physical type %d", enc, phys);
}

/* A coded chunk meets a page that is not dictionary-encoded (a writer's fallback to PLAIN
 * when the dictionary grew too large): the codes not yet handed out become values, and
 * the rest of the chunk is decoded as values. */
static void uncode(chunk_rd *c)
{
    c->coded = false;
    if (!c->dict)
        return; /* nothing was coded yet */
    size_t n = c->codes.len / 4 - c->cpos;
    column *coded = col_new_coded(col_ref(c->dict), n);
    if (n)
        memcpy(buf_grow(&coded->data, n * 4), c->codes.p + c->cpos * 4, n * 4);
    coded->len = n;
    column *vals = col_materialize(coded);
    col_push_range(c->vals, vals, 0, vals->len);
    col_free(vals);
    c->codes.len = 0;
    c->cpos = 0;
}

static bool dictionary_encoding(int enc) { return enc == PQ_PLAIN_DICTIONARY || enc == PQ_RLE_DICTIONARY; }

/* Checks a chunk's metadata and returns its byte range in the file. */
/* parquet-mr up to 1.2.8 left the dictionary page header out of a chunk's
 * total_compressed_size (IMPALA-694, PARQUET-816), and did not always set
 * dictionary_page_offset: its chunks may run up to a header's size past their stated end.
 * created_by "parquet-mr version X.Y.Z (build ...)". */
static bool dict_header_uncounted(const char *created_by)
{
    if (!created_by || strncmp(created_by, "parquet-mr", 10) != 0)
        return false;
    int a = 0, b = 0, c = 0;
    if (sscanf(created_by + 10, " version %d.%d.%d", &a, &b, &c) < 1)
        return true; /* no version: the oldest writers */
    return a < 1 || (a == 1 && (b < 2 || (b == 2 && c < 9)));
}

/* The most a dictionary page header takes (the padding readers allow for the above). */
enum { MAX_DICT_HEADER_SIZE = 100 };

static int chunk_locate(const pq_file *f, const pq_meta *meta, const pq_leaf *l, const pq_chunk *ch,
                        uint64_t *startp, size_t *lenp)
{
    if (!ch->has_meta)
        return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s has no metadata", f->name, l->name);
    if (ch->file_path)
        return err_set(ERR_NOT_IMPLEMENTED, "unsupported: column %s is stored in another file (%s)", l->name,
                       ch->file_path);
    const pq_column_meta *m = &ch->meta;
    if (m->type != l->e->type)
        return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s has type %d in the schema, %d in the chunk",
                       f->name, l->name, l->e->type, m->type);
    int64_t start = m->data_page_offset;
    if (m->dictionary_page_offset > 0 && m->dictionary_page_offset < start)
        start = m->dictionary_page_offset;
    if (start < 0 || m->total_compressed_size < 0 || (uint64_t)start > f->size ||
        (uint64_t)m->total_compressed_size > f->size - (uint64_t)start)
        return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s chunk at %lld (+%lld bytes) is outside the file",
                       f->name, l->name, (long long)start, (long long)m->total_compressed_size);
    if (m->num_values < 0)
        return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s has %lld values", f->name, l->name,
                       (long long)m->num_values);
    *startp = (uint64_t)start;
    *lenp = (size_t)m->total_compressed_size;
    if (dict_header_uncounted(meta->created_by)) { /* the chunk may start with a dictionary page */
        uint64_t rest = f->size - (uint64_t)start - *lenp;
        *lenp += rest < MAX_DICT_HEADER_SIZE ? (size_t)rest : MAX_DICT_HEADER_SIZE;
    }
    return 0;
}

/* Starts decoding a chunk whose bytes are data[0..len) (file offset start). */
static void chunk_begin(chunk_rd *c, const pq_leaf *l, const pq_chunk *ch, const uint8_t *data, size_t len,
                        uint64_t start)
{
    c->defs.len = c->reps.len = 0;
    if (c->dict) {
        col_free(c->dict);
        c->dict = NULL;
    }
    if (c->vals)
        col_free(c->vals);
    c->vals = col_new(l->vt);
    c->data = data;
    c->clen = len;
    c->start = start;
    c->pos = 0;
    c->values = 0;
    c->nvalues = ch->meta.num_values;
    c->value_bytes = (double)ch->meta.total_uncompressed_size / (double)(c->nvalues > 0 ? c->nvalues : 1);
    /* only a hint for reserving string bytes: a footer's sizes may lie (negative, huge) */
    if (!(c->value_bytes >= 0))
        c->value_bytes = 0;
    else if (c->value_bytes > 4096)
        c->value_bytes = 4096;
    c->lpos = c->vpos = 0;
    c->coded = false;
    c->codes.len = 0;
    c->cpos = 0;
    c->skip_row = 0;
    c->dbw = c->rbw = 0;
    while ((1 << c->dbw) <= l->max_def)
        c->dbw++;
    while ((1 << c->rbw) <= l->max_rep)
        c->rbw++;
}

/* Decodes the next data page of the chunk, appending its levels to c->defs/reps and its
 * non-null values to c->vals. Returns 1 after a data page, 0 at the end of the chunk. */
static int chunk_page(chunk_rd *c, pq_file *f, const pq_leaf *l, int codec)
{
    size_t clen = c->clen;
    int dbw = c->dbw, rbw = c->rbw;
    while (c->values < c->nvalues) {
        size_t pos = c->pos;
        uint64_t poff = c->start + pos;
        pq_page_header h;
        size_t used;
        int hr = pq_page_header_decode(c->data + pos, clen - pos, poff, f->name, &h, &used);
        if (hr == 1)
            return err_set(ERR_INCORRECT_DATA,
                           "Malformed Parquet file %s: column %s: page header at byte %llu runs past the chunk end "
                           "(%lld of %lld values read)",
                           f->name, l->name, (unsigned long long)poff, (long long)c->values, (long long)c->nvalues);
        if (hr < 0)
            return err_suffix(" (column %s)", l->name);
        pos += used;
        if ((size_t)h.compressed_size > clen - pos)
            return err_set(ERR_INCORRECT_DATA,
                           "Malformed Parquet file %s: column %s: page at byte %llu of %d bytes runs past the chunk end",
                           f->name, l->name, (unsigned long long)poff, h.compressed_size);
        const uint8_t *body = c->data + pos;
        pos += (size_t)h.compressed_size;
        c->pos = pos;
        if (h.type == PQ_PAGE_INDEX)
            continue;
        /* The CRC covers the page body as stored (levels and values, compressed or not):
         * checked before anything is decoded, so a damaged page is never read as data. */
        if (h.has_crc && c->verify_crc &&
            (uint32_t)crc32(0L, body, (uInt)h.compressed_size) != h.crc)
            return err_set(ERR_INCORRECT_DATA,
                           "Page CRC checksum verification failed: file %s, column %s, page at byte %llu "
                           "(stored %08x, computed %08x); input_format_parquet_verify_checksums = 0 reads it anyway",
                           f->name, l->name, (unsigned long long)poff, h.crc,
                           (uint32_t)crc32(0L, body, (uInt)h.compressed_size));
        if (h.type != PQ_PAGE_DATA && h.type != PQ_PAGE_DATA_V2 && h.type != PQ_PAGE_DICTIONARY)
            continue; /* unknown page kinds are skipped, as the spec allows */
        if (h.type != PQ_PAGE_DICTIONARY && l->max_rep == 0 && h.num_values >= 0 &&
            h.num_values <= c->nvalues - c->values && c->values + h.num_values <= c->skip_row) {
            c->values += h.num_values; /* every row before the ones wanted: not decoded */
            continue;
        }
        /* v2 levels are never compressed: they precede the compressed values */
        size_t lv = 0;
        if (h.type == PQ_PAGE_DATA_V2) {
            lv = (size_t)h.def_len + (size_t)h.rep_len;
            if (lv > (size_t)h.compressed_size || lv > (size_t)h.uncompressed_size)
                return page_err(l, f->name, poff),
                       err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s: page at byte %llu: level "
                                                   "lengths exceed the page", f->name, l->name, (unsigned long long)poff);
        }
        const uint8_t *d;
        size_t dn = (size_t)h.uncompressed_size;
        /* A v2 page whose values take no bytes (all NULL, or no values: some writers
         * leave an empty page) has nothing to decompress, whatever the codec. */
        bool compressed = codec != PQ_UNCOMPRESSED && !(h.type == PQ_PAGE_DATA_V2 && !h.is_compressed) &&
                          !(h.type == PQ_PAGE_DATA_V2 && (size_t)h.compressed_size == lv && dn == lv);
        if (compressed) {
            c->page.len = 0;
            buf_reserve(&c->page, dn + 16);
            if (lv)
                memcpy(c->page.p, body, lv);
            if (pq_decompress(&c->codec, codec, body + lv, (size_t)h.compressed_size - lv, c->page.p + lv, dn - lv))
                return page_err(l, f->name, poff);
            d = c->page.p;
        } else {
            if ((size_t)h.compressed_size != dn)
                return err_set(ERR_INCORRECT_DATA,
                               "Malformed Parquet file %s: column %s: uncompressed page at byte %llu has sizes %d and %d",
                               f->name, l->name, (unsigned long long)poff, h.compressed_size, h.uncompressed_size);
            d = body;
        }
        if (h.type == PQ_PAGE_DICTIONARY) {
            if (c->dict)
                return page_err(l, f->name, poff), err_set(ERR_INCORRECT_DATA,
                                                           "Malformed Parquet file %s: column %s: a second dictionary page at byte %llu",
                                                           f->name, l->name, (unsigned long long)poff);
            column *save = c->vals;
            c->vals = col_new(l->vt);
            int rc = decode_values(c, l, PQ_PLAIN, d, dn, (size_t)h.num_values);
            c->dict = c->vals;
            c->vals = save;
            if (rc)
                return page_err(l, f->name, poff);
            /* room for the 16-byte copies of the string gather */
            buf_reserve(&c->dict->data, 16);
            continue;
        }
        size_t nv = (size_t)h.num_values;
        if ((int64_t)nv > c->nvalues - c->values)
            return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s: page at byte %llu has more values than the chunk",
                           f->name, l->name, (unsigned long long)poff);
        const uint8_t *q = d, *qe = d + dn;
        uint8_t *reps = l->max_rep ? buf_grow(&c->reps, nv) : NULL;
        uint8_t *defs = l->max_def ? buf_grow(&c->defs, nv) : NULL;
        if (h.type == PQ_PAGE_DATA_V2) {
            if (l->max_rep && pq_rle_u8(q, (size_t)h.rep_len, rbw, reps, nv))
                return page_err(l, f->name, poff);
            q += h.rep_len;
            if (l->max_def && pq_rle_u8(q, (size_t)h.def_len, dbw, defs, nv))
                return page_err(l, f->name, poff);
            q += h.def_len;
        } else {
            for (int k = 0; k < 2; k++) {
                uint8_t *dstl = k == 0 ? reps : defs;
                int bw = k == 0 ? rbw : dbw;
                if (!dstl)
                    continue;
                if ((k == 0 ? h.rep_encoding : h.def_encoding) != PQ_RLE)
                    return err_set(ERR_NOT_IMPLEMENTED, "unsupported: column %s uses level encoding %d", l->name,
                                   k == 0 ? h.rep_encoding : h.def_encoding);
                uint32_t len;
                if (qe - q < 4)
                    return page_err(l, f->name, poff), err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s: levels cut off in the page at byte %llu", f->name, l->name, (unsigned long long)poff);
                memcpy(&len, q, 4);
                q += 4;
                if (len > (size_t)(qe - q))
                    return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s: level length %u exceeds the page at byte %llu",
                                   f->name, l->name, len, (unsigned long long)poff);
                if (pq_rle_u8(q, len, bw, dstl, nv))
                    return page_err(l, f->name, poff);
                q += len;
            }
        }
        size_t present = nv;
        if (defs) {
            present = 0;
            uint8_t md = (uint8_t)l->max_def;
            for (size_t i = 0; i < nv; i++)
                present += defs[i] == md;
            for (size_t i = 0; i < nv; i++)
                if (defs[i] > md)
                    return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s: definition level %d above the maximum %d",
                                   f->name, l->name, defs[i], md);
        }
        if (reps) {
            for (size_t i = 0; i < nv; i++)
                if (reps[i] > l->max_rep)
                    return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s: repetition level %d above the maximum %d",
                                   f->name, l->name, reps[i], l->max_rep);
        }
        if (c->coded && !dictionary_encoding(h.encoding))
            uncode(c);
        if (decode_values(c, l, h.encoding, q, (size_t)(qe - q), present))
            return page_err(l, f->name, poff);
        c->values += (int64_t)nv;
        return 1;
    }
    return 0;
}

/* Reads a whole column chunk: levels into c->defs/reps, non-null values into c->vals. */
static int read_chunk(chunk_rd *c, pq_file *f, const pq_leaf *l, const pq_chunk *ch, int64_t rg_rows)
{
    int rc;
    while ((rc = chunk_page(c, f, l, ch->meta.codec)) == 1)
        ;
    if (rc < 0)
        return -1;
    if (l->max_rep == 0 && c->values != rg_rows)
        return err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s has %lld values in a row group of %lld rows",
                       f->name, l->name, (long long)c->values, (long long)rg_rows);
    return 0;
}

/* ---- levels → columns ---- */

/* A flat leaf's column: the dense values spread over the rows where def == max_def. */
static column *expand(const pq_leaf *l, column *vals, const uint8_t *defs, size_t n)
{
    const type *t = l->nullable ? type_nullable(l->vt) : l->vt;
    if (!defs)
        return col_ref(vals);
    column *c = col_new(t);
    column *v = l->nullable ? c->inner : c;
    uint8_t md = (uint8_t)l->max_def;
    if (l->nullable) {
        uint8_t *nm = buf_grow(&c->nulls, n);
        for (size_t i = 0; i < n; i++)
            nm[i] = defs[i] != md;
    }
    const type *p = type_phys(l->vt);
    if (p->id == T_STRING) {
        const uint64_t *so = col_offs(vals);
        buf_append(&v->data, vals->data.p, vals->data.len);
        uint64_t *o = buf_grow(&v->offs, n * 8);
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            k += defs[i] == md;
            o[i] = so[k];
        }
    } else {
        size_t w = p->width;
        uint8_t *o = buf_grow(&v->data, n * w);
        const uint8_t *s = vals->data.p;
        size_t k = 0;
#define EXPAND(T)                                                                                            \
    for (size_t i = 0; i < n; i++) {                                                                         \
        T x = ((const T *)(const void *)s)[k < vals->len ? k : 0];                                           \
        bool pr = defs[i] == md;                                                                             \
        ((T *)(void *)o)[i] = pr ? x : 0;                                                                    \
        k += pr;                                                                                             \
    }
        if (vals->len == 0)
            memset(o, 0, n * w);
        else if (w == 1) { EXPAND(uint8_t) }
        else if (w == 2) { EXPAND(uint16_t) }
        else if (w == 4) { EXPAND(uint32_t) }
        else if (w == 8) { EXPAND(uint64_t) }
        else if (w == 16) { EXPAND(uint128_t) }
        else
            for (size_t i = 0; i < n; i++) {
                if (defs[i] == md)
                    memcpy(o + i * w, s + (k++) * w, w);
                else
                    memset(o + i * w, 0, w);
            }
#undef EXPAND
    }
    v->len = n;
    c->len = n;
    return c;
}

/* A leaf under repeated levels: Array^k(value) from repetition and definition levels. */
static column *assemble(const pq_leaf *l, column *vals, const uint8_t *defs, const uint8_t *reps, size_t n)
{
    int k = l->nrep;
    const type *vt = l->nullable ? type_nullable(l->vt) : l->vt;
    const type *ts[PQ_MAX_DEPTH + 1];
    ts[k] = vt;
    for (int j = k - 1; j >= 0; j--)
        ts[j] = type_array(ts[j + 1]);
    column *top = col_new(ts[0]);
    column *arr[PQ_MAX_DEPTH + 1];
    arr[0] = top;
    for (int j = 1; j <= k; j++)
        arr[j] = arr[j - 1]->inner;
    column *leaf = arr[k];
    uint8_t md = (uint8_t)l->max_def;
    size_t vi = 0;
    for (size_t i = 0; i < n; i++) {
        int r = reps ? reps[i] : 0, d = defs ? defs[i] : md;
        /* lists at depths deeper than r open (when their parent has an element here);
         * lists at depths <= r continue */
        bool reach = true;
        for (int j = r + 1; j <= k; j++) {
            if (j > 1 && d < l->rep_def[j - 2]) {
                reach = false;
                break;
            }
            uint64_t e = arr[j]->len;
            buf_append(&arr[j - 1]->offs, &e, 8);
            arr[j - 1]->len++;
            if (j >= 2)
                ((uint64_t *)(void *)arr[j - 2]->offs.p)[arr[j - 2]->len] = arr[j - 1]->len;
        }
        if (!reach || d < l->rep_def[k - 1])
            continue;
        if (d == md && l->nullable) {
            col_push_from(leaf->inner, vals, vi++);
            col_nullable_commit(leaf, false);
        } else if (d == md)
            col_push_from(leaf, vals, vi++);
        else if (l->nullable)
            col_push_null(leaf);
        else
            col_push_default(leaf);
        ((uint64_t *)(void *)arr[k - 1]->offs.p)[arr[k - 1]->len] = leaf->len;
    }
    if (k == 0) {
        col_free(top);
        return NULL;
    }
    return top;
}

/* ---- reader ---- */

typedef struct pq_col {       /* an output column */
    pq_node *node;            /* NULL: not in the file (defaults) */
    const type *want;         /* the type the caller asked for */
    bool needed;
    bool coded;               /* the caller accepts dictionary codes (keep_codes) */
} pq_col;

typedef struct pq_rd {
    rd_bin base;
    pq_file f;
    pq_meta *m;
    pq_schema *s;
    parquet_file *shared;     /* borrowed footer (m, s, f.path belong to it), or NULL */
    pq_footer *foot;          /* m and s belong to this cached footer (a reference), or NULL */
    schema *out_s;
    pq_col *cols;
    int ncols;
    int rg_first, rg, rg_end; /* the range to read, the next row group */
    uint64_t min_seek;        /* coalesce chunk ranges separated by fewer bytes */
    int64_t prefer_bytes;     /* input_format_parquet_prefer_block_bytes */
    size_t block_rows;        /* streaming: rows per block of the current row group */
    bool *need;               /* per leaf: decoded for the current row group */
    bool streaming;           /* current row group decoded page by page (flat columns) */
    int64_t rg_rows, rg_left; /* streaming: rows of the row group, not yet returned */
    block *cur;               /* whole-row-group mode: the current row group */
    size_t cur_pos;
    buf *ranges;              /* bytes of the coalesced ranges of the current row group */
    int nranges, cap_ranges;
    chunk_rd *chunks;         /* per leaf */
    func_env env;
    const pq_filter *filters; /* row-group and page-index pruning, borrowed */
    int nfilters;
    int64_t *keep;            /* streaming: row ranges [keep[2k], keep[2k+1]) to return */
    int nkeep;                /* -1: every row */
    int ki;                   /* the range being returned */
    int64_t rg_pos;           /* streaming: the next row of the row group to return */
    bool skipped_rows;        /* rows of the current row group were skipped */
    parquet_prefilter_fn pre; /* filter columns first (parquet_reader_set_prefilter), or NULL */
    void *pre_ctx;
    bool *pre_col;            /* per output column: read by the filter */
    bool *pre_leaf;           /* per leaf: of a filter column */
    bool null_as_default;     /* input_format_null_as_default */
} pq_rd;

static int page_ranges(pq_rd *r, const pq_row_group *g);

struct parquet_file {
    pq_file f;
    pq_meta *m;
    pq_schema *s;
    pq_footer *foot;          /* m and s belong to this cached footer (a reference), or NULL */
    char *name;
    _Atomic uint64_t reads;   /* positioned reads of column data, for tests */
};

static column *build_node(pq_rd *r, const pq_node *n, size_t rows, int r_above);

/* Streaming: levels (or values, without levels) decoded and not yet handed out. */
static size_t pending_rows(const pq_leaf *l, const chunk_rd *c)
{
    if (c->coded)
        return c->codes.len / 4 - c->cpos;
    return l->max_def ? c->defs.len - c->lpos : c->vals->len - c->vpos;
}

/* Streaming, flat columns: drops the first n pending rows (skipped by the page index). */
static void drop_rows(const pq_leaf *l, chunk_rd *c, size_t n)
{
    if (c->coded) {
        c->cpos += n;
        return;
    }
    if (l->max_def) {
        const uint8_t *d = c->defs.p + c->lpos;
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            k += d[i] == l->max_def;
        c->lpos += n;
        c->vpos += k;
        return;
    }
    c->vpos += n;
}

/* Streaming: decodes pages until `rows` rows from row c->skip_row on are pending, first
 * dropping what was handed out (so at most one block plus one page stays in memory per
 * column) and the rows before skip_row (pages wholly before it are not even decoded). */
static int fill_rows(pq_rd *r, const pq_leaf *l, chunk_rd *c, size_t rows, int codec)
{
    if (c->vpos) {
        size_t left = c->vals->len - c->vpos;
        column *rest = left ? col_slice(c->vals, c->vpos, left) : col_new(l->vt);
        col_free(c->vals);
        c->vals = rest;
        c->vpos = 0;
    }
    if (c->lpos) {
        memmove(c->defs.p, c->defs.p + c->lpos, c->defs.len - c->lpos);
        c->defs.len -= c->lpos;
        c->lpos = 0;
    }
    if (c->cpos) {
        memmove(c->codes.p, c->codes.p + c->cpos * 4, c->codes.len - c->cpos * 4);
        c->codes.len -= c->cpos * 4;
        c->cpos = 0;
    }
    /* Strings: room for the block's bytes at once rather than by doubling (each doubling
     * copies what was decoded so far). */
    size_t pending = pending_rows(l, c);
    if (pending < rows && !c->coded && type_phys(c->vals->type)->id == T_STRING)
        buf_reserve(&c->vals->data, c->vals->data.len + (size_t)(c->value_bytes * (double)(rows - pending)));
    for (;;) {
        size_t have = pending_rows(l, c);
        int64_t row0 = c->values - (int64_t)have; /* the row of the first pending one */
        if (row0 < c->skip_row && have) {
            drop_rows(l, c, (size_t)(c->skip_row - row0) < have ? (size_t)(c->skip_row - row0) : have);
            continue;
        }
        if (have >= rows)
            break;
        int rc = chunk_page(c, &r->f, l, codec);
        if (rc < 0)
            return -1;
        if (rc == 0)
            return err_set(ERR_INCORRECT_DATA,
                           "Malformed Parquet file %s: column %s has %lld values in a row group of %lld rows", r->f.name,
                           l->name, (long long)c->values, (long long)r->rg_rows);
    }
    return 0;
}

/* Splits *vals after its first k values without copying them: returns the old column cut
 * to those k values and leaves a copy of the rest (usually less than a page) in *vals.
 * NULL when the column is shared or not a flat fixed-width or String column. */
static column *take_head(column **vals, size_t k)
{
    column *c = *vals;
    const type *t = type_phys(c->type);
    if (c->refs != 1 || c->is_const || c->inner || c->nfields || c->nulls.p || (t->id != T_STRING && !t->width))
        return NULL;
    *vals = col_slice(c, k, c->len - k);
    if (t->id == T_STRING) {
        c->data.len = (size_t)col_offs(c)[k];
        c->offs.len = (k + 1) * sizeof(uint64_t);
    } else {
        c->data.len = k * t->width;
    }
    c->len = k;
    return c;
}

/* Streaming: the next `rows` rows of a flat leaf (fill_rows made them pending). */
static column *take_rows(const pq_leaf *l, chunk_rd *c, size_t rows)
{
    if (c->coded) { /* a required column: one code per row */
        column *v = col_new_coded(col_ref(c->dict), rows);
        memcpy(buf_grow(&v->data, rows * 4), c->codes.p + c->cpos * 4, rows * 4);
        v->len = rows;
        c->cpos += rows;
        return v;
    }
    const uint8_t *defs = l->max_def ? c->defs.p + c->lpos : NULL;
    size_t k = rows;
    if (defs) {
        uint8_t md = (uint8_t)l->max_def;
        k = 0;
        for (size_t i = 0; i < rows; i++)
            k += defs[i] == md;
    }
    column *v;
    if (c->vpos == 0 && k == c->vals->len) {
        v = col_ref(c->vals);
        c->vpos = k;
    } else if (c->vpos == 0 && (v = take_head(&c->vals, k))) {
        /* c->vals now holds only the rest, from its start */
    } else {
        v = col_slice(c->vals, c->vpos, k);
        c->vpos += k;
    }
    column *out = expand(l, v, defs, rows);
    col_free(v);
    if (defs)
        c->lpos += rows;
    return out;
}

/* Tuple of children built at the same array depth: peel `depth` array levels of every
 * child, zip the inner columns, and wrap again with the first child's offsets. */
static column *zip(const type *tt, column **kids, int nk, int depth)
{
    if (depth == 0) {
        column *c = col_new(tt);
        for (int i = 0; i < nk; i++) {
            col_free(c->fields[i]);
            c->fields[i] = kids[i];
        }
        c->len = nk ? kids[0]->len : 0;
        return c;
    }
    column **in = xmalloc((size_t)(nk + 1) * sizeof *in);
    for (int i = 0; i < nk; i++)
        in[i] = col_ref(kids[i]->inner);
    column *inner = zip(tt->inner ? tt->inner : tt, in, nk, depth - 1);
    free(in);
    column *c = col_new(type_array(inner->type));
    col_free(c->inner);
    c->inner = inner;
    c->offs.len = 0;
    buf_append(&c->offs, kids[0]->offs.p, kids[0]->offs.len);
    c->len = kids[0]->len;
    for (int i = 0; i < nk; i++)
        col_free(kids[i]);
    return c;
}

/* The Array(Tuple(key, value)) column `depth` array levels down in c becomes the Map
 * type t (the same layout), and the arrays around it take the new element type. */
static void retype_map(column *c, int depth, const type *t)
{
    if (depth > 0) {
        retype_map(c->inner, depth - 1, t);
        c->type = type_array(c->inner->type);
        return;
    }
    c->type = t;
    c->inner->type = t->inner;
}

static column *build_node(pq_rd *r, const pq_node *n, size_t rows, int r_above)
{
    if (n->kind == N_LEAF) {
        const pq_leaf *l = &r->s->leaves[n->leaf];
        chunk_rd *c = &r->chunks[n->leaf];
        if (r->streaming)
            return take_rows(l, c, rows);
        size_t nv = l->max_def ? c->defs.len : l->max_rep ? c->reps.len : c->vals->len;
        if (l->nrep == 0)
            return expand(l, c->vals, l->max_def ? c->defs.p : NULL, nv);
        return assemble(l, c->vals, l->max_def ? c->defs.p : NULL, l->max_rep ? c->reps.p : NULL, nv);
    }
    if (n->kind == N_LIST) {
        column *c = build_node(r, n->ch[0], rows, r_above + 1);
        if (c && n->is_map)
            retype_map(c, r_above, n->t);
        return c;
    }
    int depth = r_above + (n->repeated ? 1 : 0);
    column **kids = xmalloc((size_t)n->nch * sizeof *kids);
    for (int i = 0; i < n->nch; i++)
        if (!(kids[i] = build_node(r, n->ch[i], rows, depth))) {
            for (int j = 0; j < i; j++)
                col_free(kids[j]);
            free(kids);
            return NULL;
        }
    const type *tt = n->t;
    for (int j = 0; j < depth - r_above; j++)
        tt = tt->inner;
    /* the tuple type at the innermost level */
    const type *inner_t = n->repeated ? n->t->inner : n->t;
    (void)tt;
    column *c = zip(inner_t, kids, n->nch, depth);
    free(kids);
    return c;
}

static void leaves_of(const pq_node *n, bool *need)
{
    if (n->kind == N_LEAF)
        need[n->leaf] = true;
    for (int i = 0; i < n->nch; i++)
        leaves_of(n->ch[i], need);
}

/* input_format_null_as_default: where the file's column (or an array element or tuple
 * field in it) is Nullable and the wanted type there is not, its NULLs become the default
 * of the file's type (a Nullable column's inner column already holds that default at NULL
 * rows), and CAST converts from there, as ClickHouse does ('' then fails to parse as a
 * number). Returns a new column, or NULL when src needs no change. */
static column *strip_nulls(const column *src, const type *want)
{
    if (src->is_const || src->dict)
        return NULL;
    const type *sp = type_phys(src->type), *wp = type_phys(want);
    if (sp->id == T_NULLABLE && wp->id != T_NULLABLE) {
        column *in = strip_nulls(src->inner, want);
        return in ? in : col_ref(src->inner);
    }
    if ((sp->id == T_ARRAY && wp->id == T_ARRAY) || (sp->id == T_MAP && wp->id == T_MAP)) {
        column *in = strip_nulls(src->inner, wp->inner);
        if (!in)
            return NULL;
        column *c = col_new(sp->id == T_MAP ? type_map(in->type->fields[0], in->type->fields[1]) : type_array(in->type));
        c->offs.len = 0;
        buf_append(&c->offs, src->offs.p, src->offs.len);
        col_free(c->inner);
        c->inner = in;
        c->len = src->len;
        return c;
    }
    if (sp->id == T_TUPLE && wp->id == T_TUPLE && sp->nfields == wp->nfields) {
        column **f = xcalloc((size_t)sp->nfields + 1, sizeof *f);
        const type **ft = xcalloc((size_t)sp->nfields + 1, sizeof *ft);
        bool changed = false;
        for (int i = 0; i < sp->nfields; i++) {
            f[i] = strip_nulls(src->fields[i], wp->fields[i]);
            changed |= f[i] != NULL;
            if (!f[i])
                f[i] = col_ref(src->fields[i]);
            ft[i] = f[i]->type;
        }
        column *c = NULL;
        if (changed) {
            c = col_new(type_tuple(sp->nfields, ft, sp->field_names));
            for (int i = 0; i < sp->nfields; i++) {
                col_free(c->fields[i]);
                c->fields[i] = f[i];
            }
            c->len = src->len;
        } else {
            for (int i = 0; i < sp->nfields; i++)
                col_free(f[i]);
        }
        free(f);
        free(ft);
        return c;
    }
    return NULL;
}

static int cast_to(pq_rd *r, column *src, const type *t, column **out)
{
    return func_cast_column(src, t, &r->env, out);
}

/* The column chunks the query needs of row group g: their leaves in ord (sorted by offset),
 * offsets in st and lengths in ln (by leaf); returns how many, or -1 with err_set. */
static int locate_needed(pq_rd *r, const pq_row_group *g, int *ord, uint64_t *st, size_t *ln)
{
    int n = 0;
    for (int i = 0; i < r->s->nleaves; i++)
        if (r->need[i]) {
            if (chunk_locate(&r->f, r->m, &r->s->leaves[i], &g->cols[i], &st[i], &ln[i]))
                return -1;
            ord[n++] = i;
        }
    for (int k = 1; k < n; k++) /* few columns: insertion sort by offset */
        for (int j = k; j > 0 && st[ord[j]] < st[ord[j - 1]]; j--) {
            int t = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = t;
        }
    return n;
}

/* The end of the read that starts with chunk ord[k]: chunks separated by at most
 * r->min_seek bytes are read through. *k2 = the first chunk after the read. */
static uint64_t coalesce(const pq_rd *r, const int *ord, const uint64_t *st, const size_t *ln, int n, int k, int *k2)
{
    uint64_t e = st[ord[k]] + ln[ord[k]];
    int j = k + 1;
    while (j < n && st[ord[j]] <= e + r->min_seek) {
        uint64_t e2 = st[ord[j]] + ln[ord[j]];
        if (e2 > e)
            e = e2;
        j++;
    }
    *k2 = j;
    return e;
}

/* Reads the column chunks the query needs of row group r->rg: their byte ranges sorted,
 * ranges separated by at most r->min_seek bytes merged into one read, and each chunk
 * started over its part of the buffer. */
static int load_rg(pq_rd *r, const pq_row_group *g)
{
    int nl = r->s->nleaves;
    int *ord = xmalloc(sizeof *ord * (size_t)(nl + 1));
    uint64_t *st = xmalloc(sizeof *st * (size_t)(nl + 1));
    size_t *ln = xmalloc(sizeof *ln * (size_t)(nl + 1));
    int n = locate_needed(r, g, ord, st, ln);
    int rc = n < 0 ? -1 : 0;
    r->nranges = 0;
    for (int k = 0; k < n && !rc;) {
        int k2;
        uint64_t a = st[ord[k]], e = coalesce(r, ord, st, ln, n, k, &k2);
        if (r->nranges == r->cap_ranges) {
            r->cap_ranges = r->cap_ranges ? r->cap_ranges * 2 : 8;
            r->ranges = xrealloc(r->ranges, sizeof *r->ranges * (size_t)r->cap_ranges);
            memset(r->ranges + r->nranges, 0, sizeof *r->ranges * (size_t)(r->cap_ranges - r->nranges));
        }
        buf *rb = &r->ranges[r->nranges++];
        rb->len = 0;
        buf_reserve(rb, (size_t)(e - a) + 16);
        if (pf_read(&r->f, a, (size_t)(e - a), rb->p)) {
            rc = -1;
            break;
        }
        if (r->shared)
            atomic_fetch_add(&r->shared->reads, 1);
        rb->len = (size_t)(e - a);
        for (int j = k; j < k2; j++) {
            int i = ord[j];
            chunk_begin(&r->chunks[i], &r->s->leaves[i], &g->cols[i], rb->p + (st[i] - a), ln[i], st[i]);
        }
        k = k2;
    }
    free(ord);
    free(st);
    free(ln);
    return rc;
}

/* Builds a block of `rows` rows from the decoded chunks (whole or streamed); with `only`,
 * just the columns it marks (the others stay NULL) — see pre_filter. */
static int build_some(pq_rd *r, size_t rows, const bool *only, block **out)
{
    block *b = block_new(r->ncols, rows);
    for (int i = 0; i < r->ncols; i++) {
        pq_col *pc = &r->cols[i];
        column *c;
        if (only && !only[i])
            continue;
        if (pc->needed && pc->node && pc->node->unsupported) {
            block_free(b);
            return err_set(ERR_NOT_IMPLEMENTED, "unsupported: column %s (%s)", r->out_s->names[i], pc->node->unsupported);
        }
        if (!pc->needed || !pc->node) {
            c = col_new_const(col_new_defaults(pc->want, 1), rows);
        } else {
            c = build_node(r, pc->node, rows, 0);
            if (c && c->len != rows) {
                col_free(c);
                c = NULL;
                err_set(ERR_INCORRECT_DATA, "Malformed Parquet file %s: column %s has a different number of rows than its row group",
                        r->f.name, r->out_s->names[i]);
            }
            if (c && c->type != pc->want && r->null_as_default) {
                column *nn = strip_nulls(c, pc->want);
                if (nn) {
                    col_free(c);
                    c = nn;
                }
            }
            if (c && c->type != pc->want) {
                column *cc;
                if (cast_to(r, c, pc->want, &cc)) {
                    err_suffix(" (while converting column %s from %s to %s)", r->out_s->names[i], c->type->name,
                               pc->want->name);
                    col_free(c);
                    c = NULL;
                } else {
                    col_free(c);
                    c = cc;
                }
            }
        }
        if (!c) {
            block_free(b);
            return -1;
        }
        b->cols[i] = c;
    }
    *out = b;
    return 0;
}

static int build_block(pq_rd *r, size_t rows, block **out) { return build_some(r, rows, NULL, out); }

/* Streaming: the chunks of columns whose caller accepts codes keep them when they can be
 * handed out as codes: a required String leaf read as the same type (no conversion), whose
 * chunk starts with dictionary pages (a later PLAIN page switches back, see uncode). */
static void mark_coded(pq_rd *r, const pq_row_group *g)
{
    for (int i = 0; i < r->ncols; i++) {
        const pq_col *pc = &r->cols[i];
        if (!pc->coded || !pc->needed || !pc->node || pc->node->kind != N_LEAF || pc->node->unsupported)
            continue;
        int leaf = pc->node->leaf;
        const pq_leaf *l = &r->s->leaves[leaf];
        const pq_column_meta *m = &g->cols[leaf].meta;
        if (l->max_def || l->max_rep || l->e->type != PQ_BYTE_ARRAY || l->vt != pc->want ||
            type_phys(l->vt)->id != T_STRING || m->dictionary_page_offset <= 0)
            continue;
        r->chunks[leaf].coded = true;
    }
}

/* Starts row group r->rg: reads its chunks and either decodes them whole (columns with
 * repeated levels, whose rows span pages) or prepares page-by-page streaming. */
/* Rows per streamed block: PQ_BLOCK_ROWS, fewer where the needed columns' uncompressed
 * bytes per row (from the footer) would make a block larger than prefer_bytes — so that
 * wide rows (long strings) come in blocks of bounded bytes, as ClickHouse's
 * input_format_parquet_prefer_block_bytes asks; an operator bounding its memory (an
 * external sort) then holds what it counts. */
static size_t streamed_block_rows(const pq_rd *r, const pq_row_group *g)
{
    if (r->prefer_bytes <= 0 || g->num_rows <= 0)
        return PQ_BLOCK_ROWS;
    int64_t bytes = 0;
    for (int i = 0; i < r->s->nleaves && i < g->ncols; i++)
        if (r->need[i] && g->cols[i].has_meta)
            bytes += g->cols[i].meta.total_uncompressed_size;
    double per_row = (double)bytes / (double)g->num_rows;
    if (per_row <= 0)
        return PQ_BLOCK_ROWS;
    double rows = (double)r->prefer_bytes / per_row;
    return rows >= PQ_BLOCK_ROWS ? PQ_BLOCK_ROWS : rows < 1024 ? 1024 : (size_t)rows;
}

/* r->need: the leaves of the columns the reader returns. */
static void mark_needed_leaves(pq_rd *r)
{
    int nl = r->s->nleaves;
    if (!r->need)
        r->need = xcalloc((size_t)nl + 1, 1);
    memset(r->need, 0, (size_t)nl + 1);
    for (int i = 0; i < r->ncols; i++)
        if (r->cols[i].needed && r->cols[i].node && !r->cols[i].node->unsupported)
            leaves_of(r->cols[i].node, r->need);
}

static int start_row_group(pq_rd *r)
{
    const pq_row_group *g = &r->m->rgs[r->rg];
    int nl = r->s->nleaves;
    mark_needed_leaves(r);
    bool flat = true;
    for (int i = 0; i < nl; i++)
        if (r->need[i] && r->s->leaves[i].max_rep)
            flat = false;
    r->rg_rows = g->num_rows;
    r->nkeep = -1;
    r->skipped_rows = false;
    if (flat) {
        /* the page index first: a row group none of whose pages can match is not read */
        free(r->keep);
        r->keep = NULL;
        if (page_ranges(r, g))
            return -1;
        r->ki = 0;
        r->rg_pos = 0;
        r->rg_left = g->num_rows;
        if (r->nkeep >= 0) {
            r->rg_left = 0;
            for (int k = 0; k < r->nkeep; k++)
                r->rg_left += r->keep[2 * k + 1] - r->keep[2 * k];
        }
        r->streaming = true;
        r->block_rows = streamed_block_rows(r, g);
        if (r->rg_left == 0)
            return 0;
        if (load_rg(r, g))
            return -1;
        mark_coded(r, g);
        return 0;
    }
    if (load_rg(r, g))
        return -1;
    r->streaming = false;
    for (int i = 0; i < nl; i++)
        if (r->need[i] && read_chunk(&r->chunks[i], &r->f, &r->s->leaves[i], &g->cols[i], g->num_rows))
            return -1;
    int rc = build_block(r, (size_t)g->num_rows, &r->cur);
    for (int i = 0; i < nl; i++) { /* release chunk memory early */
        chunk_rd *c = &r->chunks[i];
        if (c->vals) {
            col_free(c->vals);
            c->vals = NULL;
        }
    }
    r->cur_pos = 0;
    return rc;
}

/* Streaming: decodes `rows` rows from r->rg_pos of the needed leaves with pre_leaf[i] ==
 * which (every needed leaf when sel is false). */
static int fill_leaves(pq_rd *r, const pq_row_group *g, size_t rows, bool sel, bool which)
{
    for (int i = 0; i < r->s->nleaves; i++) {
        if (!r->need[i] || (sel && r->pre_leaf[i] != which))
            continue;
        r->chunks[i].skip_row = r->rg_pos;
        if (fill_rows(r, &r->s->leaves[i], &r->chunks[i], rows, g->cols[i].meta.codec))
            return -1;
    }
    return 0;
}

/* Filter columns first (see parquet_reader_set_prefilter): *out is the block with its kept
 * rows, or NULL when none is kept (the other columns then skip these rows). */
static int pre_filtered(pq_rd *r, const pq_row_group *g, size_t rows, block **out)
{
    *out = NULL;
    block *b;
    if (fill_leaves(r, g, rows, true, true) || build_some(r, rows, r->pre_col, &b))
        return -1;
    uint8_t *keep = xmalloc(rows + 1);
    long kept = r->pre(r->pre_ctx, b, keep);
    bool *rest = xcalloc((size_t)r->ncols + 1, sizeof *rest);
    for (int i = 0; i < r->ncols; i++)
        rest[i] = !r->pre_col[i];
    /* Few rows kept: the other columns are decoded run by run of kept rows, so that their
     * pages holding none are skipped; many: the whole block, then filtered. */
    bool by_runs = kept > 0 && (size_t)kept * 8 < rows;
    if (by_runs)
        r->skipped_rows = true; /* the other columns skip the rows between runs */
    if (kept > 0 && (size_t)kept < rows) {
        block *f = block_new(b->ncols, (size_t)kept);
        for (int i = 0; i < b->ncols; i++)
            if (b->cols[i])
                f->cols[i] = col_filter(b->cols[i], keep, (size_t)kept);
        block_free(b);
        b = f;
    }
    int64_t base = r->rg_pos;
    for (size_t a = 0; kept > 0 && a < rows;) {
        size_t e = rows;
        if (by_runs) {
            while (a < rows && !keep[a])
                a++;
            if (a == rows)
                break;
            for (e = a; e < rows && keep[e]; e++)
                ;
        }
        r->rg_pos = base + (int64_t)a;
        block *o = NULL;
        if (fill_leaves(r, g, e - a, true, false) || build_some(r, e - a, rest, &o)) {
            kept = -1;
            break;
        }
        if (!by_runs && (size_t)kept < rows) { /* the whole block: keep its kept rows */
            block *f = block_new(o->ncols, (size_t)kept);
            for (int i = 0; i < o->ncols; i++)
                if (o->cols[i])
                    f->cols[i] = col_filter(o->cols[i], keep, (size_t)kept);
            block_free(o);
            o = f;
        }
        for (int i = 0; i < r->ncols; i++) {
            if (!rest[i])
                continue;
            if (!b->cols[i]) {
                b->cols[i] = o->cols[i];
                o->cols[i] = NULL;
                continue;
            }
            /* appended to in place: an unshared column of values (a piece may share its
             * chunk's buffer, or be dictionary codes) */
            column *d = b->cols[i];
            if (d->dict || d->is_const || d->refs != 1) {
                column *m = d->dict || d->is_const ? col_materialize(col_ref(d)) : col_clone(d);
                col_free(d);
                b->cols[i] = d = m;
            }
            column *piece = col_materialize(col_ref(o->cols[i]));
            col_push_range(d, piece, 0, piece->len);
            col_free(piece);
        }
        block_free(o);
        a = e;
    }
    r->rg_pos = base;
    free(rest);
    free(keep);
    if (kept <= 0) {
        block_free(b);
        if (kept < 0)
            return -1;
        r->skipped_rows = true;
        return 0;
    }
    *out = b;
    return 0;
}

/* Streaming: the next block of the current row group, or NULL when its rows are done
 * (those the page index left, or the filter columns kept). */
static int next_streamed(pq_rd *r, block **out)
{
    const pq_row_group *g = &r->m->rgs[r->rg];
    int nl = r->s->nleaves;
    *out = NULL;
    while (r->rg_left > 0 && !*out) {
        size_t rows = r->rg_left > (int64_t)r->block_rows ? r->block_rows : (size_t)r->rg_left;
        if (r->nkeep >= 0) {
            while (r->ki < r->nkeep && r->rg_pos >= r->keep[2 * r->ki + 1])
                r->ki++;
            if (r->ki == r->nkeep) { /* cannot happen while rg_left > 0; be safe */
                r->rg_left = 0;
                break;
            }
            if (r->rg_pos < r->keep[2 * r->ki])
                r->rg_pos = r->keep[2 * r->ki];
            int64_t left = r->keep[2 * r->ki + 1] - r->rg_pos;
            if ((int64_t)rows > left)
                rows = (size_t)left;
        }
        if (r->pre) {
            if (pre_filtered(r, g, rows, out))
                return -1;
        } else if (fill_leaves(r, g, rows, false, false) || build_block(r, rows, out)) {
            return -1;
        }
        r->rg_pos += (int64_t)rows;
        r->rg_left -= (int64_t)rows;
    }
    if (r->rg_left == 0)
        for (int i = 0; i < nl; i++) {
            chunk_rd *c = &r->chunks[i];
            if (!r->need[i])
                continue;
            /* (with rows skipped, by the page index or the filter columns, the pages after
             * the last rows returned were never decoded) */
            if (r->nkeep < 0 && !r->skipped_rows && (pending_rows(&r->s->leaves[i], c) || c->values < c->nvalues))
                return block_free(*out), *out = NULL,
                       err_set(ERR_INCORRECT_DATA,
                               "Malformed Parquet file %s: column %s has %lld values in a row group of %lld rows",
                               r->f.name, r->s->leaves[i].name, (long long)c->nvalues, (long long)r->rg_rows);
            col_free(c->vals);
            c->vals = NULL;
        }
    return 0;
}

static bool rg_may_match(const pq_meta *m, const pq_schema *s, int rg, const char *col, const type *want, int op,
                         const column *vals);

/* A row group with no rows, or one whose statistics exclude a filter: not read. */
static bool rg_skippable(const pq_rd *r, int rg)
{
    if (r->m->rgs[rg].num_rows == 0)
        return true;
    for (int i = 0; i < r->nfilters; i++) {
        const pq_filter *fl = &r->filters[i];
        if (!rg_may_match(r->m, r->s, rg, fl->col, fl->want, fl->op, fl->vals))
            return true;
    }
    return false;
}

static int pq_next(rd_bin *bp, block **out)
{
    pq_rd *r = (pq_rd *)bp;
    *out = NULL;
    for (;;) {
        if (r->streaming && r->rg_left > 0) {
            if (next_streamed(r, out))
                return -1;
            if (*out)
                return 0;
            continue;
        }
        if (r->cur && r->cur_pos < r->cur->rows) {
            size_t n = r->cur->rows - r->cur_pos;
            if (n > PQ_BLOCK_ROWS)
                n = PQ_BLOCK_ROWS;
            if (r->cur_pos == 0 && n == r->cur->rows) {
                *out = r->cur;
                r->cur = NULL;
            } else {
                *out = block_slice(r->cur, r->cur_pos, n);
                r->cur_pos += n;
            }
            return 0;
        }
        if (r->cur) {
            block_free(r->cur);
            r->cur = NULL;
        }
        if (r->streaming) {
            r->streaming = false;
            r->rg++;
        }
        if (r->rg >= r->rg_end)
            return 0;
        if (rg_skippable(r, r->rg)) {
            r->rg++;
            continue;
        }
        int rc = start_row_group(r);
        if (!r->streaming)
            r->rg++;
        if (rc)
            return -1;
    }
}

static int pq_prefetch(rd_bin *bp)
{
    pq_rd *r = (pq_rd *)bp;
    while (!r->streaming && !r->cur && r->rg < r->rg_end && rg_skippable(r, r->rg))
        r->rg++;
    if (r->streaming || r->cur || r->rg >= r->rg_end)
        return 0;
    int rc = start_row_group(r); /* as pq_next would: loads the chunks */
    if (!r->streaming)
        r->rg++;
    return rc;
}

/* The row group a prefetch reads (the next one not skipped, its needed leaves marked), or
 * -1 when there is none or the reader already started. */
static int prefetch_row_group(pq_rd *r)
{
    if (r->streaming || r->cur)
        return -1;
    int rg = r->rg;
    while (rg < r->rg_end && rg_skippable(r, rg))
        rg++;
    if (rg >= r->rg_end)
        return -1;
    mark_needed_leaves(r);
    return rg;
}

static int64_t pq_prefetch_bytes(rd_bin *bp)
{
    pq_rd *r = (pq_rd *)bp;
    int rg = prefetch_row_group(r);
    if (rg < 0)
        return 0;
    const pq_row_group *g = &r->m->rgs[rg];
    int64_t sum = 0;
    for (int i = 0; i < r->s->nleaves; i++) {
        uint64_t start;
        size_t len;
        if (!r->need[i])
            continue;
        if (chunk_locate(&r->f, r->m, &r->s->leaves[i], &g->cols[i], &start, &len)) {
            err_clear(); /* the prefetch itself reports it */
            return -1;
        }
        sum += (int64_t)len;
    }
    return sum;
}

/* The reads pq_prefetch would do (load_rg of the first row group to read). */
static int pq_prefetch_ranges(rd_bin *bp, fmt_range **out, int *nout)
{
    pq_rd *r = (pq_rd *)bp;
    *out = NULL;
    *nout = 0;
    int rg = prefetch_row_group(r);
    if (rg < 0)
        return 0;
    int nl = r->s->nleaves;
    int *ord = xmalloc(sizeof *ord * (size_t)(nl + 1));
    uint64_t *st = xmalloc(sizeof *st * (size_t)(nl + 1));
    size_t *ln = xmalloc(sizeof *ln * (size_t)(nl + 1));
    int n = locate_needed(r, &r->m->rgs[rg], ord, st, ln);
    if (n < 0)
        err_clear(); /* the read itself reports it */
    fmt_range *v = n > 0 ? xmalloc(sizeof *v * (size_t)n) : NULL;
    for (int k = 0; k < n;) {
        int k2;
        uint64_t e = coalesce(r, ord, st, ln, n, k, &k2);
        v[(*nout)++] = (fmt_range){.off = st[ord[k]], .len = (size_t)(e - st[ord[k]])};
        k = k2;
    }
    free(ord);
    free(st);
    free(ln);
    *out = v;
    return n < 0 ? -1 : 0;
}

static void pq_free(rd_bin *bp)
{
    pq_rd *r = (pq_rd *)bp;
    if (r->cur)
        block_free(r->cur);
    if (r->s && r->chunks)
        for (int i = 0; i < r->s->nleaves; i++)
            chunk_rd_free(&r->chunks[i]);
    free(r->chunks);
    free(r->cols);
    free(r->need);
    free(r->keep);
    free(r->pre_col);
    free(r->pre_leaf);
    for (int i = 0; i < r->cap_ranges; i++)
        buf_free(&r->ranges[i]);
    free(r->ranges);
    schema_free(r->out_s);
    if (!r->shared) {
        if (r->foot) {
            pq_footer_release(r->foot);
        } else {
            schema_free_(r->s);
            pq_meta_free(r->m);
        }
        pf_close(&r->f);
    }
    free(r);
}

static void pq_select(rd_bin *bp, const bool *needed)
{
    pq_rd *r = (pq_rd *)bp;
    for (int i = 0; i < r->ncols; i++)
        r->cols[i].needed = needed[i];
}

void parquet_reader_set_prefilter(rd_bin *bp, const bool *cols, parquet_prefilter_fn fn, void *ctx)
{
    pq_rd *r = (pq_rd *)bp;
    r->pre = fn;
    r->pre_ctx = ctx;
    free(r->pre_col);
    free(r->pre_leaf);
    r->pre_col = xcalloc((size_t)r->ncols + 1, sizeof *r->pre_col);
    memcpy(r->pre_col, cols, (size_t)r->ncols * sizeof *cols);
    r->pre_leaf = xcalloc((size_t)r->s->nleaves + 1, sizeof *r->pre_leaf);
    /* the leaves of the filter columns (a row group may already be under way: a prefetch) */
    for (int i = 0; i < r->ncols; i++)
        if (r->pre_col[i] && r->cols[i].needed && r->cols[i].node && !r->cols[i].node->unsupported)
            leaves_of(r->cols[i].node, r->pre_leaf);
}

static void pq_set_filters(rd_bin *bp, const fmt_filter *f, int n)
{
    pq_rd *r = (pq_rd *)bp;
    r->filters = f;
    r->nfilters = n;
}

static void pq_keep_codes(rd_bin *bp, const bool *coded)
{
    pq_rd *r = (pq_rd *)bp;
    for (int i = 0; i < r->ncols; i++)
        r->cols[i].coded = coded[i];
}

static int pq_count_rows(rd_bin *bp, int64_t *rows)
{
    pq_rd *r = (pq_rd *)bp;
    int64_t n = 0;
    for (int i = r->rg_first; i < r->rg_end; i++)
        n += r->m->rgs[i].num_rows;
    *rows = n;
    return 0;
}

static void schema_free_v(void *s) { schema_free_(s); }

/* A footer of f decoded from its FileMetaData bytes (a disk cache entry): NULL with no
 * error kept when they do not decode. */
static pq_footer *footer_from_raw(void *ctx, const uint8_t *raw, size_t len, uint64_t file_size)
{
    const char *name = ctx;
    if (len + 8 > file_size)
        return NULL;
    pq_meta *m = pq_meta_decode(raw, len, file_size - 8 - len, name);
    pq_schema *s = m ? schema_build(m) : NULL;
    if (!s) {
        pq_meta_free(m);
        err_clear();
        return NULL;
    }
    pq_footer *ft = pq_footer_new(m, s, schema_free_v, file_size);
    ft->charge += s->a.total;
    return ft;
}

/* Whether the footer bytes at the end of local file f are those m was decoded from. A
 * local file's version (size, mtime, inode) can stay the same across a rewrite: mtime
 * advances by the kernel's clock tick (a few ms), and a rewrite in place of the same size
 * within one tick keeps all three. Comparing the footer (one small pread of a file that
 * is being read anyway) rules that out: with the same footer, the cached one is exactly
 * what reading it would give. */
static bool same_footer(pq_file *f, const pq_meta *m)
{
    size_t n = m->raw_len + 8;
    if (n > f->size)
        return false;
    uint8_t stack[16384], *b = n <= sizeof stack ? stack : xmalloc(n);
    bool same = pf_read(f, f->size - n, n, b) == 0 && memcmp(b, m->raw, m->raw_len) == 0 &&
                (uint32_t)(b[n - 8] | b[n - 7] << 8 | b[n - 6] << 16 | (uint32_t)b[n - 5] << 24) == m->raw_len &&
                memcmp(b + n - 4, "PAR1", 4) == 0;
    if (b != stack)
        free(b);
    err_clear();
    return same;
}

/* The footer and schema of f through the metadata cache under ck (key and version set):
 * a cached footer (a reference in *foot), or one read from f and then cached. The query's
 * counters in ck count the hit or the miss. */
static int open_meta_cached(pq_file *f, const fmt_cache_key *ck, pq_meta **m, pq_schema **s, pq_footer **foot)
{
    pq_footer *ft = pqmc_get(ck->key, ck->version, f->size, footer_from_raw, (void *)f->name);
    if (ft && !f->read_at && !same_footer(f, ft->m)) {
        pq_footer_release(ft);
        ft = NULL;
    }
    if (ft) {
        if (ck->hits)
            atomic_fetch_add(ck->hits, 1);
    } else {
        if (ck->misses)
            atomic_fetch_add(ck->misses, 1);
        /* decoded with no query tracker: the footer outlives the query (meta_cache.h) */
        mem_tracker *prev = mem_tracker_attach(NULL);
        pq_meta *mm = read_meta(f);
        pq_schema *ss = mm ? schema_build(mm) : NULL;
        mem_tracker_attach(prev);
        if (!ss) {
            if (mm)
                err_prefix("%s: ", f->name);
            pq_meta_free(mm);
            return -1;
        }
        ft = pq_footer_new(mm, ss, schema_free_v, f->size);
        ft->charge += ss->a.total;
        pqmc_put(ck->key, ck->version, ft);
    }
    *foot = ft;
    *m = ft->m;
    *s = ft->schema;
    return 0;
}

static bool cache_on(const fmt_cache_key *ck) { return ck && ck->key && ck->key[0] && ck->version && ck->version[0]; }

/* The footer and schema of a file opened by pf_open or pf_open_path. */
static int open_meta(pq_file *f, pq_meta **m, pq_schema **s)
{
    if (!(*m = read_meta(f)))
        return -1;
    if (!(*s = schema_build(*m))) {
        err_prefix("%s: ", f->name);
        return -1;
    }
    return 0;
}

static int open_file(rbuf *in, pq_file *f, pq_meta **m, pq_schema **s)
{
    return pf_open(in, f) ? -1 : open_meta(f, m, s);
}

static const pq_node *find_top(const pq_meta *m, const pq_schema *ps, const char *name)
{
    for (int k = 0; k < ps->ntop; k++)
        if (strcmp(m->schema[ps->top[k]->el].name, name) == 0)
            return ps->top[k];
    for (int k = 0; k < ps->ntop; k++)
        if (strcasecmp(m->schema[ps->top[k]->el].name, name) == 0)
            return ps->top[k];
    return NULL;
}

/* The reader over an opened file: m, s and f set; everything else from here. */
static void reader_init(pq_rd *r, const schema *s, const fmt_settings *st)
{
    r->base.next = pq_next;
    r->base.free = pq_free;
    r->base.select = pq_select;
    r->base.prefetch = pq_prefetch;
    r->base.prefetch_bytes = pq_prefetch_bytes;
    r->base.prefetch_ranges = pq_prefetch_ranges;
    r->base.count_rows = pq_count_rows;
    r->base.keep_codes = pq_keep_codes;
    r->base.set_filters = pq_set_filters;
    r->base.set_prefilter = parquet_reader_set_prefilter;
    r->env.timezone = st && st->timezone ? st->timezone : "UTC";
    r->null_as_default = st ? st->null_as_default : true;
    r->chunks = xcalloc((size_t)r->s->nleaves + 1, sizeof *r->chunks);
    for (int i = 0; i < r->s->nleaves; i++)
        r->chunks[i].verify_crc = st ? st->parquet_verify_checksums : true;
    r->out_s = schema_clone(s);
    r->ncols = s->n;
    r->cols = xcalloc((size_t)s->n + 1, sizeof *r->cols);
    for (int i = 0; i < s->n; i++) {
        pq_col *c = &r->cols[i];
        c->want = s->types[i];
        c->needed = true;
        c->node = (pq_node *)(uintptr_t)find_top(r->m, r->s, s->names[i]);
    }
    r->rg_first = r->rg = 0;
    r->rg_end = r->m->nrgs;
    r->min_seek = PARQUET_DEFAULT_MIN_BYTES_FOR_SEEK;
    r->prefer_bytes = st ? st->parquet_prefer_block_bytes : PARQUET_DEFAULT_PREFER_BLOCK_BYTES;
    r->block_rows = PQ_BLOCK_ROWS;
}

int parquet_reader_new(rbuf *in, const schema *s, const fmt_settings *st, rd_bin **out)
{
    *out = NULL;
    pq_rd *r = xcalloc(1, sizeof *r);
    r->base.free = pq_free;
    if (open_file(in, &r->f, &r->m, &r->s)) {
        pq_free(&r->base);
        return -1;
    }
    reader_init(r, s, st);
    *out = &r->base;
    return 0;
}

int parquet_reader_new_ra(const char *name, uint64_t size, fmt_read_at_fn read_at, void *ctx,
                          void (*ctx_free)(void *ctx), const fmt_cache_key *ck, const schema *s,
                          const fmt_settings *st, rd_bin **out)
{
    *out = NULL;
    pq_rd *r = xcalloc(1, sizeof *r);
    r->base.free = pq_free;
    r->f = (pq_file){.fd = -1, .name = name, .size = size, .read_at = read_at, .ra_ctx = ctx, .ra_free = ctx_free};
    if (cache_on(ck)) {
        if (open_meta_cached(&r->f, ck, &r->m, &r->s, &r->foot)) {
            pq_free(&r->base);
            return -1;
        }
    } else if (!(r->m = read_meta(&r->f)) || !(r->s = schema_build(r->m))) {
        if (r->m)
            err_prefix("%s: ", name);
        pq_free(&r->base);
        return -1;
    }
    reader_init(r, s, st);
    /* a request per range costs more than reading through a gap */
    r->min_seek = 1 << 20;
    *out = &r->base;
    return 0;
}

int parquet_file_open(const char *path, parquet_file **out) { return parquet_file_open_cached(path, NULL, out); }

int parquet_file_open_cached(const char *path, const fmt_cache_key *ck, parquet_file **out)
{
    *out = NULL;
    parquet_file *pf = xcalloc(1, sizeof *pf);
    pf->name = xstrdup(path);
    struct stat st = {0};
    int rc = pf_open_path(pf->name, &pf->f, &st);
    if (rc == 0 && ck) {
        /* the version from the descriptor that is read: size, mtime and inode */
        char ver[96], *abs = ck->key ? NULL : realpath(path, NULL);
        snprintf(ver, sizeof ver, "%lld-%lld.%09ld-%llu", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                 (long)st.st_mtim.tv_nsec, (unsigned long long)st.st_ino);
        fmt_cache_key k = {.key = ck->key ? ck->key : abs, .version = ver, .hits = ck->hits, .misses = ck->misses};
        if (cache_on(&k))
            rc = open_meta_cached(&pf->f, &k, &pf->m, &pf->s, &pf->foot) ? -1 : 2;
        free(abs);
        if (rc == -1) {
            parquet_file_free(pf);
            return -1;
        }
        if (rc == 2) {
            pf->f.name = pf->name;
            *out = pf;
            return 0;
        }
    }
    if (rc == 1) { /* not a regular file: read the stream */
        instream *in;
        if (instream_open_file(path, &in)) {
            parquet_file_free(pf);
            return -1;
        }
        rbuf *rb = rbuf_new(in, 1 << 16);
        rc = pf_open(rb, &pf->f);
        rbuf_free(rb);
    }
    if (!rc)
        rc = open_meta(&pf->f, &pf->m, &pf->s);
    pf->f.name = pf->name; /* the stream's name goes with the stream */
    if (rc) {
        parquet_file_free(pf);
        return -1;
    }
    *out = pf;
    return 0;
}

void parquet_file_free(parquet_file *pf)
{
    if (!pf)
        return;
    if (pf->foot) {
        pq_footer_release(pf->foot);
    } else {
        schema_free_(pf->s);
        pq_meta_free(pf->m);
    }
    pf_close(&pf->f);
    free(pf->name);
    free(pf);
}

int parquet_file_row_groups(const parquet_file *pf) { return pf->m->nrgs; }

int64_t parquet_file_row_group_rows(const parquet_file *pf, int rg) { return pf->m->rgs[rg].num_rows; }

uint64_t parquet_file_reads(parquet_file *pf) { return atomic_load(&pf->reads); }

int parquet_reader_open(parquet_file *pf, const schema *s, const fmt_settings *st, const parquet_read_opts *o,
                        rd_bin **out)
{
    pq_rd *r = xcalloc(1, sizeof *r);
    r->shared = pf;
    r->f = pf->f;
    r->m = pf->m;
    r->s = pf->s;
    reader_init(r, s, st);
    if (o) {
        int a = o->rg_first < 0 ? 0 : o->rg_first > r->m->nrgs ? r->m->nrgs : o->rg_first;
        int e = o->rg_count < 0 || o->rg_count > r->m->nrgs - a ? r->m->nrgs : a + o->rg_count;
        r->rg_first = r->rg = a;
        r->rg_end = e;
        r->min_seek = o->min_bytes_for_seek;
        r->filters = o->filters;
        r->nfilters = o->nfilters;
    }
    *out = &r->base;
    return 0;
}

/* The top-level columns of an opened file's footer as a schema. */
static int schema_of(const pq_meta *m, const pq_schema *s, schema **out)
{
    for (int i = 0; i < s->ntop; i++)
        if (s->top[i]->unsupported)
            return err_set(ERR_NOT_IMPLEMENTED, "unsupported: column %s (%s)", m->schema[s->top[i]->el].name,
                           s->top[i]->unsupported);
    schema *o = schema_new(s->ntop);
    for (int i = 0; i < s->ntop; i++)
        schema_set(o, i, m->schema[s->top[i]->el].name, s->top[i]->t);
    *out = o;
    return 0;
}

int parquet_infer_schema(rbuf *in, const fmt_settings *st, schema **out)
{
    (void)st;
    *out = NULL;
    pq_file f;
    pq_meta *m = NULL;
    pq_schema *s = NULL;
    int rc = open_file(in, &f, &m, &s);
    if (!rc)
        rc = schema_of(m, s, out);
    schema_free_(s);
    pq_meta_free(m);
    pf_close(&f);
    return rc;
}

int parquet_infer_schema_ra(const char *name, uint64_t size, fmt_read_at_fn read_at, void *ctx,
                            const fmt_cache_key *ck, schema **out)
{
    *out = NULL;
    pq_file f = {.fd = -1, .name = name, .size = size, .read_at = read_at, .ra_ctx = ctx};
    if (cache_on(ck)) {
        pq_meta *m;
        pq_schema *s;
        pq_footer *ft;
        if (open_meta_cached(&f, ck, &m, &s, &ft))
            return -1;
        int rc = schema_of(m, s, out);
        pq_footer_release(ft);
        return rc;
    }
    pq_meta *m = read_meta(&f);
    pq_schema *s = m ? schema_build(m) : NULL;
    int rc = s ? schema_of(m, s, out) : -1;
    if (m && !s)
        err_prefix("%s: ", name);
    schema_free_(s);
    pq_meta_free(m);
    return rc;
}

/* ---- row-group statistics (filter push-down) ---- */

enum { PV_NONE, PV_INT, PV_FLT, PV_STR };

typedef struct pq_val {
    int kind;
    int128_t i;
    long double d;
    const uint8_t *s;
    size_t n;
} pq_val;

/* A statistics bound of leaf l as a comparable value (PV_NONE when unusable). */
static pq_val stat_val(const pq_leaf *l, const uint8_t *p, uint32_t n, bool legacy)
{
    pq_val v = {.kind = PV_NONE};
    const type *vt = l->vt;
    if (type_is_decimal(vt) || vt->id == T_BOOL)
        return v;
    bool uns = vt->id == T_UINT8 || vt->id == T_UINT16 || vt->id == T_UINT32 || vt->id == T_UINT64;
    /* the deprecated min/max fields were written in signed order whatever the type */
    if (legacy && (uns || l->e->type == PQ_BYTE_ARRAY))
        return v;
    switch (l->e->type) {
    case PQ_INT32: {
        if (n != 4)
            return v;
        int32_t x;
        memcpy(&x, p, 4);
        v.kind = PV_INT;
        v.i = uns ? (int128_t)(uint32_t)x : (int128_t)x;
        return v;
    }
    case PQ_INT64: {
        if (n != 8)
            return v;
        int64_t x;
        memcpy(&x, p, 8);
        v.kind = PV_INT;
        v.i = uns ? (int128_t)(uint64_t)x : (int128_t)x;
        return v;
    }
    case PQ_FLOAT:
    case PQ_DOUBLE: {
        double d;
        if (l->e->type == PQ_FLOAT && n == 4) {
            float f;
            memcpy(&f, p, 4);
            d = f;
        } else if (l->e->type == PQ_DOUBLE && n == 8)
            memcpy(&d, p, 8);
        else
            return v;
        if (d != d)
            return v;
        v.kind = PV_FLT;
        v.d = d;
        return v;
    }
    case PQ_BYTE_ARRAY:
        if (vt->id != T_STRING)
            return v;
        v.kind = PV_STR;
        v.s = p;
        v.n = n;
        return v;
    }
    return v;
}

/* Row i of a constant column as a comparable value. */
static pq_val const_val(const column *c, size_t i)
{
    pq_val v = {.kind = PV_NONE};
    const type *t = type_phys(c->type);
    if (t->id == T_NULLABLE)
        return v; /* the analyzer passes plain values */
    const uint8_t *p = c->data.p;
    switch (t->id) {
#define IV(ID, T)                                                                                            \
    case ID: {                                                                                               \
        T x;                                                                                                 \
        memcpy(&x, p + i * sizeof x, sizeof x);                                                              \
        v.kind = PV_INT;                                                                                     \
        v.i = (int128_t)x;                                                                                   \
        return v;                                                                                            \
    }
        IV(T_UINT8, uint8_t) IV(T_UINT16, uint16_t) IV(T_UINT32, uint32_t) IV(T_UINT64, uint64_t)
        IV(T_INT8, int8_t) IV(T_INT16, int16_t) IV(T_INT32, int32_t) IV(T_INT64, int64_t)
        IV(T_INT128, int128_t) IV(T_DATE, uint16_t) IV(T_DATE32, int32_t) IV(T_DATETIME, uint32_t)
        IV(T_DATETIME64, int64_t)
#undef IV
    case T_FLOAT32: {
        float f;
        memcpy(&f, p + i * 4, 4);
        if (f != f)
            return v;
        v.kind = PV_FLT;
        v.d = f;
        return v;
    }
    case T_FLOAT64: {
        double d;
        memcpy(&d, p + i * 8, 8);
        if (d != d)
            return v;
        v.kind = PV_FLT;
        v.d = d;
        return v;
    }
    case T_STRING: {
        size_t n;
        const char *s = col_str(c, i, &n);
        v.kind = PV_STR;
        v.s = (const uint8_t *)s;
        v.n = n;
        return v;
    }
    default:
        return v;
    }
}

/* Compares a with b: -1, 0, 1, or 2 when they cannot be compared. upper: a is a string
 * maximum that may have been truncated, so a value with a as its prefix may exceed it. */
static int cmp_val(const pq_val *a, const pq_val *b, bool upper)
{
    if (a->kind == PV_NONE || b->kind == PV_NONE)
        return 2;
    if (a->kind == PV_STR || b->kind == PV_STR) {
        if (a->kind != b->kind)
            return 2;
        size_t m = a->n < b->n ? a->n : b->n;
        int c = m ? memcmp(a->s, b->s, m) : 0;
        if (upper && c == 0 && a->n <= b->n)
            return 1;
        if (c)
            return c < 0 ? -1 : 1;
        return a->n < b->n ? -1 : a->n > b->n;
    }
    if (a->kind == PV_INT && b->kind == PV_INT)
        return a->i < b->i ? -1 : a->i > b->i;
    long double x = a->kind == PV_INT ? (long double)a->i : a->d;
    long double y = b->kind == PV_INT ? (long double)b->i : b->d;
    return x < y ? -1 : x > y;
}

/* May a range of values with bounds lo..hi (either may be unknown) hold a value v with
 * `v op vals`? */
static bool bounds_may_match(const pq_val *lo, const pq_val *hi, int op, const column *vals)
{
    if (lo->kind == PV_NONE && hi->kind == PV_NONE)
        return true;
    bool may = false;
    for (size_t i = 0; i < vals->len && !may; i++) {
        pq_val c = const_val(vals, i);
        if (c.kind == PV_NONE)
            return true;
        int cl = cmp_val(lo, &c, false), ch2 = cmp_val(hi, &c, true);
        switch (op) {
        case PQF_EQ:
        case PQF_IN:
            may = (cl == 2 || cl <= 0) && (ch2 == 2 || ch2 >= 0);
            break;
        case PQF_LT: may = cl == 2 || cl < 0; break;
        case PQF_LE: may = cl == 2 || cl <= 0; break;
        case PQF_GT: may = ch2 == 2 || ch2 > 0; break;
        case PQF_GE: may = ch2 == 2 || ch2 >= 0; break;
        case PQF_NE:
        case PQF_NOT_IN:
            /* only exact integer bounds can show that every value is excluded (float
             * columns may hold NaN, string bounds may be truncated) */
            if (lo->kind != PV_INT || hi->kind != PV_INT || c.kind != PV_INT || lo->i != hi->i)
                return true;
            if (lo->i == c.i)
                return false; /* the only value there is (besides NULLs) is excluded */
            if (op == PQF_NE)
                return true;
            break; /* NOT IN: try the next excluded value */
        default:
            return true;
        }
    }
    if (op == PQF_NOT_IN)
        return true;
    return may;
}

/* The leaf a filter can judge by statistics: a flat column read without conversion. */
static const pq_leaf *filter_leaf(const pq_meta *m, const pq_schema *s, const char *col, const type *want, int *leaf)
{
    const pq_node *n = find_top(m, s, col);
    if (!n || n->kind != N_LEAF || n->repeated || n->unsupported)
        return NULL;
    const pq_leaf *l = &s->leaves[n->leaf];
    if (l->max_rep || type_strip_nullable(want) != l->vt)
        return NULL; /* read with a conversion: the file's order may differ */
    *leaf = n->leaf;
    return l;
}

bool parquet_rg_may_match(const parquet_file *pf, int rg, const char *col, const type *want, int op,
                          const column *vals)
{
    return rg_may_match(pf->m, pf->s, rg, col, want, op, vals);
}

static bool rg_may_match(const pq_meta *m, const pq_schema *s, int rg, const char *col, const type *want, int op,
                         const column *vals)
{
    if (rg < 0 || rg >= m->nrgs || !vals || vals->len == 0)
        return true;
    int leaf;
    const pq_leaf *l = filter_leaf(m, s, col, want, &leaf);
    if (!l)
        return true;
    const pq_row_group *g = &m->rgs[rg];
    const pq_chunk *ch = &g->cols[leaf];
    if (!ch->has_meta)
        return true;
    const pq_stats *st = &ch->meta.stats;
    /* Every comparison with NULL is NULL: a row group of NULLs only matches nothing. */
    if (st->null_count >= 0 && g->num_rows > 0 && st->null_count >= g->num_rows)
        return false;
    pq_val lo = st->has_min ? stat_val(l, st->min, st->min_len, st->legacy) : (pq_val){.kind = PV_NONE};
    pq_val hi = st->has_max ? stat_val(l, st->max, st->max_len, st->legacy) : (pq_val){.kind = PV_NONE};
    return bounds_may_match(&lo, &hi, op, vals);
}

/* ---- page index: the row ranges of a row group that may satisfy the filters ---- */

/* Reads and decodes the page index of chunk ch (NULL without an error when the file has
 * none; NULL with an error when it is malformed). */
static pq_page_index *read_page_index(pq_file *f, const pq_chunk *ch, bool with_stats)
{
    if (ch->offset_index_offset < 0 || ch->offset_index_length <= 0 ||
        (with_stats && (ch->column_index_offset < 0 || ch->column_index_length <= 0)))
        return NULL;
    uint64_t oo = (uint64_t)ch->offset_index_offset, co = (uint64_t)ch->column_index_offset;
    size_t on = (size_t)ch->offset_index_length, cn = with_stats ? (size_t)ch->column_index_length : 0;
    uint8_t *b = xmalloc(on + cn + 1);
    pq_page_index *x = NULL;
    if (!pf_read(f, oo, on, b) && (!with_stats || !pf_read(f, co, cn, b + on)))
        x = pq_page_index_decode(b, on, oo, with_stats ? b + on : NULL, cn, co, f->name);
    free(b);
    return x;
}

/* Appends the row range [a, e) to the pairs in *r (merged with the previous one when they
 * touch). */
static void add_range(int64_t **r, int *n, int *cap, int64_t a, int64_t e)
{
    if (*n && (*r)[2 * *n - 1] == a) {
        (*r)[2 * *n - 1] = e;
        return;
    }
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *r = xrealloc(*r, sizeof **r * 2 * (size_t)*cap);
    }
    (*r)[2 * *n] = a;
    (*r)[2 * *n + 1] = e;
    (*n)++;
}

/* Computes r->keep: the sorted row ranges [a, e) of row group g that may satisfy every
 * filter, judged page by page from the column indexes. Files without page indexes, or
 * filters the statistics cannot judge, keep everything (no ranges: r->nkeep = -1). */
static int page_ranges(pq_rd *r, const pq_row_group *g)
{
    r->nkeep = -1;
    /* remote objects: the indexes would cost two requests per column and row group, in
     * the way of the chunk reads; the row groups' own statistics already spared those */
    if (!r->nfilters || g->num_rows <= 0 || r->f.read_at)
        return 0;
    int64_t *bounds = NULL; /* every page start of every judged column, then sorted */
    int nb = 0;
    typedef struct judged {
        pq_page_index *x;
        bool *may;
    } judged;
    judged *js = xcalloc((size_t)r->nfilters + 1, sizeof *js);
    int nj = 0, rc = 0;
    for (int i = 0; i < r->nfilters && !rc; i++) {
        const pq_filter *fl = &r->filters[i];
        int leaf;
        const pq_leaf *l = fl->vals && fl->vals->len ? filter_leaf(r->m, r->s, fl->col, fl->want, &leaf) : NULL;
        if (!l || !g->cols[leaf].has_meta)
            continue;
        pq_page_index *x = read_page_index(&r->f, &g->cols[leaf], true);
        if (!x) {
            if (err_code()) /* a malformed index: say so rather than guess */
                rc = -1;
            continue;
        }
        if (!x->has_stats || x->npages == 0 || x->first_row[0] != 0) {
            pq_page_index_free(x);
            continue;
        }
        bool *may = xcalloc((size_t)x->npages + 1, sizeof *may);
        for (int p = 0; p < x->npages; p++) {
            if (x->null_page[p]) { /* comparisons with NULL are never true */
                may[p] = false;
                continue;
            }
            pq_val lo = stat_val(l, x->min[p], x->min_len[p], false);
            pq_val hi = stat_val(l, x->max[p], x->max_len[p], false);
            may[p] = bounds_may_match(&lo, &hi, fl->op, fl->vals);
        }
        js[nj++] = (judged){x, may};
        bounds = xrealloc(bounds, sizeof *bounds * (size_t)(nb + x->npages + 1));
        for (int p = 0; p < x->npages; p++)
            bounds[nb++] = x->first_row[p];
    }
    if (!rc && nj) {
        /* Cut the row group at every page start of every judged column: within a piece each
         * column is in one page, so the piece may match only if all its pages may. */
        bounds = xrealloc(bounds, sizeof *bounds * (size_t)(nb + 2));
        bounds[nb++] = g->num_rows;
        for (int k = 1; k < nb; k++) /* insertion sort: few pages */
            for (int j = k; j > 0 && bounds[j] < bounds[j - 1]; j--) {
                int64_t t = bounds[j];
                bounds[j] = bounds[j - 1];
                bounds[j - 1] = t;
            }
        int *at = xcalloc((size_t)nj + 1, sizeof *at); /* each column's current page */
        int cap = 0;
        r->nkeep = 0;
        int64_t a = 0;
        for (int k = 0; k < nb; k++) {
            int64_t e = bounds[k];
            if (e <= a)
                continue;
            if (e > g->num_rows)
                e = g->num_rows;
            bool may = true;
            for (int j = 0; j < nj && may; j++) {
                const pq_page_index *x = js[j].x;
                while (at[j] + 1 < x->npages && x->first_row[at[j] + 1] <= a)
                    at[j]++;
                may = js[j].may[at[j]];
            }
            if (may)
                add_range(&r->keep, &r->nkeep, &cap, a, e);
            a = e;
        }
        free(at);
    }
    for (int j = 0; j < nj; j++) {
        pq_page_index_free(js[j].x);
        free(js[j].may);
    }
    free(js);
    free(bounds);
    return rc;
}
