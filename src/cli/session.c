/* Statement execution for `shale local`. */
#include "cli/session.h"

#include "base/err.h"
#include "base/mem.h"
#include "cli/mask.h"
#include "cli/progress.h"
#include "column/datetime.h"
#include "column/type_pretty.h"
#include "exec/query_log.h"
#include "sql/analyze.h"
#include "sql/ast.h"
#include "storage/catalog.h"
#include "storage/ddl.h"
#include "storage/tablefunc.h"

#include <ctype.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static query_ctx *query_new(session *s, const ast_list *stmt_settings, const ast_list *select_settings);
static int query_prepare(session *s, query_ctx *q);
static void query_free(query_ctx *q);

int session_init(session *s, const char *path)
{
    memset(s, 0, sizeof *s);
    s->st = settings_new();
    if (path) {
        if (mkdir(path, 0755) != 0 && access(path, W_OK) != 0)
            return err_set(ERR_CANNOT_OPEN_FILE, "Cannot use data directory %s", path);
        s->data_path = xstrdup(path);
    } else {
        char tmpl[] = "/tmp/shale-local-XXXXXX";
        const char *tmp = getenv("TMPDIR");
        char buf_path[4096];
        snprintf(buf_path, sizeof buf_path, "%s/shale-local-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        char *d = mkdtemp(buf_path);
        if (!d)
            d = mkdtemp(tmpl);
        if (!d)
            return err_set(ERR_CANNOT_OPEN_FILE, "Cannot create a temporary data directory");
        s->data_path = xstrdup(d);
        s->temp_path = true;
    }
    s->stdout_tty = isatty(1);
    /* The catalog loads every table now (engines recover their data). */
    query_ctx *q = query_new(s, NULL, NULL);
    int rc = query_prepare(s, q);
    if (!rc)
        rc = catalog_open(s->data_path, q, &s->catalog);
    query_free(q);
    return rc;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

void session_close(session *s)
{
    catalog_close(s->catalog);
    s->catalog = NULL;
    if (s->temp_path && s->data_path)
        nftw(s->data_path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(s->data_path);
    settings_free(s->st);
    for (int i = 0; i < s->nparams; i++) {
        free(s->param_names[i]);
        free(s->param_values[i]);
    }
    free(s->param_names);
    free(s->param_values);
}

void session_add_param(session *s, const char *name, const char *value)
{
    s->param_names = xrealloc(s->param_names, sizeof(char *) * (size_t)(s->nparams + 1));
    s->param_values = xrealloc(s->param_values, sizeof(char *) * (size_t)(s->nparams + 1));
    s->param_names[s->nparams] = xstrdup(name);
    s->param_values[s->nparams] = xstrdup(value);
    s->nparams++;
}

/* ---- readable numbers, as ClickHouse's client prints them ---- */

static void readable_quantity(double v, char *out, size_t cap)
{
    static const char *units[] = {"", " thousand", " million", " billion", " trillion", " quadrillion"};
    int u = 0;
    while (v >= 1000 && u < 5) {
        v /= 1000;
        u++;
    }
    snprintf(out, cap, "%.2f%s", v, units[u]);
}

static void readable_size_decimal(double v, char *out, size_t cap)
{
    static const char *units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
    int u = 0;
    while (v >= 1000 && u < 6) {
        v /= 1000;
        u++;
    }
    snprintf(out, cap, "%.2f %s", v, units[u]);
}

/* "S3: 12 GET, 1 LIST, 0 HEAD requests, 24.03 MB received, 0 retries, 0.12 s waiting",
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
    fprintf(stderr, ", %llu retries, %.2f s waiting\n", (unsigned long long)atomic_load(&io->retries),
            (double)atomic_load(&io->wait_ns) / 1e9);
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

/* ---- query context ---- */

static void fill_fmt_settings(query_ctx *q, bool tty)
{
    fmt_settings *f = &q->fmt;
    fmt_settings_default(f);
    const settings *st = q->st;
    const char *d = settings_str(st, "format_csv_delimiter");
    f->csv_delimiter = d[0] ? d[0] : ',';
    f->csv_crlf = settings_bool(st, "output_format_csv_crlf_end_of_line");
    f->tsv_crlf = settings_bool(st, "output_format_tsv_crlf_end_of_line");
    f->skip_unknown_fields = settings_bool(st, "input_format_skip_unknown_fields");
    f->null_as_default = settings_bool(st, "input_format_null_as_default");
    f->json_quote_64bit_integers = settings_bool(st, "output_format_json_quote_64bit_integers");
    f->json_quote_decimals = settings_bool(st, "output_format_json_quote_decimals");
    f->json_quote_denormals = settings_bool(st, "output_format_json_quote_denormals");
    f->pretty_max_rows = (int)settings_int(st, "output_format_pretty_max_rows");
    f->pretty_max_column_pad_width = (int)settings_int(st, "output_format_pretty_max_column_pad_width");
    f->pretty_max_value_width = (int)settings_int(st, "output_format_pretty_max_value_width");
    f->pretty_row_numbers = settings_bool(st, "output_format_pretty_row_numbers");
    const char *color = settings_str(st, "output_format_pretty_color");
    f->pretty_color = strcmp(color, "auto") == 0 ? tty : (strcmp(color, "1") == 0 || strcasecmp(color, "true") == 0);
    f->pretty_single_large_number_tip_threshold = settings_int(st, "output_format_pretty_single_large_number_tip_threshold");
    f->write_statistics = settings_bool(st, "output_format_write_statistics");
    f->schema_inference_make_columns_nullable = settings_int(st, "schema_inference_make_columns_nullable") != 0;
    f->try_infer_integers = settings_bool(st, "input_format_try_infer_integers");
    f->try_infer_dates = settings_bool(st, "input_format_try_infer_dates");
    f->try_infer_datetimes = settings_bool(st, "input_format_try_infer_datetimes");
    f->max_rows_to_read_for_schema_inference = settings_int(st, "input_format_max_rows_to_read_for_schema_inference");
    f->with_names_use_header = settings_bool(st, "input_format_with_names_use_header");
    f->csv_detect_header = settings_bool(st, "input_format_csv_detect_header");
    f->tsv_detect_header = settings_bool(st, "input_format_tsv_detect_header");
    f->timezone = q->env.timezone;
    f->parquet_row_group_rows = settings_int(st, "output_format_parquet_row_group_size");
    f->parquet_row_group_bytes = settings_int(st, "output_format_parquet_row_group_size_bytes");
    f->parquet_compression = settings_str(st, "output_format_parquet_compression_method");
    int64_t bs = settings_int(st, "max_block_size");
    f->max_block_rows = bs > 0 ? (int)bs : 65409;
}

static query_ctx *query_new(session *s, const ast_list *stmt_settings, const ast_list *select_settings)
{
    query_ctx *q = xcalloc(1, sizeof *q);
    q->st = settings_clone(s->st);
    q->session = (struct session *)s;
    q->stdin_format = s->input_format;
    q->stdin_structure = s->input_structure;
    q->nparams = s->nparams;
    q->param_names = s->param_names;
    q->param_values = s->param_values;
    q->data_path = s->data_path;
    q->catalog = s->catalog;
    q->start_time = clock_monotonic();
    snprintf(q->query_id, sizeof q->query_id, "%08x-%04x-%04x-%04x-%012x", (unsigned)getpid(),
             (unsigned)(s->query_seq & 0xffff), 0x4000u, 0x8000u, (unsigned)s->query_seq);
    s->query_seq++;
    (void)stmt_settings;
    (void)select_settings;
    return q;
}

static void literal_text(const ast *v, char *out, size_t cap)
{
    switch (v->lit) {
    case LIT_STRING: snprintf(out, cap, "%.*s", (int)v->str_len, v->str); break;
    case LIT_UINT: snprintf(out, cap, "%llu", (unsigned long long)v->u); break;
    case LIT_INT: snprintf(out, cap, "%lld", (long long)v->i); break;
    case LIT_BOOL: snprintf(out, cap, "%d", (int)v->u); break;
    case LIT_FLOAT: snprintf(out, cap, "%.17g", v->f); break;
    default: snprintf(out, cap, "%s", v->text ? v->text : "");
    }
}

static int apply_settings(settings *st, const ast_list *l)
{
    for (int i = 0; l && i < l->n; i++) {
        const ast *kv = l->items[i];
        char val[4096];
        if (!kv->sub || kv->sub->kind != AST_LITERAL) {
            if (kv->sub && kv->sub->kind == AST_IDENT) {
                snprintf(val, sizeof val, "%s", kv->sub->parts[kv->sub->nparts - 1]);
            } else {
                return err_set(ERR_BAD_ARGUMENTS, "The value of setting %s must be a literal", kv->name);
            }
        } else {
            literal_text(kv->sub, val, sizeof val);
        }
        if (settings_set(st, kv->name, val))
            return -1;
    }
    return 0;
}

static int query_prepare(session *s, query_ctx *q)
{
    (void)s;
    const char *tz = settings_str(q->st, "session_timezone");
    if (!tz[0])
        tz = tz_default_name();
    if (!tz_get(tz))
        return -1;
    q->env.timezone = tz;
    q->env.query_start = (int64_t)clock_realtime();
    q->max_threads = (int)settings_int(q->st, "max_threads");
    if (q->max_threads < 1)
        q->max_threads = 1;
    mem_tracker_init(&q->mem, settings_int(q->st, "max_memory_usage"), &mem_global);
    fill_fmt_settings(q, s->stdout_tty);
    return 0;
}

static void query_free(query_ctx *q)
{
    settings_free(q->st);
    free(q);
}

/* ---- the output sink ---- */

typedef struct out_sink {
    block_sink base;
    fmt_writer *w;
    uint64_t rows;
    uint64_t bytes;
} out_sink;

static int out_write(block_sink *bs, block *b)
{
    out_sink *o = (out_sink *)bs;
    o->rows += b->rows;
    o->bytes += block_bytes(b);
    int rc = fmt_writer_write(o->w, b);
    block_free(b);
    return rc;
}

static int out_totals(block_sink *bs, block *b)
{
    return fmt_writer_totals(((out_sink *)bs)->w, b);
}

/* ---- statements ---- */

typedef struct stmt_result {
    bool has_result;
    uint64_t rows;
    uint64_t bytes;
} stmt_result;

static const char *output_format(session *s, const ast *stmt)
{
    if (stmt && stmt->format)
        return stmt->format;
    if (s->default_format)
        return s->default_format;
    return s->stdout_tty ? "PrettyCompact" : "TSV";
}

static int write_blocks(session *s, query_ctx *q, const char *format, const char *outfile, const schema *sch,
                        int (*produce)(void *ctx, block_sink *sink), void *ctx, stmt_result *res)
{
    outstream *os;
    if (outfile) {
        if (outstream_open_file(outfile, false, &os))
            return -1;
    } else {
        os = outstream_from_fd(1, "stdout");
    }
    const char *canon = fmt_output_canonical(format);
    if (!canon) {
        os->close(os);
        return err_set(ERR_UNKNOWN_FORMAT, "Unknown output format %s", format);
    }
    fmt_writer *w;
    if (fmt_writer_new(canon, sch, &q->fmt, os, &w)) {
        os->close(os);
        return -1;
    }
    out_sink sink = {.base = {.write = out_write, .totals = out_totals}, .w = w};
    int rc = produce(ctx, &sink.base);
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
    res->rows = sink.rows;
    res->bytes = sink.bytes;
    (void)s;
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

typedef struct blocks_job {
    block *b;
} blocks_job;

static int produce_block(void *ctx, block_sink *sink)
{
    blocks_job *j = ctx;
    block *b = j->b;
    j->b = NULL;
    if (!b || b->rows == 0) {
        block_free(b);
        return 0;
    }
    return sink->write(sink, b);
}

static int run_select(session *s, query_ctx *q, const ast *stmt, stmt_result *res)
{
    query_plan *plan;
    if (analyze_query(stmt->sub, q, &plan))
        return -1;
    select_job job = {.plan = plan, .q = q};
    int rc = write_blocks(s, q, output_format(s, stmt), stmt->outfile, plan->out_schema, produce_select, &job, res);
    query_plan_free(plan);
    return rc;
}

static int run_describe(session *s, query_ctx *q, const ast *stmt, stmt_result *res)
{
    schema *tsch;
    block *tb;
    int trc = ddl_describe(stmt->sub, q, &tsch, &tb);
    if (trc <= 0) {
        if (trc < 0)
            return -1;
        blocks_job job = {.b = tb};
        int rc = write_blocks(s, q, output_format(s, stmt), NULL, tsch, produce_block, &job, res);
        block_free(job.b);
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
    blocks_job job = {.b = b};
    int rc = write_blocks(s, q, output_format(s, stmt), NULL, sch, produce_block, &job, res);
    block_free(job.b);
    schema_free(sch);
    return rc;
}

static int run_explain(session *s, query_ctx *q, const ast *stmt, stmt_result *res)
{
    const char *kind = stmt->explain_kind ? stmt->explain_kind : "PLAN";
    buf text = {0};
    if (strcasecmp(kind, "AST") == 0) {
        ast_dump(&text, stmt->sub, 0);
    } else if (strcasecmp(kind, "SYNTAX") == 0 || strcasecmp(kind, "QUERY TREE") == 0) {
        ast_format_sql(&text, stmt->sub);
        buf_putc(&text, '\n');
    } else if (strcasecmp(kind, "PLAN") == 0 || strcasecmp(kind, "PIPELINE") == 0) {
        query_plan *plan;
        if (stmt->sub->kind != AST_STMT_SELECT) {
            buf_free(&text);
            return err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN %s supports SELECT queries", kind);
        }
        if (analyze_query(stmt->sub->sub, q, &plan)) {
            buf_free(&text);
            return -1;
        }
        for (int i = 0; i < plan->nparts; i++) {
            select_plan *p = plan->parts[i];
            if (plan->nparts > 1)
                buf_printf(&text, "Union part %d\n", i + 1);
            buf_printf(&text, "Expression (Project names)\n");
            if (p->limit != UINT64_MAX || p->offset)
                buf_printf(&text, "  Limit (preliminary LIMIT)\n");
            if (p->norder)
                buf_printf(&text, "  Sorting (Sorting for ORDER BY)\n");
            if (p->distinct)
                buf_printf(&text, "  Distinct\n");
            if (p->having)
                buf_printf(&text, "  Filter (HAVING)\n");
            if (p->aggregate)
                buf_printf(&text, "  Aggregating (%d keys, %d aggregates)\n", p->nkeys, p->naggs);
            if (p->where)
                buf_printf(&text, "  Filter (WHERE)\n");
            buf_printf(&text, "  ReadFromSource (%d columns, %d tasks)\n", p->nsrc_cols, p->src->ntasks);
        }
        query_plan_free(plan);
    } else {
        buf_free(&text);
        return err_set(ERR_NOT_IMPLEMENTED, "EXPLAIN %s is not supported", kind);
    }
    schema *sch = schema_new(1);
    schema_set(sch, 0, "explain", type_simple(T_STRING));
    block *b = block_new_empty(sch);
    const char *p = buf_cstr(&text), *end = p + text.len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        col_push_str(b->cols[0], p, n);
        b->rows++;
        p += n + 1;
    }
    buf_free(&text);
    blocks_job job = {.b = b};
    int rc = write_blocks(s, q, output_format(s, stmt), NULL, sch, produce_block, &job, res);
    block_free(job.b);
    schema_free(sch);
    return rc;
}

static int run_insert(session *s, query_ctx *q, const ast *stmt, stmt_result *res)
{
    (void)s;
    (void)res;
    if (!stmt->table_func) {
        uint64_t rows = 0;
        return ddl_insert(stmt, q, &rows);
    }
    if (!stmt->sub)
        return err_set(ERR_NOT_IMPLEMENTED, "INSERT INTO FUNCTION supports only INSERT ... SELECT for now");
    const ast *f = stmt->table_func;
    bool to_s3 = strcasecmp(f->name, "s3") == 0;
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

static int run_statement(session *s, query_ctx *q, const ast *stmt, stmt_result *res)
{
    switch (stmt->kind) {
    case AST_STMT_INSERT: return run_insert(s, q, stmt, res);
    case AST_STMT_SELECT: return run_select(s, q, stmt, res);
    case AST_STMT_SET: return apply_settings(s->st, &stmt->settings);
    case AST_STMT_DESCRIBE: return run_describe(s, q, stmt, res);
    case AST_STMT_EXPLAIN: return run_explain(s, q, stmt, res);
    case AST_STMT_CREATE_TABLE:
    case AST_STMT_CREATE_DATABASE:
    case AST_STMT_DROP:
    case AST_STMT_TRUNCATE:
    case AST_STMT_RENAME:
    case AST_STMT_USE:
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
        blocks_job job = {.b = b};
        int rc = write_blocks(s, q, output_format(s, stmt), stmt->outfile, sch, produce_block, &job, res);
        block_free(job.b);
        schema_free(sch);
        return rc;
    }
    default:
        return err_set(ERR_NOT_IMPLEMENTED, "This kind of statement is not supported yet");
    }
}

/* ---- test hints: "-- { serverError CODE }" after a statement ---- */

static int expected_error(const char *from, const char *to)
{
    for (const char *p = from; p + 3 < to; p++) {
        const char *h = NULL;
        if (strncmp(p, "serverError", 11) == 0)
            h = p + 11;
        else if (strncmp(p, "clientError", 11) == 0)
            h = p + 11;
        if (!h)
            continue;
        while (h < to && (*h == ' ' || *h == '\t'))
            h++;
        char name[128];
        size_t n = 0;
        while (h < to && n < sizeof name - 1 && (isalnum((unsigned char)*h) || *h == '_'))
            name[n++] = *h++;
        name[n] = 0;
        int code = err_code_by_name(name);
        return code > 0 ? code : -2;
    }
    return 0;
}

static int execute_one(session *s, const char *sql, size_t len, const char *stmt_text, size_t stmt_len,
                       const ast *stmt, int parse_failed)
{
    query_ctx *q = query_new(s, NULL, NULL);
    q->sql_text = sql;
    q->sql_len = len;
    double wall_start = clock_realtime();
    stmt_result res = {0};
    int rc = parse_failed ? -1 : 0;
    bool started = false;
    if (!rc) {
        /* The statement's SETTINGS, and those of its (last) SELECT, apply to the whole
         * query, as in ClickHouse. */
        /* CREATE TABLE … SETTINGS are the table's (engine) settings, not the query's. */
        if (stmt->kind != AST_STMT_SET && stmt->kind != AST_STMT_CREATE_TABLE)
            rc = apply_settings(q->st, &stmt->settings);
        const ast *sel = stmt->sub;
        while (!rc && sel && (sel->kind == AST_UNION || sel->kind == AST_STMT_SELECT))
            sel = sel->kind == AST_UNION ? (sel->args.n ? sel->args.items[sel->args.n - 1] : NULL) : sel->sub;
        if (!rc && sel && sel->kind == AST_SELECT && stmt->kind != AST_STMT_EXPLAIN)
            rc = apply_settings(q->st, &sel->settings);
        if (!rc)
            rc = query_prepare(s, q);
        if (!rc) {
            started = true;
            mem_tracker *prev = mem_tracker_attach(&q->mem);
            atomic_store(&s->current, q);
            progress *pr = s->progress && isatty(2) ? progress_start(q) : NULL;
            rc = run_statement(s, q, stmt, &res);
            progress_stop(pr);
            atomic_store(&s->current, NULL);
            mem_tracker_attach(prev);
        }
    }
    double elapsed = clock_monotonic() - q->start_time;
    int code = rc ? (err_code() ? err_code() : ERR_LOGICAL_ERROR) : 0;
    if (settings_bool(s->st, "log_queries") && !(stmt && stmt->kind == AST_STMT_SET)) {
        /* The logged text hides secrets (s3 keys), as ClickHouse's query log does. */
        char *text = mask_secrets(stmt_text, stmt_len, (size_t)(stmt_text - sql), stmt);
        query_log_entry e = {.query_id = q->query_id,
                             .query = text,
                             .type = rc ? (started && q->started ? 4 : 3) : 2,
                             .start_time = wall_start,
                             .duration_ms = (uint64_t)(elapsed * 1000),
                             .read_rows = atomic_load(&q->read_rows),
                             .read_bytes = atomic_load(&q->read_bytes),
                             .result_rows = res.rows,
                             .result_bytes = res.bytes,
                             .memory_usage = atomic_load(&q->mem.peak),
                             .exception_code = code,
                             .exception = rc ? err_msg() : "",
                             .io = &q->io};
        char saved[ERR_MSG_MAX];
        snprintf(saved, sizeof saved, "%s", err_msg());
        if (query_log_append(s->data_path, &e))
            fprintf(stderr, "shale: warning: %s\n", err_msg());
        err_set(code, "%s", saved);
        free(text);
    }
    if (!rc && s->print_summary)
        print_summary(q, res.rows, res.has_result, elapsed);
    query_free(q);
    mem_cache_release(); /* the statement's large freed blocks go back to the kernel */
    (void)sql;
    (void)len;
    return rc ? code : 0;
}

/* ClickHouse's layout: "Code: N. DB::Exception: message. (NAME)", adding the period
 * only when the message does not already end with one. */
void print_error(int code, const char *msg)
{
    size_t n = strlen(msg);
    fprintf(stderr, "Code: %d. DB::Exception: %s%s (%s)\n", code, msg, n && msg[n - 1] == '.' ? "" : ".",
            err_name(code));
}

int session_run_script(session *s, const char *sql, size_t len)
{
    size_t pos = 0;
    arena a;
    arena_init(&a);
    int status = 0;
    int max_depth = (int)settings_int(s->st, "max_parser_depth");
    while (pos < len) {
        size_t start = pos;
        ast *stmt = NULL;
        int parse_rc = sql_parse_statement(&a, sql, len, &pos, max_depth, &stmt);
        if (parse_rc == 0 && !stmt)
            break;
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
        int expected = s->testmode ? expected_error(sql + hint_from, sql + line_end) : 0;
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
        int code = execute_one(s, sql, len, sql + ts, te - ts, stmt, parse_rc);
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
            if (expected > 0 && code != expected) {
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
            if (!s->interactive)
                break;
        }
    }
    arena_free(&a);
    return status;
}
