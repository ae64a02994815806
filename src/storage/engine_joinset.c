/* ENGINE = Join(strictness, kind, keys…) and ENGINE = Set (storage/joinset.h).
 *
 * ClickHouse keeps a Join table as the hash table of a JOIN's right side, built as rows
 * are inserted, and writes every inserted block to disk so that a restart replays them.
 * shale keeps the inserted blocks (log_store.h: the Log family's Native stream) and builds
 * what a query needs from them when it runs: the JOIN's hash table (sql/join.c), joinGet's
 * lookup, IN's set. What the hash table would hold is what join_engine_rows gives: for the
 * strictness/kind pairs whose hash table keeps one row per key, only the first row of each
 * key (the last with join_any_take_last_row), the others all rows. Rows come back in
 * insertion order (ClickHouse's SELECT from a Join table walks its hash table, an order
 * no query may rely on).
 *
 * Settings: join_use_nulls, join_any_take_last_row (defaults: the session's at CREATE,
 * as ClickHouse), persistent (1), max_rows_in_join, max_bytes_in_join, join_overflow_mode,
 * disk = 'default' accepted; any_join_distinct_right_table_keys = 1 and other disks are
 * NOT_IMPLEMENTED. Set accepts persistent and disk. */
#include "storage/joinset.h"

#include "base/err.h"
#include "base/mem.h"
#include "exec/agg_hash.h"
#include "exec/settings.h"
#include "storage/log_store.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A setting's value as 0/1 (a number or true/false); -1 when it is neither. */
static int setting_flag(const ast *s)
{
    const ast *v = s->sub;
    if (v && v->kind == AST_LITERAL && (v->lit == LIT_UINT || v->lit == LIT_BOOL))
        return v->u != 0;
    if (v && v->kind == AST_LITERAL && v->lit == LIT_STRING) {
        if (!strcasecmp(v->str, "true") || !strcmp(v->str, "1"))
            return 1;
        if (!strcasecmp(v->str, "false") || !strcmp(v->str, "0"))
            return 0;
    }
    return -1;
}

/* persistent and disk, which both engines take; 1 when s was one of them, -1 on error. */
static int common_setting(const table *t, const ast *s, bool *persistent)
{
    if (!strcmp(s->name, "persistent")) {
        int v = setting_flag(s);
        if (v < 0)
            return err_set(ERR_BAD_ARGUMENTS, "Setting persistent of storage %s: expected a boolean", t->engine->name);
        *persistent = v;
        return 1;
    }
    if (!strcmp(s->name, "disk")) {
        const ast *v = s->sub;
        if (!v || v->kind != AST_LITERAL || v->lit != LIT_STRING || strcmp(v->str, "default") != 0)
            return err_set(ERR_NOT_IMPLEMENTED, "Storage %s: only disk = 'default' is supported", t->engine->name);
        return 1;
    }
    return 0;
}

static const char *const strictness_names[] = {"ANY", "ALL", "SEMI", "ANTI", NULL};
static const char *const kind_names[] = {"LEFT", "INNER", "RIGHT", "FULL", NULL};

/* The engine argument i as one of names (case-insensitive identifier), or NULL. */
static const char *arg_name(const ast *e, int i, const char *const *names)
{
    const ast *a = e->args.items[i];
    if (a->kind != AST_IDENT || a->nparts != 1)
        return NULL;
    for (int k = 0; names[k]; k++)
        if (!strcasecmp(a->parts[0], names[k]))
            return names[k];
    return NULL;
}

