/* The MergeTree family as table engines (storage/table.h): opening a table (its keys,
 * settings and codecs from the CREATE statement, its parts from disk), the part list,
 * committing parts, TRUNCATE, OPTIMIZE, CHECK and ALTER … ATTACH PART. */
#include "storage/mergetree/mt.h"
#include "storage/mergetree/old_syntax.h"

#include "base/err.h"
#include "base/mem.h"
#include "base/units.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- settings ---- */

typedef struct mt_setting_def {
    const char *name;
    size_t off;
    uint64_t def;
    bool is_bool;
} mt_setting_def;

#define S(field, def) {#field, offsetof(mt_settings, field), def, false}
static const mt_setting_def setting_defs[] = {
    S(index_granularity, 8192),
    S(index_granularity_bytes, 10485760),
    S(min_compress_block_size, 65536),
    S(max_compress_block_size, 1048576),
    S(parts_to_delay_insert, 1000),
    S(parts_to_throw_insert, 3000),
    S(max_delay_to_insert, 1),
    S(max_bytes_to_merge_at_max_space_in_pool, 161061273600ull),
    S(max_parts_to_merge_at_once, 100),
    S(old_parts_lifetime, 480),
    S(non_replicated_deduplication_window, 0),
    S(merge_max_block_size, 8192),
    {"enable_vertical_merge_algorithm", offsetof(mt_settings, enable_vertical_merge_algorithm), 1, true},
    {"allow_dimensions_outside_sorting_key", offsetof(mt_settings, allow_dimensions_outside_sorting_key), 0, true},
    S(vertical_merge_algorithm_min_rows_to_activate, 131072),
    S(vertical_merge_algorithm_min_columns_to_activate, 11),
};
#undef S

/* Settings ClickHouse has that shale accepts without acting on them. */
static const char *accepted_settings[] = {
    "min_bytes_for_wide_part", "min_rows_for_wide_part", "storage_policy", "ratio_of_defaults_for_sparse_serialization",
    "compress_marks", "compress_primary_key", "allow_nullable_key", "min_bytes_for_compact_part",
    "merge_with_ttl_timeout", "use_minimalistic_part_header_in_zookeeper", "write_final_mark",
    "replace_long_file_name_to_hash", "max_file_name_length", "min_age_to_force_merge_seconds",
    "number_of_free_entries_in_pool_to_execute_mutation", "ttl_only_drop_parts", "allow_experimental_block_number_column",
    /* storage layout, checks and indexes that change no result */
    "min_index_granularity_bytes", "string_serialization_version", "auto_statistics_types",
    "add_minmax_index_for_numeric_columns", "serialization_info_version", "nullable_serialization_version",
    "dynamic_serialization_version", "map_serialization_version", "object_serialization_version",
    "object_shared_data_serialization_version", "object_shared_data_serialization_version_for_zero_level_parts",
    "object_shared_data_buckets_for_wide_part", "object_shared_data_buckets_for_compact_part",
    "min_bytes_for_full_part_storage", "min_rows_for_full_part_storage", "write_marks_for_substreams_in_compact_parts",
    "use_const_adaptive_granularity", "enable_index_granularity_compression", "marks_compress_block_size",
    "primary_key_compress_block_size", "merge_max_block_size_bytes", "allow_vertical_merges_from_compact_to_wide_parts",
    "allow_suspicious_indices", "distributed_index_analysis_min_parts_to_activate",
    /* caches, locks and cleanup timing */
    "use_primary_key_cache", "prewarm_mark_cache", "prewarm_primary_key_cache", "cleanup_delay_period",
    "max_cleanup_delay_period", "lock_acquire_timeout_for_background_operations",
    /* obsolete in ClickHouse 26.7, which accepts and ignores them */
    "allow_experimental_reverse_key", "check_delay_period", "clean_deleted_rows", "cleanup_threads",
    "in_memory_parts_enable_wal", "in_memory_parts_insert_sync", "kill_delay_period", "kill_delay_period_random_add",
    "kill_threads", "max_digestion_size_per_segment", "max_part_loading_threads", "max_part_removal_threads",
    "merge_tree_clear_old_broken_detached_parts_ttl_timeout_seconds", "merge_tree_enable_clear_old_broken_detached",
    "min_relative_delay_to_yield_leadership", "min_rows_for_compact_part", "replicated_fetches_http_connection_timeout",
    "replicated_fetches_http_receive_timeout", "replicated_fetches_http_send_timeout", "replicated_max_parallel_fetches",
    "replicated_max_parallel_fetches_for_host", "replicated_max_parallel_fetches_for_table",
    "replicated_max_parallel_sends", "replicated_max_parallel_sends_for_table", "use_async_block_ids_cache",
    "use_metadata_cache", "write_ahead_log_bytes_to_fsync", "write_ahead_log_interval_ms_to_fsync",
    "write_ahead_log_max_bytes", NULL};

/* Settings accepted at their default only: another value adds what shale lacks (the
 * persisted _block_number / _block_offset columns). */
static const char *default_off_settings[] = {"enable_block_number_column", "enable_block_offset_column", NULL};

static int literal_u64(const ast *v, uint64_t *out)
{
    if (v->kind == AST_LITERAL && (v->lit == LIT_UINT || v->lit == LIT_BOOL)) {
        *out = v->u;
        return 0;
    }
    if (v->kind == AST_LITERAL && v->lit == LIT_STRING) {
        if (parse_u64_size_suffix(v->str, out) == 0) /* '10Mi', '8K' */
            return 0;
        if (!strcasecmp(v->str, "true") || !strcasecmp(v->str, "false")) {
            *out = !strcasecmp(v->str, "true");
            return 0;
        }
    }
    return -1;
}

