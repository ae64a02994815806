/* System tables: system.settings, system.functions, system.formats, system.query_log
 * (read from the query log file in the data directory). system.one and system.numbers
 * are built by the analyzer. */
#include "base/err.h"
#include "base/mem.h"
#include "func/agg.h"
#include "func/udf.h"
#include <stdio.h>
#include "exec/query_log.h"
#include "exec/text_log.h"
#include "func/func.h"
#include "storage/structure.h"

#include <unistd.h>
#include "exec/backup_list.h"
#include "exec/process_list.h"
#include "storage/catalog.h"
#include "storage/cluster.h"
#include "storage/dist_queue.h"
#include "storage/mergetree/old_syntax.h"
#include "storage/schema_cache.h"

#include <stdlib.h>
#include "storage/tablefunc.h"
#include "storage/table.h"

#include <string.h>

static void push_cstr(column *c, const char *s) { col_push_str(c, s, s ? strlen(s) : 0); }

static void push_u8(column *c, int v)
{
    uint8_t x = (uint8_t)v;
    col_push_fixed(c, &x);
}

static source *one_block_source(schema *sch, block *b)
{
    block **bs = xcalloc(1, sizeof *bs);
    bs[0] = b;
    return source_from_blocks(sch, bs, 1);
}

static block *empty_block(const schema *sch) { return block_new_empty(sch); }

/* system.settings with ClickHouse's columns; an alias shows the value of the setting it names. */
static source *settings_table(query_ctx *q)
{
    static const char *const names[] = {"name",     "value", "changed", "description", "min",      "max",        "disallowed_values",
                                        "readonly", "type",  "default", "alias_for",   "is_obsolete", "tier"};
    schema *sch = schema_new(13);
    const type *str = type_simple(T_STRING), *u8 = type_simple(T_UINT8);
    const type *types[] = {str, str, u8, str, type_nullable(str), type_nullable(str), type_array(str), u8, str, str, str, u8,
                           type_parse_cstr("Enum8('Production' = 0, 'Obsolete' = 4, 'Experimental' = 8, 'Beta' = 12)")};
    for (int i = 0; i < 13; i++)
        schema_set(sch, i, names[i], types[i]);
    block *b = empty_block(sch);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 0; i < settings_count(); i++) {
        const setting_def *d = settings_def_at(i);
        int k = d->alias >= 0 ? d->alias : i;
        push_cstr(b->cols[0], d->name);
        char tmp[64];
        const char *v = settings_text_at(q->st, k);
        if (d->kind == SET_MAXTHREADS && strcmp(v, "auto") == 0) {
            snprintf(tmp, sizeof tmp, "auto(%d)", (int)settings_num_at(q->st, k));
            v = tmp;
        }
        push_cstr(b->cols[1], v);
        push_u8(b->cols[2], settings_changed_at(q->st, k));
        push_cstr(b->cols[3], d->description);
        col_push_null(b->cols[4]);
        col_push_null(b->cols[5]);
        col_array_commit(b->cols[6]);
        push_u8(b->cols[7], settings_int(q->st, "readonly") != 0 && strcmp(d->name, "readonly") != 0 ? 1 : 0);
        push_cstr(b->cols[8], d->type);
        const char *def = d->ch_default;
        if (d->kind == SET_MAXTHREADS && strcmp(def, "auto") == 0) {
            snprintf(tmp, sizeof tmp, "auto(%ld)", cores > 0 ? cores : 1);
            def = tmp;
        }
        push_cstr(b->cols[9], def);
        push_cstr(b->cols[10], d->alias_for);
        push_u8(b->cols[11], d->obsolete);
        int8_t tier = (int8_t)d->tier;
        col_push_fixed(b->cols[12], &tier);
        b->rows++;
    }
    return one_block_source(sch, b);
}

/* One row of system.functions; origin: 0 System, 1 SQLUserDefined. */
static void function_row(block *b, const char *name, int is_agg, int ci, const char *alias_to,
                         const char *create_query, int8_t origin, const char *description)
{
    push_cstr(b->cols[0], name);
    push_u8(b->cols[1], is_agg);
    push_u8(b->cols[2], ci);
    push_cstr(b->cols[3], alias_to);
    push_cstr(b->cols[4], create_query);
    col_push_fixed(b->cols[5], &origin);
    push_cstr(b->cols[6], description);
    b->rows++;
}

