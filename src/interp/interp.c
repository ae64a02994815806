/* Statement execution: SELECT, INSERT, SET, USE, DESCRIBE, EXPLAIN here; catalog
 * statements in ddl.c. See interp.h. */
#include "interp/interp.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/extremes.h"
#include "column/type_pretty.h"
#include "exec/process_list.h"
#include "exec/query_log.h"
#include "interp/backup_sql.h"
#include "interp/ddl.h"
#include "interp/mask.h"
#include "io/http.h"
#include "sql/analyze.h"
#include "sql/explain.h"
#include "storage/catalog.h"
#include "storage/tablefunc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---- the output sink ---- */

typedef struct out_sink {
    block_sink base;
    fmt_writer *w;
    uint64_t rows;
    uint64_t bytes;
    extremes *ext; /* setting extremes = 1, else NULL */
} out_sink;

static int out_write(block_sink *bs, block *b)
{
    out_sink *o = (out_sink *)bs;
    if (o->ext)
        extremes_add(o->ext, b);
    o->rows += b->rows;
    o->bytes += block_bytes(b);
    int rc = fmt_writer_write(o->w, b);
    block_free(b);
    return rc;
}

static int out_totals(block_sink *bs, block *b) { return fmt_writer_totals(((out_sink *)bs)->w, b); }

/* Counts what goes to the front end's block sink (interp_hooks.open_blocks). */
typedef struct fwd_sink {
    block_sink base;
    block_sink *to;
    uint64_t rows;
    uint64_t bytes;
    extremes *ext; /* setting extremes = 1, else NULL */
} fwd_sink;

static int fwd_write(block_sink *bs, block *b)
{
    fwd_sink *f = (fwd_sink *)bs;
    if (f->ext)
        extremes_add(f->ext, b);
    f->rows += b->rows;
    f->bytes += block_bytes(b);
    return f->to->write(f->to, b);
}

static int fwd_totals(block_sink *bs, block *b)
{
    fwd_sink *f = (fwd_sink *)bs;
    if (!f->to->totals) {
        block_free(b);
        return 0;
    }
    return f->to->totals(f->to, b);
}

static const char *output_format(const interp_hooks *h, const ast *stmt)
{
    if (stmt && stmt->format)
        return stmt->format;
    return h->default_format ? h->default_format : "TabSeparated";
}

/* Formats what produce() writes to the sink into the front end's output (or INTO
 * OUTFILE's file). */
static int write_blocks(const interp_hooks *h, query_ctx *q, const ast *stmt, const schema *sch,
                        int (*produce)(void *ctx, block_sink *sink), void *ctx, interp_result *res)
{
    bool want_extremes = settings_bool(q->st, "extremes");
    if (h->open_blocks && !stmt->outfile) {
        block_sink *to;
        if (h->open_blocks(h->ctx, q, sch, &to))
            return -1;
        if (want_extremes && !to->extremes)
            return err_set(ERR_NOT_IMPLEMENTED, "extremes = 1 is not supported by this front end");
        fwd_sink f = {.base = {.write = fwd_write, .totals = fwd_totals}, .to = to,
                      .ext = want_extremes ? extremes_new(sch) : NULL};
        int rc = produce(ctx, &f.base);
        if (!rc && f.ext) {
            block *x = extremes_take(f.ext);
            if (x)
                rc = to->extremes(to, x);
        }
        extremes_free(f.ext);
        res->has_result = true;
        res->result_rows = f.rows;
        res->result_bytes = f.bytes;
        return rc;
    }
    const char *format = output_format(h, stmt);
    const char *canon = fmt_output_canonical(format);
    if (!canon)
        return err_set(ERR_UNKNOWN_FORMAT, "Unknown output format %s", format);
    outstream *os;
    if (stmt->outfile) {
        if (outstream_open_file(stmt->outfile, false, &os))
            return -1;
    } else if (h->open_output) {
        if (h->open_output(h->ctx, q, canon, &os))
            return -1;
    } else {
        os = outstream_from_fd(1, "stdout");
    }
    fmt_writer *w;
    if (fmt_writer_new(canon, sch, &q->fmt, os, &w)) {
        os->close(os);
        return -1;
    }
    out_sink sink = {.base = {.write = out_write, .totals = out_totals}, .w = w,
                     .ext = want_extremes ? extremes_new(sch) : NULL};
    int rc = produce(ctx, &sink.base);
    if (!rc && sink.ext) {
        block *x = extremes_take(sink.ext);
        if (x)
            rc = fmt_writer_extremes(w, x);
    }
    extremes_free(sink.ext);
    if (!rc) {
        fmt_stats st = {.elapsed = clock_monotonic() - q->start_time,
                        .rows_read = atomic_load(&q->read_rows),
                        .bytes_read = atomic_load(&q->read_bytes)};
        rc = fmt_writer_finish(w, &st);
    }
    fmt_writer_free(w);
    if (os->close(os) && !rc)
        rc = -1;
    res->has_result = true;
    res->result_rows = sink.rows;
    res->result_bytes = sink.bytes;
    return rc;
}