static int parse_settings(mt_table *m, const ast_list *list)
{
    for (size_t i = 0; i < sizeof setting_defs / sizeof *setting_defs; i++) {
        const mt_setting_def *d = &setting_defs[i];
        if (d->is_bool)
            *(bool *)((char *)&m->set + d->off) = d->def != 0;
        else
            *(uint64_t *)((char *)&m->set + d->off) = d->def;
    }
    for (int i = 0; list && i < list->n; i++) {
        const ast *s = list->items[i];
        const mt_setting_def *d = NULL;
        for (size_t k = 0; k < sizeof setting_defs / sizeof *setting_defs; k++)
            if (!strcmp(setting_defs[k].name, s->name))
                d = &setting_defs[k];
        if (!d) {
            bool ok = false;
            for (int k = 0; accepted_settings[k]; k++)
                ok |= !strcmp(accepted_settings[k], s->name);
            for (int k = 0; default_off_settings[k]; k++) {
                uint64_t v;
                if (strcmp(default_off_settings[k], s->name))
                    continue;
                if (!s->sub || literal_u64(s->sub, &v) || v)
                    return err_set(ERR_NOT_IMPLEMENTED, "MergeTree setting %s is not supported yet (only 0)", s->name);
                ok = true;
            }
            if (!ok)
                return err_set(ERR_UNKNOWN_SETTING, "Unknown setting '%s': for storage %s", s->name,
                               m->t->engine->name);
            continue;
        }
        uint64_t v;
        if (!s->sub || literal_u64(s->sub, &v))
            return err_set(ERR_BAD_ARGUMENTS, "Setting %s: expected a non-negative integer", s->name);
        if (d->is_bool)
            *(bool *)((char *)&m->set + d->off) = v != 0;
        else
            *(uint64_t *)((char *)&m->set + d->off) = v;
    }
    if (m->set.index_granularity == 0)
        return err_set(ERR_BAD_ARGUMENTS, "index_granularity: value 0 makes no sense");
    if (m->set.merge_max_block_size == 0)
        m->set.merge_max_block_size = 8192;
    return 0;
}

/* ---- keys ---- */

static void collect_columns(const ast *e, const schema *sch, int *cols, int *n)
{
    if (!e)
        return;
    if (e->kind == AST_IDENT && e->nparts >= 1) {
        int c = schema_find(sch, e->parts[e->nparts - 1]);
        if (c >= 0) {
            for (int i = 0; i < *n; i++)
                if (cols[i] == c)
                    return;
            cols[(*n)++] = c;
        }
        return;
    }
    for (int i = 0; i < e->args.n; i++)
        collect_columns(e->args.items[i], sch, cols, n);
}

/* The part format of Map columns (ClickHouse's substreams for keys and values) is not
 * written yet: such tables are refused rather than stored wrongly. */
static bool has_map(const type *t)
{
    if (t->id == T_MAP)
        return true;
    if (t->inner && has_map(t->inner))
        return true;
    for (int i = 0; i < t->nfields; i++)
        if (has_map(t->fields[i]))
            return true;
    return false;
}

static int compile_keys(mt_table *m, query_ctx *q)
{
    const ast *cr = m->cr;
    const ast_list *order = cr->order_by_key.n ? &cr->order_by_key : &cr->primary_key;
    if (mt_key_compile(m, order, &m->sort, q))
        return -1;
    m->nprimary = m->sort.n;
    if (cr->primary_key.n && cr->order_by_key.n) {
        if (cr->primary_key.n > cr->order_by_key.n)
            return err_set(ERR_BAD_ARGUMENTS,
                           "Primary key must be a prefix of the sorting key, but its length: %d is greater than the "
                           "sorting key length: %d",
                           cr->primary_key.n, cr->order_by_key.n);
        for (int i = 0; i < cr->primary_key.n; i++) {
            buf a = {0}, b = {0};
            ast_format_name(&a, cr->primary_key.items[i]);
            ast_format_name(&b, cr->order_by_key.items[i]);
            bool same = !strcmp(buf_cstr(&a), buf_cstr(&b));
            if (!same)
                err_set(ERR_BAD_ARGUMENTS,
                        "Primary key must be a prefix of the sorting key, but the column in the position %d is %s, "
                        "not %s",
                        i, buf_cstr(&b), buf_cstr(&a));
            buf_free(&a);
            buf_free(&b);
            if (!same)
                return -1;
        }
        m->nprimary = cr->primary_key.n;
    }
    for (int i = 0; i < m->t->sch->n; i++)
        if (has_map(m->t->sch->types[i]))
            return err_set(ERR_NOT_IMPLEMENTED, "unsupported: Map columns in MergeTree tables (column %s %s)",
                           m->t->sch->names[i], m->t->sch->types[i]->name);
    for (int i = 0; i < m->sort.n; i++) {
        type_id id = type_base(m->sort.types[i])->id;
        if (id == T_TUPLE)
            return err_set(ERR_ILLEGAL_COLUMN, "Sorting key cannot contain %s (column %s)", m->sort.types[i]->name,
                           m->sort.names[i]);
    }
    ast_list pl = {0};
    const ast *pk = cr->partition_key;
    if (pk) {
        if (pk->kind == AST_FUNC && !strcmp(pk->name, "tuple") && !pk->has_params)
            pl = pk->args;
        else
            pl = (ast_list){1, (ast **)&cr->partition_key};
    }
    if (mt_key_compile(m, &pl, &m->part_key, q))
        return -1;
    for (int i = 0; i < m->part_key.n; i++)
        if (type_is_float(type_base(m->part_key.types[i])))
            return err_set(ERR_BAD_ARGUMENTS, "Floating point partition key is not supported: %s", m->part_key.names[i]);
    m->minmax_cols = xcalloc((size_t)m->t->sch->n + 1, sizeof(int));
    for (int i = 0; i < pl.n; i++)
        collect_columns(pl.items[i], m->t->sch, m->minmax_cols, &m->nminmax);
    return 0;
}

/* The old syntax's date column: a Date (its parts are named by dates), checked after
 * the partition key toYYYYMM(date) compiled, as ClickHouse does. */
static int check_date_column(mt_table *m)
{
    const ast *date = m->cr->partition_key->args.items[0];
    const char *name = date->parts[date->nparts - 1];
    m->date_col = schema_find(m->t->sch, name);
    const type *ty = m->date_col >= 0 ? m->t->sch->types[m->date_col] : NULL;
    if (ty && type_is_nullable(ty))
        return err_set(ERR_ILLEGAL_COLUMN, "Partition key contains nullable columns, but merge tree setting "
                       "`allow_nullable_key` is disabled: (while initializing MergeTree partition key from date "
                       "column `%s`)", name);
    if (!ty || ty->id != T_DATE)
        return err_set(ERR_BAD_TYPE_OF_FIELD, "Could not find Date column: (while initializing MergeTree partition "
                       "key from date column `%s`)", name);
    return 0;
}