static source *functions_table(void)
{
    func_registry_init();
    schema *sch = schema_new(7);
    schema_set(sch, 0, "name", type_simple(T_STRING));
    schema_set(sch, 1, "is_aggregate", type_simple(T_UINT8));
    schema_set(sch, 2, "case_insensitive", type_simple(T_UINT8));
    schema_set(sch, 3, "alias_to", type_simple(T_STRING));
    schema_set(sch, 4, "create_query", type_simple(T_STRING));
    schema_set(sch, 5, "origin", type_parse_cstr("Enum8('System' = 0, 'SQLUserDefined' = 1, 'ExecutableUserDefined' = 2)"));
    schema_set(sch, 6, "description", type_simple(T_STRING));
    block *b = empty_block(sch);
    for (int i = 0; i < func_listing_count(); i++) {
        const func_listing *d = func_listing_at(i);
        function_row(b, d->name, d->is_aggregate, d->case_insensitive, d->alias_to, "", 0, d->description);
    }
    for (int i = 0; i < agg_count(); i++) {
        const agg_def *d = agg_at(i);
        function_row(b, d->name, 1, (d->flags & FN_CASE_INSENSITIVE) != 0, "", "", 0,
                     d->description ? d->description : "");
    }
    for (int i = 0; i < agg_alias_count(); i++) {
        const char *to;
        bool ci;
        const char *alias = agg_alias_at(i, &to, &ci);
        function_row(b, alias, 1, ci, to, "", 0, "");
    }
    char **names, **queries;
    int n;
    udf_list(&names, &queries, &n);
    for (int i = 0; i < n; i++) {
        function_row(b, names[i], 0, 0, "", queries[i], 1, "");
        free(names[i]);
        free(queries[i]);
    }
    free(names);
    free(queries);
    return one_block_source(sch, b);
}

static source *formats_table(void)
{
    static const char *names[] = {"TabSeparated", "TSV", "TabSeparatedWithNames", "TSVWithNames",
                                  "TabSeparatedWithNamesAndTypes", "TSVWithNamesAndTypes", "TabSeparatedRaw", "TSVRaw",
                                  "CSV", "CSVWithNames", "CSVWithNamesAndTypes", "JSONEachRow", "JSON", "JSONCompact",
                                  "JSONCompactEachRow", "Pretty", "PrettyCompact", "PrettyCompactMonoBlock",
                                  "PrettySpace", "Vertical", "Markdown", "Values", "Null", "Native", "RawBLOB",
                                  "Parquet", "RowBinary", "RowBinaryWithNames", "RowBinaryWithNamesAndTypes",
                                  "JSONCompactEachRowWithNames", "JSONCompactEachRowWithNamesAndTypes",
                                  "JSONCompactStringsEachRowWithNames", "JSONCompactStringsEachRowWithNamesAndTypes",
                                  "JSONEachRowWithProgress", "JSONStringsEachRowWithProgress", "JSONObjectEachRow"};
    schema *sch = schema_new(3);
    schema_set(sch, 0, "name", type_simple(T_STRING));
    schema_set(sch, 1, "is_input", type_simple(T_UINT8));
    schema_set(sch, 2, "is_output", type_simple(T_UINT8));
    block *b = empty_block(sch);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        bool in = fmt_input_canonical(names[i]) != NULL, out = fmt_output_canonical(names[i]) != NULL;
        if (!in && !out)
            continue;
        push_cstr(b->cols[0], names[i]);
        push_u8(b->cols[1], in);
        push_u8(b->cols[2], out);
        b->rows++;
    }
    return one_block_source(sch, b);
}

