/* The process's clusters (see cluster.h) and system.clusters. */
#include "storage/cluster.h"

#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"
#include "column/block.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static cluster_set *g_set;

cluster_set *cluster_set_new(int tcp_port)
{
    cluster_set *s = xcalloc(1, sizeof *s);
    atomic_store(&s->refs, 1);
    s->tcp_port = tcp_port;
    return s;
}

static void set_free(cluster_set *s)
{
    for (int i = 0; i < s->n; i++) {
        cluster_def *c = &s->clusters[i];
        for (int k = 0; k < c->nshards; k++) {
            for (int r = 0; r < c->shards[k].nreplicas; r++) {
                cluster_replica *rp = &c->shards[k].replicas[r];
                free(rp->host);
                free(rp->user);
                if (rp->password)
                    memset(rp->password, 0, strlen(rp->password));
                free(rp->password);
                free(rp->default_database);
            }
            free(c->shards[k].replicas);
        }
        free(c->shards);
        free(c->name);
        if (c->secret)
            memset(c->secret, 0, strlen(c->secret));
        free(c->secret);
    }
    free(s->clusters);
    for (int i = 0; i < s->nmacros; i++) {
        free(s->macro_names[i]);
        free(s->macro_values[i]);
    }
    free(s->macro_names);
    free(s->macro_values);
    free(s);
}

void cluster_set_install(cluster_set *s)
{
    pthread_mutex_lock(&g_mu);
    cluster_set *old = g_set;
    g_set = s;
    pthread_mutex_unlock(&g_mu);
    if (old)
        cluster_set_put(old);
}

cluster_set *cluster_set_get(void)
{
    pthread_mutex_lock(&g_mu);
    if (!g_set)
        g_set = cluster_set_new(9000);
    cluster_set *s = g_set;
    atomic_fetch_add(&s->refs, 1);
    pthread_mutex_unlock(&g_mu);
    return s;
}

void cluster_set_put(cluster_set *s)
{
    if (s && atomic_fetch_sub(&s->refs, 1) == 1)
        set_free(s);
}

const cluster_def *cluster_find(const cluster_set *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->clusters[i].name, name) == 0)
            return &s->clusters[i];
    err_set(ERR_CLUSTER_DOESNT_EXIST, "Requested cluster '%s' not found", name);
    return NULL;
}

const char *cluster_macro(const cluster_set *s, const char *name)
{
    for (int i = 0; i < s->nmacros; i++)
        if (strcmp(s->macro_names[i], name) == 0)
            return s->macro_values[i];
    return NULL;
}

int cluster_expand_macros(const cluster_set *s, const char *text, char **out)
{
    buf b = {0};
    for (const char *p = text; *p;) {
        const char *close = p[0] == '{' ? strchr(p, '}') : NULL;
        if (!close) {
            buf_putc(&b, *p++);
            continue;
        }
        char *name = xstrndup(p + 1, (size_t)(close - p - 1));
        const char *v = cluster_macro(s, name);
        if (!v) {
            err_set(ERR_NO_ELEMENTS_IN_CONFIG, "No macro '%s' in config while processing substitutions in '%s'", name,
                    text);
            free(name);
            buf_free(&b);
            return -1;
        }
        free(name);
        buf_puts(&b, v);
        p = close + 1;
    }
    *out = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return 0;
}

int cluster_addresses(const cluster_def *c, bool all_replicas, char **addresses, const char **user,
                      const char **password)
{
    *addresses = NULL;
    const cluster_replica *first = NULL;
    buf b = {0};
    for (int i = 0; i < c->nshards; i++) {
        const cluster_shard *sh = &c->shards[i];
        for (int r = 0; r < sh->nreplicas; r++) {
            const cluster_replica *rp = &sh->replicas[r];
            if (rp->secure) {
                buf_free(&b);
                return err_set(ERR_NOT_IMPLEMENTED, "Cluster '%s': replica %s:%d is <secure>, but shale has no TLS on "
                                                    "the native protocol", c->name, rp->host, rp->port);
            }
            if (!first)
                first = rp;
            else if (!c->secret && (strcmp(first->user, rp->user) || strcmp(first->password, rp->password))) {
                buf_free(&b);
                return err_set(ERR_NOT_IMPLEMENTED, "Cluster '%s': replicas with different users or passwords are "
                                                    "not implemented (%s:%d and %s:%d)",
                               c->name, first->host, first->port, rp->host, rp->port);
            }
            if (b.len)
                buf_putc(&b, r > 0 && !all_replicas ? '|' : ',');
            bool v6 = strchr(rp->host, ':') != NULL;
            buf_printf(&b, "%s%s%s:%d", v6 ? "[" : "", rp->host, v6 ? "]" : "", rp->port);
        }
    }
    if (!first) {
        buf_free(&b);
        return err_set(ERR_BAD_ARGUMENTS, "Cluster '%s' has no replicas", c->name);
    }
    *addresses = xstrdup(buf_cstr(&b));
    buf_free(&b);
    *user = first->user;
    *password = first->password;
    return 0;
}

/* ---- system.clusters ---- */

/* The first address the host resolves to (ClickHouse's DNSResolver::resolveHost), "" when
 * it does not resolve. */