/* ClickHouse refuses columns to sum that a key uses: summing would change the key. */
static int check_sum_outside_keys(const mt_table *m)
{
    const ast *cr = m->cr;
    const ast_list *order = cr->order_by_key.n ? &cr->order_by_key : &cr->primary_key;
    int *used = xcalloc((size_t)m->t->sch->n + 1, sizeof(int));
    int nused = 0;
    for (int i = 0; i < order->n; i++)
        collect_columns(order->items[i], m->t->sch, used, &nused);
    int rc = 0;
    for (int pass = 0; pass < 2 && !rc; pass++) {
        const int *cols = pass ? m->minmax_cols : used;
        int ncols = pass ? m->nminmax : nused;
        buf names = {0};
        for (int s = 0; s < m->nsum; s++)
            for (int k = 0; k < ncols; k++)
                if (cols[k] == m->sum_cols[s])
                    buf_printf(&names, "%s%s", names.len ? ", " : "", m->t->sch->names[cols[k]]);
        if (names.len)
            rc = err_set(ERR_BAD_ARGUMENTS, "Columns: %.*s listed both in columns to sum and in %s key. That is not allowed.",
                         (int)names.len, (const char *)names.p, pass ? "partition" : "sorting");
        buf_free(&names);
    }
    free(used);
    return rc;
}

/* The version column of Replacing / VersionedCollapsing, as ClickHouse checks it. */
static int version_column(mt_table *m, const ast *a, int *out)
{
    const char *engine = m->t->engine->name;
    if (a->kind != AST_IDENT)
        return err_set(ERR_BAD_ARGUMENTS, "Version column for %s must be a column name", engine);
    const char *name = a->parts[a->nparts - 1];
    *out = schema_find(m->t->sch, name);
    if (*out < 0)
        return err_set(ERR_NO_SUCH_COLUMN_IN_TABLE, "Version column %s does not exist in table declaration", name);
    const type *vt = type_base(m->t->sch->types[*out]);
    if (!(type_is_integer(vt) || vt->id == T_DATE || vt->id == T_DATE32 || vt->id == T_DATETIME ||
          vt->id == T_DATETIME64))
        return err_set(ERR_BAD_TYPE_OF_FIELD,
                       "The column %s cannot be used as a version column for storage %s because it is of type %s "
                       "(must be of an integer type or of type Date/DateTime/DateTime64)",
                       name, engine, m->t->sch->types[*out]->name);
    return 0;
}

/* CollapsingMergeTree(sign) and VersionedCollapsingMergeTree(sign, version): the sign is
 * an Int8 column; the version joins the end of the sorting key (not the primary key)
 * unless the key already holds it, so that a key's rows meet in version order. */
static int collapsing_args(mt_table *m, const ast *e, int nargs)
{
    bool versioned = m->kind == MT_VERSIONED;
    const char *engine = m->t->engine->name;
    if (nargs != (versioned ? 2 : 1))
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "With extended storage definition syntax storage %s requires %d parameters: %s", engine,
                       versioned ? 2 : 1, versioned ? "sign column, version" : "sign column");
    const ast *a = e->args.items[0];
    if (a->kind != AST_IDENT)
        return err_set(ERR_BAD_ARGUMENTS, "Sign column name must be an unquoted string");
    const char *name = a->parts[a->nparts - 1];
    m->sign_col = schema_find(m->t->sch, name);
    if (m->sign_col < 0)
        return err_set(ERR_NO_SUCH_COLUMN_IN_TABLE, "Sign column %s does not exist in table declaration.", name);
    const type *st = m->t->sch->types[m->sign_col];
    if (st->id != T_INT8)
        return err_set(ERR_BAD_TYPE_OF_FIELD,
                       "Sign column (%s) for storage %s must have type Int8. Provided column of type %s.", name,
                       engine, st->name);
    if (!versioned)
        return 0;
    int ver;
    if (version_column(m, e->args.items[1], &ver))
        return -1;
    for (int k = 0; k < m->sort.n; k++)
        if (m->sort.src_col[k] == ver)
            return 0;
    mt_key_append_column(m, &m->sort, ver);
    return 0;
}

static int engine_args(mt_table *m)
{
    const ast *e = m->cr->engine;
    int nargs = e ? e->args.n : 0;
    m->replacing_ver = -1;
    m->sign_col = -1;
    if (m->kind == MT_PLAIN && nargs)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Engine MergeTree expects no parameters, got %d", nargs);
    if (m->kind == MT_AGGREGATING && nargs)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Engine AggregatingMergeTree expects no parameters, got %d", nargs);
    if (m->kind == MT_REPLACING) {
        if (nargs > 1)
            return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                           "ReplacingMergeTree supports one parameter (the version column); is_deleted is not "
                           "supported yet");
        if (nargs == 1 && version_column(m, e->args.items[0], &m->replacing_ver))
            return -1;
    }
    if (m->kind == MT_COLLAPSING || m->kind == MT_VERSIONED)
        return collapsing_args(m, e, nargs);
    if (m->kind == MT_SUMMING || m->kind == MT_COALESCING) {
        m->sum_cols = xcalloc((size_t)m->t->sch->n + 1, sizeof(int));
        if (nargs > 1)
            return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                           "With extended storage definition syntax storage %s requires 0 to 1 parameters: "
                           "[list of columns to sum]",
                           m->t->engine->name);
        if (nargs == 1) {
            const ast *a = e->args.items[0];
            const ast_list *l = a->kind == AST_FUNC && !strcmp(a->name, "tuple") ? &a->args : NULL;
            int n = l ? l->n : 1;
            for (int i = 0; i < n; i++) {
                const ast *c = l ? l->items[i] : a;
                if (c->kind != AST_IDENT)
                    return err_set(ERR_BAD_ARGUMENTS, "SummingMergeTree columns must be column names");
                int idx = schema_find(m->t->sch, c->parts[c->nparts - 1]);
                if (idx < 0)
                    return err_set(ERR_NO_SUCH_COLUMN_IN_TABLE, "Column %s listed in columns to sum does not exist in table declaration",
                                   c->parts[c->nparts - 1]);
                m->sum_cols[m->nsum++] = idx;
            }
            if (check_sum_outside_keys(m))
                return -1;
        } else {
            /* All numeric columns not in the sorting key. */
            for (int c = 0; c < m->t->sch->n; c++) {
                bool in_key = false;
                for (int k = 0; k < m->sort.n; k++)
                    in_key |= m->sort.src_col[k] == c;
                const type *ty = type_phys(m->t->sch->types[c]);
                /* SimpleAggregateFunction and AggregateFunction columns take their own
                 * function (aggregating.c); Coalescing takes every other column. */
                bool own = m->t->sch->types[c]->simple_agg || ty->id == T_AGGSTATE;
                bool numeric = type_is_number(ty) && ty->id != T_BOOL;
                if (!in_key && !own && (numeric || m->kind == MT_COALESCING))
                    m->sum_cols[m->nsum++] = c;
            }
        }
    }
    return 0;
}

