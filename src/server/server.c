/* The listener, connection threads, watchdog and life cycle of `shale server`
 * (see server.h). */
#include "server/server.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/datetime.h"
#include "exec/query_log.h"
#include "exec/text_log.h"
#include "format/parquet/meta_cache.h"
#include "server/http_pool.h"
#include "server/cluster_config.h"
#include "server/server_int.h"
#include "storage/catalog.h"
#include "storage/cluster_log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t g_stop_signal;
/* logger.level: trace 0, debug 1, information 2, warning 3, error 4 */
static int g_log_level = 2;
static volatile sig_atomic_t g_reload_signal;

static void on_stop(int sig) { g_stop_signal = sig; }
static void on_hup(int sig)
{
    (void)sig;
    g_reload_signal = 1;
}

static int level_rank(const char *level)
{
    static const char *names[] = {"trace", "debug", "information", "warning", "error"};
    for (int i = 0; i < 5; i++)
        if (strcasecmp(level, names[i]) == 0)
            return i;
    return -1;
}

/* The data directory once it is open: log lines also go to system.text_log there. */
static const char *g_text_log_path;

static void log_vline(const char *level, const char *logger, const char *query_id, const char *fmt, va_list ap)
{
    char ts[32];
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(ts, sizeof ts, "%Y.%m.%d %H:%M:%S", &tm);
    char msg[8192];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "%s <%s> %s%s%s\n", ts, level, logger ? logger : "", logger ? ": " : "", msg);
    if (g_text_log_path && text_log_append(g_text_log_path, level, logger ? logger : "Application", query_id, msg))
        fprintf(stderr, "%s <Error> Cannot write the text log: %s\n", ts, err_msg());
}

void server_log(const char *level, const char *fmt, ...)
{
    if (level_rank(level) < g_log_level)
        return;
    va_list ap;
    va_start(ap, fmt);
    log_vline(level, NULL, NULL, fmt, ap);
    va_end(ap);
}

