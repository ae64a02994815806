/* ENGINE = Distributed (storage/distributed.h): the table's arguments, where its shards
 * are, its read() over the shards' rows and its synchronous insert. */
#include "storage/distributed.h"

#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"
#include "exec/expr.h"
#include "parse/ast.h"
#include "storage/catalog.h"
#include "storage/cluster.h"
#include "storage/dist_queue.h"
#include "storage/tablefunc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dist_impl {
    char *cluster;              /* as written (macros expanded at every query) */
    char *database, *table;
    const ast *key;             /* the sharding key (in t->create), or NULL */
    expr *key_expr;             /* compiled over t->sch */
    dist_queue *queue;          /* the background INSERT queue (storage/dist_queue.h) */
} dist_impl;

/* ---- arguments ---- */

/* An identifier or a string literal (ClickHouse takes either for the names). */
static int name_arg(const table *t, int i, char **out)
{
    const ast *a = t->create->engine->args.items[i];
    static const char *what[] = {"the cluster's name", "the database", "the table", "", "the storage policy"};
    if (a->kind == AST_IDENT && a->nparts == 1 && i != 4) {
        *out = xstrdup(a->parts[0]);
        return 0;
    }
    if (a->kind == AST_LITERAL && a->lit == LIT_STRING) {
        *out = xstrndup(a->str, a->str_len);
        return 0;
    }
    return err_set(ERR_BAD_ARGUMENTS, "Storage Distributed (table %s): argument %d must be %s as a name or a string "
                   "literal", table_full_name(t), i + 1, what[i]);
}

/* ClickHouse's isValueRepresentedByInteger: what CREATE accepts as a sharding key (INSERT
 * then routes only (U)Int8…64 and Bool, see shard_of). */
static bool integer_like(const type *t)
{
    if (t->id == T_LOWCARDINALITY)
        return false;
    return type_is_integer(t) || t->id == T_BOOL || t->id == T_DATE || t->id == T_DATE32 || t->id == T_DATETIME ||
           t->id == T_ENUM8 || t->id == T_ENUM16 || t->id == T_IPV4;
}

static void impl_free(dist_impl *d)
{
    if (!d)
        return;
    dist_queue_close(d->queue);
    free(d->cluster);
    free(d->database);
    free(d->table);
    if (d->key_expr)
        expr_free(d->key_expr);
    free(d);
}

/* "(`a`, `b`, …)": the table's stored columns, the shards' INSERT's column list. */
static void column_list_sql(const table *t, buf *cols)
{
    buf_putc(cols, '(');
    for (int i = 0; i < t->sch->n; i++) {
        if (i)
            buf_puts(cols, ", ");
        ast_format_ident(cols, t->sch->names[i]);
    }
    buf_putc(cols, ')');
}

static int dist_open(table *t, bool created, query_ctx *q)
{
    const ast *e = t->create->engine;
    int n = e ? e->args.n : 0;
    if (n < 3 || n > 5)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Storage Distributed requires from 3 to 5 parameters - name of configuration section with list "
                       "of remote servers, name of remote database, name of remote table, sharding key expression "
                       "(optional), policy to store data in (optional).");
    dist_impl *d = xcalloc(1, sizeof *d);
    int rc = name_arg(t, 0, &d->cluster);
    if (!rc)
        rc = name_arg(t, 1, &d->database);
    if (!rc)
        rc = name_arg(t, 2, &d->table);
    if (!rc && n >= 4) {
        d->key = e->args.items[3];
        source fake = {.sch = t->sch, .nvisible = t->sch->n};
        rc = query_compile_expr(q, d->key, &fake, &d->key_expr);
        if (!rc && !integer_like(d->key_expr->type))
            rc = err_set(ERR_TYPE_MISMATCH, "Sharding expression has type %s, but should be one of integer type",
                         d->key_expr->type->name);
    }
    if (!rc && n == 5) {
        char *policy = NULL;
        rc = name_arg(t, 4, &policy);
        if (!rc && strcmp(policy, "default") != 0)
            rc = err_set(ERR_UNKNOWN_POLICY, "Unknown storage policy `%s`", policy);
        free(policy);
    }
    if (!rc && created) {
        /* CREATE checks the cluster; a table loaded at start waits for its first query
         * (the configuration may be fixed in between). */
        cluster_set *cs = cluster_set_get();
        char *name = NULL;
        rc = cluster_expand_macros(cs, d->cluster, &name);
        if (!rc && !cluster_find(cs, name))
            rc = -1;
        free(name);
        cluster_set_put(cs);
    }
    if (rc) {
        impl_free(d);
        return -1;
    }
    buf target = {0}, cols = {0};
    ast_format_ident(&target, d->database);
    buf_putc(&target, '.');
    ast_format_ident(&target, d->table);
    column_list_sql(t, &cols);
    d->queue = dist_queue_open(t->data_dir, t->database, t->name, d->cluster, buf_cstr(&target), buf_cstr(&cols));
    buf_free(&target);
    buf_free(&cols);
    t->impl = d;
    return 0;
}

