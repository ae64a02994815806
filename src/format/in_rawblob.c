/* RawBLOB input: the whole input is one String value, in a column named raw_blob when the
 * schema is inferred (ClickHouse: `DESCRIBE format(RawBLOB, 'abc')` → raw_blob String).
 * Empty input gives no rows, as in ClickHouse. The caller's schema must have exactly one
 * column of type String (Nullable / LowCardinality wrappers allowed). */
#include "format/rd.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>

typedef struct rawblob_rd {
    rd_bin base;
    rbuf *in;
    const type *t;
    bool done;
} rawblob_rd;

static int rawblob_next(rd_bin *bp, block **out)
{
    rawblob_rd *r = (rawblob_rd *)bp;
    *out = NULL;
    if (r->done)
        return 0;
    r->done = true;
    column *c = col_new(r->t);
    column *v = type_is_nullable(r->t) ? c->inner : c;
    /* Read straight into the value's bytes: no copy of the whole input. */
    for (;;) {
        size_t avail = (size_t)(r->in->end - r->in->pos);
        buf_append(&v->data, r->in->pos, avail);
        r->in->pos += avail;
        long got = rbuf_fill(r->in);
        if (got < 0) {
            col_free(c);
            return -1;
        }
        if (got == 0 && r->in->pos == r->in->end)
            break;
    }
    if (v->data.len == 0) {
        col_free(c);
        return 0;
    }
    uint64_t end = v->data.len;
    buf_append(&v->offs, &end, sizeof end);
    v->len = 1;
    if (v != c)
        col_nullable_commit(c, false);
    block *b = block_new(1, 1);
    b->cols[0] = c;
    *out = b;
    return 0;
}

static void rawblob_free(rd_bin *bp) { free(bp); }

int rawblob_reader_new(rbuf *in, const schema *s, const fmt_settings *st, rd_bin **out)
{
    (void)st;
    *out = NULL;
    if (!s || s->n != 1 || type_base(s->types[0])->id != T_STRING)
        return err_set(ERR_BAD_ARGUMENTS,
                       "This input format is only suitable for tables with a single column of type String but the "
                       "number of columns is %d%s%s",
                       s ? s->n : 0, s && s->n == 1 ? " and its type is " : "",
                       s && s->n == 1 ? s->types[0]->name : "");
    rawblob_rd *r = xcalloc(1, sizeof *r);
    r->base.next = rawblob_next;
    r->base.free = rawblob_free;
    r->in = in;
    r->t = s->types[0];
    *out = &r->base;
    return 0;
}

int rawblob_infer_schema(rbuf *in, const fmt_settings *st, schema **out)
{
    (void)in;
    (void)st;
    schema *s = schema_new(1);
    schema_set(s, 0, "raw_blob", type_simple(T_STRING));
    *out = s;
    return 0;
}
