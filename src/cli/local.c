/* `shale local`: scripts of statements, summaries and test hints (see local.h). */
#include "cli/local.h"

#include "base/err.h"
#include "base/mem.h"
#include "cli/progress.h"
#include "interp/interp.h"
#include "parse/lexer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int local_open(local_shell *l, const char *path)
{
    memset(l, 0, sizeof *l);
    if (instance_open(path, &l->inst))
        return -1;
    l->sess = session_new(l->inst);
    l->stdout_tty = isatty(1);
    return 0;
}

void local_close(local_shell *l)
{
    session_free(l->sess);
    instance_close(l->inst);
    l->sess = NULL;
    l->inst = NULL;
}

/* "S3: 12 GET, 1 LIST, 0 HEAD requests, 24.03 MB received, 0 retries, 0.12 s waiting, 8 in flight at most",
 * only for queries that talked to object storage. */
static void print_io_summary(http_counters *io)
{
    uint64_t list = atomic_load(&io->list), get = atomic_load(&io->get), head = atomic_load(&io->head);
    uint64_t put = atomic_load(&io->put), post = atomic_load(&io->post), del = atomic_load(&io->del);
    if (!get && !head && !put && !post && !del)
        return;
    get = get > list ? get - list : 0;
    char in[64];
    readable_size_decimal((double)atomic_load(&io->bytes_in), in, sizeof in);
    fprintf(stderr, "S3: %llu GET, %llu LIST, %llu HEAD", (unsigned long long)get, (unsigned long long)list,
            (unsigned long long)head);
    if (put || post || del)
        fprintf(stderr, ", %llu PUT, %llu POST, %llu DELETE", (unsigned long long)put, (unsigned long long)post,
                (unsigned long long)del);
    fprintf(stderr, " requests, %s received", in);
    if (put || post) {
        char out[64];
        readable_size_decimal((double)atomic_load(&io->bytes_out), out, sizeof out);
        fprintf(stderr, ", %s sent", out);
    }
    fprintf(stderr, ", %llu retries, %.2f s waiting, %llu in flight at most\n",
            (unsigned long long)atomic_load(&io->retries), (double)atomic_load(&io->wait_ns) / 1e9,
            (unsigned long long)atomic_load(&io->max_inflight));
}

static void print_summary(query_ctx *q, uint64_t result_rows, bool has_result, double elapsed)
{
    if (!has_result)
        fprintf(stderr, "Ok.\n");
    fprintf(stderr, "%llu row%s in set. Elapsed: %.3f sec.", (unsigned long long)result_rows,
            result_rows == 1 ? "" : "s", elapsed);
    uint64_t rows = atomic_load(&q->read_rows), bytes = atomic_load(&q->read_bytes);
    if (rows || bytes) {
        char r[64], b[64], rs[64], bs[64];
        readable_quantity((double)rows, r, sizeof r);
        readable_size_decimal((double)bytes, b, sizeof b);
        double secs = elapsed > 0 ? elapsed : 1e-9;
        readable_quantity((double)rows / secs, rs, sizeof rs);
        readable_size_decimal((double)bytes / secs, bs, sizeof bs);
        fprintf(stderr, " Processed %s rows, %s (%s rows/s., %s/s.)", r, b, rs, bs);
    }
    fprintf(stderr, "\n");
    char mem[64];
    mem_format_binary((double)atomic_load(&q->mem.peak), mem, sizeof mem);
    fprintf(stderr, "Peak memory usage: %s.\n", mem);
    print_io_summary(&q->io);
    fprintf(stderr, "\n");
}

/* ---- test hints: "-- { serverError CODE }" after a statement ---- */

/* The codes a hint allows ("serverError A, B" lists several, as ClickHouse's test runner
 * reads them), up to `cap` in codes[]; returns how many (-2 in codes[0] for a name not
 * known), 0 without a hint. */
static int expected_errors(const char *from, const char *to, int *codes, int cap)
{
    for (const char *p = from; p + 3 < to; p++) {
        const char *h = NULL;
        if (strncmp(p, "serverError", 11) == 0)
            h = p + 11;
        else if (strncmp(p, "clientError", 11) == 0)
            h = p + 11;
        if (!h)
            continue;
        int n = 0;
        do {
            while (h < to && (*h == ' ' || *h == '\t'))
                h++;
            char name[128];
            size_t k = 0;
            while (h < to && k < sizeof name - 1 && (isalnum((unsigned char)*h) || *h == '_'))
                name[k++] = *h++;
            name[k] = 0;
            int code = isdigit((unsigned char)name[0]) ? atoi(name) : err_code_by_name(name);
            if (n < cap)
                codes[n++] = code > 0 ? code : -2;
            while (h < to && (*h == ' ' || *h == '\t'))
                h++;
        } while (h < to && *h++ == ',');
        return n;
    }
    return 0;
}

typedef struct local_run {
    local_shell *l;
    progress *pr;
    bool summary;
} local_run;

static void on_started(void *ctx, query_ctx *q)
{
    local_run *r = ctx;
    q->stdin_format = r->l->input_format;
    q->stdin_structure = r->l->input_structure;
    r->pr = r->l->progress && isatty(2) ? progress_start(q) : NULL;
}

static void on_finished(void *ctx, query_ctx *q, const interp_result *res, int code)
{
    local_run *r = ctx;
    progress_stop(r->pr);
    r->pr = NULL;
    http_trace_note("query end");
    if (!code && r->summary)
        print_summary(q, res->result_rows, res->has_result, clock_monotonic() - q->start_time);
}