int system_log_source(const char *structure, const char *path, query_ctx *q, source **out)
{
    if (log_files_flush()) /* the rows still buffered in this process */
        return -1;
    schema *sch;
    if (structure_parse(structure, strlen(structure), &sch))
        return -1;
    block *all = block_new_empty(sch);
    if (path && access(path, R_OK) == 0) {
        instream *in;
        if (instream_open_file(path, &in)) {
            block_free(all);
            schema_free(sch);
            return -1;
        }
        fmt_reader *r;
        if (fmt_reader_new("TabSeparated", rbuf_new(in, 1 << 16), sch, &q->fmt, &r)) {
            block_free(all);
            schema_free(sch);
            return -1;
        }
        for (;;) {
            block *b;
            if (fmt_reader_next(r, &b)) {
                fmt_reader_free(r);
                block_free(all);
                schema_free(sch);
                return err_prefix("Reading the log %s: ", path);
            }
            if (!b)
                break;
            block_append(all, b);
            block_free(b);
        }
        fmt_reader_free(r);
    }
    block **bs = xcalloc(1, sizeof *bs);
    bs[0] = all;
    *out = source_from_blocks(sch, bs, 1);
    return 0;
}

int query_log_source(query_ctx *q, source **out)
{
    char path[4096];
    query_log_path(q->data_path ? q->data_path : ".", path, sizeof path, false);
    return system_log_source(QUERY_LOG_STRUCTURE, q->data_path ? path : NULL, q, out);
}

static void push_u64(column *c, uint64_t v) { col_push_fixed(c, &v); }

/* system.databases: name, engine, data_path, metadata_path, comment. */
static source *databases_table(query_ctx *q)
{
    static const char *names[] = {"name", "engine", "data_path", "metadata_path", "comment"};
    schema *sch = schema_new(5);
    for (int i = 0; i < 5; i++)
        schema_set(sch, i, names[i], type_simple(T_STRING));
    block *b = empty_block(sch);
    char **dbs = NULL;
    int n = 0;
    if (q->catalog)
        catalog_list_databases(q->catalog, &dbs, &n);
    for (int i = 0; i < n; i++) {
        bool sys = strcmp(dbs[i], "system") == 0;
        push_cstr(b->cols[0], dbs[i]);
        push_cstr(b->cols[1], sys ? "Memory" : "Ordinary");
        char path[4096];
        snprintf(path, sizeof path, "%s/data/%s/", q->data_path ? q->data_path : "", dbs[i]);
        push_cstr(b->cols[2], path);
        snprintf(path, sizeof path, "%s/metadata/%s/", q->data_path ? q->data_path : "", dbs[i]);
        push_cstr(b->cols[3], sys ? "" : path);
        push_cstr(b->cols[4], "");
        b->rows++;
        free(dbs[i]);
    }
    free(dbs);
    return one_block_source(sch, b);
}

/* The canonical CREATE text (interp/ddl.c: "CREATE TABLE db.t\n(\n    `a` T,\n    …\n)\n
 * ENGINE = …\nORDER BY …") on one line: "CREATE TABLE db.t (`a` T, …) ENGINE = … ORDER BY …".
 * Literals in it never hold a raw newline (they are escaped), so every newline is layout. */
static void create_sql_one_line(buf *out, const char *s)
{
    while (*s) {
        if (!strncmp(s, "\n(\n    ", 7)) {
            buf_puts(out, " (");
            s += 7;
        } else if (!strncmp(s, ",\n    ", 6)) {
            buf_puts(out, ", ");
            s += 6;
        } else if (!strncmp(s, "\n)", 2)) {
            buf_putc(out, ')');
            s += 2;
        } else if (*s == '\n') {
            buf_putc(out, ' ');
            s++;
        } else {
            buf_putc(out, *s++);
        }
    }
    buf_putc(out, 0);
    out->len--;
}

/* A materialized view with an inner table, on one line as ClickHouse shows it: its
 * inner table's storage clauses where the canonical text names the table
 * ("… mv TO db.`.inner_id.…` (…) AS SELECT" → "… mv (…) ENGINE = … AS SELECT"). */
static void inner_storage_clauses(buf *text, const table *mv, query_ctx *q)
{
    table *inner;
    if (mview_target(mv, q, &inner)) {
        err_clear();
        return;
    }
    buf one = {0}, out = {0};
    create_sql_one_line(&one, inner->create_sql);
    const char *s = (const char *)text->p, *to = strstr(s, " TO "), *cols = to ? strstr(to, " (") : NULL;
    const char *as = cols ? strstr(cols, ") AS ") : NULL, *engine = strstr((const char *)one.p, " ENGINE = ");
    if (as && engine) {
        buf_append(&out, s, (size_t)(to - s));
        buf_append(&out, cols, (size_t)(as - cols) + 1);
        buf_puts(&out, engine);
        buf_puts(&out, as + 1);
        text->len = 0;
        buf_append(text, out.p, out.len);
        buf_putc(text, 0);
        text->len--;
    }
    buf_free(&one);
    buf_free(&out);
    table_unref(inner);
}

