/* The table functions over the server's clusters (storage/cluster.h):
 *   cluster('name', db.table | db, table | 'db.table' | table_function(…) [, sharding_key])
 *   clusterAllReplicas(…)   the same, every replica a shard of its own
 *   s3Cluster('name', url [, NOSIGN | key, secret [, token]] [, format] [, structure] [, compression])
 * cluster() is remote() over the cluster's addresses with its user and password, or its
 * inter-server secret; the name
 * may be an identifier and may hold macros ({cluster}). A sharding key only matters to
 * INSERT, which shale does not route yet: NOT_IMPLEMENTED. A query that aggregates over
 * cluster() is split as remote()'s (sql/dist_plan.c, analyze_cluster_remote_args). */
#include "sql/analyze.h"

#include "base/err.h"
#include "base/mem.h"
#include "storage/cluster.h"
#include "storage/tablefunc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Argument 0: the cluster's name (identifier or constant string, macros expanded). */
static int cluster_name_arg(const ast *f, query_ctx *q, const cluster_set *cs, char **out)
{
    *out = NULL;
    if (f->args.n < 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Table function '%s' requires the cluster's name first",
                       f->name);
    ast one = *f;
    one.args.n = 1;
    column **v;
    if (analyze_table_args(&one, q, &v))
        return -1;
    int rc = 0;
    if (type_base(v[0]->type)->id != T_STRING)
        rc = err_set(ERR_BAD_ARGUMENTS, "The first argument of table function '%s' must be the cluster's name",
                     f->name);
    else {
        size_t len;
        const char *s = col_str(v[0], 0, &len);
        char *name = xstrndup(s, len);
        rc = cluster_expand_macros(cs, name, out);
        free(name);
    }
    col_free(v[0]);
    free(v);
    return rc;
}

bool analyze_is_cluster_function(const char *name)
{
    return strcasecmp(name, "cluster") == 0 || strcasecmp(name, "clusterAllReplicas") == 0 ||
           strcasecmp(name, "s3Cluster") == 0;
}

/* How many arguments after the cluster's name the target takes (remote()'s rules). */
static int target_args(const ast *f)
{
    const ast *a1 = f->args.items[1];
    if (a1->kind == AST_FUNC || (a1->kind == AST_IDENT && a1->nparts == 2))
        return 1;
    if (a1->kind == AST_LITERAL && a1->lit == LIT_STRING && memchr(a1->str, '.', a1->str_len))
        return 1;
    return f->args.n >= 3 ? 2 : 1;
}

int analyze_cluster_remote_args(const ast *f, query_ctx *q, remote_args *ra)
{
    memset(ra, 0, sizeof *ra);
    int n = f->args.n;
    if (n < 2 || n > 4)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function '%s' requires from 2 to 4 parameters: cluster name, db.table or db, table or "
                       "table_function(...) [, sharding_key]",
                       f->name);
    if (1 + target_args(f) < n)
        return err_set(ERR_NOT_IMPLEMENTED, "Table function '%s': a sharding key is not implemented (it only "
                                            "routes INSERTs, which shale does not shard yet)", f->name);
    cluster_set *cs = cluster_set_get();
    char *name = NULL, *addresses = NULL;
    const char *user, *password;
    int rc = cluster_name_arg(f, q, cs, &name);
    const cluster_def *c = rc ? NULL : cluster_find(cs, name);
    if (!c)
        rc = -1;
    if (!rc)
        rc = cluster_addresses(c, strcasecmp(f->name, "clusterAllReplicas") == 0, &addresses, &user, &password);
    if (!rc) {
        /* remote()'s analysis of the target, with the name's place taken by the addresses */
        ast lit = {.kind = AST_LITERAL, .lit = LIT_STRING, .str = addresses, .str_len = strlen(addresses),
                   .pos = f->args.items[0]->pos, .end = f->args.items[0]->end};
        ast copy = *f;
        ast *items[4];
        for (int i = 0; i < n; i++)
            items[i] = f->args.items[i];
        items[0] = &lit;
        copy.args.items = items;
        copy.args.n = 1 + target_args(f);
        rc = analyze_remote_args(&copy, q, ra);
    }
    if (!rc) {
        free(ra->user);
        free(ra->password);
        ra->user = xstrdup(user);
        ra->password = xstrdup(password);
        ra->cluster = xstrdup(c->name);
        ra->secret = c->secret ? xstrdup(c->secret) : NULL;
    }
    free(name);
    free(addresses);
    cluster_set_put(cs);
    return rc;
}

static int cluster_table(const ast *f, query_ctx *q, source **out)
{
    remote_args ra;
    int rc = analyze_cluster_remote_args(f, q, &ra);
    if (!rc)
        rc = tablefunc_remote_cluster(ra.addresses, ra.target, ra.user, ra.password, ra.cluster, ra.secret, true, q,
                                      out);
    remote_args_free(&ra);
    return rc;
}

static int s3cluster_table(const ast *f, query_ctx *q, source **out)
{
    if (f->args.n < 2)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 's3Cluster' requires 2 to 8 arguments: cluster, url [, NOSIGN | "
                       "access_key_id, secret_access_key [, session_token]] [, format] [, structure] [, "
                       "compression_method]");
    cluster_set *cs = cluster_set_get();
    char *name = NULL;
    int rc = cluster_name_arg(f, q, cs, &name);
    cluster_set_put(cs);
    if (rc)
        return -1;
    ast rest = *f;
    rest.args.n = f->args.n - 1;
    rest.args.items = f->args.items + 1;
    column **args;
    if (analyze_table_args(&rest, q, &args)) {
        free(name);
        return -1;
    }
    rc = tablefunc_s3cluster(name, args, rest.args.n, q, out);
    for (int i = 0; i < rest.args.n; i++)
        col_free(args[i]);
    free(args);
    free(name);
    return rc;
}

int analyze_cluster_function(const ast *f, query_ctx *q, source **out)
{
    *out = NULL;
    if (strcasecmp(f->name, "s3Cluster") == 0)
        return s3cluster_table(f, q, out);
    return cluster_table(f, q, out);
}