/* ClickHouse 26 refuses AggregatingMergeTree columns that are neither in the sorting key
 * nor aggregates: merges would keep an arbitrary row's value for them. */
static int check_dimensions(mt_table *m)
{
    if (m->set.allow_dimensions_outside_sorting_key)
        return 0;
    /* as ClickHouse: columns the sorting key's expressions or the partition key use,
       aggregates, and MATERIALIZED columns (computed from the others) are exempt */
    const ast_list *order = m->cr->order_by_key.n ? &m->cr->order_by_key : &m->cr->primary_key;
    int *used = xcalloc((size_t)m->t->sch->n + 1, sizeof(int));
    int nused = 0;
    for (int i = 0; i < order->n; i++)
        collect_columns(order->items[i], m->t->sch, used, &nused);
    buf names = {0};
    for (int c = 0; c < m->t->sch->n; c++) {
        const type *ty = m->t->sch->types[c];
        bool in_key = type_phys(ty)->id == T_AGGSTATE || ty->simple_agg;
        for (int k = 0; k < nused && !in_key; k++)
            in_key = used[k] == c;
        for (int k = 0; k < m->nminmax && !in_key; k++)
            in_key = m->minmax_cols[k] == c;
        for (int k = 0; k < m->t->ncols && !in_key; k++)
            in_key = !strcmp(m->t->cols[k].name, m->t->sch->names[c]) && m->t->cols[k].default_kind &&
                     !strcmp(m->t->cols[k].default_kind, "MATERIALIZED");
        if (!in_key)
            buf_printf(&names, "%s%s", names.len ? ", " : "", m->t->sch->names[c]);
    }
    int rc = 0;
    if (names.len)
        rc = err_set(ERR_BAD_ARGUMENTS,
                     "Column(s) %s of the AggregatingMergeTree table are neither part of the sorting key nor "
                     "aggregate measures (AggregateFunction or SimpleAggregateFunction). During background merges, "
                     "rows with the same value of the sorting key are collapsed into one, so these columns keep an "
                     "arbitrary value, which silently produces wrong results for queries that GROUP BY or filter on "
                     "them. Add them to the sorting key (ORDER BY), or set 'allow_dimensions_outside_sorting_key = 1' "
                     "if this is intentional (for example, when the columns are functionally dependent on the "
                     "sorting key)",
                     buf_cstr(&names));
    buf_free(&names);
    free(used);
    return rc;
}

static int compile_codecs(mt_table *m)
{
    table *t = m->t;
    if (mt_codec_parse("LZ4", NULL, &m->default_codec))
        return -1;
    m->codecs = xcalloc((size_t)t->sch->n + 1, sizeof *m->codecs);
    for (int c = 0; c < t->sch->n; c++) {
        const ast_list *codec = NULL;
        for (int i = 0; i < t->ncols; i++)
            if (!strcmp(t->cols[i].name, t->sch->names[c]))
                codec = t->cols[i].codec;
        if (codec && codec->n) {
            if (mt_codec_from_ast(codec, t->sch->types[c], &m->codecs[c]))
                return err_prefix("Column %s: ", t->sch->names[c]);
        } else if (mt_codec_parse("LZ4", t->sch->types[c], &m->codecs[c])) {
            return -1;
        }
    }
    return 0;
}

/* ---- the part list ---- */

static int cmp_parts(const void *a, const void *b)
{
    const mt_part *x = *(mt_part *const *)a, *y = *(mt_part *const *)b;
    int c = strcmp(x->partition_id, y->partition_id);
    if (c)
        return c;
    if (x->min_block != y->min_block)
        return x->min_block < y->min_block ? -1 : 1;
    return x->max_block > y->max_block ? -1 : x->max_block < y->max_block; /* covering first */
}

static void add_part_locked(mt_table *m, mt_part *p)
{
    if (m->nparts == m->capparts) {
        m->capparts = m->capparts ? m->capparts * 2 : 16;
        m->parts = xrealloc(m->parts, sizeof *m->parts * (size_t)m->capparts);
    }
    m->parts[m->nparts++] = p;
    qsort(m->parts, (size_t)m->nparts, sizeof *m->parts, cmp_parts);
    if (p->max_block >= m->next_block)
        m->next_block = p->max_block + 1;
    if (p->mutation >= m->next_block)
        m->next_block = p->mutation + 1;
}

int mt_snapshot(mt_table *m, mt_part ***out)
{
    pthread_mutex_lock(&m->lock);
    mt_part **v = xcalloc((size_t)m->nparts + 1, sizeof *v);
    int n = 0;
    for (int i = 0; i < m->nparts; i++)
        if (m->parts[i]->state == PART_ACTIVE)
            v[n++] = mt_part_ref(m->parts[i]);
    pthread_mutex_unlock(&m->lock);
    *out = v;
    return n;
}

void mt_snapshot_free(mt_part **parts, int n)
{
    for (int i = 0; i < n; i++)
        mt_part_unref(parts[i]);
    free(parts);
}