static void dist_close(table *t)
{
    impl_free(t->impl);
    t->impl = NULL;
}

/* ---- where the shards are ---- */

static void put_address(buf *b, const cluster_replica *r)
{
    bool v6 = strchr(r->host, ':') != NULL;
    buf_printf(b, "%s%s%s:%d", v6 ? "[" : "", r->host, v6 ? "]" : "", r->port);
}

/* The cluster of the table, from the current set (a reference in *cs). */
static int find_cluster(const table *t, cluster_set **cs, const cluster_def **c)
{
    const dist_impl *d = t->impl;
    *cs = cluster_set_get();
    char *name = NULL;
    int rc = cluster_expand_macros(*cs, d->cluster, &name);
    if (!rc && !(*c = cluster_find(*cs, name)))
        rc = -1;
    free(name);
    if (rc) {
        err_prefix("Distributed table %s: ", table_full_name(t));
        cluster_set_put(*cs);
        *cs = NULL;
    }
    return rc;
}

static bool shard_is_local(const cluster_set *cs, const cluster_shard *sh)
{
    for (int r = 0; r < sh->nreplicas; r++)
        if (cluster_replica_is_local(cs, &sh->replicas[r]))
            return true;
    return false;
}

int distributed_layout(const table *t, query_ctx *q, dist_layout *out)
{
    memset(out, 0, sizeof *out);
    const dist_impl *d = t->impl;
    cluster_set *cs;
    const cluster_def *c;
    if (find_cluster(t, &cs, &c))
        return -1;
    char *all = NULL;
    const char *user, *password;
    if (cluster_addresses(c, false, &all, &user, &password)) {
        cluster_set_put(cs);
        return -1;
    }
    free(all);
    bool prefer_local = settings_bool(q->st, "prefer_localhost_replica");
    buf b = {0};
    for (int i = 0; i < c->nshards; i++) {
        const cluster_shard *sh = &c->shards[i];
        if (prefer_local && shard_is_local(cs, sh)) {
            out->nlocal++;
            continue;
        }
        if (b.len)
            buf_putc(&b, ',');
        for (int r = 0; r < sh->nreplicas; r++) {
            if (r)
                buf_putc(&b, '|');
            put_address(&b, &sh->replicas[r]);
        }
    }
    out->remote_addresses = b.len ? xstrdup(buf_cstr(&b)) : NULL;
    buf_free(&b);
    out->database = xstrdup(d->database);
    out->table = xstrdup(d->table);
    buf tg = {0};
    ast_format_ident(&tg, d->database);
    buf_putc(&tg, '.');
    ast_format_ident(&tg, d->table);
    out->target = xstrdup(buf_cstr(&tg));
    buf_free(&tg);
    out->user = xstrdup(user);
    out->password = xstrdup(password);
    out->cluster = xstrdup(c->name);
    out->secret = c->secret ? xstrdup(c->secret) : NULL;
    cluster_set_put(cs);
    return 0;
}

