/* `shale client` (see client.h). */
#include "cli/client.h"

#include "base/arena.h"
#include "base/err.h"
#include "base/mem.h"
#include "cli/local.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/repl.h"
#include "format/format.h"
#include "parse/ast.h"
#include "storage/native_client.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum { MAX_OPTS = 256 };

typedef struct client {
    nclient *c;
    nclient_opts o;
    const char *format;         /* --format */
    native_kv settings[MAX_OPTS];
    int nsettings;
    native_kv params[MAX_OPTS];
    int nparams;
    bool interactive, print_time, progress, stdout_tty;
    bool stdin_used;            /* an INSERT already read stdin */
} client;

static _Atomic(nclient *) g_running; /* the connection of the running query, for Ctrl-C */

static void on_sigint(int sig)
{
    (void)sig;
    nclient *c = atomic_load(&g_running);
    if (c) {
        nclient_cancel(c);
        return;
    }
    _exit(130);
}

static int exit_code(int code) { return code == 0 ? 0 : (code % 256 ? code % 256 : 1); }

/* An Exception from the server, as clickhouse-client prints it. */
static int print_server_error(client *cl, int code, const char *message)
{
    const native_server_hello *h = nclient_server(cl->c);
    fprintf(stderr, "Received exception from server (version %llu.%llu.%llu):\n", (unsigned long long)h->major,
            (unsigned long long)h->minor, (unsigned long long)h->patch);
    const char *m = message;
    if (strncmp(m, "DB::Exception: ", 15) == 0)
        m += 15;
    print_error(code, m);
    return code ? code : ERR_LOGICAL_ERROR;
}

static int print_local_error(void)
{
    int code = err_code() ? err_code() : ERR_LOGICAL_ERROR;
    print_error(code, err_msg());
    return code;
}

/* Where a statement's result goes and what it reads. */
typedef struct stmt_info {
    char *format;               /* output format (FORMAT x of a SELECT) or the INSERT's input format */
    bool insert_from_stdin;     /* INSERT … FORMAT x with no inline data */
    char *format_setting;       /* a format setting in SETTINGS, which the client does not apply */
} stmt_info;

/* Settings that steer the formats: the client formats with the defaults, so such a
 * setting would be ignored without a word; it is refused instead. */
static bool is_format_setting(const char *name)
{
    return strncmp(name, "output_format_", 14) == 0 || strncmp(name, "input_format_", 13) == 0 ||
           strncmp(name, "format_", 7) == 0;
}

static void inspect(const char *sql, size_t len, stmt_info *si)
{
    memset(si, 0, sizeof *si);
    arena a;
    arena_init(&a);
    size_t pos = 0;
    ast *st = NULL;
    /* A statement shale's parser does not know may still be the server's business. */
    if (sql_parse_statement(&a, sql, len, &pos, 1000, &st) == 0 && st) {
        if (st->kind == AST_STMT_INSERT && st->format && !st->sub) {
            size_t n = st->insert_data_len;
            const char *d = st->insert_data;
            while (n && d && (d[n - 1] == ' ' || d[n - 1] == '\n' || d[n - 1] == '\t' || d[n - 1] == ';'))
                n--;
            if (!d || n == 0) {
                si->insert_from_stdin = true;
                si->format = xstrdup(st->format);
            }
        } else if (st->format) {
            si->format = xstrdup(st->format);
        }
        const ast_list *sets = &st->settings;
        if (st->sub && !sets->n)
            sets = &st->sub->settings;
        for (int i = 0; i < sets->n; i++)
            if (sets->items[i]->name && is_format_setting(sets->items[i]->name) && !si->format_setting)
                si->format_setting = xstrdup(sets->items[i]->name);
    }
    err_clear();
    arena_free(&a);
}

typedef struct run_state {
    client *cl;
    query_ctx *pq;              /* progress counters for the bar and the summary */
    fmt_writer *w;
    outstream *out;
    schema *header;
    uint64_t rows;
    bool has_result;
    int code;
} run_state;

