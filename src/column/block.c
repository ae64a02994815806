#include "column/block.h"

#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

schema *schema_new(int n)
{
    schema *s = xcalloc(1, sizeof *s);
    s->n = n;
    s->names = xcalloc((size_t)n + 1, sizeof *s->names);
    s->types = xcalloc((size_t)n + 1, sizeof *s->types);
    return s;
}

void schema_set(schema *s, int i, const char *name, const type *t)
{
    free(s->names[i]);
    s->names[i] = xstrdup(name);
    s->types[i] = t;
}

schema *schema_clone(const schema *s)
{
    schema *c = schema_new(s->n);
    for (int i = 0; i < s->n; i++)
        schema_set(c, i, s->names[i], s->types[i]);
    return c;
}

int schema_find(const schema *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (s->names[i] && strcmp(s->names[i], name) == 0)
            return i;
    return -1;
}

void schema_free(schema *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        free(s->names[i]);
    free(s->names);
    free(s->types);
    free(s);
}

block *block_new(int ncols, size_t rows)
{
    block *b = xcalloc(1, sizeof *b);
    b->ncols = ncols;
    b->rows = rows;
    b->cols = xcalloc((size_t)ncols + 1, sizeof *b->cols);
    return b;
}

block *block_new_empty(const schema *s)
{
    block *b = block_new(s->n, 0);
    for (int i = 0; i < s->n; i++)
        b->cols[i] = col_new(s->types[i]);
    return b;
}

void block_free(block *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->ncols; i++)
        col_free(b->cols[i]);
    free(b->cols);
    free(b);
}

size_t block_bytes(const block *b)
{
    size_t n = 0;
    for (int i = 0; i < b->ncols; i++)
        n += col_bytes(b->cols[i]);
    return n;
}

void block_append(block *dst, const block *src)
{
    for (int i = 0; i < dst->ncols; i++) {
        if (dst->cols[i]->is_const)
            dst->cols[i] = col_materialize(dst->cols[i]);
        col_push_range(dst->cols[i], src->cols[i], 0, src->rows);
    }
    dst->rows += src->rows;
}

block *block_slice(const block *b, size_t from, size_t n)
{
    block *s = block_new(b->ncols, n);
    for (int i = 0; i < b->ncols; i++)
        s->cols[i] = col_slice(b->cols[i], from, n);
    return s;
}