void dist_layout_free(dist_layout *l)
{
    free(l->database);
    free(l->table);
    free(l->target);
    free(l->remote_addresses);
    free(l->user);
    free(l->cluster);
    if (l->password)
        memset(l->password, 0, strlen(l->password));
    free(l->password);
    if (l->secret)
        memset(l->secret, 0, strlen(l->secret));
    free(l->secret);
    memset(l, 0, sizeof *l);
}

int distributed_local_table(const dist_layout *l, query_ctx *q, table **out)
{
    *out = NULL;
    table *t;
    if (catalog_get(q->catalog, l->database, l->table, &t))
        return err_prefix("The local shard of a Distributed table: ");
    if (table_is_distributed(t)) {
        int rc = err_set(ERR_BAD_ARGUMENTS, "The local shard of a Distributed table is %s, itself a Distributed "
                         "table: it would read itself", table_full_name(t));
        table_unref(t);
        return rc;
    }
    *out = t;
    return 0;
}

/* ---- the concatenation of several sources ---- */

typedef struct concat_src {
    int n;
    source **parts;
    int **map;                  /* map[p][i]: the column of part p for column i, -1 none */
    int *first;                 /* first[p]: the first task of part p; first[n] = ntasks */
} concat_src;

typedef struct concat_it {
    source *part;
    void *inner;
} concat_it;

static void concat_tasks(source *s)
{
    concat_src *cs = s->impl;
    int k = 0;
    for (int p = 0; p < cs->n; p++) {
        cs->first[p] = k;
        k += cs->parts[p]->ntasks;
    }
    cs->first[cs->n] = k;
    s->ntasks = k;
}

static int concat_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    concat_src *cs = s->impl;
    int p = 0;
    while (p + 1 < cs->n && task >= cs->first[p + 1])
        p++;
    source *part = cs->parts[p];
    int *pc = xcalloc((size_t)ncols + 1, sizeof *pc);
    for (int i = 0; i < ncols; i++) {
        int k = cs->map[p][cols[i]];
        const char *name = s->sch->names[cols[i]];
        if (k < 0) {
            free(pc);
            return err_set(ERR_NO_SUCH_COLUMN_IN_TABLE, "Column %s of the Distributed table is not in its shard's "
                           "table", name);
        }
        if (s->sch->types[cols[i]] != part->sch->types[k]) {
            free(pc);
            return err_set(ERR_TYPE_MISMATCH, "Column %s is %s in the Distributed table and %s in its shard's table",
                           name, s->sch->types[cols[i]]->name, part->sch->types[k]->name);
        }
        pc[i] = k;
    }
    concat_it *it = xcalloc(1, sizeof *it);
    it->part = part;
    int rc = part->open(part, task - cs->first[p], pc, ncols, q, &it->inner);
    free(pc);
    if (rc) {
        free(it);
        return -1;
    }
    *itp = it;
    return 0;
}

static int concat_next(void *itp, block **out)
{
    concat_it *it = itp;
    return it->part->next(it->inner, out);
}

static void concat_close(void *itp)
{
    concat_it *it = itp;
    if (it->inner)
        it->part->close(it->inner);
    free(it);
}

static void concat_destroy(source *s)
{
    concat_src *cs = s->impl;
    for (int p = 0; p < cs->n; p++) {
        source_free(cs->parts[p]);
        free(cs->map[p]);
    }
    free(cs->parts);
    free(cs->map);
    free(cs->first);
    free(cs);
}