static void fmt_for(client *cl, fmt_settings *fs)
{
    fmt_settings_default(fs);
    const char *tz = nclient_server(cl->c)->timezone;
    if (tz && tz[0])
        fs->timezone = tz;
}

/* Reads stdin in the INSERT's format with the table's header and sends it in blocks. */
static int send_stdin(run_state *rs, const char *format, const schema *header)
{
    client *cl = rs->cl;
    const char *canon = fmt_input_canonical(format);
    if (!canon)
        return err_set(ERR_UNKNOWN_FORMAT, "Unknown input format %s", format);
    if (cl->stdin_used || (cl->interactive && isatty(0)))
        return err_set(ERR_BAD_ARGUMENTS, "No data for INSERT … FORMAT %s: stdin is a terminal or was read already",
                       format);
    cl->stdin_used = true;
    fmt_settings fs;
    fmt_for(cl, &fs);
    /* The reader owns the buffer from here on, failing or not. */
    rbuf *in = rbuf_new(instream_from_fd(0, "stdin"), 1 << 20);
    fmt_reader *r;
    int rc = fmt_reader_new(canon, in, header, &fs, &r);
    if (rc)
        return -1;
    for (;;) {
        block *b;
        if ((rc = fmt_reader_next(r, &b)) || !b)
            break;
        rc = nclient_send_data(cl->c, header, b);
        block_free(b);
        if (rc)
            break;
    }
    fmt_reader_free(r);
    return rc;
}

static void print_summary(run_state *rs, double elapsed)
{
    if (!rs->has_result)
        fprintf(stderr, "Ok.\n");
    fprintf(stderr, "%llu row%s in set. Elapsed: %.3f sec.", (unsigned long long)rs->rows, rs->rows == 1 ? "" : "s",
            elapsed);
    uint64_t rows = atomic_load(&rs->pq->read_rows), bytes = atomic_load(&rs->pq->read_bytes);
    if (rows || bytes) {
        char r[64], b[64], rr[64], br[64];
        readable_quantity((double)rows, r, sizeof r);
        readable_size_decimal((double)bytes, b, sizeof b);
        double secs = elapsed > 0 ? elapsed : 1e-9;
        readable_quantity((double)rows / secs, rr, sizeof rr);
        readable_size_decimal((double)bytes / secs, br, sizeof br);
        fprintf(stderr, " Processed %s rows, %s (%s rows/s., %s/s.)", r, b, rr, br);
    }
    fprintf(stderr, "\n\n");
}

