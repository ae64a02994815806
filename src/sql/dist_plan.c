/* The initiator's side of a distributed aggregation (analyze.h, analyze_split_distributed):
 * the query is split (sql/dist_split.h); the types of the keys and states the shards will
 * send are those of the shard query with -State aggregates analysed here over the
 * target's columns (what a shale shard sends; a ClickHouse shard sends the same types,
 * and a block that differs is refused, never merged); the shards' blocks then feed the
 * initiator's half of the query. Anything that does not analyse on the way (a state
 * shale cannot serialize, a construct the split does not take, a wrong name the user
 * will be told about) leaves the query to the rows path. */
#include "sql/analyze.h"
#include "sql/dist_split.h"

#include "base/err.h"
#include "base/mem.h"
#include "storage/tablefunc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool is_remote(const ast *t)
{
    return t && t->kind == AST_TABLE && t->table_func && !t->join && t->table_func->name &&
           (strcasecmp(t->table_func->name, "remote") == 0 || strcasecmp(t->table_func->name, "remoteSecure") == 0);
}

/* Not split: the reason is dropped, the rows path will run the query (or tell the user
 * what is wrong with it). */
static int rows_path(void)
{
    err_clear();
    return 1;
}

int analyze_split_distributed(const ast *sel, query_ctx *q, bool top, select_plan **out)
{
    *out = NULL;
    if (sel->kind != AST_SELECT || !is_remote(sel->from) || !dist_select_aggregates(sel))
        return 1;
    arena a;
    arena_init(&a);
    dist_split ds;
    int rc = 1;
    remote_args ra = {0};
    source *rows = NULL;
    select_plan *states = NULL;
    if (dist_split_select(&a, sel, &ds)) {
        rc = rows_path();
        goto done;
    }
    if (analyze_remote_args(sel->from->table_func, q, &ra)) {
        rc = -1;
        goto done;
    }
    if (ra.secure) {
        rc = rows_path(); /* remoteSecure: the rows path says it is not implemented */
        goto done;
    }
    buf from = {0};
    buf_puts(&from, ra.target);
    buf sql = {0};
    int frc = dist_format_select(&sql, ds.shard, buf_cstr(&from));
    buf_free(&from);
    if (frc) {
        buf_free(&sql);
        rc = rows_path();
        goto done;
    }
    /* The target's columns (a shard's answer to SELECT * … LIMIT 0): connection errors
     * are the query's. */
    if (tablefunc_remote(ra.addresses, ra.target, ra.user, ra.password, false, q, &rows)) {
        buf_free(&sql);
        rc = -1;
        goto done;
    }
    if (analyze_select_over(ds.shard_states, rows, q, false, &states)) {
        buf_free(&sql);
        rc = rows_path();
        goto done;
    }
    /* The header: names the initiator's half reads, the types of the states. */
    schema *header = schema_clone(states->out_schema);
    for (int i = 0; i < header->n; i++) {
        char name[64];
        snprintf(name, sizeof name, i < ds.nkeys ? DIST_KEY_COL : DIST_AGG_COL, i < ds.nkeys ? i : i - ds.nkeys);
        free(header->names[i]);
        header->names[i] = xstrdup(name);
    }
    source *merged;
    if (tablefunc_remote_mergeable(ra.addresses, ra.user, ra.password, buf_cstr(&sql), header, q, &merged)) {
        schema_free(header);
        buf_free(&sql);
        rc = -1;
        goto done;
    }
    schema_free(header);
    buf_free(&sql);
    if (analyze_select_over(ds.outer, merged, q, top, out)) {
        rc = rows_path();
        goto done;
    }
    rc = 0;
done:
    select_plan_free(states);
    remote_args_free(&ra);
    arena_free(&a);
    return rc;
}
