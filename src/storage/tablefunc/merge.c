/* merge([db,] 'regexp') (storage/tablefunc.h): the arguments are analysed constants; the
 * source is storage/merge.h's, with the union of the matching tables' columns. */
#include "base/err.h"
#include "base/mem.h"
#include "storage/merge.h"
#include "storage/tablefunc.h"

#include <stdlib.h>

int tablefunc_merge(column *const *args, int nargs, query_ctx *q, source **out)
{
    if (nargs < 1 || nargs > 2)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Table function 'merge' requires from one to two "
                       "parameters: merge(['db_name',] 'tables_regexp')");
    for (int i = 0; i < nargs; i++)
        if (type_base(args[i]->type)->id != T_STRING)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Table function 'merge': argument %d must be a String, got %s",
                           i + 1, args[i]->type->name);
    size_t dl = 0, rl;
    const char *db = nargs == 2 ? col_str(args[0], 0, &dl) : NULL;
    const char *re = col_str(args[nargs - 1], 0, &rl);
    char *dbs = db ? xstrndup(db, dl) : xstrdup(q->database ? q->database : "default");
    char *res = xstrndup(re, rl);
    int rc = merge_source_new(q, dbs, res, NULL, NULL, NULL, out);
    free(dbs);
    free(res);
    return rc;
}
