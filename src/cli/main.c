/* The shale binary. `shale local` runs SQL over local files like clickhouse-local:
 * queries from --query, --queries-file or stdin, or an interactive REPL on a terminal. */
#include "base/err.h"
#include "base/mem.h"
#include "cli/backup_main.h"
#include "cli/client.h"
#include "cli/local.h"
#include "cli/options.h"
#include "cli/repl.h"
#include "func/agg.h"
#include "format/parquet/meta_cache.h"
#include "func/func.h"
#include "io/s3.h"
#include "server/server.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/version.h"

static local_shell *g_shell;

static void on_sigint(int sig)
{
    (void)sig;
    if (g_shell && g_shell->sess) {
        query_ctx *q = atomic_load(&g_shell->sess->current);
        if (q) {
            atomic_store(&q->cancelled, 1);
            return;
        }
    }
    _exit(130);
}

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: shale local [options] [--query 'SQL']\n"
            "\n"
            "Runs ClickHouse SQL over local files (and, in later versions, object storage),\n"
            "like clickhouse-local. Without --query or --queries-file, statements are read from\n"
            "stdin, or an interactive prompt starts when stdin is a terminal.\n"
            "\n"
            "Options:\n"
            "  -q, --query SQL            statements to run (several separated by ';')\n"
            "      --queries-file FILE    read statements from FILE (may repeat)\n"
            "  -f, --format, --output-format FMT\n"
            "                             default output format (PrettyCompact on a terminal, else TSV)\n"
            "      --input-format FMT     format of data on stdin, read by `table` / input()\n"
            "  -S, --structure STRUCT     structure of data on stdin ('a UInt32, b String')\n"
            "  -t, --time                 print the summary (rows, elapsed, processed, peak memory) after each query\n"
            "      --progress             show progress on the terminal for long queries\n"
            "      --path DIR             data directory (default: a temporary one, removed on exit)\n"
            "      --param_NAME=VALUE     value of query parameter {NAME:Type}\n"
            "      --SETTING=VALUE        any setting, e.g. --max_threads=2\n"
            "      --parquet_metadata_cache_size BYTES, --parquet_metadata_cache_max_entries N\n"
            "                             bounds of the in-memory Parquet metadata cache (512 MiB, 5000)\n"
            "      --parquet_metadata_cache_disk_size BYTES\n"
            "                             bound of its copy on disk (256 MiB; 0: none)\n"
            "      --parquet_metadata_cache_path DIR\n"
            "                             where that copy lives (default: DIR/cache/parquet_metadata under\n"
            "                             --path, else $XDG_CACHE_HOME/shale/parquet_metadata or\n"
            "                             ~/.cache/shale/parquet_metadata)\n"
            "  -T, --testmode             honour '-- { serverError CODE }' hints (for tests)\n"
            "  -n, --multiquery           accepted for compatibility (always on)\n"
            "  -V, --version              print the version\n"
            "  -h, --help                 this text\n");
}

static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *p = xmalloc(cap);
    size_t k;
    while ((k = fread(p + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            cap *= 2;
            p = xrealloc(p, cap);
        }
    }
    p[n] = 0;
    *len = n;
    return p;
}

static const cli_short local_shorts[] = {{'q', "query"}, {'f', "format"},    {'S', "structure"}, {'t', "time"},
                                         {'T', "testmode"}, {'n', "multiquery"}, {'h', "help"},      {'V', "version"},
                                         {0, NULL}};

static bool local_is_flag(const char *name)
{
    static const char *const flags[] = {"time", "progress", "testmode", "multiquery",
                                        "help", "version",  "multiline", "echo"};
    for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
        if (strcmp(name, flags[k]) == 0)
            return true;
    return false;
}

static int exit_code(int code) { return code == 0 ? 0 : (code % 256 ? code % 256 : 1); }

/* The Parquet metadata cache of `shale local` (format/parquet/meta_cache.h): kept on disk
 * too, so that the first query of the next process finds the footers of this one. */
typedef struct pq_cache_opts {
    pqmc_config c;
    const char *dir;
} pq_cache_opts;

/* 1 when name is one of the cache's options (value parsed into o), 0 when not, -1 on a bad
 * value. */
