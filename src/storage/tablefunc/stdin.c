/* Data held in memory as a table: the data on standard input, as the table `table` and
 * the table function input([structure]) of `shale local` (--input-format, --structure),
 * and format(format, [structure,] data). Standard input is read into memory once per
 * process (so that schema inference and several statements can see it), then parsed as
 * one read task. */
#include "base/err.h"
#include "base/mem.h"
#include "codec/stream_codec.h"
#include "storage/structure.h"
#include "storage/tablefunc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t stdin_lock = PTHREAD_MUTEX_INITIALIZER;
static char *stdin_data;
static size_t stdin_len;
static bool stdin_loaded;

static int load_stdin(void)
{
    pthread_mutex_lock(&stdin_lock);
    int rc = 0;
    if (!stdin_loaded) {
        instream *in = instream_from_fd(0, "stdin");
        size_t cap = 1 << 16;
        stdin_data = xmalloc(cap);
        for (;;) {
            if (stdin_len == cap) {
                cap *= 2;
                stdin_data = xrealloc(stdin_data, cap);
            }
            size_t got;
            if (in->read(in, stdin_data + stdin_len, cap - stdin_len, &got)) {
                rc = -1;
                break;
            }
            if (!got)
                break;
            stdin_len += got;
        }
        in->close(in);
        stdin_loaded = rc == 0;
    }
    pthread_mutex_unlock(&stdin_lock);
    return rc;
}

typedef struct stdin_src {
    char *format;
    schema *file_schema;
    const char *data; /* stdin_data, or `owned` */
    size_t len;
    char *owned;
} stdin_src;

typedef struct stdin_it {
    fmt_reader *r;
    int *cols;
    int ncols;
    query_ctx *q;
} stdin_it;

static int st_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    (void)task;
    stdin_src *ss = s->impl;
    stdin_it *it = xcalloc(1, sizeof *it);
    it->cols = xcalloc((size_t)ncols + 1, sizeof *it->cols);
    if (ncols)
        memcpy(it->cols, cols, sizeof *cols * (size_t)ncols);
    it->ncols = ncols;
    it->q = q;
    rbuf *rb = rbuf_new(instream_from_memory(ss->data, ss->len, ss->owned ? "format()" : "stdin"), 1 << 20);
    if (fmt_reader_new(ss->format, rb, ss->file_schema, &q->fmt, &it->r)) {
        free(it->cols);
        free(it);
        return -1;
    }
    *itp = it;
    return 0;
}

static int st_next(void *itp, block **out)
{
    stdin_it *it = itp;
    block *b;
    if (fmt_reader_next(it->r, &b))
        return -1;
    if (!b) {
        *out = NULL;
        return 0;
    }
    query_add_read(it->q, b->rows, block_bytes(b));
    block *p = block_new(it->ncols, b->rows);
    for (int i = 0; i < it->ncols; i++)
        p->cols[i] = col_ref(b->cols[it->cols[i]]);
    block_free(b);
    *out = p;
    return 0;
}

static void st_close(void *itp)
{
    stdin_it *it = itp;
    fmt_reader_free(it->r);
    free(it->cols);
    free(it);
}

static void st_destroy(source *s)
{
    stdin_src *ss = s->impl;
    free(ss->format);
    free(ss->owned);
    schema_free(ss->file_schema);
    free(ss);
}

/* A source over data in memory; takes `owned` (may be NULL when data is stdin's). */
static int memory_data_source(const char *fmt_name, const char *data, size_t len, char *owned, const char *structure,
                              const char *what, query_ctx *q, source **out)
{
    const char *canon = fmt_input_canonical(fmt_name);
    if (!canon) {
        free(owned);
        return err_set(ERR_UNKNOWN_FORMAT, "Unknown input format %s", fmt_name);
    }
    stdin_src *ss = xcalloc(1, sizeof *ss);
    ss->format = xstrdup(canon);
    ss->data = data;
    ss->len = len;
    ss->owned = owned;
    int rc;
    if (structure && *structure) {
        rc = structure_parse(structure, strlen(structure), &ss->file_schema);
    } else {
        rbuf *rb = rbuf_new(instream_from_memory(data, len, what), 1 << 20);
        rc = fmt_infer_schema(canon, rb, &q->fmt, &ss->file_schema);
        rbuf_free(rb);
        if (rc)
            err_suffix(" (while inferring the structure of %s)", what);
    }
    if (rc) {
        st_destroy(&(source){.impl = ss});
        return -1;
    }
    source *s = xcalloc(1, sizeof *s);
    s->sch = schema_clone(ss->file_schema);
    s->nvisible = s->sch->n;
    s->ntasks = 1;
    s->impl = ss;
    s->open = st_open;
    s->next = st_next;
    s->close = st_close;
    s->destroy = st_destroy;
    *out = s;
    return 0;
}

int tablefunc_stdin(const char *structure, query_ctx *q, source **out)
{
    if (q->open_input) /* a server's request body is streamed to INSERT, never held whole */
        return err_set(ERR_NOT_IMPLEMENTED, "input() and the table `table` are available in shale local only");
    if (isatty(0) && !stdin_loaded)
        return err_set(ERR_BAD_ARGUMENTS,
                       "The table `table` (and input()) reads data from stdin, but stdin is a terminal; pipe data in");
    if (load_stdin())
        return -1;
    return memory_data_source(q->stdin_format ? q->stdin_format : "TabSeparated", stdin_data, stdin_len, NULL,
                              structure ? structure : q->stdin_structure, "the data on stdin (pass --structure)", q,
                              out);
}

int tablefunc_format(column *const *args, int nargs, query_ctx *q, source **out)
{
    if (nargs < 2 || nargs > 3)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 'format' requires 2 or 3 arguments: format, [structure,] data");
    const char *s[3];
    size_t n[3];
    for (int i = 0; i < nargs; i++) {
        if (type_base(args[i]->type)->id != T_STRING)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d of table function 'format' must be a string", i + 1);
        s[i] = col_str(args[i], 0, &n[i]);
    }
    char *fmt = xstrndup(s[0], n[0]);
    char *structure = nargs == 3 ? xstrndup(s[1], n[1]) : NULL;
    size_t dn = n[nargs - 1];
    char *data = xstrndup(s[nargs - 1], dn);
    int rc = memory_data_source(fmt, data, dn, data, structure, "the data of format()", q, out);
    free(fmt);
    free(structure);
    return rc;
}