static bool covers(const mt_part *a, const mt_part *b)
{
    return a != b && !strcmp(a->partition_id, b->partition_id) && a->min_block <= b->min_block &&
           a->max_block >= b->max_block &&
           (a->min_block != b->min_block || a->max_block != b->max_block || a->level > b->level ||
            (a->level == b->level && a->mutation > b->mutation));
}

int mt_commit_part(mt_table *m, const char *tmp_dir, const char *name_prefix, int64_t min_block,
                   int64_t max_block, uint32_t level, mt_part **replaced, int nreplaced, mt_part **out)
{
    return mt_commit_part_ex(m, tmp_dir, name_prefix, min_block, max_block, level, 0, replaced, nreplaced, out);
}

int mt_commit_part_ex(mt_table *m, const char *tmp_dir, const char *name_prefix, int64_t min_block,
                      int64_t max_block, uint32_t level, int64_t mutation, mt_part **replaced, int nreplaced,
                      mt_part **out)
{
    char *name = mt_part_name_ex(name_prefix, min_block, max_block, level, mutation);
    char *dir = mt_sprintf("%s%s/", m->t->data_dir, name);
    char *from = xstrdup(tmp_dir);
    size_t fl = strlen(from);
    if (fl && from[fl - 1] == '/')
        from[fl - 1] = 0;
    char *to = mt_sprintf("%s%s", m->t->data_dir, name);
    int rc = 0;
    if (rename(from, to))
        rc = err_set(ERR_ATOMIC_RENAME_FAIL, "Cannot rename %s to %s: %s", from, to, strerror(errno));
    if (!rc)
        rc = mt_fsync_dir(m->t->data_dir);
    mt_part *p = NULL;
    if (!rc)
        rc = mt_part_load(m, dir, name, &p);
    if (!rc) {
        pthread_mutex_lock(&m->lock);
        double now = (double)time(NULL);
        for (int i = 0; i < nreplaced; i++) {
            replaced[i]->state = PART_OUTDATED;
            replaced[i]->remove_time = now;
        }
        add_part_locked(m, mt_part_ref(p));
        pthread_cond_broadcast(&m->cond);
        pthread_mutex_unlock(&m->lock);
        if (out)
            *out = p;
        else
            mt_part_unref(p);
    }
    free(name);
    free(dir);
    free(from);
    free(to);
    return rc;
}

void mt_remove_outdated(mt_table *m, bool force)
{
    double now = (double)time(NULL);
    pthread_mutex_lock(&m->lock);
    int k = 0;
    mt_part **gone = xcalloc((size_t)m->nparts + 1, sizeof *gone);
    int ngone = 0;
    for (int i = 0; i < m->nparts; i++) {
        mt_part *p = m->parts[i];
        /* Only when no query holds it (refs == 1: the list's own reference). */
        if (p->state == PART_OUTDATED && atomic_load(&p->refs) == 1 &&
            (force || now - p->remove_time >= (double)m->set.old_parts_lifetime))
            gone[ngone++] = p;
        else
            m->parts[k++] = p;
    }
    m->nparts = k;
    pthread_mutex_unlock(&m->lock);
    for (int i = 0; i < ngone; i++) {
        double t0 = clock_monotonic();
        mt_remove_tree(gone[i]->dir);
        mt_log_event(m, PART_LOG_REMOVE, gone[i]->name, gone[i]->partition_id, gone[i]->rows, gone[i]->bytes_on_disk,
                     clock_monotonic() - t0, NULL, 0, 0, 0, "", MERGE_UNDECIDED);
        mt_part_unref(gone[i]);
    }
    free(gone);
}

/* ---- open / close ---- */

static int load_parts(mt_table *m)
{
    const char *dir = m->t->data_dir;
    DIR *d = opendir(dir);
    if (!d)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open the data directory %s: %s", dir, strerror(errno));
    struct dirent *e;
    int rc = 0;
    while (!rc && (e = readdir(d))) {
        const char *n = e->d_name;
        if (n[0] == '.' || !strcmp(n, "detached") || !strcmp(n, "format_version.txt") || !strcmp(n, "dedup.log"))
            continue;
        char *path = mt_sprintf("%s%s", dir, n);
        if (!strncmp(n, "tmp_", 4) || !strncmp(n, "delete_tmp_", 11)) {
            /* A part that was being written when the process stopped: never committed. */
            mt_remove_tree(path);
            free(path);
            continue;
        }
        struct stat st;
        mt_name nm;
        if (stat(path, &st) || !S_ISDIR(st.st_mode) || mt_name_parse(m, n, &nm)) {
            free(path);
            continue;
        }
        mt_name_free(&nm);
        char *pdir = mt_sprintf("%s/", path);
        mt_part *p;
        if (mt_part_load(m, pdir, n, &p)) {
            /* A broken part is moved aside as ClickHouse does (detached/broken_…) so the
             * table still opens; the message says which. */
            fprintf(stderr, "shale: warning: table %s: part %s is broken and was detached: %s\n",
                    table_full_name(m->t), n, err_msg());
            char *det = mt_sprintf("%sdetached", dir);
            mkdir(det, 0755);
            char *to = mt_sprintf("%s/broken_%s", det, n);
            rename(path, to);
            free(det);
            free(to);
        } else {
            add_part_locked(m, p);
        }
        free(pdir);
        free(path);
    }
    closedir(d);
    if (rc)
        return rc;
    /* Parts covered by another part are leftovers of a merge whose result was committed
     * before the process stopped: the covering part has all their rows. */
    for (int i = 0; i < m->nparts; i++)
        for (int j = 0; j < m->nparts; j++)
            if (m->parts[j]->state == PART_ACTIVE && covers(m->parts[j], m->parts[i])) {
                m->parts[i]->state = PART_OUTDATED;
                break;
            }
    mt_remove_outdated(m, true);
    return 0;
}

