/* remote(addresses, target [, user [, password]]) and remoteSecure: a table on other
 * servers over the native protocol (storage/native_client.h).
 *
 * Addresses as ClickHouse writes them: shards separated by commas, replicas of a shard by
 * '|', and braces that generate either — `host:{9001,9002}` two shards, `{a|b}:9000` two
 * replicas of one shard, `h{1..3}` three shards; the port defaults to 9000. The target is
 * SQL after FROM (db.table, a table function call); the analyzer builds it.
 *
 * How a query runs: every shard is one read task. The task connects to one of the shard's
 * replicas as load_balancing orders them, with failover on connection errors
 * (connect_timeout_with_failover_ms per attempt, connections_with_failover_max_tries
 * rounds: storage/native_client.h) and asks for the columns the query reads, with the WHERE conjuncts
 * the source is told about (src_filter: comparisons and IN on integer and string
 * columns) pushed into the shard query; the initiator then runs the whole query over
 * those rows, so every query is right whatever it does (aggregates, joins, ORDER BY,
 * LIMIT). The schema comes from the first shard that answers `SELECT * … LIMIT 0`.
 * A query that aggregates is split instead when it can be (sql/dist_plan.c): the source
 * made by tablefunc_remote_mergeable sends each shard the keys-and-aggregates query at
 * WithMergeableState and yields its blocks of keys and AggregateFunction states, which
 * the initiator's plan merges before HAVING, ORDER BY and LIMIT.
 * skip_unavailable_shards = 1 leaves out a shard none of whose replicas accepts a
 * connection. The query's changed settings go with every shard query, as ClickHouse
 * sends them. Errors from a shard carry its code and "Received from host:port.".
 *
 * INSERT INTO FUNCTION remote(…) (one shard, as ClickHouse without a sharding key): the
 * shard is sent `INSERT INTO target [(columns)] VALUES` and answers with the header of
 * the columns it takes; the rows go by position, each column CAST to the header's type
 * where the types differ, in Data blocks; finish() ends the data and waits for the
 * shard's EndOfStream, so the INSERT succeeds only when the shard has written it. */
#include "base/err.h"
#include "base/mem.h"
#include "func/func.h"
#include "parse/ast.h"
#include "storage/native_client.h"
#include "storage/tablefunc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ADDRESSES = 1000 };

typedef struct replica {
    char *host;
    int port;
} replica;

typedef struct shard {
    int n;
    replica *r;
    _Atomic unsigned *rr;       /* round_robin's counter: a cluster's (process-wide), else NULL */
} shard;

typedef struct remote_src {
    native_kv *settings;        /* the query's changed settings, sent with every shard query */
    int nsettings;
    int nshards;
    shard *shards;
    char *target;
    char *user, *password;
    char *cluster, *secret;     /* cluster() over a cluster with a <secret>; else NULL */
    nclient_failover fo;
    bool skip_unavailable;
    char *where;                /* pushed-down conjuncts ("" = none) */
    char *shard_sql;            /* mergeable source: the query every shard runs to
                                 * WithMergeableState; NULL: rows of the target */
} remote_src;

/* ---- addresses ---- */

typedef struct strvec {
    int n;
    char **s;
} strvec;

static void sv_push(strvec *v, char *s)
{
    v->s = xrealloc(v->s, sizeof(char *) * (size_t)(v->n + 1));
    v->s[v->n++] = s;
}

static void sv_free(strvec *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->s[i]);
    free(v->s);
    memset(v, 0, sizeof *v);
}

/* Splits s[0..n) at sep outside braces. */
static void split_top(const char *s, size_t n, char sep, strvec *out)
{
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] == '{')
            depth++;
        else if (i < n && s[i] == '}')
            depth--;
        if (i == n || (s[i] == sep && depth == 0)) {
            sv_push(out, xstrndup(s + start, i - start));
            start = i + 1;
        }
    }
}

/* Expands the braces of s: {a,b,c}, {a|b} and {N..M} (zero-padded as the wider bound).
 * *replicas is set when a brace used '|'. */