static int pq_cache_option(pq_cache_opts *o, const char *name, const char *val)
{
    uint64_t *dst = strcmp(name, "parquet_metadata_cache_size") == 0          ? &o->c.max_bytes
                    : strcmp(name, "parquet_metadata_cache_max_entries") == 0 ? &o->c.max_entries
                    : strcmp(name, "parquet_metadata_cache_disk_size") == 0   ? &o->c.disk_max_bytes
                                                                              : NULL;
    if (strcmp(name, "parquet_metadata_cache_path") == 0) {
        o->dir = val;
        return 1;
    }
    if (!dst)
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(val, &end, 10);
    if (!*val || *end || errno || val[0] == '-')
        return -1;
    *dst = v;
    return 1;
}

static void pq_cache_setup(pq_cache_opts *o, const char *path)
{
    char dir[4096] = "";
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (o->dir)
        snprintf(dir, sizeof dir, "%s", o->dir);
    else if (path)
        snprintf(dir, sizeof dir, "%s/cache/parquet_metadata", path);
    else if (xdg && xdg[0] == '/')
        snprintf(dir, sizeof dir, "%s/shale/parquet_metadata", xdg);
    else if (home && home[0] == '/')
        snprintf(dir, sizeof dir, "%s/.cache/shale/parquet_metadata", home);
    o->c.disk_dir = dir;
    pqmc_configure(&o->c);
}

