/* Compiled expressions, evaluated over whole blocks.
 *
 * The analyzer builds an expr tree with every function resolved and every type known;
 * expr_eval runs it over a block and returns a new column reference. Shared read-only by
 * worker threads. Freed with expr_free (recursively). */
#ifndef SHALE_EXEC_EXPR_H
#define SHALE_EXEC_EXPR_H

#include "column/block.h"
#include "func/func.h"
#include "func/hof.h"

typedef struct in_set in_set;

typedef enum expr_kind {
    EX_COL,    /* input column `col` */
    EX_CONST,  /* `value`, a one-row column */
    EX_FUNC,   /* call(args) */
    EX_IN,     /* args[0] [NOT] IN set */
    EX_HOF,    /* hof(lambda, arrays…): args = [arrays…, (arrayFold: accumulator,) captures…] */
} expr_kind;

/* The lambda of an EX_HOF. Its body is compiled over a block of the parameters (one row
 * per array element: [elements of array 1, …], or for arrayFold [accumulator, elements…])
 * followed by the captured outer values (args[ncaps_from…]), each repeated per element. */
typedef struct expr_lambda {
    struct expr *body;
    int nparams;
} expr_lambda;

typedef struct expr {
    expr_kind kind;
    const type *type;
    int col;
    column *value;
    fn_call *call;
    struct expr **args;
    int nargs;
    in_set *set;
    bool negate;
    bool null_in;     /* EX_IN under transform_null_in: a NULL matches a NULL in the set */
    bool tuple_null_misses; /* EX_IN of a tuple against a list of tuples (or several subquery
                               columns): a NULL element matches nothing, as ClickHouse's set
                               keys are the elements (without transform_null_in) */
    hof_call *hof;    /* EX_HOF */
    expr_lambda *lambda; /* EX_HOF with a lambda, else NULL */
    int narrays;      /* EX_HOF: args[0..narrays) are the arrays */
    int ncaps_from;   /* EX_HOF: args[ncaps_from..nargs) are the captured values */
} expr;

expr *expr_col(int col, const type *t);
expr *expr_const(column *one_row);          /* takes the column */
int expr_eval(const expr *e, const block *in, column **out);
void expr_free(expr *e);
bool expr_is_const(const expr *e);
/* An Array column materialised with offsets starting at 0 and no elements outside its
 * rows, as the higher-order functions and ARRAY JOIN index it. Takes c. */
column *expr_plain_array(column *c);
/* Marks in used[] the input columns e reads; returns false when e calls a function that is
 * not deterministic (rand(), now()). */
bool expr_columns(const expr *e, uint8_t *used);
/* A condition's result (any number type, maybe Nullable, not constant) as a 0/1 byte per
 * row in keep; returns how many rows pass. NULL counts as false, as in WHERE. */
size_t expr_truth_mask(const column *m, uint8_t *keep);

/* IN sets: values of one type, hashed. */
in_set *in_set_new(const type *t);
void in_set_add_column(in_set *s, const column *c); /* adds every non-NULL row */
bool in_set_has_null(const in_set *s);
void in_set_mark_null(in_set *s);
void in_set_free(in_set *s);
const type *in_set_type(const in_set *s);

#endif