static int expand(const char *s, strvec *out, bool *replicas, const char *whole)
{
    const char *open = strchr(s, '{');
    if (!open) {
        sv_push(out, xstrdup(s));
        return 0;
    }
    const char *close = strchr(open, '}');
    if (!close)
        return err_set(ERR_BAD_ARGUMENTS, "Table function 'remote': unbalanced braces in the addresses '%s'", whole);
    strvec alts = {0};
    const char *body = open + 1;
    size_t blen = (size_t)(close - body);
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < blen; i++)
        if (body[i] == '.' && body[i + 1] == '.')
            dots = body + i;
    if (dots) {
        char *end;
        unsigned long a = strtoul(body, &end, 10), b;
        if (end != dots || (b = strtoul(dots + 2, &end, 10), end != close) || b < a || b - a > MAX_ADDRESSES)
            return err_set(ERR_BAD_ARGUMENTS, "Table function 'remote': bad range {%.*s} in the addresses '%s'",
                           (int)blen, body, whole);
        int width = (int)(dots - body);
        for (unsigned long x = a; x <= b; x++) {
            char t[32];
            snprintf(t, sizeof t, "%0*lu", width, x);
            sv_push(&alts, xstrdup(t));
        }
    } else {
        bool bar = memchr(body, '|', blen) != NULL;
        *replicas |= bar;
        split_top(body, blen, bar ? '|' : ',', &alts);
    }
    for (int i = 0; i < alts.n; i++) {
        buf b = {0};
        buf_append(&b, s, (size_t)(open - s));
        buf_puts(&b, alts.s[i]);
        buf_puts(&b, close + 1);
        int rc = expand(buf_cstr(&b), out, replicas, whole);
        buf_free(&b);
        if (rc || out->n > MAX_ADDRESSES) {
            sv_free(&alts);
            return rc ? rc
                      : err_set(ERR_BAD_ARGUMENTS, "Table function 'remote': the addresses '%s' make more than %d",
                                whole, MAX_ADDRESSES);
        }
    }
    sv_free(&alts);
    return 0;
}

static int parse_host_port(const char *s, int default_port, replica *r, const char *whole)
{
    const char *colon = NULL;
    const char *host = s;
    size_t hlen;
    if (s[0] == '[') { /* [IPv6]:port */
        const char *rb = strchr(s, ']');
        if (!rb)
            return err_set(ERR_BAD_ARGUMENTS, "Table function 'remote': bad address '%s' in '%s'", s, whole);
        host = s + 1;
        hlen = (size_t)(rb - host);
        colon = rb[1] == ':' ? rb + 1 : NULL;
        if (rb[1] && !colon)
            return err_set(ERR_BAD_ARGUMENTS, "Table function 'remote': bad address '%s' in '%s'", s, whole);
    } else {
        colon = strrchr(s, ':');
        hlen = colon ? (size_t)(colon - s) : strlen(s);
    }
    int port = default_port;
    if (colon) {
        char *end;
        long p = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || *end || p <= 0 || p > 65535)
            return err_set(ERR_BAD_ARGUMENTS, "Table function 'remote': bad port in the address '%s' of '%s'", s, whole);
        port = (int)p;
    }
    if (hlen == 0)
        return err_set(ERR_BAD_ARGUMENTS, "Table function 'remote': an empty host in the addresses '%s'", whole);
    r->host = xstrndup(host, hlen);
    r->port = port;
    return 0;
}

static void shards_free(shard *sh, int n)
{
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < sh[i].n; k++)
            free(sh[i].r[k].host);
        free(sh[i].r);
    }
    free(sh);
}

/* The settings the query changed, as ClickHouse's initiator sends them to its shards (not
 * important: a shard that does not know one ignores it). */
static void changed_settings(query_ctx *q, native_kv **out, int *n)
{
    *out = NULL;
    *n = 0;
    for (int k = 0; k < q->st->nset; k++) {
        *out = xrealloc(*out, sizeof **out * (size_t)(*n + 1));
        native_kv *kv = &(*out)[(*n)++];
        kv->name = xstrdup(settings_def_at(q->st->set[k].index)->name);
        kv->value = xstrdup(q->st->set[k].text);
        kv->flags = 0;
    }
}