static void mt_free(mt_table *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nparts; i++)
        mt_part_unref(m->parts[i]);
    free(m->parts);
    mt_key_free(&m->sort);
    mt_key_free(&m->part_key);
    free(m->minmax_cols);
    arena_free(&m->cr_arena);
    for (int c = 0; m->codecs && c < m->t->sch->n; c++)
        mt_codec_free(m->codecs[c]);
    free(m->codecs);
    mt_codec_free(m->default_codec);
    free(m->sum_cols);
    free(m->part_log);
    mt_mutations_free(m);
    pthread_mutex_destroy(&m->mutate_lock);
    for (int i = 0; i < m->ndedup; i++)
        free(m->dedup[i]);
    free(m->dedup);
    pthread_mutex_destroy(&m->lock);
    pthread_cond_destroy(&m->cond);
    free(m);
}

static int open_kind(table *t, bool created, query_ctx *q, mt_kind kind)
{
    mt_table *m = xcalloc(1, sizeof *m);
    m->t = t;
    m->kind = kind;
    m->next_block = 1;
    m->resume_floor = INT64_MAX;
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->cond, NULL);
    pthread_mutex_init(&m->mutate_lock, NULL);
    arena_init(&m->cr_arena);
    m->old_format = mt_old_syntax(t->create, NULL);
    m->date_col = -1;
    int rc = mt_old_syntax_expand(t->create, &m->cr_arena, &m->cr);
    if (!rc)
        rc = parse_settings(m, &m->cr->settings);
    if (!rc)
        rc = compile_keys(m, q);
    if (!rc && m->old_format)
        rc = check_date_column(m);
    if (!rc)
        rc = engine_args(m);
    if (!rc && created && kind == MT_AGGREGATING)
        rc = check_dimensions(m);
    if (!rc)
        rc = compile_codecs(m);
    if (!rc && created) {
        char *fv = mt_sprintf("%sformat_version.txt", t->data_dir);
        FILE *f = fopen(fv, "w");
        if (f) {
            fputs("1", f);
            fclose(f);
        }
        free(fv);
    }
    if (q->data_path) {
        char *sysdir = mt_sprintf("%s/system", q->data_path);
        mkdir(sysdir, 0755);
        char *path = mt_sprintf("%s/part_log.tsv", sysdir);
        mt_part_log_open(m, path);
        free(path);
        free(sysdir);
    }
    if (!rc) {
        mt_compile_defaults(m, q);
        rc = mt_mutations_load(m, q);
    }
    if (!rc)
        rc = load_parts(m);
    if (!rc) {
        mt_dedup_load(m);
        mt_resume_recover(m);
    }
    if (rc) {
        mt_free(m);
        return -1;
    }
    t->impl = m;
    m->nthreads_wanted = (int)settings_int(q->st, "background_pool_size");
    mt_start_background(m);
    return 0;
}

static int open_plain(table *t, bool created, query_ctx *q) { return open_kind(t, created, q, MT_PLAIN); }
static int open_replacing(table *t, bool created, query_ctx *q) { return open_kind(t, created, q, MT_REPLACING); }
static int open_summing(table *t, bool created, query_ctx *q) { return open_kind(t, created, q, MT_SUMMING); }
static int open_aggregating(table *t, bool created, query_ctx *q)
{
    return open_kind(t, created, q, MT_AGGREGATING);
}
static int open_collapsing(table *t, bool created, query_ctx *q) { return open_kind(t, created, q, MT_COLLAPSING); }
static int open_versioned(table *t, bool created, query_ctx *q) { return open_kind(t, created, q, MT_VERSIONED); }
static int open_coalescing(table *t, bool created, query_ctx *q) { return open_kind(t, created, q, MT_COALESCING); }

static void mt_close_table(table *t)
{
    mt_table *m = t->impl;
    if (!m)
        return;
    mt_stop_background(m);
    mt_free(m);
    t->impl = NULL;
}

static int mt_read(table *t, bool final, query_ctx *q, source **out) { return mt_read_source(t->impl, final, q, out); }

static int mt_truncate(table *t, query_ctx *q)
{
    (void)q;
    mt_table *m = t->impl;
    pthread_mutex_lock(&m->lock);
    while (m->running_merges)
        pthread_cond_wait(&m->cond, &m->lock);
    double now = (double)time(NULL);
    for (int i = 0; i < m->nparts; i++) {
        m->parts[i]->state = PART_OUTDATED;
        m->parts[i]->remove_time = now;
    }
    pthread_mutex_unlock(&m->lock);
    mt_remove_outdated(m, true);
    return 0;
}

/* ---- OPTIMIZE ---- */

/* The partition ID named by OPTIMIZE … PARTITION p / ALTER … PARTITION p: 'id' as
 * PARTITION ID 'x', or a value of the partition key. */
static int partition_arg(mt_table *m, const char *text, query_ctx *q, char **out)
{
    *out = NULL;
    if (!text)
        return 0;
    while (*text == ' ')
        text++;
    if (!strncasecmp(text, "ID ", 3)) {
        const char *s = strchr(text, '\'');
        const char *e = s ? strchr(s + 1, '\'') : NULL;
        if (!e)
            return err_set(ERR_SYNTAX_ERROR, "Expected PARTITION ID 'id'");
        *out = xstrndup(s + 1, (size_t)(e - s - 1));
        return 0;
    }
    if (!strcasecmp(text, "tuple()") || !strcmp(text, "all") || !strcmp(text, "'all'")) {
        *out = xstrdup("all");
        return 0;
    }
    /* A literal value: evaluate `SELECT <text>` cast to the key's type. */
    return mt_partition_id_from_text(m, text, q, out);
}