/* system.tables (the usual subset) and system.columns, from the catalog. */
static source *tables_table(query_ctx *q, bool columns)
{
    schema *sch;
    if (columns) {
        static const char *names[] = {"database", "table", "name", "type", "position", "default_kind",
                                      "default_expression", "comment", "compression_codec"};
        sch = schema_new(9);
        for (int i = 0; i < 9; i++)
            schema_set(sch, i, names[i], type_simple(i == 4 ? T_UINT64 : T_STRING));
    } else {
        static const char *names[] = {"database", "name", "engine", "is_temporary", "data_paths",
                                      "metadata_path", "create_table_query", "engine_full", "total_rows",
                                      "comment", "partition_key", "sorting_key", "primary_key", "sampling_key"};
        sch = schema_new(14);
        for (int i = 0; i < 14; i++)
            schema_set(sch, i, names[i], type_simple(T_STRING));
        schema_set(sch, 3, "is_temporary", type_simple(T_UINT8));
        schema_set(sch, 4, "data_paths", type_array(type_simple(T_STRING)));
        schema_set(sch, 8, "total_rows", type_nullable(type_simple(T_UINT64)));
    }
    block *b = empty_block(sch);
    table **ts = NULL;
    int n = 0;
    if (q->catalog)
        catalog_list(q->catalog, &ts, &n);
    buf tmp = {0};
    for (int i = 0; i < n; i++) {
        table *t = ts[i];
        if (columns) {
            for (int k = 0; k < t->ncols; k++) {
                const table_column *c = &t->cols[k];
                push_cstr(b->cols[0], t->database);
                push_cstr(b->cols[1], t->name);
                push_cstr(b->cols[2], c->name);
                push_cstr(b->cols[3], c->type->name);
                push_u64(b->cols[4], (uint64_t)k + 1);
                push_cstr(b->cols[5], c->default_kind ? c->default_kind : "");
                tmp.len = 0;
                if (c->default_expr)
                    ast_format_expr(&tmp, c->default_expr);
                col_push_str(b->cols[6], (const char *)tmp.p, tmp.len);
                push_cstr(b->cols[7], c->comment ? c->comment : "");
                tmp.len = 0;
                if (c->codec) {
                    buf_puts(&tmp, "CODEC(");
                    for (int j = 0; j < c->codec->n; j++) {
                        if (j)
                            buf_puts(&tmp, ", ");
                        ast_format_expr(&tmp, c->codec->items[j]);
                    }
                    buf_putc(&tmp, ')');
                }
                col_push_str(b->cols[8], (const char *)tmp.p, tmp.len);
                b->rows++;
            }
        } else {
            push_cstr(b->cols[0], t->database);
            push_cstr(b->cols[1], t->name);
            push_cstr(b->cols[2], t->engine->name);
            push_u8(b->cols[3], 0);
            if (t->engine->has_data_dir)
                col_push_str(b->cols[4]->inner, t->data_dir, strlen(t->data_dir));
            col_array_commit(b->cols[4]);
            tmp.len = 0;
            buf_printf(&tmp, "%s/metadata/%s/%s.sql", q->data_path ? q->data_path : "", t->database, t->name);
            col_push_str(b->cols[5], (const char *)tmp.p, tmp.len);
            /* system.tables shows the statement on one line, as ClickHouse does. */
            tmp.len = 0;
            create_sql_one_line(&tmp, t->create_sql);
            if (t->engine == &engine_view || t->engine == &engine_materialized_view) {
                /* the SELECT as ClickHouse formats it, else as written (docs/differences.md) */
                buf sel = {0};
                char *as = strstr((char *)tmp.p, ") AS ");
                if (as && ast_format_query_ch(&sel, t->create->as_select, t->create_sql, strlen(t->create_sql),
                                              t->database, true)) {
                    tmp.len = (size_t)(as - (char *)tmp.p) + 5;
                    buf_append(&tmp, sel.p, sel.len);
                    buf_putc(&tmp, 0);
                    tmp.len--;
                }
                buf_free(&sel);
            }
            if (t->engine == &engine_materialized_view && mview_has_inner(t))
                inner_storage_clauses(&tmp, t, q);
            col_push_str(b->cols[6], (const char *)tmp.p, tmp.len);
            /* engine_full: from the engine to the end, without the table's COMMENT */
            const char *eng = strstr((const char *)tmp.p, " ENGINE = ");
            const char *eng_end = eng ? (const char *)tmp.p + tmp.len : NULL;
            const char *cm = eng && t->create->comment ? strstr(eng, " COMMENT '") : NULL;
            for (const char *c = cm; c; c = strstr(c + 1, " COMMENT '"))
                cm = c;
            if (cm)
                eng_end = cm;
            if (t->engine == &engine_materialized_view)
                eng = NULL; /* ClickHouse shows no engine_full for a materialized view */
            col_push_str(b->cols[7], eng ? eng + 10 : "", eng ? (size_t)(eng_end - eng - 10) : 0);
            source *src = NULL;
            int64_t rows = -1;
            /* a materialized view: its inner table's rows (none shown for a TO view) */
            table *rows_of = t;
            if (t->engine == &engine_materialized_view && (!mview_has_inner(t) || mview_target(t, q, &rows_of)))
                rows_of = NULL;
            if (rows_of && rows_of->engine->read(rows_of, false, q, &src) == 0) {
                rows = src->count_rows ? src->count_rows(src, q) : -1;
                source_free(src);
            }
            err_clear();
            if (rows_of && rows_of != t)
                table_unref(rows_of);
            if (rows >= 0) {
                uint64_t v = (uint64_t)rows;
                col_push_fixed(b->cols[8]->inner, &v);
                col_nullable_commit(b->cols[8], false);
            } else {
                col_push_null(b->cols[8]);
            }
            push_cstr(b->cols[9], t->create->comment ? t->create->comment : "");
            buf keys[4] = {{0}};
            if (t->engine != &engine_materialized_view && t->engine != &engine_view)
                mt_key_texts(t->create, keys);
            for (int k = 0; k < 4; k++) {
                col_push_str(b->cols[10 + k], (const char *)keys[k].p, keys[k].len);
                buf_free(&keys[k]);
            }
            b->rows++;
        }
        table_unref(t);
    }
    buf_free(&tmp);
    free(ts);
    return one_block_source(sch, b);
}