static void settings_list_free(native_kv *kv, int n)
{
    for (int i = 0; i < n; i++) {
        free(kv[i].name);
        free(kv[i].value);
    }
    free(kv);
}

static void add_replica(shard *sh, replica r)
{
    sh->r = xrealloc(sh->r, sizeof(replica) * (size_t)(sh->n + 1));
    sh->r[sh->n++] = r;
}

/* ClickHouse's parseRemoteDescription, as used by remote(). */
static int remote_parse_addresses(const char *addresses, int default_port, shard **out, int *nout)
{
    *out = NULL;
    *nout = 0;
    strvec pieces = {0};
    split_top(addresses, strlen(addresses), ',', &pieces);
    shard *sh = NULL;
    int n = 0;
    int rc = 0;
    for (int i = 0; i < pieces.n && !rc; i++) {
        strvec reps = {0};
        split_top(pieces.s[i], strlen(pieces.s[i]), '|', &reps);
        /* a|b: one shard of the replicas (each expanded); else the expansions are shards
         * unless a brace said '|'. */
        strvec names = {0};
        bool bar = reps.n > 1;
        for (int k = 0; k < reps.n && !rc; k++)
            rc = expand(reps.s[k], &names, &bar, addresses);
        sv_free(&reps);
        for (int k = 0; k < names.n && !rc; k++) {
            replica r = {0};
            const char *a = names.s[k];
            while (*a == ' ')
                a++;
            size_t len = strlen(a);
            while (len && a[len - 1] == ' ')
                len--;
            char *trim = xstrndup(a, len);
            rc = parse_host_port(trim, default_port, &r, addresses);
            free(trim);
            if (rc)
                break;
            if (!bar || k == 0) {
                sh = xrealloc(sh, sizeof *sh * (size_t)(n + 1));
                memset(&sh[n], 0, sizeof sh[n]);
                n++;
            }
            add_replica(&sh[n - 1], r);
        }
        sv_free(&names);
    }
    sv_free(&pieces);
    if (!rc && n == 0)
        rc = err_set(ERR_BAD_ARGUMENTS, "Table function 'remote': no addresses in '%s'", addresses);
    if (rc) {
        shards_free(sh, n);
        return -1;
    }
    *out = sh;
    *nout = n;
    return 0;
}

/* ---- connections ---- */

/* A connection to one replica of the shard, in the order of load_balancing; every failure
 * goes into the message of ALL_CONNECTION_TRIES_FAILED. */
static int connect_shard(const remote_src *rs, const shard *sh, nclient **out)
{
    nclient_opts *o = xcalloc((size_t)sh->n + 1, sizeof *o);
    for (int i = 0; i < sh->n; i++)
        o[i] = (nclient_opts){.host = sh->r[i].host,
                              .port = sh->r[i].port,
                              .user = rs->user,
                              .password = rs->password,
                              .compression = "lz4",
                              .cluster = rs->cluster,
                              .secret = rs->secret};
    int rc = nclient_connect_replicas(o, sh->n, &rs->fo, sh->rr, out);
    free(o);
    return rc;
}

/* The user a shard runs the query as over a cluster's secret: the initiator's. */
static const char *initial_user(const query_ctx *q) { return q->env.user && q->env.user[0] ? q->env.user : NULL; }

/* round_robin's counters of clusters' shards, kept for the process (a handful per cluster:
 * never freed), as ClickHouse keeps them in a cluster's connection pools. */
typedef struct rr_counter {
    struct rr_counter *next;
    char *key;
    _Atomic unsigned n;
} rr_counter;
static rr_counter *rr_counters;
static pthread_mutex_t rr_mu = PTHREAD_MUTEX_INITIALIZER;

static _Atomic unsigned *rr_counter_of(const char *cluster, int shard_no)
{
    char key[600];
    snprintf(key, sizeof key, "%s\n%d", cluster, shard_no);
    pthread_mutex_lock(&rr_mu);
    rr_counter *c = rr_counters;
    while (c && strcmp(c->key, key))
        c = c->next;
    if (!c) {
        c = xcalloc(1, sizeof *c);
        c->key = xstrdup(key);
        c->next = rr_counters;
        rr_counters = c;
    }
    pthread_mutex_unlock(&rr_mu);
    return &c->n;
}