typedef struct select_job {
    query_plan *plan;
    query_ctx *q;
} select_job;

static int produce_select(void *ctx, block_sink *sink)
{
    select_job *j = ctx;
    return query_plan_run(j->plan, j->q, sink);
}

static int produce_block(void *ctx, block_sink *sink)
{
    block **slot = ctx;
    block *b = *slot;
    *slot = NULL;
    if (!b || b->rows == 0) {
        block_free(b);
        return 0;
    }
    return sink->write(sink, b);
}

/* Writes one block (taken) as the statement's result. */
static int write_one_block(const interp_hooks *h, query_ctx *q, const ast *stmt, schema *sch, block *b,
                           interp_result *res)
{
    int rc = write_blocks(h, q, stmt, sch, produce_block, &b, res);
    block_free(b);
    return rc;
}

/* ---- statements ---- */

static int run_select(const interp_hooks *h, query_ctx *q, const ast *stmt, interp_result *res)
{
    query_plan *plan;
    if (analyze_query(stmt->sub, q, &plan))
        return -1;
    select_job job = {.plan = plan, .q = q};
    int rc = write_blocks(h, q, stmt, plan->out_schema, produce_select, &job, res);
    query_plan_free(plan);
    return rc;
}

static int run_describe(const interp_hooks *h, query_ctx *q, const ast *stmt, interp_result *res)
{
    schema *tsch;
    block *tb;
    int trc = ddl_describe(stmt->sub, q, &tsch, &tb);
    if (trc < 0)
        return -1;
    if (trc == 0) {
        int rc = write_one_block(h, q, stmt, tsch, tb, res);
        schema_free(tsch);
        return rc;
    }
    source *src;
    if (analyze_table(stmt->sub, q, &src))
        return -1;
    static const char *cols[] = {"name", "type", "default_type", "default_expression", "comment",
                                 "codec_expression", "ttl_expression"};
    schema *sch = schema_new(7);
    for (int i = 0; i < 7; i++)
        schema_set(sch, i, cols[i], type_simple(T_STRING));
    block *b = block_new_empty(sch);
    bool pretty = settings_bool(q->st, "print_pretty_type_names");
    buf tn = {0};
    for (int i = 0; i < src->nvisible; i++) {
        col_push_str(b->cols[0], src->sch->names[i], strlen(src->sch->names[i]));
        tn.len = 0;
        if (pretty)
            type_pretty_name(&tn, src->sch->types[i], 0);
        else
            buf_puts(&tn, src->sch->types[i]->name);
        col_push_str(b->cols[1], (const char *)tn.p, tn.len);
        for (int k = 2; k < 7; k++)
            col_push_str(b->cols[k], "", 0);
        b->rows++;
    }
    buf_free(&tn);
    source_free(src);
    int rc = write_one_block(h, q, stmt, sch, b, res);
    schema_free(sch);
    return rc;
}

static int run_explain(const interp_hooks *h, query_ctx *q, const ast *stmt, interp_result *res)
{
    schema *sch;
    block *b;
    if (explain_block(stmt, q, false, &sch, &b))
        return -1;
    int rc = write_one_block(h, q, stmt, sch, b, res);
    schema_free(sch);
    return rc;
}

/* INSERT INTO FUNCTION remote(…) [(columns)] SELECT …: the rows go to the shard's table
 * (storage/tablefunc/remote.c). */
