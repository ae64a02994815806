/* Instances, sessions and the queries they create. */
#include "interp/session.h"
#include "interp/status_file.h"

#include "exec/backup_list.h"

#include "base/err.h"
#include "base/mem.h"
#include "base/rand.h"
#include "column/datetime.h"
#include "sql/analyze.h"
#include "storage/catalog.h"

#include <ftw.h>
#include <stddef.h>
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
        in->status_fd = status_file_lock(path);
        if (in->status_fd < 0) {
            free(in);
            return -1;
        }
        in->data_path = xstrdup(path);
    } else {
        in->status_fd = -1;
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
    else if (in->data_path)
        status_file_release(in->data_path, in->status_fd);
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
    q->read_view = analyze_view_source;
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

/* The fmt_settings fields that hold a setting's value as it is: the setting, how it is
 * read, and the field (whose type the macros check at compile time). */
typedef enum { FK_BOOL, FK_NONZERO, FK_INT, FK_INT64, FK_STR } fmt_field_kind;
typedef struct fmt_field {
    const char *setting;
    fmt_field_kind kind;
    size_t off;
} fmt_field;
#define FS_FIELD(field, type) (offsetof(fmt_settings, field) + 0 * sizeof(_Generic(((fmt_settings *)0)->field, type: 1)))
#define FS_BOOL(s, field) {s, FK_BOOL, FS_FIELD(field, bool)}
#define FS_NONZERO(s, field) {s, FK_NONZERO, FS_FIELD(field, bool)} /* settings_int(s) != 0 */
#define FS_INT(s, field) {s, FK_INT, FS_FIELD(field, int)}
#define FS_INT64(s, field) {s, FK_INT64, FS_FIELD(field, int64_t)}
#define FS_STR(s, field) {s, FK_STR, FS_FIELD(field, const char *)}
static const fmt_field fmt_fields[] = {
    FS_BOOL("output_format_csv_crlf_end_of_line", csv_crlf),
    FS_BOOL("output_format_tsv_crlf_end_of_line", tsv_crlf),
    FS_BOOL("input_format_skip_unknown_fields", skip_unknown_fields),
    FS_BOOL("input_format_null_as_default", null_as_default),
    FS_BOOL("output_format_json_quote_64bit_integers", json_quote_64bit_integers),
    FS_BOOL("output_format_json_quote_decimals", json_quote_decimals),
    FS_BOOL("output_format_json_quote_denormals", json_quote_denormals),
    FS_INT("output_format_pretty_max_rows", pretty_max_rows),
    FS_INT("output_format_pretty_max_column_pad_width", pretty_max_column_pad_width),
    FS_INT("output_format_pretty_max_value_width", pretty_max_value_width),
    FS_BOOL("output_format_pretty_row_numbers", pretty_row_numbers),
    FS_NONZERO("output_format_pretty_display_footer_column_names", pretty_footer_names),
    FS_INT64("output_format_pretty_display_footer_column_names_min_rows", pretty_footer_min_rows),
    FS_BOOL("output_format_pretty_fallback_to_vertical", pretty_fallback_to_vertical),
    FS_INT64("output_format_pretty_fallback_to_vertical_max_rows_per_chunk", pretty_fallback_max_rows),
    FS_INT64("output_format_pretty_fallback_to_vertical_min_columns", pretty_fallback_min_columns),
    FS_INT64("output_format_pretty_fallback_to_vertical_min_table_width", pretty_fallback_min_width),
    FS_INT64("output_format_pretty_single_large_number_tip_threshold", pretty_single_large_number_tip_threshold),
    FS_BOOL("output_format_pretty_highlight_digit_groups", pretty_highlight_digit_groups),
    FS_BOOL("output_format_pretty_highlight_trailing_spaces", pretty_highlight_trailing_spaces),
    FS_BOOL("output_format_pretty_multiline_fields", pretty_multiline_fields),
    FS_INT64("output_format_pretty_max_column_name_width_cut_to", pretty_name_cut_to),
    FS_INT64("output_format_pretty_max_column_name_width_min_chars_to_cut", pretty_name_min_chars_to_cut),
    FS_NONZERO("output_format_pretty_max_value_width_apply_for_single_value", pretty_max_value_width_single),
    FS_NONZERO("output_format_pretty_squash_consecutive_ms", pretty_squash),
    FS_BOOL("output_format_write_statistics", write_statistics),
    FS_NONZERO("schema_inference_make_columns_nullable", schema_inference_make_columns_nullable),
    FS_BOOL("input_format_try_infer_integers", try_infer_integers),
    FS_BOOL("input_format_try_infer_dates", try_infer_dates),
    FS_BOOL("input_format_try_infer_datetimes", try_infer_datetimes),
    FS_INT64("input_format_max_rows_to_read_for_schema_inference", max_rows_to_read_for_schema_inference),
    FS_BOOL("input_format_with_names_use_header", with_names_use_header),
    FS_BOOL("input_format_csv_detect_header", csv_detect_header),
    FS_BOOL("input_format_tsv_detect_header", tsv_detect_header),
    FS_INT64("output_format_parquet_row_group_size", parquet_row_group_rows),
    FS_INT64("output_format_parquet_row_group_size_bytes", parquet_row_group_bytes),
    FS_STR("output_format_parquet_compression_method", parquet_compression),
    FS_BOOL("input_format_parquet_verify_checksums", parquet_verify_checksums),
    FS_INT64("input_format_parquet_prefer_block_bytes", parquet_prefer_block_bytes),
};
#undef FS_FIELD
#undef FS_BOOL
#undef FS_NONZERO
#undef FS_INT
#undef FS_INT64
#undef FS_STR

static void fill_fmt_settings(query_ctx *q, bool tty)
{
    fmt_settings *f = &q->fmt;
    fmt_settings_default(f);
    const settings *st = q->st;
    for (size_t i = 0; i < sizeof fmt_fields / sizeof fmt_fields[0]; i++) {
        const fmt_field *ff = &fmt_fields[i];
        void *p = (char *)f + ff->off;
        switch (ff->kind) {
        case FK_BOOL: *(bool *)p = settings_bool(st, ff->setting); break;
        case FK_NONZERO: *(bool *)p = settings_int(st, ff->setting) != 0; break;
        case FK_INT: *(int *)p = (int)settings_int(st, ff->setting); break;
        case FK_INT64: *(int64_t *)p = settings_int(st, ff->setting); break;
        case FK_STR: *(const char **)p = settings_str(st, ff->setting); break;
        }
    }
    /* the fields that are not a setting as it is */
    const char *d = settings_str(st, "format_csv_delimiter");
    f->csv_delimiter = d[0] ? d[0] : ',';
    const char *color = settings_str(st, "output_format_pretty_color");
    f->pretty_color = strcmp(color, "auto") == 0 ? tty : (strcmp(color, "1") == 0 || strcasecmp(color, "true") == 0);
    f->pretty_ascii = strcmp(settings_str(st, "output_format_pretty_grid_charset"), "ASCII") == 0; /* else UTF-8 */
    f->timezone = q->env.timezone;
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
    q->env.multiif_to_if = settings_bool(q->st, "optimize_multiif_to_if");
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
