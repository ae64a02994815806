/* <remote_servers> and <macros> (see cluster_config.h). */
#include "server/cluster_config.h"

#include "base/err.h"
#include "base/mem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const cfg_node *child(const cfg_node *n, const char *name)
{
    for (int i = 0; i < n->nchildren; i++)
        if (strcmp(n->children[i]->name, name) == 0)
            return n->children[i];
    return NULL;
}

static const char *text_of(const cfg_node *n, const char *name, const char *def)
{
    const cfg_node *c = child(n, name);
    return c ? c->text : def;
}

static int int_of(const cfg_node *n, const char *name, long def, long min, long max, const char *where, long *out)
{
    const cfg_node *c = child(n, name);
    if (!c || !c->text[0]) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    long v = strtol(c->text, &end, 10);
    if (errno || *end || v < min || v > max)
        return err_set(ERR_INVALID_CONFIG_PARAMETER, "%s.%s must be an integer from %ld to %ld, got '%s'", where, name,
                       min, max, c->text);
    *out = v;
    return 0;
}

/* Poco's getBool: true/false, yes/no, on/off, 1/0. */
static int bool_of(const cfg_node *n, const char *name, const char *where, bool *out)
{
    const char *t = text_of(n, name, "");
    if (!t[0] || !strcasecmp(t, "false") || !strcasecmp(t, "no") || !strcasecmp(t, "off") || !strcmp(t, "0")) {
        *out = false;
        return 0;
    }
    if (!strcasecmp(t, "true") || !strcasecmp(t, "yes") || !strcasecmp(t, "on") || !strcmp(t, "1")) {
        *out = true;
        return 0;
    }
    return err_set(ERR_INVALID_CONFIG_PARAMETER, "%s.%s must be true or false, got '%s'", where, name, t);
}

static int read_replica(const cfg_node *n, const char *where, cluster_replica *r)
{
    static const char *const known[] = {"host", "port", "user", "password", "secure", "default_database",
                                        "priority", "compression", "bind_host"};
    for (int i = 0; i < n->nchildren; i++) {
        bool ok = false;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            ok |= strcmp(n->children[i]->name, known[k]) == 0;
        if (!ok)
            return err_set(ERR_UNKNOWN_ELEMENT_IN_CONFIG, "Unknown element in config: %s.%s", where,
                           n->children[i]->name);
    }
    const char *host = text_of(n, "host", "");
    if (!host[0])
        return err_set(ERR_NO_ELEMENTS_IN_CONFIG, "%s has no <host>", where);
    if (child(n, "bind_host"))
        return err_set(ERR_NOT_IMPLEMENTED, "%s.bind_host is not implemented", where);
    long port;
    if (int_of(n, "port", 9000, 1, 65535, where, &port) || bool_of(n, "secure", where, &r->secure))
        return -1;
    r->host = xstrdup(host);
    r->port = (int)port;
    const char *user = text_of(n, "user", "");
    r->user = xstrdup(user[0] ? user : "default");
    r->password = xstrdup(text_of(n, "password", ""));
    r->default_database = xstrdup(text_of(n, "default_database", ""));
    return 0;
}

static void add_replica(cluster_shard *sh, const cluster_replica *r)
{
    sh->replicas = xrealloc(sh->replicas, sizeof *sh->replicas * (size_t)(sh->nreplicas + 1));
    sh->replicas[sh->nreplicas++] = *r;
}

static int read_cluster(const cfg_node *n, cluster_def *c)
{
    char where[512];
    for (int i = 0; i < n->nchildren; i++) {
        const cfg_node *e = n->children[i];
        cluster_shard sh = {.weight = 1};
        if (strcmp(e->name, "secret") == 0) {
            free(c->secret);
            c->secret = xstrdup(e->text);
            continue;
        }
        if (strcmp(e->name, "allow_distributed_ddl_queries") == 0)
            continue;
        if (strncmp(e->name, "node", 4) == 0) {
            snprintf(where, sizeof where, "remote_servers.%s.%s", c->name, e->name);
            cluster_replica r = {0};
            if (read_replica(e, where, &r))
                return -1;
            long w;
            if (int_of(e, "weight", 1, 0, 1000000, where, &w))
                return -1;
            sh.weight = (int)w;
            add_replica(&sh, &r);
        } else if (strncmp(e->name, "shard", 5) == 0) {
            snprintf(where, sizeof where, "remote_servers.%s.%s", c->name, e->name);
            long w;
            if (int_of(e, "weight", 1, 0, 1000000, where, &w) ||
                bool_of(e, "internal_replication", where, &sh.internal_replication))
                return -1;
            sh.weight = (int)w;
            for (int k = 0; k < e->nchildren; k++) {
                const cfg_node *rn = e->children[k];
                if (!strcmp(rn->name, "weight") || !strcmp(rn->name, "internal_replication"))
                    continue;
                char rwhere[600];
                snprintf(rwhere, sizeof rwhere, "%s.%s", where, rn->name);
                if (strncmp(rn->name, "replica", 7) != 0) {
                    free(sh.replicas);
                    return err_set(ERR_UNKNOWN_ELEMENT_IN_CONFIG, "Unknown element in config: %s", rwhere);
                }
                cluster_replica r = {0};
                if (read_replica(rn, rwhere, &r)) {
                    for (int z = 0; z < sh.nreplicas; z++) {
                        free(sh.replicas[z].host);
                        free(sh.replicas[z].user);
                        free(sh.replicas[z].password);
                        free(sh.replicas[z].default_database);
                    }
                    free(sh.replicas);
                    free(r.host);
                    return -1;
                }
                add_replica(&sh, &r);
            }
            if (sh.nreplicas == 0) {
                free(sh.replicas);
                return err_set(ERR_NO_ELEMENTS_IN_CONFIG, "%s has no <replica>", where);
            }
        } else {
            return err_set(ERR_UNKNOWN_ELEMENT_IN_CONFIG, "Unknown element in config: remote_servers.%s.%s", c->name,
                           e->name);
        }
        c->shards = xrealloc(c->shards, sizeof *c->shards * (size_t)(c->nshards + 1));
        c->shards[c->nshards++] = sh;
    }
    return 0;
}

int cluster_config_load(const config *cfg, int tcp_port, cluster_set **out)
{
    *out = NULL;
    cluster_set *s = cluster_set_new(tcp_port);
    const cfg_node *rs = cfg_find(cfg, NULL, "remote_servers");
    for (int i = 0; rs && i < rs->nchildren; i++) {
        s->clusters = xrealloc(s->clusters, sizeof *s->clusters * (size_t)(s->n + 1));
        cluster_def *c = &s->clusters[s->n++];
        memset(c, 0, sizeof *c);
        c->name = xstrdup(rs->children[i]->name);
        if (read_cluster(rs->children[i], c)) {
            cluster_set_put(s);
            return -1;
        }
    }
    const cfg_node *m = cfg_find(cfg, NULL, "macros");
    for (int i = 0; m && i < m->nchildren; i++) {
        s->macro_names = xrealloc(s->macro_names, sizeof(char *) * (size_t)(s->nmacros + 1));
        s->macro_values = xrealloc(s->macro_values, sizeof(char *) * (size_t)(s->nmacros + 1));
        s->macro_names[s->nmacros] = xstrdup(m->children[i]->name);
        s->macro_values[s->nmacros++] = xstrdup(m->children[i]->text);
    }
    *out = s;
    return 0;
}