static int mt_optimize(table *t, const ast *stmt, query_ctx *q)
{
    mt_table *m = t->impl;
    bool final = stmt->final;
    if (atomic_load(&m->merges_stopped))
        return err_set(ERR_ABORTED, "Cancelled merging parts");
    char *only = NULL;
    if (partition_arg(m, stmt->str, q, &only))
        return -1;
    int rc = 0;
    if (!final) {
        mt_part **sel;
        int n = mt_select_merge(m, true, &sel);
        if (n > 0 && (!only || !strcmp(sel[0]->partition_id, only))) {
            rc = mt_merge_parts(m, sel, n, false, q);
        } else if (n > 0) {
            pthread_mutex_lock(&m->lock);
            for (int i = 0; i < n; i++)
                sel[i]->merging = false;
            pthread_mutex_unlock(&m->lock);
        }
        for (int i = 0; i < n; i++)
            mt_part_unref(sel[i]);
        free(sel);
        free(only);
        return rc;
    }
    /* FINAL: every partition (or the named one) into one part. Wait for merges running
     * on its parts, then take them all. */
    bool skip_merged = settings_bool(q->st, "optimize_skip_merged_partitions");
    mt_part **snap;
    int ns = mt_snapshot(m, &snap);
    char **pids = xcalloc((size_t)ns + 1, sizeof *pids);
    int np = 0;
    for (int i = 0; i < ns; i++)
        if ((!np || strcmp(pids[np - 1], snap[i]->partition_id)) && (!only || !strcmp(only, snap[i]->partition_id)))
            pids[np++] = xstrdup(snap[i]->partition_id);
    mt_snapshot_free(snap, ns);
    for (int k = 0; k < np && !rc; k++) {
        pthread_mutex_lock(&m->lock);
        for (;;) {
            bool busy = false;
            for (int i = 0; i < m->nparts; i++)
                busy |= m->parts[i]->state == PART_ACTIVE && m->parts[i]->merging &&
                        !strcmp(m->parts[i]->partition_id, pids[k]);
            if (!busy)
                break;
            pthread_cond_wait(&m->cond, &m->lock);
        }
        mt_part **sel = xcalloc((size_t)m->nparts + 1, sizeof *sel);
        int n = 0;
        for (int i = 0; i < m->nparts; i++)
            if (m->parts[i]->state == PART_ACTIVE && !strcmp(m->parts[i]->partition_id, pids[k])) {
                m->parts[i]->merging = true;
                sel[n++] = mt_part_ref(m->parts[i]);
            }
        m->running_merges++;
        pthread_mutex_unlock(&m->lock);
        /* FINAL rewrites even a lone part, as ClickHouse does, unless
         * optimize_skip_merged_partitions and the part already came from a merge. */
        if (n > 1 || (n == 1 && !(skip_merged && sel[0]->level > 0)))
            rc = mt_merge_parts(m, sel, n, true, q);
        pthread_mutex_lock(&m->lock);
        m->running_merges--;
        for (int i = 0; i < n; i++)
            sel[i]->merging = false;
        pthread_cond_broadcast(&m->cond);
        pthread_mutex_unlock(&m->lock);
        for (int i = 0; i < n; i++)
            mt_part_unref(sel[i]);
        free(sel);
    }
    for (int k = 0; k < np; k++)
        free(pids[k]);
    free(pids);
    free(only);
    return rc;
}

/* ---- CHECK TABLE ---- */

static int mt_check(table *t, query_ctx *q, block *out)
{
    (void)q;
    mt_table *m = t->impl;
    mt_part **snap;
    int n = mt_snapshot(m, &snap);
    for (int i = 0; i < n; i++) {
        int rc = mt_part_check(m, snap[i]);
        col_push_str(out->cols[0], snap[i]->name, strlen(snap[i]->name));
        uint8_t ok = rc == 0;
        col_push_fixed(out->cols[1], &ok);
        const char *msg = rc ? err_msg() : "";
        col_push_str(out->cols[2], msg, strlen(msg));
        out->rows++;
    }
    mt_snapshot_free(snap, n);
    err_clear();
    return 0;
}

/* ---- ALTER TABLE … ATTACH PART 'name' / ATTACH PARTITION ID 'x' / DETACH PART ---- */

/* Checks the part in tmpdir (its files load, columns and types match the table, its
 * partition ID is what this table computes for its values) and commits it with a fresh
 * block number. `name` is the part's name where it came from (detached/, a backup). */
static int adopt_part(mt_table *m, const char *tmpdir, const char *name)
{
    mt_name nm;
    if (mt_name_parse(m, name, &nm))
        return err_set(ERR_BAD_DATA_PART_NAME, "Unexpected part name: %s", name);
    const char *pid = nm.partition_id;
    mt_part *probe = NULL;
    int rc = mt_part_load(m, tmpdir, name, &probe);
    if (rc)
        err_prefix("Cannot attach part %s: ", name);
    if (!rc) {
        if (m->part_key.n && probe->partition) {
            char *want = mt_partition_id(&m->part_key, probe->partition->cols, 0);
            if (strcmp(want, pid))
                rc = err_set(ERR_INVALID_PARTITION_VALUE,
                             "Part %s: partition ID %s does not match its partition value (ID %s)", name, pid, want);
            free(want);
        }
        mt_part_unref(probe);
    }
    if (!rc) {
        pthread_mutex_lock(&m->lock);
        int64_t blk = m->next_block++;
        pthread_mutex_unlock(&m->lock);
        /* a fresh block number, level 0 and no mutation, as ClickHouse names it */
        rc = mt_commit_part(m, tmpdir, nm.prefix, blk, blk, 0, NULL, 0, NULL);
    }
    mt_name_free(&nm);
    return rc;
}

static int attach_part(mt_table *m, const char *name, query_ctx *q)
{
    (void)q;
    if (mt_check_part_name(m, name))
        return -1;
    char *src = mt_sprintf("%sdetached/%s", m->t->data_dir, name);
    struct stat st;
    if (stat(src, &st) || !S_ISDIR(st.st_mode)) {
        free(src);
        return err_set(ERR_BAD_DATA_PART_NAME, "Detached part \"%s\" not found", name);
    }
    /* Move it to a temporary name, check and commit it; back to detached/ on failure. */
    pthread_mutex_lock(&m->lock);
    uint64_t seq = ++m->tmp_seq;
    pthread_mutex_unlock(&m->lock);
    char *tmp = mt_sprintf("%stmp_attach_%s_%" PRIu64, m->t->data_dir, name, seq);
    char *tmpdir = mt_sprintf("%s/", tmp);
    int rc = 0;
    if (rename(src, tmp))
        rc = err_set(ERR_ATOMIC_RENAME_FAIL, "Cannot move %s to %s: %s", src, tmp, strerror(errno));
    else if ((rc = adopt_part(m, tmpdir, name)) != 0)
        rename(tmp, src); /* back to detached/, untouched */
    free(tmpdir);
    free(tmp);
    free(src);
    return rc;
}

