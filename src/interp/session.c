/* Instances, sessions and the queries they create. */
#include "interp/session.h"

#include "exec/backup_list.h"

#include "base/err.h"
#include "base/mem.h"
#include "base/rand.h"
#include "column/datetime.h"
#include "sql/analyze.h"
#include "storage/catalog.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- instance ---- */

int instance_open(const char *path, instance **out)
{
    instance *in = xcalloc(1, sizeof *in);
    if (path) {
        if (mkdir(path, 0755) != 0 && access(path, W_OK) != 0) {
            free(in);
            return err_set(ERR_CANNOT_OPEN_FILE, "Cannot use data directory %s", path);
        }
        in->data_path = xstrdup(path);
    } else {
        const char *tmp = getenv("TMPDIR");
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/shale-local-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        char *d = mkdtemp(dir);
        if (!d) {
            snprintf(dir, sizeof dir, "/tmp/shale-local-XXXXXX");
            d = mkdtemp(dir);
        }
        if (!d) {
            free(in);
            return err_set(ERR_CANNOT_OPEN_FILE, "Cannot create a temporary data directory");
        }
        in->data_path = xstrdup(d);
        in->temp_path = true;
    }
    /* The catalog loads every table now (engines recover their data) under a query of a
     * bootstrap session, whose settings are the defaults. */
    session *boot = session_new(in);
    query_ctx *q = query_new(boot);
    int rc = query_prepare(q, false);
    if (!rc)
        rc = catalog_open(in->data_path, q, &in->catalog);
    query_free(q);
    session_free(boot);
    if (rc) {
        instance_close(in);
        return -1;
    }
    *out = in;
    return 0;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

void instance_close(instance *in)
{
    if (!in)
        return;
    backup_list_wait_async(); /* ASYNC BACKUP / RESTORE hold tables of the catalog */
    catalog_close(in->catalog);
    if (in->temp_path && in->data_path)
        nftw(in->data_path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(in->data_path);
    free(in->user_files_path);
    free(in->tmp_path);
    for (int i = 0; i < in->nbackup_paths; i++)
        free(in->backup_paths[i]);
    free(in->backup_paths);
    free(in);
}

/* ---- session ---- */

session *session_new(instance *inst)
{
    session *s = xcalloc(1, sizeof *s);
    s->inst = inst;
    s->st = settings_new();
    snprintf(s->database, sizeof s->database, "default");
    snprintf(s->user, sizeof s->user, "default");
    return s;
}

int session_temp_catalog(session *s, query_ctx *q, struct catalog **out)
{
    if (!s->temp) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/temporary", s->inst->data_path);
        mkdir(dir, 0755);
        snprintf(dir, sizeof dir, "%s/temporary/session-XXXXXX", s->inst->data_path);
        if (!mkdtemp(dir))
            return err_set(ERR_CANNOT_CREATE_DIRECTORY, "Cannot create a directory for temporary tables under %s",
                           s->inst->data_path);
        if (catalog_open(dir, q, &s->temp)) {
            nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
            return -1;
        }
        s->temp_dir = xstrdup(dir);
        q->temp_catalog = s->temp;
    }
    *out = s->temp;
    return 0;
}

void session_free(session *s)
{
    if (!s)
        return;
    if (s->temp) {
        catalog_close(s->temp);
        nftw(s->temp_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        free(s->temp_dir);
    }
    settings_free(s->st);
    for (int i = 0; i < s->nparams; i++) {
        free(s->param_names[i]);
        free(s->param_values[i]);
    }
    free(s->param_names);
    free(s->param_values);
    free(s);
}

void session_set_param(session *s, const char *name, const char *value)
{
    for (int i = 0; i < s->nparams; i++)
        if (strcmp(s->param_names[i], name) == 0) {
            free(s->param_values[i]);
            s->param_values[i] = xstrdup(value);
            return;
        }
    s->param_names = xrealloc(s->param_names, sizeof(char *) * (size_t)(s->nparams + 1));
    s->param_values = xrealloc(s->param_values, sizeof(char *) * (size_t)(s->nparams + 1));
    s->param_names[s->nparams] = xstrdup(name);
    s->param_values[s->nparams] = xstrdup(value);
    s->nparams++;
}

/* ---- queries ---- */

query_ctx *query_new(session *s)
{
    query_ctx *q = xcalloc(1, sizeof *q);
    q->st = settings_clone(s->st);
    q->session = (struct session *)s;
    q->nparams = s->nparams;
    q->param_names = s->param_names;
    q->param_values = s->param_values;
    q->data_path = s->inst->data_path;
    q->catalog = s->inst->catalog;
    q->temp_catalog = s->temp;
    q->database = s->database;
    q->user_files_path = s->inst->user_files_path;
    q->tmp_path = s->inst->tmp_path;
    q->compile_expr = analyze_expr_on;
    q->start_time = clock_monotonic();
    rand_uuid_text(q->query_id); /* as ClickHouse names queries: a random UUID */
    s->query_seq++;
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

int settings_apply_ast(settings *st, const ast_list *l)
{
    for (int i = 0; l && i < l->n; i++) {
        const ast *kv = l->items[i];
        char val[4096];
        if (kv->sub && kv->sub->kind == AST_IDENT && kv->sub->nparts == 1 && !strcasecmp(kv->sub->parts[0], "DEFAULT")) {
            if (settings_reset(st, kv->name))
                return -1;
            continue;
        }
        if (kv->sub && kv->sub->kind == AST_LITERAL)
            literal_text(kv->sub, val, sizeof val);
        else if (kv->sub && kv->sub->kind == AST_IDENT)
            snprintf(val, sizeof val, "%s", kv->sub->parts[kv->sub->nparts - 1]);
        else
            return err_set(ERR_BAD_ARGUMENTS, "The value of setting %s must be a literal", kv->name);
        if (settings_set(st, kv->name, val))
            return -1;
    }
    return 0;
}

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
    f->pretty_footer_names = settings_int(st, "output_format_pretty_display_footer_column_names") != 0;
    f->pretty_footer_min_rows = settings_int(st, "output_format_pretty_display_footer_column_names_min_rows");
    f->pretty_fallback_to_vertical = settings_bool(st, "output_format_pretty_fallback_to_vertical");
    f->pretty_fallback_max_rows = settings_int(st, "output_format_pretty_fallback_to_vertical_max_rows_per_chunk");
    f->pretty_fallback_min_columns = settings_int(st, "output_format_pretty_fallback_to_vertical_min_columns");
    f->pretty_fallback_min_width = settings_int(st, "output_format_pretty_fallback_to_vertical_min_table_width");
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
    f->parquet_verify_checksums = settings_bool(st, "input_format_parquet_verify_checksums");
    int64_t bs = settings_int(st, "max_block_size");
    f->max_block_rows = bs > 0 ? (int)bs : 65409;
}

int query_prepare(query_ctx *q, bool output_tty)
{
    const char *tz = settings_str(q->st, "session_timezone");
    if (!tz[0])
        tz = tz_default_name();
    if (!tz_get(tz))
        return -1;
    q->env.timezone = tz;
    q->env.query_start = (int64_t)clock_realtime();
    q->env.database = q->database;
    q->env.user = ((session *)q->session)->user;
    q->max_threads = (int)settings_int(q->st, "max_threads");
    if (q->max_threads < 1)
        q->max_threads = 1;
    mem_tracker_init(&q->mem, settings_int(q->st, "max_memory_usage"), &mem_global);
    fill_fmt_settings(q, output_tty);
    return 0;
}

void query_free(query_ctx *q)
{
    if (!q)
        return;
    settings_free(q->st);
    free(q);
}