static int run_insert_remote(query_ctx *q, const ast *stmt)
{
    if (stmt->partition_by.n)
        return err_set(ERR_NOT_IMPLEMENTED, "INSERT INTO FUNCTION remote(…) PARTITION BY is not implemented");
    remote_args ra;
    if (analyze_remote_args(stmt->table_func, q, &ra))
        return -1;
    buf cols = {0};
    for (int i = 0; i < stmt->insert_columns.n; i++) {
        const ast *c = stmt->insert_columns.items[i];
        buf_puts(&cols, i ? ", " : "(");
        if (c->kind != AST_IDENT || c->nparts != 1) {
            buf_free(&cols);
            remote_args_free(&ra);
            return err_set(ERR_NOT_IMPLEMENTED, "INSERT INTO FUNCTION remote(…): only plain column names in the column "
                                                "list");
        }
        ast_format_ident(&cols, c->parts[0]);
    }
    if (cols.len)
        buf_putc(&cols, ')');
    query_plan *plan = NULL;
    int rc = analyze_query(stmt->sub, q, &plan);
    table_sink *sink = NULL;
    if (!rc)
        rc = tablefunc_remote_sink(ra.addresses, ra.target, ra.user, ra.password, ra.secure, ra.cluster, ra.secret,
                                   buf_cstr(&cols), plan->out_schema, q, &sink);
    if (!rc) {
        rc = query_plan_run(plan, q, &sink->base);
        if (rc)
            sink->abort(sink);
        else
            rc = sink->finish(sink);
    }
    if (plan)
        query_plan_free(plan);
    buf_free(&cols);
    remote_args_free(&ra);
    return rc;
}

static int run_insert_function(query_ctx *q, const ast *stmt)
{
    if (!stmt->sub)
        return err_set(ERR_NOT_IMPLEMENTED, "INSERT INTO FUNCTION supports only INSERT ... SELECT for now");
    const ast *f = stmt->table_func;
    bool to_s3 = strcasecmp(f->name, "s3") == 0;
    if (strcasecmp(f->name, "remote") == 0 || strcasecmp(f->name, "remoteSecure") == 0)
        return run_insert_remote(q, stmt);
    if (strcasecmp(f->name, "file") != 0 && !to_s3)
        return err_set(ERR_UNKNOWN_FUNCTION, "Table function %s does not support INSERT", f->name);
    query_plan *plan;
    if (analyze_query(stmt->sub, q, &plan))
        return -1;
    column **args;
    if (analyze_table_args(f, q, &args)) {
        query_plan_free(plan);
        return -1;
    }
    table_sink *sink;
    tablefunc_sink_fn open = to_s3 ? tablefunc_s3_sink : tablefunc_file_sink;
    int rc = stmt->partition_by.n ? tablefunc_partitioned_sink(open, f->name, args, f->args.n, plan->out_schema,
                                                               stmt->partition_by.items[0], q, &sink)
                                  : open(args, f->args.n, plan->out_schema, q, &sink);
    for (int i = 0; i < f->args.n; i++)
        col_free(args[i]);
    free(args);
    if (!rc) {
        rc = query_plan_run(plan, q, &sink->base);
        if (rc)
            sink->abort(sink);
        else
            rc = sink->finish(sink);
    }
    query_plan_free(plan);
    return rc;
}

/* KILL QUERY WHERE cond [SYNC|ASYNC|TEST]: the running queries that system.processes
 * rows matching cond name are cancelled; the result lists them as ClickHouse does. */
/* Runs "<select_prefix> <where>)" (KILL's row selection) into blocks. */
static int kill_select(query_ctx *q, const char *select_prefix, const ast *where, schema **sch, block ***blocks,
                       int *nblocks)
{
    buf sql = {0};
    buf_puts(&sql, select_prefix);
    ast_format_sql(&sql, where);
    buf_putc(&sql, ')');
    arena a;
    arena_init(&a);
    size_t pos = 0;
    ast *sel = NULL;
    const char *text = arena_strdup(&a, buf_cstr(&sql));
    buf_free(&sql);
    int rc = sql_parse_statement(&a, text, strlen(text), &pos, 1000, &sel);
    if (!rc)
        rc = run_query_to_blocks(sel->sub, q, sch, blocks, nblocks);
    arena_free(&a);
    return rc;
}

/* KILL MUTATION WHERE cond [SYNC | ASYNC | TEST]: the unfinished mutations cond selects
 * in system.mutations are forgotten (storage/table.h mergetree_mutation_kill); one row
 * per mutation command, as ClickHouse prints them. */
