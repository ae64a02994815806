/* parallel_distributed_insert_select over s3Cluster (interp/dist_insert.h). */
#include "interp/dist_insert.h"

#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"
#include "sql/analyze.h"
#include "storage/distributed.h"
#include "storage/tablefunc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool from_s3cluster(const ast *sel)
{
    return sel && sel->kind == AST_SELECT && sel->from && sel->from->kind == AST_TABLE && !sel->from->join &&
           sel->from->table_func && sel->from->table_func->name &&
           strcasecmp(sel->from->table_func->name, "s3Cluster") == 0;
}

int dist_insert_parallel(table *t, const ast *st, query_ctx *q)
{
    if (!table_is_distributed(t) || !st->sub || q->read_task)
        return 1;
    int64_t mode = settings_int(q->st, "parallel_distributed_insert_select");
    if (mode == 0 || !from_s3cluster(st->sub))
        return 1;
    if (mode > 2)
        return err_set(ERR_BAD_ARGUMENTS, "parallel_distributed_insert_select = %lld: the values are 0, 1 and 2",
                       (long long)mode);
    const ast *sel = st->sub;
    source *src = NULL;
    if (analyze_table(sel->from, q, &src))
        return -1;
    char **args = NULL;
    int nargs = 0;
    int rc = tablefunc_s3cluster_call_args(src, &args, &nargs);
    arena a;
    arena_init(&a);
    buf sql = {0};
    if (!rc) {
        /* the SELECT as every node runs it: the s3Cluster call with the initiator's format
         * and structure (a worker does not infer them) */
        ast *call = ast_new(&a, AST_FUNC, sel->from->table_func->pos);
        call->name = "s3Cluster";
        for (int i = 0; i < nargs; i++) {
            ast *lit = ast_new(&a, AST_LITERAL, call->pos);
            lit->lit = LIT_STRING;
            lit->str = args[i];
            lit->str_len = strlen(args[i]);
            ast_list_push(&a, &call->args, lit);
        }
        ast *from = arena_alloc(&a, sizeof *from, 8);
        *from = *sel->from;
        from->table_func = call;
        ast *copy = arena_alloc(&a, sizeof *copy, 8);
        *copy = *sel;
        copy->from = from;
        buf_puts(&sql, "INSERT INTO ");
        if (mode == 1) {
            ast_format_ident(&sql, t->database);
            buf_putc(&sql, '.');
            ast_format_ident(&sql, t->name);
        } else {
            dist_layout l;
            if (!(rc = distributed_layout(t, q, &l)))
                buf_puts(&sql, l.target);
            dist_layout_free(&l);
        }
        if (st->insert_columns.n) {
            buf_puts(&sql, " (");
            for (int i = 0; i < st->insert_columns.n; i++) {
                const ast *c = st->insert_columns.items[i];
                if (i)
                    buf_puts(&sql, ", ");
                if (c->kind != AST_IDENT) {
                    rc = err_set(ERR_NOT_IMPLEMENTED, "parallel_distributed_insert_select: only plain column names "
                                                      "in the INSERT's column list");
                    break;
                }
                ast_format_ident(&sql, c->parts[c->nparts - 1]);
            }
            buf_putc(&sql, ')');
        }
        buf_putc(&sql, ' ');
        ast_format_sql(&sql, copy);
    }
    if (!rc)
        rc = tablefunc_s3cluster_run(src, buf_cstr(&sql), q);
    buf_free(&sql);
    arena_free(&a);
    for (int i = 0; i < nargs; i++)
        free(args[i]);
    free(args);
    source_free(src);
    return rc;
}