static int parse_join(const table *t, query_ctx *q, join_engine_spec *s)
{
    memset(s, 0, sizeof *s);
    s->persistent = true;
    s->use_nulls = q && q->st ? settings_bool(q->st, "join_use_nulls") : false;
    s->take_last_row = q && q->st ? settings_bool(q->st, "join_any_take_last_row") : false;
    bool old_any = q && q->st ? settings_bool(q->st, "any_join_distinct_right_table_keys") : false;
    const ast_list *set = &t->create->settings;
    for (int i = 0; i < set->n; i++) {
        const ast *st = set->items[i];
        int c = common_setting(t, st, &s->persistent);
        if (c < 0)
            return -1;
        if (c)
            continue;
        bool *flag = !strcmp(st->name, "join_use_nulls")                       ? &s->use_nulls
                     : !strcmp(st->name, "join_any_take_last_row")             ? &s->take_last_row
                     : !strcmp(st->name, "any_join_distinct_right_table_keys") ? &old_any
                                                                               : NULL;
        if (flag) {
            int v = setting_flag(st);
            if (v < 0)
                return err_set(ERR_BAD_ARGUMENTS, "Setting %s of storage Join: expected a boolean", st->name);
            *flag = v;
        } else if (strcmp(st->name, "max_rows_in_join") && strcmp(st->name, "max_bytes_in_join") &&
                   strcmp(st->name, "join_overflow_mode")) {
            return err_set(ERR_BAD_ARGUMENTS, "Unknown setting %s for storage Join", st->name);
        }
    }
    if (old_any)
        return err_set(ERR_NOT_IMPLEMENTED, "Storage Join with any_join_distinct_right_table_keys = 1 is not supported");
    const ast *e = t->create->engine;
    if (e->args.n < 3)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Storage Join requires at least 3 parameters: "
                                                             "Join(ANY|ALL|SEMI|ANTI, LEFT|INNER|RIGHT, keys...).");
    if (!(s->strictness = arg_name(e, 0, strictness_names)))
        return err_set(ERR_BAD_ARGUMENTS, "First parameter of storage Join must be ANY or ALL or SEMI or ANTI (without quotes).");
    if (!(s->kind = arg_name(e, 1, kind_names)))
        return err_set(ERR_BAD_ARGUMENTS, "Second parameter of storage Join must be LEFT or INNER or RIGHT or FULL (without quotes).");
    s->right_any = !strcmp(s->strictness, "ANY") && !strcmp(s->kind, "FULL");
    if (s->right_any) /* as ClickHouse's HashJoin refuses it */
        return err_set(ERR_NOT_IMPLEMENTED, "ANY FULL JOINs are not implemented");
    if ((!strcmp(s->strictness, "SEMI") || !strcmp(s->strictness, "ANTI")) &&
        (!strcmp(s->kind, "INNER") || !strcmp(s->kind, "FULL")))
        return err_set(ERR_BAD_ARGUMENTS, " SEMI|ANTI JOIN should be LEFT or RIGHT");
    if (e->args.n - 2 > JOIN_ENGINE_MAX_KEYS)
        return err_set(ERR_BAD_ARGUMENTS, "Storage Join: too many keys (at most %d)", JOIN_ENGINE_MAX_KEYS);
    for (int i = 2; i < e->args.n; i++) {
        const ast *a = e->args.items[i];
        if (a->kind != AST_IDENT || a->nparts != 1)
            return err_set(ERR_BAD_ARGUMENTS, "Parameter №%d of storage Join don't look like column name.", i + 1);
        int col = schema_find(t->sch, a->parts[0]);
        if (col < 0)
            return err_set(ERR_NO_SUCH_COLUMN_IN_TABLE, "Key column (%s) does not exist in table declaration.",
                           a->parts[0]);
        s->key_cols[s->nkeys++] = col;
    }
    return 0;
}

static int join_open(table *t, bool created, query_ctx *q)
{
    join_engine_spec *s = xmalloc(sizeof *s);
    if (parse_join(t, q, s)) {
        free(s);
        return -1;
    }
    return log_store_open(t, created, s->persistent, s);
}

const join_engine_spec *join_engine_spec_of(const table *t) { return log_store_extra(t); }

bool join_engine_one_per_key(const join_engine_spec *s)
{
    bool left_or_inner = !strcmp(s->kind, "LEFT") || !strcmp(s->kind, "INNER");
    return s->right_any || (strcmp(s->strictness, "ALL") != 0 && left_or_inner);
}

/* Every stored row, in one block. */
static block *all_rows(table *t)
{
    block_store *st = log_store_blocks(t);
    block *all = block_new_empty(t->sch);
    pthread_mutex_lock(&st->mu);
    for (int i = 0; i < st->n; i++)
        block_append(all, st->blocks[i]);
    pthread_mutex_unlock(&st->mu);
    return all;
}