/* One statement: 0, or the code of its error (already printed). */
static int run_statement(client *cl, const char *sql, size_t len)
{
    stmt_info si;
    inspect(sql, len, &si);
    if (si.format_setting) {
        err_set(ERR_NOT_IMPLEMENTED, "shale client formats results with the default format settings; %s is not "
                                     "implemented in the client (use shale local or the HTTP interface)",
                si.format_setting);
        free(si.format_setting);
        free(si.format);
        return print_local_error();
    }
    char *text = xstrndup(sql, len);
    run_state rs = {.cl = cl, .pq = xcalloc(1, sizeof(query_ctx))};
    rs.pq->start_time = clock_monotonic();
    const char *out_format = si.format ? si.format : cl->format ? cl->format : cl->stdout_tty ? "PrettyCompact"
                                                                                              : "TabSeparated";
    /* FORMAT Native out: the blocks go to stdout as they come, decoded only where the
     * layouts differ (native_block_pass); Native writes no totals or extremes. */
    const char *canon_out = fmt_output_canonical(out_format);
    bool pass = !si.insert_from_stdin && canon_out && !strcmp(canon_out, "Native");
    if (pass)
        rs.out = outstream_from_fd(1, "stdout");
    nclient_pass_native(cl->c, rs.out);
    int rc = nclient_query(cl->c, NULL, NULL, text, cl->settings, cl->nsettings, cl->params, cl->nparams,
                           NATIVE_STAGE_COMPLETE, NULL);
    progress *bar = NULL;
    if (!rc && cl->progress)
        bar = progress_start(rs.pq);
    atomic_store(&g_running, cl->c);
    bool done = false, sent_input = false;
    while (!rc && !done) {
        nclient_packet p;
        if ((rc = nclient_receive(cl->c, &p)))
            break;
        switch (p.type) {
        case NS_EXCEPTION:
            progress_stop(bar);
            bar = NULL;
            rs.code = print_server_error(cl, p.code, p.message);
            done = true;
            break;
        case NS_END_OF_STREAM: done = true; break;
        case NS_PROGRESS:
            atomic_fetch_add(&rs.pq->read_rows, p.progress.read_rows);
            atomic_fetch_add(&rs.pq->read_bytes, p.progress.read_bytes);
            atomic_fetch_add(&rs.pq->total_rows_to_read, p.progress.total_rows);
            break;
        case NS_DATA:
        case NS_TOTALS:
        case NS_EXTREMES:
            if (pass) {
                if (p.type == NS_DATA) {
                    rs.has_result = true;
                    rs.rows += p.rows;
                }
                break;
            }
            if (si.insert_from_stdin && !sent_input) {
                /* The server asks for the INSERT's data with the table's header. */
                sent_input = true;
                rc = send_stdin(&rs, si.format, p.header);
                if (rc) {
                    /* Tell the server the data ended; its answer follows. */
                    int code = err_code();
                    char *msg = xstrdup(err_msg());
                    nclient_cancel(cl->c);
                    err_set(code, "%s", msg);
                    free(msg);
                    rs.code = print_local_error();
                    rc = 0;
                    /* The connection's state after a cancelled INSERT is the server's
                     * answer: read on to its end. */
                } else {
                    rc = nclient_send_data(cl->c, NULL, NULL);
                }
                break;
            }
            if (!rs.w && p.header) {
                fmt_settings fs;
                fmt_for(cl, &fs);
                if (!canon_out) {
                    rc = err_set(ERR_UNKNOWN_FORMAT, "Unknown output format %s", out_format);
                    break;
                }
                rs.out = outstream_from_fd(1, "stdout");
                rs.header = schema_clone(p.header);
                if ((rc = fmt_writer_new(canon_out, rs.header, &fs, rs.out, &rs.w)))
                    break;
                rs.has_result = true;
            }
            if (rs.w && p.b && p.b->rows) {
                if (p.type == NS_TOTALS) {
                    rc = fmt_writer_totals(rs.w, p.b);
                    p.b = NULL;
                } else if (p.type == NS_EXTREMES) {
                    rc = fmt_writer_extremes(rs.w, p.b);
                    p.b = NULL;
                } else {
                    rs.rows += p.b->rows;
                    rc = fmt_writer_write(rs.w, p.b);
                }
            }
            break;
        default: break; /* ProfileInfo, Log, ProfileEvents, TableColumns */
        }
        nclient_packet_clear(&p);
    }
    atomic_store(&g_running, NULL);
    if (cl->c)
        nclient_pass_native(cl->c, NULL);
    progress_stop(bar);
    double elapsed = clock_monotonic() - rs.pq->start_time;
    if (rs.w) {
        fmt_stats stats = {.elapsed = elapsed,
                           .rows_read = atomic_load(&rs.pq->read_rows),
                           .bytes_read = atomic_load(&rs.pq->read_bytes)};
        if (!rc && !rs.code)
            rc = fmt_writer_finish(rs.w, &stats);
        fmt_writer_free(rs.w);
    }
    if (rs.out)
        rs.out->close(rs.out);
    schema_free(rs.header);
    int code = rs.code;
    if (rc)
        code = print_local_error();
    if (!code && cl->interactive)
        print_summary(&rs, elapsed);
    else if (!code && cl->print_time)
        fprintf(stderr, "%.3f\n", elapsed);
    free(rs.pq);
    free(si.format);
    free(text);
    if (rc) {
        /* The connection is out of step: the next statement needs a new one. */
        nclient_close(cl->c);
        cl->c = NULL;
        if (nclient_connect(&cl->o, &cl->c)) {
            print_local_error();
            cl->c = NULL;
        }
    }
    return code;
}