static void concat_set_filter(source *s, const src_filter *f, int n, query_ctx *q)
{
    concat_src *cs = s->impl;
    src_filter *pf = xcalloc((size_t)n + 1, sizeof *pf);
    for (int p = 0; p < cs->n; p++) {
        source *part = cs->parts[p];
        if (!part->set_filter)
            continue;
        int k = 0;
        for (int i = 0; i < n; i++) {
            int c = f[i].col >= 0 && f[i].col < s->sch->n ? cs->map[p][f[i].col] : -1;
            if (c < 0 || part->sch->types[c] != s->sch->types[f[i].col])
                continue;
            pf[k] = f[i];
            pf[k++].col = c;
        }
        part->set_filter(part, pf, k, q);
    }
    free(pf);
    concat_tasks(s); /* a part may have pruned tasks */
}

source *source_concat(schema *sch, source **parts, int n, bool by_name)
{
    concat_src *cs = xcalloc(1, sizeof *cs);
    cs->n = n;
    cs->parts = xcalloc((size_t)n + 1, sizeof *cs->parts);
    cs->map = xcalloc((size_t)n + 1, sizeof *cs->map);
    cs->first = xcalloc((size_t)n + 1, sizeof *cs->first);
    for (int p = 0; p < n; p++) {
        cs->parts[p] = parts[p];
        cs->map[p] = xcalloc((size_t)sch->n + 1, sizeof(int));
        for (int i = 0; i < sch->n; i++)
            cs->map[p][i] = by_name ? schema_find(parts[p]->sch, sch->names[i]) : i < parts[p]->sch->n ? i : -1;
    }
    source *s = xcalloc(1, sizeof *s);
    s->impl = cs;
    s->sch = sch;
    s->nvisible = sch->n;
    s->open = concat_open;
    s->next = concat_next;
    s->close = concat_close;
    s->destroy = concat_destroy;
    s->set_filter = concat_set_filter;
    concat_tasks(s);
    return s;
}

/* ---- read: the shards' rows ---- */

static int dist_read(table *t, bool final, query_ctx *q, source **out)
{
    *out = NULL;
    if (final)
        return err_set(ERR_ILLEGAL_FINAL, "Storage Distributed doesn't support FINAL");
    dist_layout l;
    if (distributed_layout(t, q, &l))
        return -1;
    source **parts = xcalloc((size_t)l.nlocal + 2, sizeof *parts);
    int n = 0, rc = 0;
    if (l.remote_addresses) {
        rc = tablefunc_remote_cluster(l.remote_addresses, l.target, l.user, l.password, l.cluster, l.secret, false, q,
                                      &parts[n]);
        n += !rc;
    }
    for (int i = 0; !rc && i < l.nlocal; i++) {
        table *local;
        if ((rc = distributed_local_table(&l, q, &local)))
            break;
        rc = local->engine->read(local, false, q, &parts[n]);
        n += !rc;
        table_unref(local);
    }
    dist_layout_free(&l);
    if (rc) {
        for (int i = 0; i < n; i++)
            source_free(parts[i]);
        free(parts);
        return -1;
    }
    *out = source_concat(schema_clone(t->sch), parts, n, true);
    free(parts);
    return 0;
}

/* ---- insert ---- */

typedef struct dest {
    table_sink *sink;
    table *local;               /* a direct local insert: the table (a reference) */
    pthread_mutex_t mu;
} dest;

typedef struct dist_sink {
    table_sink base;
    table *t;                   /* a reference */
    query_ctx *q;
    dist_impl *d;
    int nshards;
    int *ndest;                 /* per shard */
    dest **dests;               /* per shard, ndest[i] of them */
    int nslots;
    int *slot_shard;            /* slot → shard */
} dist_sink;

static void dsink_free(dist_sink *s, bool abort)
{
    for (int i = 0; i < s->nshards; i++) {
        for (int k = 0; s->dests && k < s->ndest[i]; k++) {
            dest *x = &s->dests[i][k];
            if (x->sink && abort)
                x->sink->abort(x->sink);
            table_unref(x->local);
            pthread_mutex_destroy(&x->mu);
        }
        if (s->dests)
            free(s->dests[i]);
    }
    free(s->dests);
    free(s->ndest);
    free(s->slot_shard);
    table_unref(s->t);
    free(s);
}