static bool is_unavailable(int code) { return code == ERR_ALL_CONNECTION_TRIES_FAILED; }

/* ---- the source ---- */

static void put_ident(buf *b, const char *name)
{
    buf_putc(b, '`');
    for (const char *p = name; *p; p++) {
        if (*p == '`' || *p == '\\')
            buf_putc(b, '\\');
        buf_putc(b, *p);
    }
    buf_putc(b, '`');
}

typedef struct remote_it {
    remote_src *rs;
    source *s;
    query_ctx *q;
    nclient *c;
    int ncols;
    int *cols;
    bool done;
} remote_it;

static void rm_close(void *itp);

static int rm_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    remote_src *rs = s->impl;
    remote_it *it = xcalloc(1, sizeof *it);
    it->rs = rs;
    it->s = s;
    it->q = q;
    it->ncols = ncols;
    it->cols = xcalloc((size_t)ncols + 1, sizeof(int));
    if (ncols)
        memcpy(it->cols, cols, sizeof(int) * (size_t)ncols);
    if (connect_shard(rs, &rs->shards[task], &it->c)) {
        if (rs->skip_unavailable && is_unavailable(err_code())) {
            err_clear();
            it->done = true;
            *itp = it;
            return 0;
        }
        rm_close(it);
        return -1;
    }
    buf sql = {0};
    if (rs->shard_sql) {
        buf_puts(&sql, rs->shard_sql);
    } else {
        buf_puts(&sql, "SELECT ");
        if (ncols == 0)
            buf_puts(&sql, "1");
        for (int i = 0; i < ncols; i++) {
            if (i)
                buf_puts(&sql, ", ");
            put_ident(&sql, s->sch->names[cols[i]]);
        }
        buf_printf(&sql, " FROM %s%s", rs->target, rs->where);
    }
    int rc = nclient_query(it->c, NULL, q->query_id, buf_cstr(&sql), rs->settings, rs->nsettings, NULL, 0,
                           rs->shard_sql ? NATIVE_STAGE_WITH_MERGEABLE_STATE : NATIVE_STAGE_COMPLETE, initial_user(q));
    buf_free(&sql);
    if (rc) {
        rm_close(it);
        return -1;
    }
    *itp = it;
    return 0;
}

/* A block of keys and states from a shard at WithMergeableState: every column as the
 * plan expects it (by position: the shards' names depend on how each spells the query),
 * then the columns the reader asked for. */
static int take_mergeable(remote_it *it, nclient_packet *p, block **out)
{
    const schema *want = it->s->sch;
    if (p->header->n != want->n)
        return err_set(ERR_INCORRECT_DATA,
                       "Server %s sent a block of %d columns for the %d keys and aggregate states of the query",
                       nclient_peer(it->c), p->header->n, want->n);
    for (int i = 0; i < want->n; i++)
        if (strcmp(p->header->types[i]->name, want->types[i]->name) != 0)
            return err_set(ERR_TYPE_MISMATCH,
                           "Server %s sent column %s as %s where the initiator merges %s (a shard of another "
                           "version or with another table structure?)",
                           nclient_peer(it->c), p->header->names[i], p->header->types[i]->name,
                           want->types[i]->name);
    block *b = block_new(it->ncols, p->b->rows);
    for (int i = 0; i < it->ncols; i++)
        b->cols[i] = col_ref(p->b->cols[it->cols[i]]);
    *out = b;
    return 0;
}