static int mt_restore_part(table *t, const char *dir, const char *name, query_ctx *q)
{
    (void)q;
    return adopt_part(t->impl, dir, name);
}

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* BACKUP: every file of every active part of one snapshot; the snapshot's references
 * keep merged-away parts on disk until the walk ends. */
static int mt_backup(table *t, query_ctx *q, int (*fn)(void *ctx, const char *name, const char *path), void *ctx)
{
    mt_table *m = t->impl;
    mt_part **snap;
    int n = mt_snapshot(m, &snap);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        DIR *d = opendir(snap[i]->dir);
        if (!d) {
            rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot open part directory %s: %s", snap[i]->dir, strerror(errno));
            break;
        }
        /* Sorted names: a backup's file list does not depend on directory order. */
        int nf = 0, cap = 0;
        char **files = NULL;
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            if (nf == cap)
                files = xrealloc(files, (size_t)(cap = cap ? cap * 2 : 16) * sizeof *files);
            files[nf++] = xstrdup(de->d_name);
        }
        closedir(d);
        qsort(files, (size_t)nf, sizeof *files, cmp_cstr);
        for (int f = 0; f < nf; f++) {
            if (!rc && (rc = query_check(q)) == 0) {
                char *name = mt_sprintf("%s/%s", snap[i]->name, files[f]);
                char *path = mt_sprintf("%s%s", snap[i]->dir, files[f]);
                rc = fn(ctx, name, path);
                free(name);
                free(path);
            }
            free(files[f]);
        }
        free(files);
    }
    mt_snapshot_free(snap, n);
    return rc;
}

/* ALTERs that a table in the old engine syntax refuses (ClickHouse's BAD_ARGUMENTS): its
 * storage clauses are the engine's arguments, which ALTER cannot rewrite. */
static bool old_syntax_refuses(const char *s)
{
    static const struct {
        const char *cmd, *msg;
    } refused[] = {
        {"ADD INDEX ", "ALTER ADD INDEX is not supported for tables with the old syntax."},
        {"ADD PROJECTION ", "ALTER ADD PROJECTION is not supported for tables with the old syntax."},
        {"MODIFY SETTING ", "Cannot alter settings, because table engine doesn't support settings changes."},
        {"RESET SETTING ", "Cannot alter settings, because table engine doesn't support settings changes."},
        {"MODIFY ORDER BY ", "ALTER MODIFY ORDER BY is not supported for default-partitioned tables created with "
                             "the old syntax."},
        {"MODIFY SAMPLE BY ", "ALTER MODIFY SAMPLE BY is not supported for default-partitioned tables created "
                              "with the old syntax."},
        {"MODIFY TTL ", "ALTER MODIFY TTL is not supported for default-partitioned tables created with the old "
                        "syntax."},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        if (!strncasecmp(s, refused[i].cmd, strlen(refused[i].cmd))) {
            err_set(ERR_BAD_ARGUMENTS, "%s", refused[i].msg);
            return true;
        }
    return false;
}

static int mt_alter(table *t, const ast *stmt, query_ctx *q)
{
    mt_table *m = t->impl;
    const char *s = stmt->str ? stmt->str : "";
    while (*s == ' ' || *s == '\n')
        s++;
    if (!strncasecmp(s, "ATTACH PART ", 12)) {
        const char *a = strchr(s, '\'');
        const char *e = a ? strchr(a + 1, '\'') : NULL;
        if (!e)
            return err_set(ERR_SYNTAX_ERROR, "Expected ATTACH PART 'name'");
        char *name = xstrndup(a + 1, (size_t)(e - a - 1));
        int rc = attach_part(m, name, q);
        free(name);
        return rc;
    }
    if (!strncasecmp(s, "DETACH PART ", 12) || !strncasecmp(s, "DROP PART ", 10)) {
        bool drop = !strncasecmp(s, "DROP", 4);
        const char *a = strchr(s, '\'');
        const char *e = a ? strchr(a + 1, '\'') : NULL;
        if (!e)
            return err_set(ERR_SYNTAX_ERROR, "Expected %s PART 'name'", drop ? "DROP" : "DETACH");
        char *name = xstrndup(a + 1, (size_t)(e - a - 1));
        int rc = mt_detach_part(m, name, drop);
        free(name);
        return rc;
    }
    if (!strncasecmp(s, "DROP PARTITION ", 15) || !strncasecmp(s, "DETACH PARTITION ", 17)) {
        bool drop = !strncasecmp(s, "DROP", 4);
        char *pid;
        if (partition_arg(m, s + (drop ? 15 : 17), q, &pid))
            return -1;
        int rc = mt_detach_partition(m, pid, drop);
        free(pid);
        return rc;
    }
    if (m->old_format && old_syntax_refuses(s))
        return -1;
    return err_set(ERR_NOT_IMPLEMENTED, "ALTER TABLE %s is not supported yet for MergeTree tables", s);
}

/* ---- the engines ---- */

#define MT_ENGINE(var, nm, openf)                                                                                      \
    const table_engine var = {.name = nm,                                                                              \
                              .has_data_dir = true,                                                                    \
                              .supports_final = true,                                                                  \
                              .open = openf,                                                                           \
                              .read = mt_read,                                                                         \
                              .insert = mt_insert,                                                                     \
                              .truncate = mt_truncate,                                                                 \
                              .optimize = mt_optimize,                                                                 \
                              .check = mt_check,                                                                       \
                              .alter = mt_alter,                                                                       \
                              .backup = mt_backup,                                                                     \
                              .restore_part = mt_restore_part,                                                         \
                              .close = mt_close_table}

MT_ENGINE(engine_mergetree, "MergeTree", open_plain);
MT_ENGINE(engine_replacing_mergetree, "ReplacingMergeTree", open_replacing);
MT_ENGINE(engine_summing_mergetree, "SummingMergeTree", open_summing);
MT_ENGINE(engine_aggregating_mergetree, "AggregatingMergeTree", open_aggregating);
MT_ENGINE(engine_collapsing_mergetree, "CollapsingMergeTree", open_collapsing);
MT_ENGINE(engine_versioned_collapsing_mergetree, "VersionedCollapsingMergeTree", open_versioned);
MT_ENGINE(engine_coalescing_mergetree, "CoalescingMergeTree", open_coalescing);