static int local_main(int argc, char **argv)
{
    const char *queries[64];
    int nqueries = 0;
    const char *files[64];
    int nfiles = 0;
    const char *path = NULL;
    local_shell s;
    const char *format = NULL, *input_format = NULL, *structure = NULL;
    bool print_time = false, progress = false, testmode = false;
    struct kv {
        const char *k, *v;
    } sets[256], params[256];
    int nsets = 0, nparams = 0;
    pq_cache_opts pqc = {.c = {.max_bytes = PQMC_DEFAULT_MAX_BYTES, .max_entries = PQMC_DEFAULT_MAX_ENTRIES,
                               .disk_max_bytes = PQMC_DEFAULT_DISK_BYTES}};

    for (int i = 0; i < argc; i++) {
        const char *val;
        char name[CLI_NAME_MAX];
        int pq_rc;
        if (cli_next_option(argc, argv, &i, local_shorts, local_is_flag, name, &val))
            return ERR_BAD_ARGUMENTS;
        if (strcmp(name, "query") == 0) {
            if (nqueries < 64)
                queries[nqueries++] = val;
        } else if (strcmp(name, "queries-file") == 0) {
            if (nfiles < 64)
                files[nfiles++] = val;
        } else if (strcmp(name, "format") == 0 || strcmp(name, "output-format") == 0) {
            format = val;
        } else if (strcmp(name, "input-format") == 0) {
            input_format = val;
        } else if (strcmp(name, "structure") == 0) {
            structure = val;
        } else if (strcmp(name, "path") == 0) {
            path = val;
        } else if (strcmp(name, "time") == 0) {
            print_time = true;
        } else if (strcmp(name, "progress") == 0) {
            progress = true;
        } else if (strcmp(name, "testmode") == 0) {
            testmode = true;
        } else if (strcmp(name, "multiquery") == 0 || strcmp(name, "multiline") == 0 || strcmp(name, "echo") == 0) {
            /* accepted for compatibility */
        } else if (strcmp(name, "help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(name, "version") == 0) {
            printf("shale local version %s\n", SHALE_VERSION);
            return 0;
        } else if ((pq_rc = pq_cache_option(&pqc, name, val)) != 0) {
            if (pq_rc < 0)
                return cli_fail_usage("Bad value (a number of bytes or entries is expected) of option --", name);
        } else if (strncmp(name, "param_", 6) == 0) {
            if (nparams < 256) {
                params[nparams].k = xstrdup(name + 6); /* name: "param_<name>" */
                params[nparams++].v = val;
            }
            /* keep only the name part */
        } else {
            if (nsets < 256) {
                sets[nsets].k = xstrdup(name);
                sets[nsets++].v = val;
            }
        }
    }

    /* A statement with a URL will most likely use s3() or url(): their libraries load in the
     * background while the instance opens. */
    for (int k = 0; k < nqueries; k++)
        if (strcasestr(queries[k], "http://") || strcasestr(queries[k], "https://")) {
            s3_preload_libraries_async();
            break;
        }
    func_registry_init();
    pq_cache_setup(&pqc, path);
    if (local_open(&s, path)) {
        int code = err_code();
        print_error(code, err_msg());
        for (int k = 0; k < nsets; k++)
            free((char *)sets[k].k);
        for (int k = 0; k < nparams; k++)
            free((char *)params[k].k);
        return exit_code(code);
    }
    g_shell = &s;
    for (int i = 0; i < nsets; i++)
        if (settings_set(s.sess->st, sets[i].k, sets[i].v)) {
            int code = err_code();
            print_error(code, err_msg());
            local_close(&s);
            for (int k = 0; k < nsets; k++)
                free((char *)sets[k].k);
            for (int k = 0; k < nparams; k++)
                free((char *)params[k].k);
            return exit_code(code);
        }
    for (int i = 0; i < nparams; i++) {
        char pname[256];
        snprintf(pname, sizeof pname, "%s", params[i].k);
        session_set_param(s.sess, pname, params[i].v);
        free((char *)params[i].k);
    }
    s.default_format = format;
    s.print_summary = print_time;
    s.progress = progress;
    s.testmode = testmode;
    s.input_format = input_format;
    s.input_structure = structure;

    struct sigaction sa = {0};
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    /* A file-size limit (ulimit -f) must fail the statement with EFBIG, not kill the
     * process halfway through writing a part. */
    signal(SIGXFSZ, SIG_IGN);

    int status = 0;
    for (int i = 0; i < nqueries && !status; i++)
        status = local_run_script(&s, queries[i], strlen(queries[i]));
    for (int i = 0; i < nfiles && !status; i++) {
        FILE *f = strcmp(files[i], "-") == 0 ? stdin : fopen(files[i], "rb");
        if (!f) {
            fprintf(stderr, "Code: 76. DB::Exception: Cannot open file %s. (CANNOT_OPEN_FILE)\n", files[i]);
            status = ERR_CANNOT_OPEN_FILE;
            break;
        }
        size_t len;
        char *text = read_all(f, &len);
        if (f != stdin)
            fclose(f);
        status = local_run_script(&s, text, len);
        free(text);
    }
    if (nqueries == 0 && nfiles == 0) {
        if (isatty(0)) {
            s.interactive = true;
            s.print_summary = true;
            status = repl_run(&s);
        } else {
            size_t len;
            char *text = read_all(stdin, &len);
            status = local_run_script(&s, text, len);
            free(text);
        }
    }
    g_shell = NULL;
    local_close(&s);
    for (int i = 0; i < nsets; i++)
        free((char *)sets[i].k);
    return exit_code(status);
}

int main(int argc, char **argv)
{
    mem_init();
    if (argc >= 2 && strcmp(argv[1], "local") == 0)
        return local_main(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "server") == 0) {
        func_registry_init();
        return server_main(argc - 2, argv + 2);
    }
    if (argc >= 2 && strcmp(argv[1], "client") == 0) {
        func_registry_init();
        return client_main(argc - 2, argv + 2);
    }
    if (argc >= 2 && strcmp(argv[1], "backup") == 0)
        return backup_main(argc - 1, argv + 1);
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
        printf("Usage: shale <command> [options]\n\nCommands:\n  local     run SQL over local files (like clickhouse-local)\n  server    serve ClickHouse's HTTP interface and native protocol (like clickhouse-server)\n  client    a client of the native protocol (like clickhouse-client)\n  backup    back up PostgreSQL data directories with Direct I/O\n\nRun 'shale local --help' for its options.\n");
        return 0;
    }
    if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
        printf("shale version %s\n", SHALE_VERSION);
        return 0;
    }
    /* Like clickhouse-local invoked as a bare binary with options: treat as `local`. */
    if (argc >= 2 && argv[1][0] == '-')
        return local_main(argc - 1, argv + 1);
    fprintf(stderr, "Usage: shale <command> [options]. Commands: local, server, client, backup. Try 'shale --help'.\n");
    return 1;
}
