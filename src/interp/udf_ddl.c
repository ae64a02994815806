/* CREATE FUNCTION / DROP FUNCTION; see udf_ddl.h. */
#include "interp/udf_ddl.h"

#include "base/buf.h"
#include "base/err.h"
#include "func/udf.h"
#include "storage/catalog.h"

#include <string.h>

/* A call of `name` anywhere below e (not e itself: ClickHouse's check looks at the body's
 * children, so `f AS x -> f(x)` is created and refused only when called). */
static bool calls_below(const ast *e, const char *name, int depth)
{
    if (depth > 1000 || (e->kind != AST_FUNC && e->kind != AST_LAMBDA))
        return false;
    for (int i = 0; i < e->args.n; i++) {
        const ast *a = e->args.items[i];
        if ((a->kind == AST_FUNC && strcmp(a->name, name) == 0) || calls_below(a, name, depth + 1))
            return true;
    }
    return false;
}

/* The lambda's parameters (AST_LAMBDA or lambda(tuple(x, …), body)) and body, or an error
 * as ClickHouse gives it. */
static int lambda_parts(const ast *l, const ast **body)
{
    if (l->kind == AST_LAMBDA) {
        for (int i = 0; i < l->nparts; i++)
            for (int k = 0; k < i; k++)
                if (strcmp(l->parts[i], l->parts[k]) == 0)
                    return err_set(ERR_BAD_ARGUMENTS, "Identifier %s already used as function parameter", l->parts[i]);
        *body = l->args.items[0];
        return 0;
    }
    if (l->kind != AST_FUNC || strcmp(l->name, "lambda") != 0)
        return err_set(ERR_BAD_ARGUMENTS, "Lambda must have valid arguments");
    if (l->args.n != 2)
        return err_set(ERR_BAD_ARGUMENTS, "Lambda must have arguments and body");
    const ast *t = l->args.items[0];
    if (t->kind != AST_FUNC || strcmp(t->name, "tuple") != 0)
        return err_set(ERR_BAD_ARGUMENTS, "Lambda must have valid arguments");
    for (int i = 0; i < t->args.n; i++)
        if (t->args.items[i]->kind != AST_IDENT || t->args.items[i]->nparts != 1)
            return err_set(ERR_BAD_ARGUMENTS, "Lambda must have valid arguments");
    *body = l->args.items[1];
    return 0;
}

int udf_ddl_create(const ast *st, query_ctx *q)
{
    const ast *body = NULL;
    if (lambda_parts(st->sub, &body))
        return -1;
    if (calls_below(body, st->name, 0))
        return err_set(ERR_CANNOT_CREATE_RECURSIVE_FUNCTION, "You cannot create recursive function");
    buf text = {0};
    buf_puts(&text, "CREATE FUNCTION ");
    ast_format_ident(&text, st->name);
    buf_puts(&text, " AS ");
    ast_format_lambda_ch(&text, st->sub);
    bool added;
    int rc = udf_add(st->name, st->str, buf_cstr(&text), st->or_replace, st->if_not_exists, &added);
    if (!rc && added && q->catalog && catalog_store_function(q->catalog, st->name, buf_cstr(&text))) {
        bool removed;
        udf_remove(st->name, true, &removed);
        rc = -1;
    }
    buf_free(&text);
    return rc;
}

int udf_ddl_drop(const ast *st, query_ctx *q)
{
    bool removed;
    if (udf_remove(st->name, st->if_exists, &removed))
        return -1;
    return removed && q->catalog ? catalog_store_function(q->catalog, st->name, NULL) : 0;
}