static void resolve(const char *host, char *out, size_t cap, struct sockaddr_storage *sa)
{
    out[0] = 0;
    memset(sa, 0, sizeof *sa);
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
    if (getaddrinfo(host, NULL, &hints, &res) != 0 || !res)
        return;
    memcpy(sa, res->ai_addr, res->ai_addrlen);
    const void *addr = res->ai_family == AF_INET6 ? (const void *)&((struct sockaddr_in6 *)res->ai_addr)->sin6_addr
                                                  : (const void *)&((struct sockaddr_in *)res->ai_addr)->sin_addr;
    inet_ntop(res->ai_family, addr, out, (socklen_t)cap);
    freeaddrinfo(res);
}

/* Whether the address is one of this machine's (loopback or an interface's). */
static bool local_address(const struct sockaddr_storage *sa)
{
    if (sa->ss_family == AF_INET) {
        uint32_t a = ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr);
        if ((a >> 24) == 127)
            return true;
    } else if (sa->ss_family == AF_INET6) {
        if (IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)sa)->sin6_addr))
            return true;
    } else {
        return false;
    }
    struct ifaddrs *ifs = NULL;
    if (getifaddrs(&ifs) != 0)
        return false;
    bool found = false;
    for (struct ifaddrs *i = ifs; i && !found; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != sa->ss_family)
            continue;
        if (sa->ss_family == AF_INET)
            found = ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr ==
                    ((const struct sockaddr_in *)sa)->sin_addr.s_addr;
        else
            found = memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr,
                           &((const struct sockaddr_in6 *)sa)->sin6_addr, sizeof(struct in6_addr)) == 0;
    }
    freeifaddrs(ifs);
    return found;
}

bool cluster_replica_is_local(const cluster_set *s, const cluster_replica *r)
{
    char addr[INET6_ADDRSTRLEN + 1];
    struct sockaddr_storage sa;
    if (r->port != s->tcp_port)
        return false;
    resolve(r->host, addr, sizeof addr, &sa);
    return addr[0] && local_address(&sa);
}

static void push_str(column *c, const char *s) { col_push_str(c, s, strlen(s)); }

static void push_u32(column *c, uint32_t v) { col_push_fixed(c, &v); }

int cluster_system_table(query_ctx *q, source **out)
{
    (void)q;
    static const struct {
        const char *name, *type;
    } cols[] = {{"cluster", "String"},
                {"shard_num", "UInt32"},
                {"shard_name", "String"},
                {"shard_weight", "UInt32"},
                {"internal_replication", "UInt8"},
                {"replica_num", "UInt32"},
                {"host_name", "String"},
                {"host_address", "String"},
                {"port", "UInt16"},
                {"is_local", "UInt8"},
                {"user", "String"},
                {"default_database", "String"},
                {"errors_count", "UInt32"},
                {"slowdowns_count", "UInt32"},
                {"estimated_recovery_time", "UInt32"},
                {"database_shard_name", "String"},
                {"database_replica_name", "String"},
                {"is_shared_catalog_cluster", "UInt8"},
                {"is_active", "Nullable(UInt8)"},
                {"unsynced_after_recovery", "Nullable(UInt8)"},
                {"replication_lag", "Nullable(UInt32)"},
                {"recovery_time", "Nullable(UInt64)"}};
    int ncols = (int)(sizeof cols / sizeof cols[0]);
    schema *sch = schema_new(ncols);
    for (int i = 0; i < ncols; i++)
        schema_set(sch, i, cols[i].name, type_parse_cstr(cols[i].type));
    block *b = block_new_empty(sch);
    cluster_set *s = cluster_set_get();
    for (int i = 0; i < s->n; i++) {
        const cluster_def *c = &s->clusters[i];
        for (int k = 0; k < c->nshards; k++) {
            const cluster_shard *sh = &c->shards[k];
            for (int r = 0; r < sh->nreplicas; r++) {
                const cluster_replica *rp = &sh->replicas[r];
                char addr[INET6_ADDRSTRLEN + 1];
                struct sockaddr_storage sa;
                resolve(rp->host, addr, sizeof addr, &sa);
                bool local = cluster_replica_is_local(s, rp);
                push_str(b->cols[0], c->name);
                push_u32(b->cols[1], (uint32_t)k + 1);
                push_str(b->cols[2], "");
                push_u32(b->cols[3], (uint32_t)sh->weight);
                uint8_t ir = sh->internal_replication, loc = local, zero8 = 0;
                col_push_fixed(b->cols[4], &ir);
                push_u32(b->cols[5], (uint32_t)r + 1);
                push_str(b->cols[6], rp->host);
                push_str(b->cols[7], addr);
                uint16_t port = (uint16_t)rp->port;
                col_push_fixed(b->cols[8], &port);
                col_push_fixed(b->cols[9], &loc);
                push_str(b->cols[10], rp->user);
                push_str(b->cols[11], rp->default_database);
                for (int z = 12; z <= 14; z++)
                    push_u32(b->cols[z], 0);
                push_str(b->cols[15], "");
                push_str(b->cols[16], "");
                col_push_fixed(b->cols[17], &zero8);
                for (int z = 18; z <= 21; z++)
                    col_push_null(b->cols[z]);
                b->rows++;
            }
        }
    }
    cluster_set_put(s);
    block **bs = xcalloc(1, sizeof *bs);
    bs[0] = b;
    *out = source_from_blocks(sch, bs, 1);
    return 0;
}
