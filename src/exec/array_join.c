#include "exec/array_join.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

int array_join_add_step(array_join_plan *aj, expr **arrays, int n, bool left)
{
    aj->steps = xrealloc(aj->steps, sizeof *aj->steps * (size_t)(aj->nsteps + 1));
    array_join_step *s = &aj->steps[aj->nsteps];
    s->narrays = n;
    s->arrays = xcalloc((size_t)n + 1, sizeof *s->arrays);
    memcpy(s->arrays, arrays, sizeof *arrays * (size_t)n);
    s->left = left;
    return aj->nsteps++;
}

void array_join_plan_free(array_join_plan *aj)
{
    if (!aj)
        return;
    for (int i = 0; i < aj->nsteps; i++) {
        for (int k = 0; k < aj->steps[i].narrays; k++)
            expr_free(aj->steps[i].arrays[k]);
        free(aj->steps[i].arrays);
    }
    free(aj->steps);
    free(aj->needed);
    free(aj);
}

static int apply_step(const array_join_plan *aj, const array_join_step *s, block **bp)
{
    block *in = *bp;
    column *arrays[64];
    int na = s->narrays, done = 0, rc = 0;
    for (; done < na && done < 64; done++) {
        if ((rc = expr_eval(s->arrays[done], in, &arrays[done])))
            break;
        arrays[done] = expr_plain_array(arrays[done]);
    }
    size_t rows = in->rows;
    for (int i = 1; !rc && i < na; i++)
        if (memcmp(arrays[i]->offs.p, arrays[0]->offs.p, (rows + 1) * sizeof(uint64_t)) != 0)
            rc = err_set(ERR_SIZES_OF_ARRAYS_DONT_MATCH, "Sizes of ARRAY-JOIN-ed arrays do not match");
    if (rc) {
        for (int i = 0; i < done; i++)
            col_free(arrays[i]);
        return -1;
    }
    const uint64_t *o = col_offs(arrays[0]);
    size_t n = 0;
    bool padded = false; /* a LEFT step met an empty array */
    for (size_t r = 0; r < rows; r++) {
        size_t len = o[r + 1] - o[r];
        if (len == 0 && s->left) {
            len = 1;
            padded = true;
        }
        n += len;
    }
    if (n > UINT32_MAX) {
        for (int i = 0; i < na; i++)
            col_free(arrays[i]);
        return err_set(ERR_TOO_MANY_ROWS, "ARRAY JOIN makes more than %u rows of one block", UINT32_MAX);
    }
    /* rep: source row of each output row; el: element index, or UINT32_MAX for a padded row */
    uint32_t *rep = xmalloc(n * sizeof *rep + 4), *el = xmalloc(n * sizeof *el + 4);
    size_t k = 0;
    for (size_t r = 0; r < rows; r++) {
        if (o[r + 1] == o[r] && s->left) {
            rep[k] = (uint32_t)r;
            el[k++] = UINT32_MAX;
            continue;
        }
        for (uint64_t e = o[r]; e < o[r + 1]; e++) {
            rep[k] = (uint32_t)r;
            el[k++] = (uint32_t)e;
        }
    }
    block *out = block_new(in->ncols + na, n);
    for (int c = 0; c < in->ncols; c++) {
        if (aj->needed && c < aj->nneeded && !aj->needed[c]) {
            column *one = col_new(in->cols[c]->type);
            col_push_default(one);
            out->cols[c] = col_new_const(one, n);
        } else {
            out->cols[c] = col_gather(in->cols[c], rep, n);
        }
    }
    for (int i = 0; i < na; i++) {
        const column *elems = arrays[i]->inner;
        column *col;
        if (!padded) {
            col = col_gather(elems, el, n);
        } else {
            col = col_new(elems->type);
            col_reserve(col, n);
            for (size_t j = 0; j < n; j++) {
                if (el[j] == UINT32_MAX)
                    col_push_default(col);
                else
                    col_push_from(col, elems, el[j]);
            }
        }
        out->cols[in->ncols + i] = col;
        col_free(arrays[i]);
    }
    free(rep);
    free(el);
    block_free(in);
    *bp = out;
    return 0;
}

int array_join_apply(const array_join_plan *aj, block **b)
{
    for (int i = 0; i < aj->nsteps; i++)
        if (apply_step(aj, &aj->steps[i], b)) {
            block_free(*b);
            *b = NULL;
            return -1;
        }
    return 0;
}