static int run_kill_mutation(const interp_hooks *h, query_ctx *q, const ast *stmt, interp_result *res)
{
    schema *found_sch = NULL;
    block **blocks = NULL;
    int nblocks = 0;
    int rc = kill_select(q, "SELECT database, table, mutation_id, command FROM system.mutations WHERE NOT is_done AND (",
                         stmt->where, &found_sch, &blocks, &nblocks);
    if (rc)
        return -1;
    static const char *names[] = {"kill_status", "database", "table", "mutation_id", "command"};
    schema *sch = schema_new(5);
    for (int i = 0; i < 5; i++)
        schema_set(sch, i, names[i], type_simple(T_STRING));
    block *out = block_new_empty(sch);
    bool test = strcmp(stmt->str, "TEST") == 0;
    const char *status = test ? "unknown_status" : "waiting";
    for (int bi = 0; bi < nblocks; bi++) {
        block *b = blocks[bi];
        for (size_t r = 0; r < b->rows && !rc; r++) {
            size_t len[4];
            const char *v[4];
            for (int k = 0; k < 4; k++)
                v[k] = col_str(b->cols[k], r, &len[k]);
            if (!test) {
                char *db = xstrndup(v[0], len[0]), *tn = xstrndup(v[1], len[1]), *id = xstrndup(v[2], len[2]);
                long long ver = 0;
                table *t;
                if (sscanf(id, "mutation_%lld.txt", &ver) == 1 && catalog_get(q->catalog, db, tn, &t) == 0) {
                    rc = mergetree_mutation_kill(t, (int64_t)ver) < 0 ? -1 : 0;
                    table_unref(t);
                } else {
                    err_clear();
                }
                free(db);
                free(tn);
                free(id);
            }
            col_push_str(out->cols[0], status, strlen(status));
            for (int k = 0; k < 4; k++)
                col_push_str(out->cols[k + 1], v[k], len[k]);
            out->rows++;
        }
        block_free(b);
    }
    free(blocks);
    schema_free(found_sch);
    if (!rc)
        rc = write_one_block(h, q, stmt, sch, out, res);
    else
        block_free(out);
    schema_free(sch);
    return rc;
}

static int run_kill(const interp_hooks *h, query_ctx *q, const ast *stmt, interp_result *res)
{
    if (stmt->show_what && strcmp(stmt->show_what, "MUTATION") == 0)
        return run_kill_mutation(h, q, stmt, res);
    schema *found_sch = NULL;
    block **blocks = NULL;
    int nblocks = 0;
    int rc = kill_select(q, "SELECT query_id, user, query FROM system.processes WHERE (", stmt->where, &found_sch,
                         &blocks, &nblocks);
    if (rc)
        return -1;
    static const char *names[] = {"kill_status", "query_id", "user", "query"};
    schema *sch = schema_new(4);
    for (int i = 0; i < 4; i++)
        schema_set(sch, i, names[i], type_simple(T_STRING));
    block *out = block_new_empty(sch);
    bool test = strcmp(stmt->str, "TEST") == 0, sync = strcmp(stmt->str, "SYNC") == 0;
    for (int bi = 0; bi < nblocks; bi++) {
        block *b = blocks[bi];
        for (size_t r = 0; r < b->rows; r++) {
            size_t len;
            const char *qid = col_str(b->cols[0], r, &len);
            char id[64];
            snprintf(id, sizeof id, "%.*s", (int)(len < 63 ? len : 63), qid);
            const char *status = "waiting";
            if (strcmp(id, q->query_id) == 0)
                continue; /* not itself */
            if (test) {
                status = "pending";
            } else if (!process_list_cancel(id)) {
                status = "finished";
            } else if (sync) {
                for (int tries = 0; tries < 6000 && process_list_running(id); tries++) {
                    struct timespec ts = {0, 10 * 1000 * 1000};
                    nanosleep(&ts, NULL);
                }
                status = process_list_running(id) ? "waiting" : "finished";
            }
            col_push_str(out->cols[0], status, strlen(status));
            col_push_str(out->cols[1], id, strlen(id));
            const char *u = col_str(b->cols[1], r, &len);
            col_push_str(out->cols[2], u, len);
            const char *qt = col_str(b->cols[2], r, &len);
            col_push_str(out->cols[3], qt, len);
            out->rows++;
        }
        block_free(b);
    }
    free(blocks);
    schema_free(found_sch);
    rc = write_one_block(h, q, stmt, sch, out, res);
    schema_free(sch);
    return rc;
}