/* system.processes: the queries running now (exec/process_list.h), with ClickHouse's
 * column names for what shale measures. */
static source *processes_table(void)
{
    static const struct {
        const char *name;
        type_id t;
    } cols[] = {{"is_initial_query", T_UINT8}, {"user", T_STRING},           {"query_id", T_STRING},
                {"elapsed", T_FLOAT64},       {"is_cancelled", T_UINT8},     {"read_rows", T_UINT64},
                {"read_bytes", T_UINT64},     {"total_rows_approx", T_UINT64}, {"memory_usage", T_INT64},
                {"peak_memory_usage", T_INT64}, {"query", T_STRING},         {"current_database", T_STRING}};
    int ncols = (int)(sizeof cols / sizeof cols[0]);
    schema *sch = schema_new(ncols);
    for (int i = 0; i < ncols; i++)
        schema_set(sch, i, cols[i].name, type_simple(cols[i].t));
    block *b = empty_block(sch);
    process_info *p;
    int n;
    process_list_snapshot(&p, &n);
    for (int i = 0; i < n; i++) {
        push_u8(b->cols[0], 1);
        push_cstr(b->cols[1], p[i].user);
        push_cstr(b->cols[2], p[i].query_id);
        col_push_fixed(b->cols[3], &p[i].elapsed);
        push_u8(b->cols[4], p[i].is_cancelled);
        push_u64(b->cols[5], p[i].read_rows);
        push_u64(b->cols[6], p[i].read_bytes);
        push_u64(b->cols[7], p[i].total_rows_approx);
        col_push_fixed(b->cols[8], &p[i].memory_usage);
        col_push_fixed(b->cols[9], &p[i].peak_memory_usage);
        push_cstr(b->cols[10], p[i].query);
        push_cstr(b->cols[11], p[i].database);
        b->rows++;
    }
    process_list_free_snapshot(p, n);
    return one_block_source(sch, b);
}