static void log_query_line(const char *level, const char *query_id, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void log_query_line(const char *level, const char *query_id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vline(level, "executeQuery", query_id, fmt, ap);
    va_end(ap);
}

/* Each finished query (interp's hook): a Debug line with its text, an Error line when it
 * failed, as ClickHouse's executeQuery logs them. The text comes masked (s3 keys). */
static void query_done(void *ctx, session *s, query_ctx *q, const char *text, int code, const char *error)
{
    (void)ctx;
    if (level_rank("debug") >= g_log_level)
        log_query_line("Debug", q->query_id, "(user: %s) %s", s->user, text);
    size_t n = strlen(error);
    if (code && level_rank("error") >= g_log_level)
        log_query_line("Error", q->query_id, "Code: %d. DB::Exception: %s%s (%s) (in query: %s)", code, error,
                       n && error[n - 1] == '.' ? "" : ".", err_name(code), text);
}

static int reload_config(void *ctx)
{
    server *s = ctx;
    return server_reload(s);
}

/* mkdir -p: the server creates its data, log and user-files directories as ClickHouse's
 * does. Errors are left to the first use of the directory. */
static void make_dirs(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

/* ---- auth references ---- */

server_auth *server_auth_get(server *s)
{
    pthread_mutex_lock(&s->auth_mu);
    server_auth *a = s->auth;
    atomic_fetch_add(&a->refs, 1);
    pthread_mutex_unlock(&s->auth_mu);
    return a;
}

void server_auth_put(server_auth *a)
{
    if (atomic_fetch_sub(&a->refs, 1) == 1) {
        users_free(a->users);
        config_free(a->cfg);
        free(a);
    }
}

static int load_config(server *s, config **out)
{
    config *c;
    if (config_load(s->config_path, &c))
        return -1;
    for (int i = 0; i < s->noverrides; i++) {
        const char *eq = strchr(s->overrides[i], '=');
        char *name = xstrndup(s->overrides[i], (size_t)(eq - s->overrides[i]));
        int rc = config_override(c, name, eq + 1);
        free(name);
        if (rc) {
            config_free(c);
            return -1;
        }
    }
    *out = c;
    return 0;
}

static int load_auth(server *s, server_auth **out)
{
    server_auth *a = xcalloc(1, sizeof *a);
    if (load_config(s, &a->cfg) || users_load(a->cfg, &a->users)) {
        config_free(a->cfg);
        free(a);
        return -1;
    }
    atomic_store(&a->refs, 1);
    *out = a;
    return 0;
}

/* The clusters of <remote_servers> and the <macros> (storage/cluster.h). */
static int install_clusters(const config *c)
{
    int64_t tcp_port;
    cluster_set *cs;
    if (cfg_int(c, "tcp_port", c->path ? 0 : 9000, &tcp_port) || cluster_config_load(c, (int)tcp_port, &cs))
        return -1;
    cluster_set_install(cs);
    cluster_log_install(server_log);
    return 0;
}

int server_reload(server *s)
{
    server_auth *a;
    if (load_auth(s, &a))
        return -1;
    if (install_clusters(a->cfg)) {
        server_auth_put(a);
        return -1;
    }
    pthread_mutex_lock(&s->auth_mu);
    server_auth *old = s->auth;
    s->auth = a;
    pthread_mutex_unlock(&s->auth_mu);
    server_auth_put(old);
    server_log("Information", "Reloaded users and profiles (%d users)", a->users->n);
    return 0;
}

/* ---- connections ---- */

typedef struct conn_arg {
    server *srv;
    int fd;
    char peer[64];
    bool native;               /* accepted on tcp_port */
} conn_arg;

int server_start_thread(void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 8u << 20); /* queries run on it */
    pthread_t th;
    int rc = pthread_create(&th, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    if (rc)
        errno = rc;
    return rc ? -1 : 0;
}

void server_connection_done(server *srv)
{
    pthread_mutex_lock(&srv->mu);
    srv->nconns--;
    pthread_cond_broadcast(&srv->cv);
    pthread_mutex_unlock(&srv->mu);
}

/* A native-protocol connection keeps its thread: the protocol is stateful and its
 * clients hold few connections (HTTP ones go to the pool, http_pool.h). */
static void *native_connection_thread(void *p)
{
    conn_arg *ca = p;
    server *srv = ca->srv;
    int fd = ca->fd;
    char peer[64];
    snprintf(peer, sizeof peer, "%s", ca->peer);
    free(ca);
    mem_thread_init();
    native_serve(srv, fd, peer);
    close(fd);
    server_connection_done(srv);
    return NULL;
}

static void start_connection(server *srv, int fd, const struct sockaddr_storage *sa, bool native)
{
    conn_arg *ca = xcalloc(1, sizeof *ca);
    ca->srv = srv;
    ca->fd = fd;
    ca->native = native;
    if (sa->ss_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, ca->peer, sizeof ca->peer);
    else if (sa->ss_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, ca->peer, sizeof ca->peer);
    else
        snprintf(ca->peer, sizeof ca->peer, "unknown");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    pthread_mutex_lock(&srv->mu);
    srv->nconns++;
    pthread_mutex_unlock(&srv->mu);
    if (!native) {
        http_pool_add(srv, fd, ca->peer);
        free(ca);
        return;
    }
    if (server_start_thread(native_connection_thread, ca)) {
        server_log("Error", "Cannot start a connection thread: %s", strerror(errno));
        close(fd);
        free(ca);
        pthread_mutex_lock(&srv->mu);
        srv->nconns--;
        pthread_mutex_unlock(&srv->mu);
    }
}

/* ---- the watchdog: disconnected clients and expired sessions ---- */

static void *watchdog_thread(void *p)
{
    server *srv = p;
    while (!srv->stop) {
        pthread_mutex_lock(&srv->mu);
        for (watched *w = srv->watch; w; w = w->next) {
            struct pollfd pfd = {.fd = w->fd, .events = POLLRDHUP};
            if (poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR)))
                atomic_store(&w->q->cancelled, 1);
        }
        pthread_mutex_unlock(&srv->mu);
        sessions_expire(srv);
        http_pool_expire(srv);
        if (log_files_flush()) /* rows buffered by the queries of the last 100 ms */
            server_log("Error", "%s", err_msg());
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/* ---- listening ---- */

static int listen_on(const char *host, int port, int *fds, int *nfds)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    struct addrinfo *res;
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    int g = getaddrinfo(host, ps, &hints, &res);
    if (g)
        return err_set(ERR_BAD_ARGUMENTS, "Cannot resolve listen_host %s: %s", host, gai_strerror(g));
    int ok = 0;
    for (struct addrinfo *ai = res; ai && *nfds < 16; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0)
            continue;
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (ai->ai_family == AF_INET6)
            setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 1024) != 0) {
            int e = errno;
            close(fd);
            if (e == EADDRINUSE) {
                freeaddrinfo(res);
                return err_set(ERR_NETWORK_ERROR, "Listen [%s]:%d failed: Address already in use", host, port);
            }
            continue;
        }
        fds[(*nfds)++] = fd;
        ok++;
    }
    freeaddrinfo(res);
    if (!ok)
        return err_set(ERR_NETWORK_ERROR, "Cannot listen on %s:%d", host, port);
    return 0;
}