/* The shard of every row (ClickHouse's createBlockSelector): the key as unsigned of its
 * width, modulo the slots. */
static int shard_of(dist_sink *s, const column *key, size_t rows, int *out)
{
    const type *kt = key->type;
    if (kt->id == T_LOWCARDINALITY)
        kt = type_base(kt);
    bool ok = (type_is_integer(kt) && kt->width <= 8) || kt->id == T_BOOL;
    if (!ok)
        return err_set(ERR_TYPE_MISMATCH, "Sharding key expression does not evaluate to an integer type");
    column *c = key->is_const ? col_materialize(col_ref((column *)key)) : col_ref((column *)key);
    uint64_t mask = kt->width >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * kt->width)) - 1;
    bool sig = kt->id != T_BOOL && type_is_signed(kt);
    for (size_t r = 0; r < rows; r++) {
        uint64_t v = sig ? (uint64_t)col_get_i64(c, r) & mask : col_get_u64(c, r);
        out[r] = s->slot_shard[v % (uint64_t)s->nslots];
    }
    col_free(c);
    return 0;
}

static int dest_write(dest *x, block *b)
{
    pthread_mutex_lock(&x->mu);
    int rc = x->sink->base.write(&x->sink->base, b);
    pthread_mutex_unlock(&x->mu);
    return rc;
}

/* b to every destination of shard i (each gets its own reference of the columns). */
static int shard_write(dist_sink *s, int i, block *b)
{
    int rc = 0;
    for (int k = 0; k < s->ndest[i] && !rc; k++) {
        block *c = block_new(b->ncols, b->rows);
        for (int j = 0; j < b->ncols; j++)
            c->cols[j] = col_ref(b->cols[j]);
        rc = dest_write(&s->dests[i][k], c);
    }
    block_free(b);
    return rc;
}

static int dsink_write(block_sink *bs, block *b)
{
    dist_sink *s = (dist_sink *)bs;
    if (!b->rows) {
        block_free(b);
        return 0;
    }
    if (s->nshards == 1)
        return shard_write(s, 0, b);
    column *key = NULL;
    int rc = expr_eval(s->d->key_expr, b, &key);
    int *sh = rc ? NULL : xcalloc(b->rows + 1, sizeof *sh);
    if (!rc)
        rc = shard_of(s, key, b->rows, sh);
    if (key)
        col_free(key);
    uint8_t *keep = rc ? NULL : xcalloc(b->rows + 1, 1);
    for (int i = 0; i < s->nshards && !rc; i++) {
        size_t kept = 0;
        for (size_t r = 0; r < b->rows; r++)
            kept += keep[r] = sh[r] == i;
        if (!kept)
            continue;
        block *part = block_new(b->ncols, kept);
        for (int j = 0; j < b->ncols; j++)
            part->cols[j] = kept == b->rows ? col_ref(b->cols[j]) : col_filter(b->cols[j], keep, kept);
        rc = shard_write(s, i, part);
    }
    free(keep);
    free(sh);
    block_free(b);
    return rc;
}

typedef struct finisher {
    table_sink *sink;
    mem_tracker *tracker;       /* the query's, attached in the finishing thread */
    pthread_t thread;
    bool started;
    int rc;
    err_saved err;
} finisher;

static void finish_one(finisher *f)
{
    f->rc = f->sink->finish(f->sink);
    if (f->rc)
        err_save(&f->err);
}

static void *finish_main(void *arg)
{
    finisher *f = arg;
    mem_thread_init();
    mem_tracker_attach(f->tracker);
    finish_one(f);
    return NULL;
}

/* Every destination finishes at once: a shard waiting for the end of its data while
 * another writes its part would otherwise sit idle (and time out) for that long. */
