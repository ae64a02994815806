#include "storage/tablefunc/read_common.h"

#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

int *read_cols_copy(const int *cols, int ncols)
{
    int *c = xcalloc((size_t)ncols + 1, sizeof *c);
    if (ncols)
        memcpy(c, cols, sizeof *cols * (size_t)ncols);
    return c;
}

bool *read_needed(const int *cols, int ncols, int nfile)
{
    bool *needed = xcalloc((size_t)nfile + 1, sizeof *needed);
    for (int i = 0; i < ncols; i++)
        if (cols[i] < nfile)
            needed[cols[i]] = true;
    return needed;
}

void read_select_columns(fmt_reader *r, const int *cols, int ncols, int nfile)
{
    bool *needed = read_needed(cols, ncols, nfile);
    fmt_reader_select(r, needed);
    free(needed);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

block *read_project(block *b, const int *cols, int ncols, int nfile, const char *path, int64_t size)
{
    block *p = block_new(ncols, b->rows);
    for (int i = 0; i < ncols; i++) {
        int c = cols[i];
        if (c < nfile) {
            p->cols[i] = col_ref(b->cols[c]);
        } else if (c < nfile + 2) {
            const char *v = c == nfile ? path : base_name(path);
            column *one = col_new(type_lowcard(type_simple(T_STRING)));
            col_push_str(one, v, strlen(v));
            p->cols[i] = col_new_const(one, b->rows);
        } else {
            column *one = col_new(type_nullable(type_simple(T_UINT64)));
            uint64_t sz = size >= 0 ? (uint64_t)size : 0;
            col_push_fixed(one->inner, &sz);
            col_nullable_commit(one, size < 0);
            p->cols[i] = col_new_const(one, b->rows);
        }
    }
    block_free(b);
    return p;
}