static int64_t total_ram(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (int64_t)pages * size : 0;
}

static void usage(void)
{
    fprintf(stdout, "Usage: shale server [--config-file FILE] [-- --name=value ...]\n"
                    "\n"
                    "Serves ClickHouse's HTTP interface (http_port, 8123 by default) and native protocol\n"
                    "(tcp_port, 9000 by default; with a configuration file, when it names tcp_port).\n"
                    "Without a configuration file it starts with ClickHouse's defaults: user `default` without\n"
                    "a password, listening on localhost, data in the current directory. After `--`, --name=value overrides a\n"
                    "configuration element (a dotted path: --http_port=8124, --logger.level=debug).\n");
}

static void print_error_exit(void)
{
    int code = err_code() ? err_code() : ERR_LOGICAL_ERROR;
    fprintf(stderr, "Code: %d. DB::Exception: %s. (%s)\n", code, err_msg(), err_name(code));
}

int server_main(int argc, char **argv)
{
    mem_init_server(); /* before the first thread */
    server *srv = xcalloc(1, sizeof *srv);
    pthread_mutex_init(&srv->mu, NULL);
    pthread_mutex_init(&srv->auth_mu, NULL);
    pthread_cond_init(&srv->cv, NULL);
    bool after_dashes = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (after_dashes) {
            if (strncmp(a, "--", 2) != 0 || !strchr(a, '=')) {
                fprintf(stderr, "shale server: an override after -- must be --name=value, got '%s'\n", a);
                return 36;
            }
            srv->overrides = xrealloc(srv->overrides, sizeof(char *) * (size_t)(srv->noverrides + 1));
            srv->overrides[srv->noverrides++] = (char *)a + 2;
        } else if (!strcmp(a, "--")) {
            after_dashes = true;
        } else if (!strcmp(a, "--config-file") || !strcmp(a, "-C") || !strcmp(a, "--config")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "shale server: %s needs a file\n", a);
                return 36;
            }
            srv->config_path = argv[++i];
        } else if (!strncmp(a, "--config-file=", 14)) {
            srv->config_path = (char *)a + 14;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage();
            return 0;
        } else {
            fprintf(stderr, "shale server: unknown option '%s' (see shale server --help)\n", a);
            return 36;
        }
    }
    if (load_auth(srv, &srv->auth)) {
        print_error_exit();
        return 1;
    }
    config *c = srv->auth->cfg;
    int64_t http_port, tcp_port, mcq, ka, rt, st, maxconn, swait, mem_limit;
    double ratio;
    /* tcp_port: ClickHouse's 9000 without a configuration file; with one, only when it
     * names the element (as ClickHouse opens only the ports its config.xml lists). */
    if (cfg_int(c, "http_port", 8123, &http_port) || cfg_int(c, "tcp_port", c->path ? 0 : 9000, &tcp_port) ||
        cfg_int(c, "max_concurrent_queries", 0, &mcq) ||
        cfg_int(c, "keep_alive_timeout", 10, &ka) || cfg_int(c, "http_receive_timeout", 30, &rt) ||
        cfg_int(c, "http_send_timeout", 30, &st) || cfg_int(c, "max_connections", 4096, &maxconn) ||
        cfg_int(c, "shutdown_wait_unfinished", 5, &swait) || cfg_int(c, "max_server_memory_usage", 0, &mem_limit) ||
        cfg_float(c, "max_server_memory_usage_to_ram_ratio", 0.9, &ratio)) {
        print_error_exit();
        return 1;
    }
    if (http_port <= 0 || http_port > 65535) {
        fprintf(stderr, "Code: 318. DB::Exception: http_port must be between 1 and 65535. (INVALID_CONFIG_PARAMETER)\n");
        return 1;
    }
    if (tcp_port < 0 || tcp_port > 65535) {
        fprintf(stderr, "Code: 318. DB::Exception: tcp_port must be between 0 (off) and 65535. (INVALID_CONFIG_PARAMETER)\n");
        return 1;
    }
    /* The Parquet metadata cache: in memory only, shared by every query of the server. */
    int64_t pq_bytes, pq_entries;
    if (cfg_int(c, "parquet_metadata_cache_size", (int64_t)PQMC_DEFAULT_MAX_BYTES, &pq_bytes) ||
        cfg_int(c, "parquet_metadata_cache_max_entries", (int64_t)PQMC_DEFAULT_MAX_ENTRIES, &pq_entries)) {
        print_error_exit();
        return 1;
    }
    pqmc_configure(&(pqmc_config){.max_bytes = pq_bytes > 0 ? (uint64_t)pq_bytes : 0,
                                  .max_entries = pq_entries > 0 ? (uint64_t)pq_entries : 0});
    if (install_clusters(c)) {
        print_error_exit();
        return 1;
    }
    srv->max_concurrent_queries = mcq;
    srv->keep_alive_timeout_s = (int)(ka > 0 ? ka : 10);
    srv->receive_timeout_s = (int)(rt > 0 ? rt : 30);
    srv->send_timeout_s = (int)(st > 0 ? st : 30);
    srv->max_connections = maxconn;
    srv->shutdown_wait_s = (int)swait;
    int64_t ram = total_ram();
    int64_t by_ratio = ratio > 0 && ram ? (int64_t)((double)ram * ratio) : 0;
    mem_global.limit = mem_limit > 0 && (by_ratio == 0 || mem_limit < by_ratio) ? mem_limit : by_ratio;
    char host[256];
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "localhost");
    snprintf(srv->display_name, sizeof srv->display_name, "%s", cfg_str(c, "display_name", host));
    const char *tz = cfg_str(c, "timezone", "");
    if (tz[0])
        setenv("TZ", tz, 1);
    const char *level = cfg_str(c, "logger.level", "information");
    if ((g_log_level = level_rank(level)) < 0) {
        fprintf(stderr, "Code: 318. DB::Exception: logger.level must be one of trace, debug, information, warning, "
                        "error; got '%s'. (INVALID_CONFIG_PARAMETER)\n",
                level);
        return 1;
    }
    const char *log_file = cfg_str(c, "logger.log", "");
    if (log_file[0]) {
        /* The server's log (and the sanitizers' reports) go to the file from now on. */
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", log_file);
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir) {
            *slash = 0;
            make_dirs(dir);
        }
        int fd = open(log_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
        if (fd < 0) {
            fprintf(stderr, "Code: 76. DB::Exception: Cannot open log file %s: %s. (CANNOT_OPEN_FILE)\n", log_file,
                    strerror(errno));
            return 1;
        }
        dup2(fd, 2);
        close(fd);
    }
    const char *path = cfg_str(c, "path", "./");
    make_dirs(path);
    if (instance_open(path, &srv->inst)) {
        print_error_exit();
        return 1;
    }
    /* file() reads and writes only under user_files_path, as in ClickHouse's server. */
    char ufp[4096];
    snprintf(ufp, sizeof ufp, "%s", cfg_str(c, "user_files_path", ""));
    if (!ufp[0])
        snprintf(ufp, sizeof ufp, "%s/user_files/", path);
    make_dirs(ufp);
    srv->inst->user_files_path = xstrdup(ufp);
    /* Spill files (external GROUP BY and ORDER BY) go under <tmp_path>, as in ClickHouse. */
    const char *tmp = cfg_str(c, "tmp_path", "");
    if (tmp[0])
        srv->inst->tmp_path = xstrdup(tmp);
    /* BACKUP … TO File(): under <backups><allowed_path> (each may repeat). */
    const cfg_node *bk = cfg_find(c, c->root, "backups");
    for (int i = 0; bk && i < bk->nchildren; i++) {
        if (strcmp(bk->children[i]->name, "allowed_path") || !bk->children[i]->text || !bk->children[i]->text[0])
            continue;
        srv->inst->backup_paths = xrealloc(srv->inst->backup_paths,
                                           (size_t)(srv->inst->nbackup_paths + 1) * sizeof *srv->inst->backup_paths);
        srv->inst->backup_paths[srv->inst->nbackup_paths++] = xstrdup(bk->children[i]->text);
    }
    srv->inst->reload_config = reload_config;
    srv->inst->query_done = query_done;
    srv->inst->hooks_ctx = srv;
    g_text_log_path = srv->inst->data_path;
    int fds[16], nfds = 0;
    bool native[16] = {0};
    const cfg_node *root = c->root;
    bool any_host = false;
    for (int port_i = 0; port_i < 2; port_i++) {
        int port = (int)(port_i == 0 ? http_port : tcp_port);
        int first = nfds;
        if (port == 0)
            continue;
        for (int i = 0; i < root->nchildren; i++) {
            if (strcmp(root->children[i]->name, "listen_host") != 0)
                continue;
            any_host = true;
            if (listen_on(root->children[i]->text, port, fds, &nfds)) {
                print_error_exit();
                return 1;
            }
        }
        if (!any_host) {
            /* ClickHouse's default: localhost over IPv4 and IPv6 (either may be missing). */
            int rc4 = listen_on("127.0.0.1", port, fds, &nfds);
            if (rc4) {
                print_error_exit();
                return 1;
            }
            listen_on("::1", port, fds, &nfds);
            err_clear();
        }
        for (int i = first; i < nfds; i++)
            native[i] = port_i == 1;
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_stop;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = on_hup;
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    server_log("Information", "Listening for http://%s:%lld, path %s, %d users", any_host ? "listen_host" : "localhost",
             (long long)http_port, path, srv->auth->users->n);
    if (tcp_port)
        server_log("Information", "Listening for connections with native protocol (tcp): %s:%lld",
                 any_host ? "listen_host" : "localhost", (long long)tcp_port);
    if (http_pool_start(srv)) {
        print_error_exit();
        return 1;
    }
    server_log("Information", "Ready for connections.");
    pthread_t wd;
    pthread_create(&wd, NULL, watchdog_thread, srv);
    while (!g_stop_signal) {
        if (g_reload_signal) {
            g_reload_signal = 0;
            if (server_reload(srv))
                server_log("Error", "Cannot reload the configuration: %s", err_msg());
        }
        struct pollfd pfds[16];
        for (int i = 0; i < nfds; i++)
            pfds[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
        int n = poll(pfds, (nfds_t)nfds, 200);
        if (n <= 0)
            continue;
        for (int i = 0; i < nfds; i++) {
            if (!(pfds[i].revents & POLLIN))
                continue;
            struct sockaddr_storage ss;
            socklen_t sl = sizeof ss;
            int fd = accept4(fds[i], (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);
            if (fd < 0)
                continue;
            pthread_mutex_lock(&srv->mu);
            bool full = srv->nconns >= srv->max_connections;
            pthread_mutex_unlock(&srv->mu);
            if (full) {
                close(fd);
                continue;
            }
            start_connection(srv, fd, &ss, native[i]);
        }
    }
    server_log("Information", "Received termination signal; stopping (waiting up to %d s for running queries)",
             srv->shutdown_wait_s);
    for (int i = 0; i < nfds; i++)
        close(fds[i]);
    srv->stop = 1;
    /* Parked keep-alive connections are shut down (again every 200 ms, for those parked
     * meanwhile); running queries get the grace period, then are cancelled. */
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += srv->shutdown_wait_s;
    pthread_mutex_lock(&srv->mu);
    while (srv->nconns > 0) {
        pthread_mutex_unlock(&srv->mu);
        http_pool_expire(srv);
        pthread_mutex_lock(&srv->mu);
        struct timespec now, slice;
        clock_gettime(CLOCK_REALTIME, &now);
        slice = now;
        slice.tv_nsec += 200 * 1000 * 1000;
        if (slice.tv_nsec >= 1000000000) {
            slice.tv_sec++;
            slice.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&srv->cv, &srv->mu, &slice);
        clock_gettime(CLOCK_REALTIME, &now);
        if (srv->nconns > 0 && (now.tv_sec > deadline.tv_sec ||
                                (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec))) {
            for (watched *w = srv->watch; w; w = w->next)
                atomic_store(&w->q->cancelled, 1);
            deadline = now;
            deadline.tv_sec += 30;
        }
    }
    pthread_mutex_unlock(&srv->mu);
    http_pool_stop(srv);
    pthread_join(wd, NULL);
    sessions_free_all(srv);
    server_log("Information", "Stopped");
    g_text_log_path = NULL; /* it belongs to the instance */
    instance_close(srv->inst);
    server_auth_put(srv->auth);
    free(srv->overrides);
    free(srv);
    return 0;
}