static int rm_next(void *itp, block **out)
{
    remote_it *it = itp;
    *out = NULL;
    while (!it->done) {
        if (query_check(it->q))
            return -1;
        nclient_packet p;
        if (nclient_receive(it->c, &p))
            return -1;
        switch (p.type) {
        case NS_EXCEPTION: {
            int rc = nclient_raise(it->c, &p);
            nclient_packet_clear(&p);
            return rc;
        }
        case NS_END_OF_STREAM: it->done = true; break;
        case NS_PROGRESS: query_add_read(it->q, p.progress.read_rows, p.progress.read_bytes); break;
        case NS_DATA:
            if (p.b && p.b->rows && it->rs->shard_sql) {
                block *b = NULL;
                int rc = take_mergeable(it, &p, &b);
                nclient_packet_clear(&p);
                if (rc)
                    return -1;
                *out = b;
                return 0;
            }
            if (p.b && p.b->rows) {
                int want = it->ncols ? it->ncols : 1;
                if (p.header->n != want) {
                    nclient_packet_clear(&p);
                    return err_set(ERR_INCORRECT_DATA, "Server %s sent a block of %d columns for %d requested",
                                   nclient_peer(it->c), p.header->n, want);
                }
                for (int i = 0; i < it->ncols; i++) {
                    const type *t = it->s->sch->types[it->cols[i]];
                    if (strcmp(p.header->types[i]->name, t->name) != 0) {
                        int rc = err_set(ERR_TYPE_MISMATCH,
                                         "Server %s sent column %s as %s, but its structure says %s (did the table "
                                         "change during the query?)",
                                         nclient_peer(it->c), p.header->names[i], p.header->types[i]->name, t->name);
                        nclient_packet_clear(&p);
                        return rc;
                    }
                }
                block *b = p.b;
                p.b = NULL;
                if (it->ncols == 0) {
                    block *e = block_new(0, b->rows);
                    block_free(b);
                    b = e;
                }
                nclient_packet_clear(&p);
                *out = b;
                return 0;
            }
            break;
        default: break; /* ProfileInfo, Log, ProfileEvents, TableColumns, Totals, … */
        }
        nclient_packet_clear(&p);
    }
    return 0;
}

static void rm_close(void *itp)
{
    remote_it *it = itp;
    /* A query stopped before its end (LIMIT, an error) closes the connection: the server
     * cancels the shard's query when its client goes away. */
    nclient_close(it->c);
    free(it->cols);
    free(it);
}

static void rm_destroy(source *s)
{
    remote_src *rs = s->impl;
    shards_free(rs->shards, rs->nshards);
    free(rs->target);
    free(rs->user);
    free(rs->password);
    free(rs->cluster);
    if (rs->secret)
        memset(rs->secret, 0, strlen(rs->secret));
    free(rs->secret);
    free(rs->where);
    free(rs->shard_sql);
    settings_list_free(rs->settings, rs->nsettings);
    free(rs);
}

/* The conjuncts whose SQL means the same on any server: integer and string columns
 * against integer and string constants. Others stay with the initiator's WHERE. */
static bool int_type(const type *t) { return type_is_integer(t) && t->width <= 8; }

static void put_value(buf *b, const column *v, size_t row)
{
    if (type_base(v->type)->id == T_STRING) {
        size_t len;
        const char *s = col_str(v, row, &len);
        ast_format_quoted(b, s, len);
    } else if (type_is_signed(v->type)) {
        buf_printf(b, "%lld", (long long)col_get_i64(v, row));
    } else {
        buf_printf(b, "%llu", (unsigned long long)col_get_u64(v, row));
    }
}

static void rm_set_filter(source *s, const src_filter *f, int n, query_ctx *q)
{
    (void)q;
    remote_src *rs = s->impl;
    buf w = {0};
    static const char *ops[] = {[SF_EQ] = " = ",   [SF_NE] = " != ", [SF_LT] = " < ",      [SF_LE] = " <= ",
                                [SF_GT] = " > ",   [SF_GE] = " >= ", [SF_IN] = " IN (", [SF_NOT_IN] = " NOT IN ("};
    for (int i = 0; i < n; i++) {
        if (f[i].op > SF_NOT_IN || f[i].col < 0 || f[i].col >= s->nvisible || !f[i].vals)
            continue;
        const type *ct = type_base(s->sch->types[f[i].col]);
        const type *vt = type_base(f[i].vals->type);
        bool str = ct->id == T_STRING && vt->id == T_STRING;
        bool num = int_type(ct) && int_type(vt) && !type_is_nullable(f[i].vals->type);
        if (!str && !num)
            continue;
        bool list = f[i].op == SF_IN || f[i].op == SF_NOT_IN;
        if (!list && f[i].vals->len != 1)
            continue;
        if (list && f[i].vals->len == 0)
            continue;
        buf_puts(&w, w.len ? " AND " : " WHERE ");
        put_ident(&w, s->sch->names[f[i].col]);
        buf_puts(&w, ops[f[i].op]);
        for (size_t r = 0; r < (list ? f[i].vals->len : 1); r++) {
            if (r)
                buf_puts(&w, ", ");
            put_value(&w, f[i].vals, r);
        }
        if (list)
            buf_putc(&w, ')');
    }
    free(rs->where);
    rs->where = xstrdup(buf_cstr(&w));
    buf_free(&w);
}

