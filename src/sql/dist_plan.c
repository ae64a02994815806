/* The initiator's side of a distributed aggregation (analyze.h, analyze_split_distributed):
 * the query is split (sql/dist_split.h); the types of the keys and states the shards will
 * send are those of the shard query with -State aggregates analysed here over the
 * target's columns (what a shale shard sends; a ClickHouse shard sends the same types,
 * and a block that differs is refused, never merged); the shards' blocks then feed the
 * initiator's half of the query. Anything that does not analyse on the way (a state
 * shale cannot serialize, a construct the split does not take, a wrong name the user
 * will be told about) leaves the query to the rows path.
 *
 * Shards: those of remote()'s addresses, or of a Distributed table's cluster
 * (storage/distributed.h); a shard of a Distributed table that has this server as a
 * replica (prefer_localhost_replica) runs the shard query here, over the local table, and
 * its states join the remote shards' as one more part of the initiator's source.
 *
 * s3Cluster (on the initiator; a worker's query, q->read_task set, reads its objects
 * whole): the shard query reads the task-driven s3Cluster call with the format and
 * structure the initiator inferred; the nodes run it to WithMergeableState per round of
 * objects and the initiator merges the committed rounds' states
 * (tablefunc_s3cluster_mergeable). */
#include "sql/analyze.h"
#include "sql/dist_split.h"

#include "base/err.h"
#include "base/mem.h"
#include "storage/catalog.h"
#include "storage/distributed.h"
#include "storage/tablefunc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool is_cluster(const ast *t)
{
    return strcasecmp(t->table_func->name, "cluster") == 0 || strcasecmp(t->table_func->name, "clusterAllReplicas") == 0;
}

static bool is_remote(const ast *t)
{
    return t && t->kind == AST_TABLE && t->table_func && !t->join && t->table_func->name &&
           (strcasecmp(t->table_func->name, "remote") == 0 || strcasecmp(t->table_func->name, "remoteSecure") == 0 ||
            is_cluster(t));
}

static bool is_s3cluster(const ast *t)
{
    return t && t->kind == AST_TABLE && t->table_func && !t->join && t->table_func->name &&
           strcasecmp(t->table_func->name, "s3Cluster") == 0;
}

/* Not split: the reason is dropped, the rows path will run the query (or tell the user
 * what is wrong with it). */
static int rows_path(void)
{
    err_clear();
    return 1;
}

/* The FROM as a Distributed table (a reference), or NULL. */
static table *distributed_from(const ast *t, query_ctx *q)
{
    if (!t || t->kind != AST_TABLE || t->join || t->table_func || t->sub || !t->table_name || t->final)
        return NULL;
    if (t->database && strcmp(t->database, "system") == 0)
        return NULL;
    for (int i = 0; !t->database && i < q->nctes; i++)
        if (strcmp(((const ast *)q->ctes[i])->alias, t->table_name) == 0)
            return NULL;
    table *tbl;
    if (catalog_get_for_query(q, t->database, t->table_name, &tbl)) {
        err_clear(); /* the rows path names the table */
        return NULL;
    }
    if (!table_is_distributed(tbl)) {
        table_unref(tbl);
        return NULL;
    }
    return tbl;
}

/* The local shards' part: the shard query over this server's table, whose states come in
 * the header's order (the concatenation maps by position). */
static int local_states(arena *a, const ast *shard_states, const dist_layout *l, query_ctx *q, source **out)
{
    ast *sel = arena_alloc(a, sizeof *sel, 8);
    *sel = *shard_states;
    ast *from = arena_alloc(a, sizeof *from, 8);
    *from = *shard_states->from;
    from->database = l->database;
    from->table_name = l->table;
    sel->from = from;
    return analyze_subquery_source(sel, q, out);
}

/* The s3Cluster call every node runs: the cluster's name, then s3()'s arguments with the
 * format, structure and compression the initiator found (a worker does not infer them). */
static int s3cluster_call_sql(source *s3c, buf *out)
{
    char **args;
    int n;
    if (tablefunc_s3cluster_call_args(s3c, &args, &n))
        return -1;
    buf_puts(out, "s3Cluster(");
    for (int i = 0; i < n; i++) {
        if (i)
            buf_puts(out, ", ");
        ast_format_quoted(out, args[i], strlen(args[i]));
        memset(args[i], 0, strlen(args[i])); /* credentials */
        free(args[i]);
    }
    free(args);
    buf_putc(out, ')');
    return 0;
}

/* The header the initiator's half reads: the shard query's output types (its -State
 * aggregates analysed over cols), under DIST_KEY_COL / DIST_AGG_COL names. NULL when the
 * shard query does not analyse (the rows path runs the query). */
static schema *states_header(const dist_split *ds, source *cols, query_ctx *q)
{
    select_plan *states = NULL;
    if (analyze_select_over(ds->shard_states, cols, q, false, &states))
        return NULL;
    schema *header = schema_clone(states->out_schema);
    select_plan_free(states);
    for (int i = 0; i < header->n; i++) {
        char name[64];
        snprintf(name, sizeof name, i < ds->nkeys ? DIST_KEY_COL : DIST_AGG_COL, i < ds->nkeys ? i : i - ds->nkeys);
        free(header->names[i]);
        header->names[i] = xstrdup(name);
    }
    return header;
}

/* A SELECT that aggregates over s3Cluster, on the initiator: the source lists the glob
 * and infers the schema once, the shard query's text and state types come from it. */
