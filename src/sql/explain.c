/* EXPLAIN's text: see explain.h. */
#include "sql/explain.h"

#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"
#include "sql/analyze.h"

#include <string.h>
#include <strings.h>

/* shale's own plan outline (not ClickHouse's text). */
static int explain_plan(const ast *stmt, query_ctx *q, const char *kind, buf *text)
{
    if (stmt->sub->kind != AST_STMT_SELECT)
        return err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN %s supports SELECT queries", kind);
    query_plan *plan;
    if (analyze_query(stmt->sub->sub, q, &plan))
        return -1;
    for (int i = 0; i < plan->nparts; i++) {
        select_plan *p = plan->parts[i];
        if (plan->nparts > 1)
            buf_printf(text, "Union part %d\n", i + 1);
        buf_printf(text, "Expression (Project names)\n");
        if (p->limit != UINT64_MAX || p->offset)
            buf_printf(text, "  Limit (preliminary LIMIT)\n");
        if (p->norder)
            buf_printf(text, "  Sorting (Sorting for ORDER BY)\n");
        if (p->distinct)
            buf_printf(text, "  Distinct\n");
        if (p->having)
            buf_printf(text, "  Filter (HAVING)\n");
        if (p->aggregate)
            buf_printf(text, "  Aggregating (%d keys, %d aggregates)\n", p->nkeys, p->naggs);
        if (p->where)
            buf_printf(text, "  Filter (WHERE)\n");
        buf_printf(text, "  ReadFromSource (%d columns, %d tasks)\n", p->nsrc_cols, p->src->ntasks);
    }
    query_plan_free(plan);
    return 0;
}

/* EXPLAIN SYNTAX of a SELECT: ClickHouse's formatting of the query (no analysis). */
static int explain_syntax(const ast *stmt, query_ctx *q, buf *text)
{
    if (stmt->sub->kind != AST_STMT_SELECT)
        return err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN SYNTAX supports SELECT queries");
    if (!settings_bool(q->st, "enable_analyzer") || !settings_bool(q->st, "allow_experimental_analyzer"))
        return err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN SYNTAX with enable_analyzer = 0 (the old analyzer's rewrites) is "
                                            "not supported");
    if (stmt->args.n || stmt->sub->settings.n || stmt->sub->outfile)
        return err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN SYNTAX with options, or of a query with SETTINGS after FORMAT or INTO "
                                            "OUTFILE, is not supported");
    const char *modes[3] = {settings_str(q->st, "union_default_mode"), settings_str(q->st, "except_default_mode"),
                            settings_str(q->st, "intersect_default_mode")};
    const char *why = NULL;
    if (!ast_format_explain_syntax(text, stmt->sub->sub, q->sql_text, q->sql_len, modes, &why))
        return err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN SYNTAX of a query with %s is not supported", why);
    buf_putc(text, '\n');
    return 0;
}

/* As a table expression, ClickHouse's EXPLAIN AST / SYNTAX show the query after its query
 * tree was turned back into an AST, which gives a SELECT without FROM a `FROM
 * system.one` and nests the parts of a UNION one level deeper (and may differ in ways not
 * known): only one SELECT with FROM is shown. */
static bool plain_select_with_from(const ast *q)
{
    return q && q->kind == AST_SELECT && q->from;
}

int explain_block(const ast *stmt, query_ctx *q, bool as_table, schema **sch, block **b)
{
    const char *kind = stmt->explain_kind ? stmt->explain_kind : "PLAN";
    buf text = {0};
    int rc = 0;
    if (as_table && (strcasecmp(kind, "AST") == 0 || strcasecmp(kind, "SYNTAX") == 0) &&
        (stmt->sub->kind != AST_STMT_SELECT || !plain_select_with_from(stmt->sub->sub)))
        rc = err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN %s as a table expression is supported for one SELECT with FROM (not UNION)",
                     kind);
    else if (strcasecmp(kind, "AST") == 0) {
        if (stmt->args.n)
            rc = err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN AST with options is not supported");
        else if (!ast_dump(&text, stmt->sub, 0))
            rc = err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN AST of this statement or clause is not supported yet");
    } else if (strcasecmp(kind, "SYNTAX") == 0) {
        rc = explain_syntax(stmt, q, &text);
    } else if (strcasecmp(kind, "PLAN") == 0 && as_table) {
        rc = err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN PLAN as a table expression is not supported: shale's plan is not "
                                          "ClickHouse's text");
    } else if (strcasecmp(kind, "PLAN") == 0 && stmt->args.n) {
        /* indexes = 1, actions = 1, header = 1 …: ClickHouse describes its own steps,
         * key conditions and granules. */
        rc = err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN PLAN with options (indexes, actions, header, …) is not supported");
    } else if (strcasecmp(kind, "PLAN") == 0) {
        rc = explain_plan(stmt, q, kind, &text);
    } else if (strcasecmp(kind, "PIPELINE") == 0) {
        /* ClickHouse's text names its processors and their ports (Resize 1 → 4,
         * AggregatingTransform × 4): shale's pipeline has other parts, and another text would
         * be a silently different answer. */
        rc = err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN PIPELINE is not supported: it describes ClickHouse's processors");
    } else {
        rc = err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN %s is not supported", kind);
    }
    if (rc) {
        buf_free(&text);
        return -1;
    }
    *sch = schema_new(1);
    schema_set(*sch, 0, "explain", type_simple(T_STRING));
    *b = block_new_empty(*sch);
    const char *p = buf_cstr(&text), *end = p + text.len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        col_push_str((*b)->cols[0], p, n);
        (*b)->rows++;
        p += n + 1;
    }
    buf_free(&text);
    return 0;
}

int explain_source(const ast *stmt, query_ctx *q, source **out)
{
    schema *sch;
    block *b;
    if (explain_block(stmt, q, true, &sch, &b))
        return -1;
    block **bs = xmalloc(sizeof *bs);
    bs[0] = b;
    *out = source_from_blocks(sch, bs, 1);
    return 0;
}