/* The target's columns, from the first shard that answers (round_robin's counters are
 * left to the query's own connections). */
static int discover(remote_src *rs, query_ctx *q, schema **out)
{
    *out = NULL;
    int rc = -1;
    for (int i = 0; i < rs->nshards; i++) {
        nclient *c;
        shard fresh = rs->shards[i];
        fresh.rr = NULL;
        if (connect_shard(rs, &fresh, &c)) {
            if (rs->skip_unavailable && is_unavailable(err_code()) && i + 1 < rs->nshards) {
                err_clear();
                continue;
            }
            return -1;
        }
        buf sql = {0};
        buf_printf(&sql, "SELECT * FROM %s LIMIT 0", rs->target);
        rc = nclient_query(c, NULL, q->query_id, buf_cstr(&sql), rs->settings, rs->nsettings, NULL, 0,
                           NATIVE_STAGE_COMPLETE, initial_user(q));
        buf_free(&sql);
        while (!rc) {
            nclient_packet p;
            if ((rc = nclient_receive(c, &p)))
                break;
            if (p.type == NS_EXCEPTION)
                rc = nclient_raise(c, &p);
            else if (p.type == NS_DATA && !*out && p.header) {
                *out = p.header;
                p.header = NULL;
            }
            int type = p.type;
            nclient_packet_clear(&p);
            if (type == NS_END_OF_STREAM)
                break;
        }
        nclient_close(c);
        if (!rc && !*out)
            rc = err_set(ERR_INCORRECT_DATA, "Server %s:%d sent no header for %s", rs->shards[i].r[0].host,
                         rs->shards[i].r[0].port, rs->target);
        if (rc) {
            schema_free(*out);
            *out = NULL;
        }
        return rc;
    }
    return err_set(ERR_ALL_CONNECTION_TRIES_FAILED, "All connection tries failed: no shard of remote() is available");
}

/* A source's common part: the shards, the user, the query's settings (NULL on error). */
static remote_src *rs_new(const char *addresses, const char *user, const char *password, const char *cluster,
                          const char *secret, bool round_robin, query_ctx *q)
{
    remote_src *rs = xcalloc(1, sizeof *rs);
    if (remote_parse_addresses(addresses, 9000, &rs->shards, &rs->nshards)) {
        free(rs);
        return NULL;
    }
    rs->user = xstrdup(user && user[0] ? user : "default");
    rs->password = xstrdup(password ? password : "");
    if (cluster) {
        rs->cluster = xstrdup(cluster);
        for (int i = 0; round_robin && i < rs->nshards; i++)
            rs->shards[i].rr = rr_counter_of(cluster, i);
    }
    rs->secret = secret ? xstrdup(secret) : NULL;
    rs->where = xstrdup("");
    nclient_failover_from(q->st, &rs->fo);
    rs->skip_unavailable = settings_bool(q->st, "skip_unavailable_shards");
    changed_settings(q, &rs->settings, &rs->nsettings);
    return rs;
}

static int remote_rows(const char *addresses, const char *target, const char *user, const char *password,
                       const char *cluster, const char *secret, bool round_robin, query_ctx *q, source **out)
{
    *out = NULL;
    remote_src *rs = rs_new(addresses, user, password, cluster, secret, round_robin, q);
    if (!rs)
        return -1;
    rs->target = xstrdup(target);
    source *s = xcalloc(1, sizeof *s);
    s->impl = rs;
    s->destroy = rm_destroy;
    if (discover(rs, q, &s->sch)) {
        source_free(s);
        return -1;
    }
    s->nvisible = s->sch->n;
    s->ntasks = rs->nshards;
    s->open = rm_open;
    s->next = rm_next;
    s->close = rm_close;
    s->set_filter = rm_set_filter;
    *out = s;
    return 0;
}