static int run_use(session *s, const ast *stmt)
{
    if (!catalog_has_database(s->inst->catalog, stmt->database))
        return err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", stmt->database);
    if (strlen(stmt->database) >= sizeof s->database)
        return err_set(ERR_BAD_ARGUMENTS, "Database name is too long");
    snprintf(s->database, sizeof s->database, "%s", stmt->database);
    return 0;
}

static int run_statement(session *s, const interp_hooks *h, query_ctx *q, const ast *stmt, interp_result *res)
{
    switch (stmt->kind) {
    case AST_STMT_INSERT:
        return stmt->table_func ? run_insert_function(q, stmt) : ddl_insert(stmt, q, &res->written_rows);
    case AST_STMT_SELECT: return run_select(h, q, stmt, res);
    case AST_STMT_SET: return settings_apply_ast(s->st, &stmt->settings);
    case AST_STMT_USE: return run_use(s, stmt);
    case AST_STMT_DESCRIBE: return run_describe(h, q, stmt, res);
    case AST_STMT_EXPLAIN: return run_explain(h, q, stmt, res);
    case AST_STMT_KILL: return run_kill(h, q, stmt, res);
    case AST_STMT_BACKUP:
    case AST_STMT_RESTORE: {
        schema *sch;
        block *b;
        if (backup_sql_run(stmt, q, &sch, &b))
            return -1;
        int rc = write_one_block(h, q, stmt, sch, b, res);
        schema_free(sch);
        return rc;
    }
    case AST_STMT_CREATE_TABLE:
    case AST_STMT_CREATE_DATABASE:
    case AST_STMT_DROP:
    case AST_STMT_CREATE_FUNCTION:
    case AST_STMT_DROP_FUNCTION:
    case AST_STMT_DETACH:
    case AST_STMT_ATTACH:
    case AST_STMT_TRUNCATE:
    case AST_STMT_RENAME:
    case AST_STMT_SHOW:
    case AST_STMT_OPTIMIZE:
    case AST_STMT_CHECK:
    case AST_STMT_SYSTEM:
    case AST_STMT_ALTER: {
        schema *sch;
        block *b;
        if (ddl_run(stmt, q, &sch, &b))
            return -1;
        if (!sch)
            return 0;
        int rc = write_one_block(h, q, stmt, sch, b, res);
        schema_free(sch);
        return rc;
    }
    default: return err_set(ERR_NOT_IMPLEMENTED, "This kind of statement is not supported yet");
    }
}

/* The statement's SETTINGS, and those of its (last) SELECT, apply to the whole query, as
 * in ClickHouse; CREATE TABLE … SETTINGS are the table's (engine) settings, and SET's are
 * the session's. */
static int apply_statement_settings(query_ctx *q, const ast *stmt)
{
    if (stmt->kind == AST_STMT_SET || stmt->kind == AST_STMT_CREATE_TABLE || stmt->kind == AST_STMT_BACKUP ||
        stmt->kind == AST_STMT_RESTORE)
        return 0; /* BACKUP / RESTORE … SETTINGS are the operation's (interp/backup_sql.c) */
    if (settings_apply_ast(q->st, &stmt->settings))
        return -1;
    if (stmt->kind == AST_STMT_EXPLAIN)
        return 0;
    const ast *sel = stmt->sub;
    while (sel && (sel->kind == AST_UNION || sel->kind == AST_STMT_SELECT))
        sel = sel->kind == AST_UNION ? (sel->args.n ? sel->args.items[sel->args.n - 1] : NULL) : sel->sub;
    if (sel && sel->kind == AST_SELECT)
        return settings_apply_ast(q->st, &sel->settings);
    return 0;
}

static bool modifies_data(const ast *stmt)
{
    switch (stmt->kind) {
    case AST_STMT_SELECT:
    case AST_STMT_DESCRIBE:
    case AST_STMT_EXPLAIN:
    case AST_STMT_SHOW:
    case AST_STMT_USE:
    case AST_STMT_SET:
    case AST_STMT_CHECK:
    case AST_STMT_KILL: return false;
    default: return true;
    }
}

/* readonly, as ClickHouse: 1 allows only reading queries and no setting changes, 2 also
 * setting changes; a query may not lower the session's level. */