static int execute_one(local_shell *l, const char *sql, size_t len, const char *stmt_text, size_t stmt_len,
                       const ast *stmt)
{
    local_run run = {.l = l, .summary = l->print_summary};
    interp_hooks h = {.ctx = &run,
                      .default_format = l->default_format ? l->default_format
                                                          : (l->stdout_tty ? "PrettyCompact" : "TSV"),
                      .output_tty = l->stdout_tty,
                      .started = on_started,
                      .finished = on_finished};
    interp_request rq = {.stmt = stmt, .script = sql, .script_len = len, .text = stmt_text, .text_len = stmt_len};
    interp_result res;
    return interp_run(l->sess, &rq, &h, &res);
}

/* ClickHouse's layout: "Code: N. DB::Exception: message. (NAME)", adding the period
 * only when the message does not already end with one. */
void print_error(int code, const char *msg)
{
    size_t n = strlen(msg);
    fprintf(stderr, "Code: %d. DB::Exception: %s%s (%s)\n", code, msg, n && msg[n - 1] == '.' ? "" : ".",
            err_name(code));
}

/* Where the data inline after INSERT … FORMAT x ends in a script, as ClickHouse's clients
 * split scripts: Values data at a ';' outside quotes and brackets, other formats at an
 * empty line (a ';' before it is data); the statements after it still run. */
static size_t inline_data_end(const ast *stmt, const char *sql, size_t len)
{
    size_t from = (size_t)(stmt->insert_data - sql);
    if (stmt->format && strcasecmp(stmt->format, "Values") == 0) {
        lexer lx;
        lexer_init(&lx, sql, len, from);
        int depth = 0;
        for (;;) {
            tok t = lexer_next(&lx);
            if (t.kind == TK_EOF || t.kind == TK_ERROR)
                return len;
            if (t.kind == TK_LPAREN || t.kind == TK_LBRACKET || t.kind == TK_LBRACE)
                depth++;
            else if (t.kind == TK_RPAREN || t.kind == TK_RBRACKET || t.kind == TK_RBRACE)
                depth--;
            else if (t.kind == TK_SEMI && depth <= 0)
                return (size_t)t.start;
        }
    }
    for (size_t i = from; i + 1 < len; i++)
        if (sql[i] == '\n' && sql[i + 1] == '\n')
            return i + 1;
    return len;
}

int local_run_script(local_shell *l, const char *sql, size_t len)
{
    size_t pos = 0;
    arena a;
    arena_init(&a);
    int status = 0;
    int max_depth = (int)settings_int(l->sess->st, "max_parser_depth");
    while (pos < len) {
        size_t start = pos;
        ast *stmt = NULL;
        int parse_rc = sql_parse_statement(&a, sql, len, &pos, max_depth, &stmt);
        if (parse_rc == 0 && !stmt)
            break;
        if (!parse_rc && stmt->kind == AST_STMT_INSERT && stmt->insert_data && stmt->insert_data_len &&
            stmt->insert_data + stmt->insert_data_len == sql + len) {
            size_t data_end = inline_data_end(stmt, sql, len);
            stmt->insert_data_len = data_end - (size_t)(stmt->insert_data - sql);
            pos = data_end;
        }
        size_t stmt_end = pos;
        if (parse_rc) {
            stmt_end = sql_statement_end(sql, len, start);
            if (stmt_end <= start)
                stmt_end = len;
        }
        /* The hint may stand on the rest of the statement's last line. */
        size_t line_end = stmt_end;
        while (line_end < len && sql[line_end] != '\n')
            line_end++;
        /* Only the text after the statement's end counts: an earlier line may hold the
         * previous statement's hint. */
        size_t hint_from = stmt_end > start ? stmt_end - 1 : start;
        int codes[8];
        int ncodes = l->testmode ? expected_errors(sql + hint_from, sql + line_end, codes, 8) : 0;
        int expected = ncodes ? codes[0] : 0;
        char saved_msg[ERR_MSG_MAX];
        int saved_code = 0;
        if (parse_rc) {
            saved_code = err_code();
            snprintf(saved_msg, sizeof saved_msg, "%s", err_msg());
        }
        /* Trim the statement text for the query log. */
        size_t ts = start, te = stmt_end;
        while (ts < te && (sql[ts] == ' ' || sql[ts] == '\n' || sql[ts] == '\t' || sql[ts] == '\r'))
            ts++;
        while (te > ts && (sql[te - 1] == ' ' || sql[te - 1] == '\n' || sql[te - 1] == ';' || sql[te - 1] == '\r'))
            te--;
        if (parse_rc)
            err_set(saved_code, "%s", saved_msg);
        int code = execute_one(l, sql, len, sql + ts, te - ts, parse_rc ? NULL : stmt);
        if (parse_rc) {
            pos = stmt_end < len ? stmt_end + 1 : len;
            code = saved_code;
            snprintf(saved_msg, sizeof saved_msg, "%s", err_msg());
        }
        if (expected) {
            if (code == 0) {
                fprintf(stderr, "Expected error %s but the statement succeeded: %.*s\n", err_name(expected),
                        (int)(te - ts), sql + ts);
                status = ERR_UNEXPECTED_AST_STRUCTURE;
                break;
            }
            bool listed = false;
            for (int k = 0; k < ncodes; k++)
                listed |= codes[k] == code || codes[k] < 0;
            if (expected > 0 && !listed) {
                print_error(code, err_msg());
                fprintf(stderr, "Expected error %d (%s), got %d (%s)\n", expected, err_name(expected), code,
                        err_name(code));
                status = code;
                break;
            }
            continue;
        }
        if (code) {
            print_error(code, err_msg());
            status = code;
            if (!l->interactive)
                break;
        }
    }
    arena_free(&a);
    return status;
}