int tablefunc_remote(const char *addresses, const char *target, const char *user, const char *password, bool secure,
                     query_ctx *q, source **out)
{
    *out = NULL;
    if (secure)
        return err_set(ERR_NOT_IMPLEMENTED, "Table function 'remoteSecure' is not implemented: shale has no TLS on the "
                                            "native protocol (use remote())");
    return remote_rows(addresses, target, user, password, NULL, NULL, false, q, out);
}

int tablefunc_remote_cluster(const char *addresses, const char *target, const char *user, const char *password,
                             const char *cluster, const char *secret, bool round_robin, query_ctx *q, source **out)
{
    return remote_rows(addresses, target, user, password, cluster, secret, round_robin, q, out);
}

int tablefunc_remote_mergeable(const char *addresses, const char *user, const char *password, const char *cluster,
                               const char *secret, bool round_robin, const char *shard_sql, const schema *header,
                               query_ctx *q, source **out)
{
    *out = NULL;
    remote_src *rs = rs_new(addresses, user, password, cluster, secret, round_robin, q);
    if (!rs)
        return -1;
    rs->target = xstrdup("");
    rs->shard_sql = xstrdup(shard_sql);
    source *s = xcalloc(1, sizeof *s);
    s->impl = rs;
    s->destroy = rm_destroy;
    s->sch = schema_clone(header);
    s->nvisible = s->sch->n;
    s->ntasks = rs->nshards;
    s->open = rm_open;
    s->next = rm_next;
    s->close = rm_close;
    *out = s;
    return 0;
}

/* ---- INSERT INTO FUNCTION remote(…) ---- */

typedef struct remote_sink {
    table_sink base;
    nclient *c;
    schema *header;             /* the shard's */
    fn_call **casts;            /* per column, NULL when the types agree */
    column **type_args;         /* the CAST's type-name constants */
    query_ctx *q;
    pthread_mutex_t mu;
} remote_sink;

static void rsink_free(remote_sink *rs)
{
    nclient_close(rs->c);
    for (int i = 0; rs->casts && i < rs->header->n; i++) {
        if (rs->casts[i])
            fn_call_free(rs->casts[i]);
        col_free(rs->type_args[i]);
    }
    free(rs->casts);
    free(rs->type_args);
    schema_free(rs->header);
    pthread_mutex_destroy(&rs->mu);
    free(rs);
}

static int rsink_write(block_sink *bs, block *b)
{
    remote_sink *rs = (remote_sink *)bs;
    int rc = 0;
    if (b->rows) {
        block *out = block_new(b->ncols, b->rows);
        for (int i = 0; i < b->ncols && !rc; i++) {
            column *c = b->cols[i]->is_const ? col_materialize(col_ref(b->cols[i])) : col_ref(b->cols[i]);
            if (rs->casts[i]) {
                column *args[2] = {c, rs->type_args[i]};
                column *conv = NULL;
                rc = fn_exec(rs->casts[i], args, b->rows, &conv);
                col_free(c);
                c = conv;
                if (c && c->is_const)
                    c = col_materialize(c);
            }
            out->cols[i] = c;
        }
        if (!rc) {
            pthread_mutex_lock(&rs->mu);
            rc = nclient_send_data(rs->c, rs->header, out);
            pthread_mutex_unlock(&rs->mu);
            query_add_read(rs->q, 0, 0);
        }
        block_free(out);
    }
    block_free(b);
    return rc;
}

/* Reads the shard's packets up to EndOfStream (want_header: up to the Data packet with the
 * insert's header, kept in *header). */
static int rsink_read(nclient *c, bool want_header, schema **header)
{
    for (;;) {
        nclient_packet p;
        if (nclient_receive(c, &p))
            return -1;
        if (p.type == NS_EXCEPTION) {
            int rc = nclient_raise(c, &p);
            nclient_packet_clear(&p);
            return rc;
        }
        if (want_header && p.type == NS_DATA && p.header) {
            *header = p.header;
            p.header = NULL;
            nclient_packet_clear(&p);
            return 0;
        }
        int type = p.type;
        nclient_packet_clear(&p);
        if (type == NS_END_OF_STREAM)
            return want_header ? err_set(ERR_UNEXPECTED_PACKET_FROM_SERVER,
                                         "Server %s ended the INSERT without asking for its data", nclient_peer(c))
                               : 0;
    }
}