/* system.backups: the BACKUP / RESTORE operations of this process (exec/backup_list.h),
 * ClickHouse's columns without its three Map columns (ProfileEvents, settings,
 * engine_settings; docs/backup.md). */
static source *backups_table(void)
{
    static const char *names[] = {"id", "name", "base_backup_name", "query_id", "status", "error", "start_time",
                                  "end_time", "num_files", "total_size", "num_entries", "uncompressed_size",
                                  "compressed_size", "files_read", "bytes_read"};
    schema *sch = schema_new(15);
    for (int i = 0; i < 15; i++) {
        const type *t = i < 4 || i == 5 ? type_simple(T_STRING)
                        : i == 4        ? type_parse_cstr(BACKUP_STATUS_TYPE)
                        : i < 8         ? type_datetime64(6, NULL)
                                        : type_simple(T_UINT64);
        schema_set(sch, i, names[i], t);
    }
    block *b = empty_block(sch);
    backup_info *v;
    int n;
    backup_list_snapshot(&v, &n);
    for (int i = 0; i < n; i++) {
        push_cstr(b->cols[0], v[i].id);
        push_cstr(b->cols[1], v[i].name);
        push_cstr(b->cols[2], v[i].base_backup_name);
        push_cstr(b->cols[3], v[i].query_id);
        int8_t st = (int8_t)v[i].status;
        col_push_fixed(b->cols[4], &st);
        push_cstr(b->cols[5], v[i].error);
        col_push_fixed(b->cols[6], &v[i].start_us);
        col_push_fixed(b->cols[7], &v[i].end_us);
        const uint64_t counts[] = {v[i].num_files,        v[i].total_size,      v[i].num_entries, v[i].uncompressed_size,
                                   v[i].compressed_size, v[i].files_read,     v[i].bytes_read};
        for (int k = 0; k < 7; k++)
            push_u64(b->cols[8 + k], counts[k]);
        b->rows++;
    }
    backup_list_free_snapshot(v, n);
    return one_block_source(sch, b);
}

int system_table(const char *name, query_ctx *q, source **out)
{
    if (strcmp(name, "backups") == 0) {
        *out = backups_table();
        return 0;
    }
    if (strcmp(name, "clusters") == 0)
        return cluster_system_table(q, out);
    if (strcmp(name, "distribution_queue") == 0)
        return dist_queue_system_table(q, out);
    if (strcmp(name, "processes") == 0) {
        *out = processes_table();
        return 0;
    }
    if (strcmp(name, "databases") == 0) {
        *out = databases_table(q);
        return 0;
    }
    if (strcmp(name, "tables") == 0 || strcmp(name, "columns") == 0) {
        *out = tables_table(q, name[0] == 'c');
        return 0;
    }
    if (strcmp(name, "parts") == 0)
        return mergetree_system_parts(q, out);
    if (strcmp(name, "merges") == 0)
        return mergetree_system_merges(q, out);
    if (strcmp(name, "mutations") == 0)
        return mergetree_system_mutations(q, out);
    if (strcmp(name, "part_log") == 0)
        return mergetree_part_log(q, out);
    if (strcmp(name, "settings") == 0)
        *out = settings_table(q);
    else if (strcmp(name, "functions") == 0)
        *out = functions_table();
    else if (strcmp(name, "formats") == 0)
        *out = formats_table();
    else if (strcmp(name, "query_log") == 0)
        return query_log_source(q, out);
    else if (strcmp(name, "text_log") == 0) {
        char path[4096];
        text_log_path(q->data_path ? q->data_path : ".", path, sizeof path);
        return system_log_source(TEXT_LOG_STRUCTURE, q->data_path ? path : NULL, q, out);
    }
    else if (strcmp(name, "schema_inference_cache") == 0)
        return schema_cache_source(q, out);
    else
        return err_set(ERR_UNKNOWN_TABLE, "Table system.%s does not exist", name);
    return 0;
}