static int split_s3cluster(const ast *sel, query_ctx *q, bool top, select_plan **out)
{
    arena a;
    arena_init(&a);
    dist_split ds;
    source *s3c = NULL;
    schema *header = NULL;
    buf call = {0}, sql = {0};
    int rc = 1;
    if (dist_split_select(&a, sel, &ds)) {
        rc = rows_path();
        goto done;
    }
    if (analyze_table(sel->from, q, &s3c)) {
        rc = -1; /* the rows path would fail the same way (cluster, arguments, listing) */
        goto done;
    }
    if (s3cluster_call_sql(s3c, &call)) {
        rc = -1;
        goto done;
    }
    if (dist_format_select(&sql, ds.shard, buf_cstr(&call))) {
        rc = rows_path();
        goto done;
    }
    source *cols = source_from_blocks(schema_clone(s3c->sch), NULL, 0);
    cols->nvisible = s3c->nvisible;
    if (!(header = states_header(&ds, cols, q))) {
        rc = rows_path();
        goto done;
    }
    if (tablefunc_s3cluster_mergeable(s3c, buf_cstr(&sql), header)) {
        rc = -1;
        goto done;
    }
    source *src = s3c;
    s3c = NULL;
    rc = analyze_select_over(ds.outer, src, q, top, out) ? rows_path() : 0;
done:
    schema_free(header);
    source_free(s3c);
    buf_free(&sql);
    if (call.p)
        memset(call.p, 0, call.len);
    buf_free(&call);
    arena_free(&a);
    return rc;
}

int analyze_split_distributed(const ast *sel, query_ctx *q, bool top, select_plan **out)
{
    *out = NULL;
    if (sel->kind != AST_SELECT || !dist_select_aggregates(sel))
        return 1;
    if (is_s3cluster(sel->from))
        return q->read_task ? 1 : split_s3cluster(sel, q, top, out);
    bool remote = is_remote(sel->from);
    table *dt = remote ? NULL : distributed_from(sel->from, q);
    if (!remote && !dt)
        return 1;
    arena a;
    arena_init(&a);
    dist_split ds;
    int rc = 1;
    remote_args ra = {0};
    dist_layout l = {0};
    source *rows = NULL;
    source **parts = NULL;
    int nparts = 0;
    buf sql = {0};
    if (dist_split_select(&a, sel, &ds)) {
        rc = rows_path();
        goto done;
    }
    const char *addresses, *user, *password, *target;
    if (remote) {
        if (is_cluster(sel->from) ? analyze_cluster_remote_args(sel->from->table_func, q, &ra)
                                  : analyze_remote_args(sel->from->table_func, q, &ra)) {
            rc = -1;
            goto done;
        }
        if (ra.secure || ra.secret) {
            /* remoteSecure: the rows path says it is not implemented.
             * A cluster with an inter-server <secret>: every connection must authenticate
             * with the secret, and the shards run the query as the initiator's user. The
             * two connections this split makes (the columns through tablefunc_remote, the
             * states through tablefunc_remote_mergeable) carry no secret: they would log in
             * as the replica's configured user instead, so a shard with another secret
             * would answer and the query would run as another user (run-cluster-tests.sh,
             * "secret: …" and 'mismatch'). The rows path (tablefunc_remote_cluster) sends
             * the secret: it runs these aggregates, with the same results, aggregating on the
             * initiator. Passing ra.secret to both calls would lift this. */
            rc = rows_path();
            goto done;
        }
        addresses = ra.addresses;
        user = ra.user;
        password = ra.password;
        target = ra.target;
    } else {
        if (distributed_layout(dt, q, &l)) {
            rc = -1;
            goto done;
        }
        addresses = l.remote_addresses;
        user = l.user;
        password = l.password;
        target = l.target;
    }
    if (dist_format_select(&sql, ds.shard, target)) {
        rc = rows_path();
        goto done;
    }
    /* The target's columns: a shard's answer to SELECT * … LIMIT 0 (connection errors are
     * the query's), or the Distributed table's own. */
    if (dt) {
        rows = source_from_blocks(schema_clone(dt->sch), NULL, 0);
    } else if (tablefunc_remote(addresses, target, user, password, false, q, &rows)) {
        rc = -1;
        goto done;
    }
    /* The header: names the initiator's half reads, the types of the states. */
    schema *header = states_header(&ds, rows, q);
    if (!header) {
        rc = rows_path();
        goto done;
    }
    parts = xcalloc((size_t)l.nlocal + 2, sizeof *parts);
    if (addresses) {
        if (tablefunc_remote_mergeable(addresses, user, password, ra.cluster, buf_cstr(&sql), header, q,
                                       &parts[nparts])) {
            schema_free(header);
            rc = -1;
            goto done;
        }
        nparts++;
    }
    for (int i = 0; i < l.nlocal; i++) {
        table *local;
        if (distributed_local_table(&l, q, &local)) {
            schema_free(header);
            rc = -1;
            goto done;
        }
        table_unref(local);
        if (local_states(&a, ds.shard_states, &l, q, &parts[nparts])) {
            schema_free(header);
            rc = -1;
            goto done;
        }
        nparts++;
    }
    source *merged = source_concat(header, parts, nparts, false);
    nparts = 0;
    if (analyze_select_over(ds.outer, merged, q, top, out)) {
        rc = rows_path();
        goto done;
    }
    rc = 0;
done:
    for (int i = 0; i < nparts; i++)
        source_free(parts[i]);
    free(parts);
    buf_free(&sql);
    remote_args_free(&ra);
    dist_layout_free(&l);
    table_unref(dt);
    arena_free(&a);
    return rc;
}