static int rsink_finish(table_sink *ts)
{
    remote_sink *rs = (remote_sink *)ts;
    int rc = nclient_send_data(rs->c, NULL, NULL);
    if (!rc)
        rc = rsink_read(rs->c, false, NULL);
    rsink_free(rs);
    return rc;
}

/* Closing the connection makes the shard cancel the INSERT (blocks it has already written
 * stay, as with ClickHouse). */
static void rsink_abort(table_sink *ts) { rsink_free((remote_sink *)ts); }

int tablefunc_remote_sink(const char *addresses, const char *target, const char *user, const char *password,
                          bool secure, const char *cluster, const char *secret, const char *columns,
                          const schema *sch, query_ctx *q, table_sink **out)
{
    *out = NULL;
    if (secure)
        return err_set(ERR_NOT_IMPLEMENTED, "Table function 'remoteSecure' is not implemented: shale has no TLS on the "
                                            "native protocol (use remote())");
    remote_src src = {0};
    if (remote_parse_addresses(addresses, 9000, &src.shards, &src.nshards))
        return -1;
    if (src.nshards != 1) {
        shards_free(src.shards, src.nshards);
        return err_set(ERR_NOT_IMPLEMENTED, "INSERT INTO FUNCTION remote() with %d shards needs a sharding key, which "
                                            "shale does not implement yet: name one shard (replicas with |)",
                       src.nshards);
    }
    src.user = (char *)(user && user[0] ? user : "default");
    src.password = (char *)(password ? password : "");
    src.cluster = (char *)cluster;
    src.secret = (char *)secret;
    nclient_failover_from(q->st, &src.fo);
    remote_sink *rs = xcalloc(1, sizeof *rs);
    pthread_mutex_init(&rs->mu, NULL);
    rs->q = q;
    int rc = connect_shard(&src, &src.shards[0], &rs->c);
    shards_free(src.shards, src.nshards);
    if (!rc) {
        buf sql = {0};
        buf_printf(&sql, "INSERT INTO %s%s%s VALUES", target, columns && columns[0] ? " " : "", columns ? columns : "");
        native_kv *kv;
        int nkv;
        changed_settings(q, &kv, &nkv);
        rc = nclient_query(rs->c, NULL, q->query_id, buf_cstr(&sql), kv, nkv, NULL, 0, NATIVE_STAGE_COMPLETE,
                           initial_user(q));
        settings_list_free(kv, nkv);
        buf_free(&sql);
    }
    if (!rc)
        rc = rsink_read(rs->c, true, &rs->header);
    if (!rc && rs->header->n != sch->n)
        rc = err_set(ERR_NUMBER_OF_COLUMNS_DOESNT_MATCH,
                     "Number of columns doesn't match: the SELECT gives %d, %s takes %d", sch->n, target,
                     rs->header->n);
    if (!rc) {
        rs->casts = xcalloc((size_t)sch->n + 1, sizeof *rs->casts);
        rs->type_args = xcalloc((size_t)sch->n + 1, sizeof *rs->type_args);
        for (int i = 0; i < sch->n && !rc; i++) {
            const type *to = rs->header->types[i];
            column *name = col_new(type_simple(T_STRING));
            col_push_str(name, to->name, strlen(to->name));
            rs->type_args[i] = col_new_const(name, 1);
            if (strcmp(sch->types[i]->name, to->name) == 0)
                continue;
            const type *ats[2] = {sch->types[i], type_simple(T_STRING)};
            column *cargs[2] = {NULL, rs->type_args[i]};
            rc = func_resolve("CAST", 2, ats, cargs, &q->env, &rs->casts[i]);
        }
    }
    if (rc) {
        rsink_free(rs);
        return -1;
    }
    rs->base.base.write = rsink_write;
    rs->base.finish = rsink_finish;
    rs->base.abort = rsink_abort;
    *out = &rs->base;
    return 0;
}
