/* INSERT INTO FUNCTION file(…) / s3(…) PARTITION BY expr: rows are split by the value of
 * expr and each partition goes to its own file or object, named by replacing
 * {_partition_id} in the path or URL with the value as text (toString), as ClickHouse does.
 * A sink per partition is opened on its first row and all are finished together (or all
 * aborted on error, so no partial set of objects is left by S3's multipart aborts). */
#include "storage/tablefunc.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/text.h"
#include "exec/expr.h"

#include <stdlib.h>
#include <string.h>

#define WILDCARD "{_partition_id}"

typedef struct part_sink {
    char *id;
    table_sink *sink;
} part_sink;

typedef struct partitioned {
    table_sink base;
    tablefunc_sink_fn open;
    column **args;            /* the table function's arguments; args[0] is the path/URL */
    int nargs;
    schema *sch;
    expr *key;
    query_ctx *q;
    part_sink *parts;
    int nparts;
} partitioned;

static column *path_for(const partitioned *p, const char *id)
{
    size_t len;
    const char *tmpl = col_str(p->args[0], 0, &len);
    buf b = {0};
    for (size_t i = 0; i < len;) {
        if (len - i >= strlen(WILDCARD) && memcmp(tmpl + i, WILDCARD, strlen(WILDCARD)) == 0) {
            buf_puts(&b, id);
            i += strlen(WILDCARD);
        } else {
            buf_putc(&b, tmpl[i++]);
        }
    }
    column *c = col_new(p->args[0]->type);
    col_push_str(c, b.p ? (const char *)b.p : "", b.len);
    buf_free(&b);
    return c;
}

static table_sink *sink_for(partitioned *p, const char *id)
{
    for (int i = 0; i < p->nparts; i++)
        if (strcmp(p->parts[i].id, id) == 0)
            return p->parts[i].sink;
    column **args = xcalloc((size_t)p->nargs + 1, sizeof *args);
    args[0] = path_for(p, id);
    for (int i = 1; i < p->nargs; i++)
        args[i] = p->args[i];
    table_sink *s = NULL;
    int rc = p->open(args, p->nargs, p->sch, p->q, &s);
    col_free(args[0]);
    free(args);
    if (rc)
        return NULL;
    p->parts = xrealloc(p->parts, sizeof *p->parts * (size_t)(p->nparts + 1));
    p->parts[p->nparts++] = (part_sink){xstrdup(id), s};
    return s;
}

static int pt_write(block_sink *bs, block *b)
{
    partitioned *p = (partitioned *)bs;
    column *k;
    if (expr_eval(p->key, b, &k)) {
        block_free(b);
        return -1;
    }
    text_opts to;
    text_opts_default(&to);
    /* rows of each partition, in order of first appearance */
    char **ids = xcalloc(b->rows + 1, sizeof *ids);
    buf t = {0};
    for (size_t r = 0; r < b->rows; r++) {
        t.len = 0;
        text_write(&t, k, r, TEXT_RAW, &to);
        ids[r] = xstrndup(t.p ? (const char *)t.p : "", t.len);
    }
    buf_free(&t);
    col_free(k);
    /* group of each row: index into the partitions of this block, by first appearance */
    uint32_t *grp = xmalloc(sizeof *grp * (b->rows + 1));
    size_t *first = xmalloc(sizeof *first * (b->rows + 1)), *count = xcalloc(b->rows + 1, sizeof *count);
    size_t ng = 0;
    for (size_t r = 0; r < b->rows; r++) {
        size_t g = 0;
        while (g < ng && strcmp(ids[first[g]], ids[r]) != 0)
            g++;
        if (g == ng)
            first[ng++] = r;
        grp[r] = (uint32_t)g;
        count[g]++;
    }
    int rc = 0;
    uint8_t *mask = xmalloc(b->rows + 1);
    for (size_t g = 0; g < ng && !rc; g++) {
        for (size_t r = 0; r < b->rows; r++)
            mask[r] = grp[r] == g;
        block *piece = block_new(b->ncols, count[g]);
        for (int c = 0; c < b->ncols; c++)
            piece->cols[c] = col_filter(b->cols[c], mask, count[g]);
        table_sink *s = sink_for(p, ids[first[g]]);
        if (!s) {
            block_free(piece);
            rc = -1;
            break;
        }
        rc = s->base.write(&s->base, piece);
    }
    free(mask);
    free(grp);
    free(first);
    free(count);
    for (size_t r = 0; r < b->rows; r++)
        free(ids[r]);
    free(ids);
    block_free(b);
    return rc;
}

static void pt_free(partitioned *p)
{
    for (int i = 0; i < p->nparts; i++)
        free(p->parts[i].id);
    free(p->parts);
    expr_free(p->key);
    schema_free(p->sch);
    for (int i = 0; i < p->nargs; i++)
        col_free(p->args[i]);
    free(p->args);
    free(p);
}

static int pt_finish(table_sink *ts)
{
    partitioned *p = (partitioned *)ts;
    int rc = 0;
    for (int i = 0; i < p->nparts; i++) {
        if (rc)
            p->parts[i].sink->abort(p->parts[i].sink);
        else
            rc = p->parts[i].sink->finish(p->parts[i].sink);
    }
    pt_free(p);
    return rc;
}

static void pt_abort(table_sink *ts)
{
    partitioned *p = (partitioned *)ts;
    for (int i = 0; i < p->nparts; i++)
        p->parts[i].sink->abort(p->parts[i].sink);
    pt_free(p);
}

int tablefunc_partitioned_sink(tablefunc_sink_fn open, const char *fname, column *const *args, int nargs,
                               const schema *sch, const ast *key, query_ctx *q, table_sink **out)
{
    size_t len = 0;
    const char *path = nargs > 0 && type_is_string(type_phys(args[0]->type)) ? col_str(args[0], 0, &len) : NULL;
    if (!path || !memmem(path, len, WILDCARD, strlen(WILDCARD)))
        return err_set(ERR_BAD_ARGUMENTS, "Table function '%s' with PARTITION BY requires " WILDCARD
                       " in its path or URL (one file or object per partition)", fname);
    source fake = {.sch = (schema *)sch, .nvisible = sch->n};
    expr *k;
    if (query_compile_expr(q, key, &fake, &k))
        return -1;
    partitioned *p = xcalloc(1, sizeof *p);
    p->base.base.write = pt_write;
    p->base.finish = pt_finish;
    p->base.abort = pt_abort;
    p->open = open;
    p->nargs = nargs;
    p->args = xcalloc((size_t)nargs + 1, sizeof *p->args);
    for (int i = 0; i < nargs; i++)
        p->args[i] = col_ref(args[i]);
    p->sch = schema_clone(sch);
    p->key = k;
    p->q = q;
    *out = &p->base;
    return 0;
}
