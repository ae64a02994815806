/* One row of a column as compact bytes (rowser.h). */
#include "column/rowser.h"

#include <string.h>

void col_row_write(buf *out, const column *c, size_t row)
{
    row = col_idx(c, row);
    const type *t = type_phys(c->type);
    switch (t->id) {
    case T_STRING: {
        size_t n;
        const char *s = col_str(c, row, &n);
        uint32_t len = (uint32_t)n;
        buf_append(out, &len, 4);
        buf_append(out, s, n);
        return;
    }
    case T_NULLABLE:
        if (c->nulls.p[row]) {
            buf_putc(out, 1);
            return;
        }
        buf_putc(out, 0);
        col_row_write(out, c->inner, row);
        return;
    case T_ARRAY:
    case T_MAP: {
        const uint64_t *o = col_offs(c);
        uint32_t len = (uint32_t)(o[row + 1] - o[row]);
        buf_append(out, &len, 4);
        for (uint64_t k = o[row]; k < o[row + 1]; k++)
            col_row_write(out, c->inner, k);
        return;
    }
    case T_TUPLE:
        for (int f = 0; f < c->nfields; f++)
            col_row_write(out, c->fields[f], row);
        return;
    default:
        buf_append(out, c->data.p + (size_t)t->width * row, t->width);
        return;
    }
}

void col_row_read(const char **p, column *c)
{
    const type *t = type_phys(c->type);
    switch (t->id) {
    case T_STRING: {
        uint32_t len;
        memcpy(&len, *p, 4);
        col_push_str(c, *p + 4, len);
        *p += 4 + len;
        return;
    }
    case T_NULLABLE:
        if (**p) {
            (*p)++;
            col_push_null(c);
            return;
        }
        (*p)++;
        col_row_read(p, c->inner);
        col_nullable_commit(c, false);
        return;
    case T_ARRAY:
    case T_MAP: {
        uint32_t len;
        memcpy(&len, *p, 4);
        *p += 4;
        for (uint32_t k = 0; k < len; k++)
            col_row_read(p, c->inner);
        col_array_commit(c);
        return;
    }
    case T_TUPLE:
        for (int f = 0; f < c->nfields; f++)
            col_row_read(p, c->fields[f]);
        c->len++;
        return;
    default:
        col_push_fixed(c, *p);
        *p += t->width;
        return;
    }
}