int join_engine_rows(table *t, bool drop_null_keys, block **out)
{
    const join_engine_spec *s = join_engine_spec_of(t);
    block *b = all_rows(t);
    bool one = join_engine_one_per_key(s);
    if (!one && !drop_null_keys) {
        *out = b;
        return 0;
    }
    column *keys[JOIN_ENGINE_MAX_KEYS];
    for (int k = 0; k < s->nkeys; k++)
        keys[k] = b->cols[s->key_cols[k]];
    uint8_t *keep = xcalloc(b->rows + 1, 1);
    agg_table ht;
    agg_table_init(&ht);
    buf key = {0};
    for (size_t r = 0; r < b->rows; r++) {
        bool null_key = false;
        for (int k = 0; k < s->nkeys; k++)
            null_key |= col_is_null(keys[k], r);
        if (null_key) {
            keep[r] = !drop_null_keys;
            continue;
        }
        if (!one) {
            keep[r] = 1;
            continue;
        }
        key.len = 0;
        agg_key_serialize(&key, keys, s->nkeys, r);
        bool inserted;
        agg_slot *sl = agg_table_find_or_insert(&ht, (const char *)key.p, key.len,
                                                agg_key_hash((const char *)key.p, key.len), sizeof(size_t),
                                                sizeof(size_t), &inserted);
        size_t *kept = (size_t *)(void *)sl->states;
        if (inserted) {
            *kept = r;
            keep[r] = 1;
        } else if (s->take_last_row) {
            keep[*kept] = 0;
            *kept = r;
            keep[r] = 1;
        }
    }
    buf_free(&key);
    agg_table_free(&ht);
    size_t kept = 0;
    for (size_t r = 0; r < b->rows; r++)
        kept += keep[r];
    if (kept < b->rows) {
        for (int c = 0; c < b->ncols; c++) {
            column *f = col_filter(b->cols[c], keep, kept);
            col_free(b->cols[c]);
            b->cols[c] = f;
        }
        b->rows = kept;
    }
    free(keep);
    *out = b;
    return 0;
}

int join_engine_replace(table *t, block *b) { return log_store_replace(t, b); }

static int join_read(table *t, bool final, query_ctx *q, source **out)
{
    if (final)
        return err_set(ERR_ILLEGAL_FINAL, "Storage Join doesn't support FINAL");
    if (q->insert_join_target == t)
        return err_set(ERR_DEADLOCK_AVOIDED,
                       "StorageJoin: cannot insert data because current query tries to read from this storage");
    /* A SELECT walks ClickHouse's hash table, which holds no row with a NULL key; a RIGHT
     * or FULL JOIN also gives the right rows with NULL keys, which it keeps aside. */
    block *b;
    if (join_engine_rows(t, q->join_right_table != t, &b))
        return -1;
    block **bs = xcalloc(1, sizeof *bs);
    bs[0] = b;
    *out = source_from_blocks(schema_clone(t->sch), bs, 1);
    (*out)->total_rows_hint = b->rows;
    return 0;
}

/* OPTIMIZE: ClickHouse accepts it on a Join table and has nothing to merge; nor has shale. */
static int join_optimize(table *t, const ast *stmt, query_ctx *q)
{
    (void)t, (void)q;
    if (stmt->final)
        return err_set(ERR_NOT_IMPLEMENTED, "FINAL cannot be specified when optimizing table of type Join");
    if (stmt->deduplicate)
        return err_set(ERR_NOT_IMPLEMENTED, "DEDUPLICATE cannot be specified when optimizing table of type Join");
    if (stmt->str)
        return err_set(ERR_NOT_IMPLEMENTED, "PARTITION cannot be specified when optimizing table of type Join");
    return 0;
}

const table_engine engine_join = {
    .name = "Join",
    .has_data_dir = true,
    .open = join_open,
    .read = join_read,
    .optimize = join_optimize,
    .insert = log_store_insert,
    .truncate = log_store_truncate,
    .close = log_store_close,
};

/* ---- Set ---- */

static int set_open(table *t, bool created, query_ctx *q)
{
    (void)q;
    const ast *e = t->create->engine;
    if (e && e->args.n)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Engine Set doesn't support any arguments (%d given)",
                       e->args.n);
    bool persistent = true;
    for (int i = 0; i < t->create->settings.n; i++) {
        int c = common_setting(t, t->create->settings.items[i], &persistent);
        if (c < 0)
            return -1;
        if (!c)
            return err_set(ERR_UNKNOWN_SETTING, "Unknown setting '%s': for storage Set",
                           t->create->settings.items[i]->name);
    }
    return log_store_open(t, created, persistent, NULL);
}

static int set_read_refused(table *t, bool final, query_ctx *q, source **out)
{
    (void)t, (void)final, (void)q, (void)out;
    return err_set(ERR_NOT_IMPLEMENTED, "Method read is not supported by storage Set");
}

int set_engine_read(table *t, query_ctx *q, source **out)
{
    (void)q;
    *out = block_store_read(log_store_blocks(t), t->sch);
    return 0;
}

const table_engine engine_set = {
    .name = "Set",
    .has_data_dir = true,
    .open = set_open,
    .read = set_read_refused,
    .insert = log_store_insert,
    .truncate = log_store_truncate,
    .close = log_store_close,
};