/* Every statement of a script; stops at the first error unless interactive. */
static int run_script(void *ctx, const char *sql, size_t len)
{
    client *cl = ctx;
    size_t pos = 0;
    int status = 0;
    while (pos < len) {
        size_t end = sql_statement_end(sql, len, pos);
        size_t a = pos, b = end;
        while (a < b && strchr(" \t\r\n;", sql[a]))
            a++;
        while (b > a && strchr(" \t\r\n;", sql[b - 1]))
            b--;
        pos = end > pos ? end : len;
        if (a == b)
            continue;
        if (!cl->c)
            return ERR_NETWORK_ERROR;
        status = run_statement(cl, sql + a, b - a);
        if (status && !cl->interactive)
            break;
    }
    return status;
}

static char *read_all(FILE *f, size_t *len)
{
    buf b = {0};
    char chunk[65536];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&b, chunk, k);
    *len = b.len;
    char *s = xstrndup(b.len ? (const char *)b.p : "", b.len);
    buf_free(&b);
    return s;
}

static const cli_short client_shorts[] = {{'h', "host"},  {'u', "user"},       {'d', "database"}, {'q', "query"},
                                          {'f', "format"}, {'n', "multiquery"}, {'t', "time"},     {0, NULL}};

/* Names as they are after cli_next_option: the '-' → '_' spelling happens later. */
static bool client_is_flag(const char *name)
{
    static const char *const flags[] = {"multiquery", "time", "progress", "help", "compression", "multiline"};
    for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
        if (strcmp(name, flags[k]) == 0)
            return true;
    return false;
}

static void usage(void)
{
    printf("Usage: shale client [options] [--query 'SQL']\n"
           "\n"
           "Connects to a shale or ClickHouse server over the native protocol, like clickhouse-client.\n"
           "Without --query or --queries-file, statements come from stdin, or an interactive prompt\n"
           "starts when stdin is a terminal.\n"
           "\n"
           "Options:\n"
           "  -h, --host HOST            server host (default localhost)\n"
           "      --port PORT            native port (default 9000)\n"
           "  -u, --user USER            user (default 'default')\n"
           "      --password PASSWORD    password (default empty)\n"
           "  -d, --database DB          current database\n"
           "  -q, --query SQL            statements to run (several separated by ';')\n"
           "      --queries-file FILE    read statements from FILE (may repeat)\n"
           "  -f, --format FMT           output format (PrettyCompact on a terminal, else TabSeparated)\n"
           "  -n, --multiquery           accepted for compatibility (always on)\n"
           "  -t, --time                 print the execution time to stderr\n"
           "      --progress             show progress on the terminal\n"
           "      --compression          compress data blocks (network_compression_method: LZ4 or ZSTD)\n"
           "      --connect_timeout_with_failover_ms MS\n"
           "      --param_NAME=VALUE     value of query parameter {NAME:Type}\n"
           "      --SETTING=VALUE        any setting, sent with every query\n"
           "      --help                 this text\n");
}

