/* values(['structure',] row, row, …): a table of constant rows, as ClickHouse's VALUES
 * table function. With a structure of several columns every row is a tuple of that many
 * values; with one column every row is a value (a tuple too, when the column is one).
 * Without a structure the columns are c1, c2, … of the least common supertype of the
 * rows' values (each row a tuple, or a single value for one column). Values are CAST to
 * the column types. The rows are analysed constants (storage/tablefunc.h). */
#include "base/err.h"
#include "base/mem.h"
#include "func/func.h"
#include "func/supertype.h"
#include "storage/structure.h"
#include "storage/tablefunc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Element i of row r as a one-row column (a new reference). */
static column *element(column *row, int i, bool tuple_rows)
{
    if (!tuple_rows)
        return col_ref(row);
    column *m = col_materialize(col_ref(row));
    column *e = col_slice(m->fields[i], 0, 1);
    col_free(m);
    return e;
}

int tablefunc_values(column *const *args, int nargs, query_ctx *q, source **out)
{
    if (nargs < 1)
        return err_set(ERR_TOO_FEW_ARGUMENTS_FOR_FUNCTION, "Table function 'values' requires at least 1 argument");
    schema *sch = NULL;
    int first = 0;
    if (nargs >= 2 && type_base(args[0]->type)->id == T_STRING) {
        size_t len;
        const char *s = col_str(args[0], 0, &len);
        if (structure_parse(s, len, &sch))
            return -1;
        first = 1;
    }
    int nrows = nargs - first;
    column *const *rows = args + first;
    bool tuple_rows;
    if (sch) {
        tuple_rows = sch->n > 1;
        for (int r = 0; r < nrows && tuple_rows; r++) {
            const type *t = rows[r]->type;
            if (t->id != T_TUPLE) {
                schema_free(sch);
                return err_set(ERR_BAD_ARGUMENTS, "Table function VALUES requires all but the first argument (rows "
                               "specification) to be either tuples or single values");
            }
            if (t->nfields != sch->n) {
                schema_free(sch);
                return err_set(ERR_BAD_ARGUMENTS, "Values size should match with the number of columns");
            }
        }
    } else {
        tuple_rows = rows[0]->type->id == T_TUPLE;
        int n = tuple_rows ? rows[0]->type->nfields : 1;
        for (int r = 1; r < nrows; r++)
            if ((rows[r]->type->id == T_TUPLE) != tuple_rows || (tuple_rows && rows[r]->type->nfields != n))
                return err_set(ERR_BAD_ARGUMENTS, "Table function VALUES requires all rows to have the same number "
                               "of values (%d in the first, row %d differs)", n, r + 1);
        sch = schema_new(n);
        const type **ts = xcalloc((size_t)nrows + 1, sizeof *ts);
        for (int c = 0; c < n; c++) {
            for (int r = 0; r < nrows; r++)
                ts[r] = tuple_rows ? rows[r]->type->fields[c] : rows[r]->type;
            const type *st = type_supertype(nrows, ts);
            if (!st) {
                free(ts);
                schema_free(sch);
                return -1;
            }
            char nm[16];
            snprintf(nm, sizeof nm, "c%d", c + 1);
            schema_set(sch, c, nm, st);
        }
        free(ts);
    }
    block *b = block_new_empty(sch);
    int rc = 0;
    for (int r = 0; r < nrows && !rc; r++) {
        for (int c = 0; c < sch->n && !rc; c++) {
            column *e = element(rows[r], c, tuple_rows), *v = NULL;
            if (!strcmp(e->type->name, sch->types[c]->name))
                v = col_ref(e);
            else
                rc = func_cast_column(e, sch->types[c], &q->env, &v);
            if (!rc) {
                v = col_materialize(v);
                col_push_from(b->cols[c], v, 0);
                col_free(v);
            }
            col_free(e);
        }
        if (!rc)
            b->rows++;
    }
    if (rc) {
        block_free(b);
        schema_free(sch);
        return -1;
    }
    block **bs = xcalloc(1, sizeof *bs);
    bs[0] = b;
    *out = source_from_blocks(sch, bs, 1);
    return 0;
}
