/* Extremes of a result: see extremes.h. */
#include "column/extremes.h"

#include "base/mem.h"
#include "column/type.h"

#include <math.h>
#include <stdlib.h>

struct extremes {
    int n;
    const type **types;
    column **cols; /* per column: rows 0 (min) and 1 (max); NULL before the first block */
};

extremes *extremes_new(const schema *sch)
{
    extremes *e = xcalloc(1, sizeof *e);
    e->n = sch->n;
    e->types = xcalloc((size_t)(sch->n ? sch->n : 1), sizeof *e->types);
    e->cols = xcalloc((size_t)(sch->n ? sch->n : 1), sizeof *e->cols);
    for (int i = 0; i < sch->n; i++)
        e->types[i] = sch->types[i];
    return e;
}

/* ClickHouse's `Field < Field` on two values of one column: NULL is below every value, a
 * NaN compares false both ways; otherwise as the column's order. */
static bool field_less(const column *a, size_t i, const column *b, size_t j)
{
    bool na = col_is_null(a, i), nb = col_is_null(b, j);
    if (na || nb)
        return na && !nb;
    const column *ia = type_phys(a->type)->id == T_NULLABLE ? a->inner : a;
    const column *ib = type_phys(b->type)->id == T_NULLABLE ? b->inner : b;
    int id = type_phys(ia->type)->id;
    if (id == T_FLOAT32 || id == T_FLOAT64) {
        double x = id == T_FLOAT32 ? COL_DATA(ia, float)[col_idx(ia, i)] : COL_DATA(ia, double)[col_idx(ia, i)];
        double y = id == T_FLOAT32 ? COL_DATA(ib, float)[col_idx(ib, j)] : COL_DATA(ib, double)[col_idx(ib, j)];
        return x < y;
    }
    return col_compare(ia, i, ib, j, 1) < 0;
}

static bool is_number(const column *c)
{
    switch (type_phys(c->type)->id) {
    case T_UINT8: case T_BOOL: case T_UINT16: case T_DATE: case T_UINT32: case T_DATETIME: case T_UINT64:
    case T_INT8: case T_INT16: case T_INT32: case T_DATE32: case T_INT64: case T_DATETIME64:
    case T_FLOAT32: case T_FLOAT64: return true;
    default: return false;
    }
}

static bool is_nan_at(const column *c, size_t r)
{
    int id = type_phys(c->type)->id;
    if (id == T_FLOAT32)
        return isnan(COL_DATA(c, float)[col_idx(c, r)]);
    if (id == T_FLOAT64)
        return isnan(COL_DATA(c, double)[col_idx(c, r)]);
    return false;
}

/* The rows of the least and the greatest value of col[0..rows) into idx. Numbers (also
 * Nullable ones) as ColumnVector::getExtremes and ColumnNullable's getExtremesWithNulls:
 * NULLs and NaNs are skipped (all NULL: a NULL; all NaN: the first). Other types as
 * IColumn::getExtremesImpl: NaN and NULL sort last for the minimum, first for the
 * maximum. */
static void find_extremes(const column *col, size_t rows, uint32_t idx[2])
{
    bool nullable = type_phys(col->type)->id == T_NULLABLE;
    const column *v = nullable ? col->inner : col;
    if (is_number(v)) {
        bool has_value = false, has_number = false;
        for (size_t r = 0; r < rows; r++) {
            if (nullable && col_is_null(col, r))
                continue;
            bool nan = is_nan_at(v, r);
            if (!has_value || (!has_number && !nan)) {
                idx[0] = idx[1] = (uint32_t)r;
                has_value = true;
                has_number = !nan;
                continue;
            }
            if (nan)
                continue;
            if (col_compare(v, r, v, idx[0], 1) < 0)
                idx[0] = (uint32_t)r;
            else if (col_compare(v, r, v, idx[1], 1) > 0)
                idx[1] = (uint32_t)r;
        }
        return;
    }
    for (size_t r = 1; r < rows; r++) {
        if (col_compare(col, r, col, idx[0], 1) < 0)
            idx[0] = (uint32_t)r;
        else if (col_compare(col, r, col, idx[1], -1) > 0)
            idx[1] = (uint32_t)r;
    }
}

void extremes_add(extremes *e, const block *b)
{
    if (!b || !b->rows)
        return;
    for (int c = 0; c < e->n && c < b->ncols; c++) {
        column *col = col_materialize(col_ref(b->cols[c]));
        uint32_t idx[2] = {0, 0};
        find_extremes(col, b->rows, idx);
        column *cur = col_gather(col, idx, 2);
        col_free(col);
        column *old = e->cols[c];
        if (!old) {
            e->cols[c] = cur;
            continue;
        }
        const column *min_from = field_less(cur, 0, old, 0) ? cur : old;
        const column *max_from = field_less(old, 1, cur, 1) ? cur : old;
        column *next = col_new(e->types[c]);
        col_push_from(next, min_from, 0);
        col_push_from(next, max_from, 1);
        col_free(cur);
        col_free(old);
        e->cols[c] = next;
    }
}

block *extremes_take(extremes *e)
{
    if (!e->n || !e->cols[0])
        return NULL;
    block *b = block_new(e->n, 2);
    for (int c = 0; c < e->n; c++) {
        b->cols[c] = e->cols[c];
        e->cols[c] = NULL;
    }
    return b;
}

void extremes_free(extremes *e)
{
    if (!e)
        return;
    for (int c = 0; c < e->n; c++)
        if (e->cols[c])
            col_free(e->cols[c]);
    free(e->types);
    free(e->cols);
    free(e);
}