int client_main(int argc, char **argv)
{
    client cl = {0};
    cl.o.host = "localhost";
    cl.o.port = 9000;
    cl.o.client_name = "shale client";
    const char *queries[64], *files[64];
    int nqueries = 0, nfiles = 0;
    bool compression = false;
    const char *method = "lz4";
    char *owned[MAX_OPTS * 2];
    int nowned = 0;
    int status = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val;
        char name[CLI_NAME_MAX];
        if (cli_next_option(argc, argv, &i, client_shorts, client_is_flag, name, &val))
            return ERR_BAD_ARGUMENTS;
        for (char *p = name; *p; p++)
            if (*p == '-' && strncmp(name, "param_", 6) != 0 && strcmp(name, "queries-file") != 0)
                *p = '_';
        if (client_is_flag(name) && val && strcmp(name, "compression") != 0)
            return cli_fail_usage("Option takes no value: ", a);
        if (!strcmp(name, "host"))
            cl.o.host = val;
        else if (!strcmp(name, "port")) {
            char *end;
            long p = strtol(val, &end, 10);
            if (*end || p <= 0 || p > 65535)
                return cli_fail_usage("Bad port: ", val);
            cl.o.port = (int)p;
        } else if (!strcmp(name, "user"))
            cl.o.user = val;
        else if (!strcmp(name, "password"))
            cl.o.password = val;
        else if (!strcmp(name, "database"))
            cl.o.database = val;
        else if (!strcmp(name, "query")) {
            if (nqueries < 64)
                queries[nqueries++] = val;
        } else if (!strcmp(name, "queries-file")) {
            if (nfiles < 64)
                files[nfiles++] = val;
        } else if (!strcmp(name, "format"))
            cl.format = val;
        else if (!strcmp(name, "time"))
            cl.print_time = true;
        else if (!strcmp(name, "progress"))
            cl.progress = true;
        else if (!strcmp(name, "compression"))
            compression = !val || strcmp(val, "0") != 0;
        else if (!strcmp(name, "multiquery") || !strcmp(name, "multiline"))
            ;
        else if (!strcmp(name, "help")) {
            usage();
            return 0;
        } else if (!strcmp(name, "connect_timeout_with_failover_ms"))
            cl.o.connect_timeout_ms = atoi(val);
        else if (!strncmp(name, "param_", 6)) {
            if (cl.nparams < MAX_OPTS) {
                buf q = {0};
                ast_format_quoted(&q, val, strlen(val));
                owned[nowned++] = cl.params[cl.nparams].name = xstrdup(name + 6);
                owned[nowned++] = cl.params[cl.nparams].value = xstrdup(buf_cstr(&q));
                cl.nparams++;
                buf_free(&q);
            }
        } else if (is_format_setting(name)) {
            return cli_fail_usage("shale client formats results with the default format settings; not implemented: --",
                              name);
        } else if (cl.nsettings < MAX_OPTS) {
            if (!strcmp(name, "network_compression_method"))
                method = val;
            owned[nowned++] = cl.settings[cl.nsettings].name = xstrdup(name);
            cl.settings[cl.nsettings].value = (char *)val;
            /* Important: a server that does not know the setting fails the query, as
             * clickhouse-client refuses an unknown option. */
            cl.settings[cl.nsettings].flags = 1;
            cl.nsettings++;
        }
    }
    if (compression)
        cl.o.compression = method;
    cl.stdout_tty = isatty(1);
    if (nclient_connect(&cl.o, &cl.c)) {
        int code = print_local_error();
        status = code;
        goto out;
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    for (int i = 0; i < nqueries && !status; i++)
        status = run_script(&cl, queries[i], strlen(queries[i]));
    for (int i = 0; i < nfiles && !status; i++) {
        FILE *f = fopen(files[i], "rb");
        if (!f) {
            fprintf(stderr, "Code: 76. DB::Exception: Cannot open file %s. (CANNOT_OPEN_FILE)\n", files[i]);
            status = ERR_CANNOT_OPEN_FILE;
            break;
        }
        size_t len;
        char *text = read_all(f, &len);
        fclose(f);
        status = run_script(&cl, text, len);
        free(text);
    }
    if (nqueries == 0 && nfiles == 0) {
        if (isatty(0)) {
            cl.interactive = true;
            const native_server_hello *h = nclient_server(cl.c);
            char banner[512];
            snprintf(banner, sizeof banner,
                     "shale client.\nConnected to %s server version %llu.%llu.%llu.\n\n", h->name,
                     (unsigned long long)h->major, (unsigned long long)h->minor, (unsigned long long)h->patch);
            char prompt[300];
            snprintf(prompt, sizeof prompt, "%s :) ", h->display_name && h->display_name[0] ? h->display_name : cl.o.host);
            status = repl_run_with(banner, prompt, run_script, &cl);
        } else {
            size_t len;
            char *text = read_all(stdin, &len);
            status = run_script(&cl, text, len);
            free(text);
        }
    }
out:
    nclient_close(cl.c);
    for (int i = 0; i < nowned; i++)
        free(owned[i]);
    return exit_code(status);
}
