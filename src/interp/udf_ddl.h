/* CREATE [OR REPLACE] FUNCTION [IF NOT EXISTS] f AS lambda and DROP FUNCTION [IF EXISTS] f:
 * checks the definition as ClickHouse does (a lambda with distinct parameters, no call of
 * itself inside its body, not the name of a built-in), registers it (func/udf.h) and
 * persists it with the catalog (storage/catalog.h catalog_store_function).
 * Errors: -1 with err_set (BAD_ARGUMENTS, CANNOT_CREATE_RECURSIVE_FUNCTION,
 * FUNCTION_ALREADY_EXISTS, CANNOT_DROP_FUNCTION, UNKNOWN_FUNCTION, file errors).
 * Thread-safety: as the registry and catalog (both locked). */
#ifndef SHALE_INTERP_UDF_DDL_H
#define SHALE_INTERP_UDF_DDL_H

#include "exec/query.h"
#include "parse/ast.h"

int udf_ddl_create(const ast *st, query_ctx *q);
int udf_ddl_drop(const ast *st, query_ctx *q);

#endif