static int dsink_finish(table_sink *ts)
{
    dist_sink *s = (dist_sink *)ts;
    int total = 0;
    for (int i = 0; i < s->nshards; i++)
        total += s->ndest[i];
    finisher *f = xcalloc((size_t)total + 1, sizeof *f);
    int n = 0;
    for (int i = 0; i < s->nshards; i++)
        for (int k = 0; k < s->ndest[i]; k++) {
            f[n].sink = s->dests[i][k].sink;
            f[n].tracker = &s->q->mem;
            s->dests[i][k].sink = NULL;
            n++;
        }
    for (int i = 0; i < n; i++)
        f[i].started = n > 1 && pthread_create(&f[i].thread, NULL, finish_main, &f[i]) == 0;
    int rc = 0;
    err_saved first = {0};
    bool have = false;
    for (int i = 0; i < n; i++) {
        if (f[i].started)
            pthread_join(f[i].thread, NULL);
        else
            finish_one(&f[i]);
        if (f[i].rc && !have) {
            first = f[i].err;
            have = true;
            rc = -1;
        }
    }
    free(f);
    dsink_free(s, true);
    return rc ? err_restore(&first) : 0;
}

static void dsink_abort(table_sink *ts) { dsink_free((dist_sink *)ts, true); }

/* The local table takes the Distributed table's blocks as they are when its stored
 * columns are the same (names and types, in order). */
static bool same_columns(const table *a, const table *b)
{
    if (a->sch->n != b->sch->n)
        return false;
    for (int i = 0; i < a->sch->n; i++)
        if (strcmp(a->sch->names[i], b->sch->names[i]) || a->sch->types[i] != b->sch->types[i])
            return false;
    return true;
}

static void add_dest(dist_sink *s, int i)
{
    s->dests[i] = xrealloc(s->dests[i], sizeof(dest) * (size_t)(s->ndest[i] + 1));
    dest *x = &s->dests[i][s->ndest[i]++];
    memset(x, 0, sizeof *x);
    pthread_mutex_init(&x->mu, NULL);
}

static int remote_dest(dist_sink *s, int i, const char *addresses, const dist_layout *l, const char *columns,
                       query_ctx *q)
{
    add_dest(s, i);
    dest *x = &s->dests[i][s->ndest[i] - 1];
    if (tablefunc_remote_sink(addresses, l->target, l->user, l->password, false, l->cluster, l->secret, columns,
                              s->t->sch, q, &x->sink))
        return err_prefix("Distributed table %s, shard %d: ", table_full_name(s->t), i + 1);
    return 0;
}

static int queue_dest(dist_sink *s, int i, const char *dir, query_ctx *q)
{
    add_dest(s, i);
    dest *x = &s->dests[i][s->ndest[i] - 1];
    return dist_queue_sink(s->d->queue, dir, s->t->sch, q, &x->sink);
}

