/* SQL user-defined functions (CREATE FUNCTION f AS (x, y) -> body): the registry.
 *
 * A definition is kept as text: the lambda as written (the analyzer parses it again at
 * each use and substitutes the arguments, as ClickHouse's UserDefinedSQLFunctionVisitor
 * does before analysis) and the create_query that system.functions shows and that
 * interp/ddl.c persists. The registry is process-wide, like the function registry it
 * extends; interp loads it from <data_path>/user_defined/ when an instance opens.
 *
 * Thread-safety: every call takes the registry's lock. Strings returned are copies the
 * caller frees. Errors: -1 with err_set (codes below). */
#ifndef SHALE_FUNC_UDF_H
#define SHALE_FUNC_UDF_H

#include <stdbool.h>

/* Adds (or_replace: replaces) function `name`. FUNCTION_ALREADY_EXISTS when a built-in
 * function or aggregate has the name, or a user-defined one does (unless if_not_exists:
 * then 0 and nothing changes; *added says whether it was stored). */
int udf_add(const char *name, const char *lambda_sql, const char *create_query, bool or_replace, bool if_not_exists,
            bool *added);
/* Removes function `name`: CANNOT_DROP_FUNCTION for a built-in, UNKNOWN_FUNCTION when no
 * user-defined function has the name (0 with if_exists). *removed says whether it was. */
int udf_remove(const char *name, bool if_exists, bool *removed);
/* The lambda's text of user-defined function `name` (a copy), or NULL. */
char *udf_lambda(const char *name);
/* Every definition, sorted by name: names and create queries, copies; the caller frees
 * each string and both arrays. */
int udf_list(char ***names, char ***create_queries, int *n);
/* How many user-defined functions there are (0: nothing to expand). */
int udf_count(void);
/* Whether a built-in function or aggregate is called `name`. */
bool udf_is_builtin(const char *name);

#endif