static int check_readonly(session *s, query_ctx *q, const ast *stmt)
{
    int64_t session_level = settings_int(s->st, "readonly"), level = settings_int(q->st, "readonly");
    bool sets_readonly = false;
    for (int i = 0; stmt->kind == AST_STMT_SET && i < stmt->settings.n; i++)
        sets_readonly |= strcmp(stmt->settings.items[i]->name, "readonly") == 0;
    if (session_level > 0 && (level != session_level || sets_readonly))
        return err_set(ERR_READONLY, "Cannot modify 'readonly' setting in readonly mode");
    if (level == 0)
        return 0;
    if (modifies_data(stmt))
        return err_set(ERR_READONLY, "Cannot execute query in readonly mode");
    if (session_level == 1 && s->remote) {
        const char *changed = stmt->kind == AST_STMT_SET && stmt->settings.n ? stmt->settings.items[0]->name
                                                                             : settings_first_difference(q->st, s->st);
        if (changed)
            return err_set(ERR_READONLY, "Cannot modify '%s' setting in readonly mode", changed);
    }
    return 0;
}

static void log_query(session *s, query_ctx *q, const interp_request *rq, const interp_result *res, int code,
                      bool started, double wall_start, double elapsed)
{
    /* The logged text hides secrets (s3 keys), as ClickHouse's query log does. */
    char *text = mask_secrets(rq->text, rq->text_len, (size_t)(rq->text - rq->script), rq->stmt);
    char *error = mask_message(code ? err_msg() : "", rq->stmt);
    query_log_entry e = {.query_id = q->query_id,
                         .query = text,
                         .type = code ? (started && q->started ? 4 : 3) : 2,
                         .start_time = wall_start,
                         .duration_ms = (uint64_t)(elapsed * 1000),
                         .read_rows = atomic_load(&q->read_rows),
                         .read_bytes = atomic_load(&q->read_bytes),
                         .result_rows = res->result_rows,
                         .result_bytes = res->result_bytes,
                         .memory_usage = atomic_load(&q->mem.peak),
                         .exception_code = code,
                         .exception = error,
                         .io = &q->io};
    char saved[ERR_MSG_MAX];
    snprintf(saved, sizeof saved, "%s", err_msg());
    if (query_log_append(s->inst->data_path, &e))
        fprintf(stderr, "shale: warning: %s\n", err_msg());
    if (s->inst->query_done)
        s->inst->query_done(s->inst->hooks_ctx, s, q, text, code, error);
    err_set(code, "%s", saved);
    free(text);
    free(error);
}

static int open_input_hook(void *ctx, query_ctx *q, instream **is)
{
    const interp_hooks *h = ctx;
    return h->open_input(h->ctx, q, is);
}

int interp_run(session *s, const interp_request *rq, const interp_hooks *h, interp_result *res)
{
    memset(res, 0, sizeof *res);
    query_ctx *q = query_new(s);
    http_trace_note("query start"); /* SHALE_HTTP_TRACE: the phases of a query */
    q->sql_text = rq->script;
    q->sql_len = rq->script_len;
    if (rq->query_id)
        snprintf(q->query_id, sizeof q->query_id, "%s", rq->query_id);
    if (h->open_input) {
        q->open_input = open_input_hook;
        q->input_ctx = (void *)h;
    }
    double wall_start = clock_realtime();
    const ast *stmt = rq->stmt;
    int rc = stmt ? 0 : -1;
    bool started = false;
    if (!rc && h->apply_settings)
        rc = h->apply_settings(h->ctx, q->st);
    if (!rc)
        rc = apply_statement_settings(q, stmt);
    if (!rc)
        rc = check_readonly(s, q, stmt);
    if (!rc)
        rc = query_prepare(q, h->output_tty);
    if (!rc) {
        started = true;
        mem_tracker *prev = mem_tracker_attach(&q->mem);
        atomic_store(&s->current, q);
        if (h->started)
            h->started(h->ctx, q);
        rc = process_list_add(q, s->user, rq->text, rq->text_len);
        if (!rc) {
            rc = run_statement(s, h, q, stmt, res);
            process_list_remove(q);
        }
        atomic_store(&s->current, NULL);
        mem_tracker_attach(prev);
    }
    double elapsed = clock_monotonic() - q->start_time;
    int code = rc ? (err_code() ? err_code() : ERR_LOGICAL_ERROR) : 0;
    if (settings_bool(s->st, "log_queries") && !(stmt && stmt->kind == AST_STMT_SET))
        log_query(s, q, rq, res, code, started, wall_start, elapsed);
    if (h->finished)
        h->finished(h->ctx, q, res, code);
    query_free(q);
    mem_cache_release(); /* the statement's large freed blocks go back to the kernel */
    return code;
}