static int dist_insert(table *t, query_ctx *q, table_sink **out)
{
    *out = NULL;
    dist_impl *d = t->impl;
    bool background = !settings_bool(q->st, "distributed_foreground_insert");
    cluster_set *cs;
    const cluster_def *c;
    if (find_cluster(t, &cs, &c))
        return -1;
    if (c->nshards > 1 && !d->key_expr) {
        cluster_set_put(cs);
        return err_set(ERR_STORAGE_REQUIRES_PARAMETER, "Method write is not supported by storage Distributed with "
                       "more than one shard and no sharding key provided");
    }
    dist_layout l;
    if (distributed_layout(t, q, &l)) {
        cluster_set_put(cs);
        return -1;
    }
    dist_sink *s = xcalloc(1, sizeof *s);
    s->t = table_ref(t);
    s->q = q;
    s->d = d;
    s->nshards = c->nshards;
    s->ndest = xcalloc((size_t)c->nshards + 1, sizeof *s->ndest);
    s->dests = xcalloc((size_t)c->nshards + 1, sizeof *s->dests);
    for (int i = 0; i < c->nshards; i++)
        s->nslots += c->shards[i].weight > 0 ? c->shards[i].weight : 0;
    s->slot_shard = xcalloc((size_t)s->nslots + 1, sizeof(int));
    for (int i = 0, k = 0; i < c->nshards; i++)
        for (int w = 0; w < c->shards[i].weight; w++)
            s->slot_shard[k++] = i;
    int rc = s->nslots ? 0
                       : err_set(ERR_BAD_ARGUMENTS, "Distributed table %s: every shard of cluster '%s' has weight 0",
                                 table_full_name(t), c->name);
    buf cols = {0};
    column_list_sql(t, &cols);
    bool prefer_local = settings_bool(q->st, "prefer_localhost_replica");
    for (int i = 0; i < c->nshards && !rc; i++) {
        const cluster_shard *sh = &c->shards[i];
        if (sh->weight <= 0)
            continue;
        int local = -1;
        for (int r = 0; prefer_local && local < 0 && r < sh->nreplicas; r++)
            if (cluster_replica_is_local(cs, &sh->replicas[r]))
                local = r;
        if (local >= 0) {
            table *lt;
            if ((rc = distributed_local_table(&l, q, &lt)))
                break;
            if (same_columns(t, lt)) {
                add_dest(s, i);
                dest *x = &s->dests[i][s->ndest[i] - 1];
                x->local = lt;
                rc = lt->engine->insert(lt, q, &x->sink);
            } else {
                /* other columns (defaults to compute): through this server's own port */
                table_unref(lt);
                buf a = {0};
                put_address(&a, &sh->replicas[local]);
                rc = remote_dest(s, i, buf_cstr(&a), &l, buf_cstr(&cols), q);
                buf_free(&a);
            }
            if (rc || sh->internal_replication)
                continue;
        }
        if (background) {
            /* ClickHouse's queue directories: one for the shard (a replica takes each file),
             * else one per replica (each gets every file) */
            char dir[64];
            if (sh->internal_replication) {
                snprintf(dir, sizeof dir, "shard%d_all_replicas", i + 1);
                rc = queue_dest(s, i, dir, q);
            }
            for (int r = 0; !sh->internal_replication && r < sh->nreplicas && !rc; r++) {
                if (r == local)
                    continue;
                snprintf(dir, sizeof dir, "shard%d_replica%d", i + 1, r + 1);
                rc = queue_dest(s, i, dir, q);
            }
            continue;
        }
        /* the other replicas: one of them (internal_replication), else each */
        buf a = {0};
        for (int r = 0; r < sh->nreplicas && !rc; r++) {
            if (r == local)
                continue;
            if (!sh->internal_replication && a.len) {
                rc = remote_dest(s, i, buf_cstr(&a), &l, buf_cstr(&cols), q);
                a.len = 0;
            }
            if (a.len)
                buf_putc(&a, '|');
            put_address(&a, &sh->replicas[r]);
        }
        if (!rc && a.len)
            rc = remote_dest(s, i, buf_cstr(&a), &l, buf_cstr(&cols), q);
        buf_free(&a);
    }
    buf_free(&cols);
    dist_layout_free(&l);
    cluster_set_put(cs);
    if (rc) {
        dsink_free(s, true);
        return -1;
    }
    s->base.base.write = dsink_write;
    s->base.finish = dsink_finish;
    s->base.abort = dsink_abort;
    *out = &s->base;
    return 0;
}

static int dist_truncate(table *t, query_ctx *q)
{
    (void)q;
    return err_set(ERR_NOT_IMPLEMENTED, "TRUNCATE of Distributed table %s is not implemented (truncate the shards' "
                   "tables)", table_full_name(t));
}

const table_engine engine_distributed = {
    .name = "Distributed",
    .has_data_dir = true, /* the background INSERT queue */
    .open = dist_open,
    .read = dist_read,
    .insert = dist_insert,
    .truncate = dist_truncate,
    .close = dist_close,
};

int distributed_flush(table *t)
{
    dist_impl *d = t->impl;
    return dist_queue_flush(d->queue);
}

void distributed_set_sends_blocked(table *t, bool blocked)
{
    dist_queue_set_blocked(t ? ((dist_impl *)t->impl)->queue : NULL, blocked);
}
