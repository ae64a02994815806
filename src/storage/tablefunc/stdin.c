/* The data on standard input, as the table `table` and the table function
 * input([structure]) of `shale local` (--input-format, --structure). The input is read
 * into memory once per process (so that schema inference and several statements can see
 * it), then parsed as one read task. */
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
    memcpy(it->cols, cols, sizeof *cols * (size_t)ncols);
    it->ncols = ncols;
    it->q = q;
    rbuf *rb = rbuf_new(instream_from_memory(stdin_data, stdin_len, "stdin"), 1 << 20);
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
    schema_free(ss->file_schema);
    free(ss);
}

int tablefunc_stdin(const char *structure, query_ctx *q, source **out)
{
    if (isatty(0) && !stdin_loaded)
        return err_set(ERR_BAD_ARGUMENTS,
                       "The table `table` (and input()) reads data from stdin, but stdin is a terminal; pipe data in");
    if (load_stdin())
        return -1;
    const char *fmt_name = q->stdin_format ? q->stdin_format : "TabSeparated";
    const char *canon = fmt_input_canonical(fmt_name);
    if (!canon)
        return err_set(ERR_UNKNOWN_FORMAT, "Unknown input format %s", fmt_name);
    stdin_src *ss = xcalloc(1, sizeof *ss);
    ss->format = xstrdup(canon);
    if (!structure)
        structure = q->stdin_structure;
    int rc;
    if (structure && *structure) {
        rc = structure_parse(structure, strlen(structure), &ss->file_schema);
    } else {
        rbuf *rb = rbuf_new(instream_from_memory(stdin_data, stdin_len, "stdin"), 1 << 20);
        rc = fmt_infer_schema(canon, rb, &q->fmt, &ss->file_schema);
        rbuf_free(rb);
        if (rc)
            err_suffix(" (while inferring the structure of the data on stdin; pass --structure)");
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
