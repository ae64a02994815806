/* The deprecated MergeTree engine syntax (old_syntax.h). */
#include "storage/mergetree/old_syntax.h"

#include "base/buf.h"
#include "base/err.h"

#include <string.h>

static bool ends_with_mergetree(const char *name)
{
    size_t n = strlen(name);
    return n >= 9 && strcmp(name + n - 9, "MergeTree") == 0;
}

bool mt_old_syntax(const ast *create, const ast *engine)
{
    if (!engine)
        engine = create->engine;
    if (!engine || !engine->args.n || !ends_with_mergetree(engine->name))
        return false;
    /* ClickHouse's isExtendedStorageDef: any storage clause (or an INDEX) makes it new */
    return !create->partition_key && !create->order_by_key.n && !create->primary_key.n && !create->sample_by &&
           !create->settings.n && !create->has_skip_indexes;
}

/* The engine's own parameters after the common ones, as ClickHouse lists them. */
static const char *const *own_params(const char *engine, int *nmandatory)
{
    static const char *const summing[] = {"[list of columns to sum]", NULL};
    static const char *const replacing[] = {"[is_deleted column]", "[version]", NULL};
    static const char *const collapsing[] = {"sign column", NULL};
    static const char *const versioned[] = {"sign column", "version", NULL};
    static const char *const none[] = {NULL};
    *nmandatory = 0;
    if (!strcmp(engine, "SummingMergeTree") || !strcmp(engine, "CoalescingMergeTree"))
        return summing;
    if (!strcmp(engine, "ReplacingMergeTree"))
        return replacing;
    if (!strcmp(engine, "CollapsingMergeTree")) {
        *nmandatory = 1;
        return collapsing;
    }
    if (!strcmp(engine, "VersionedCollapsingMergeTree")) {
        *nmandatory = 2;
        return versioned;
    }
    return none;
}

static bool is_literal(const ast *a) { return a->kind == AST_LITERAL; }

int mt_old_args_split(const ast *engine, bool allow, mt_old_args *out)
{
    memset(out, 0, sizeof *out);
    int nmand;
    const char *const *own = own_params(engine->name, &nmand);
    int nown = 0;
    while (own[nown])
        nown++;
    int lo = 3 + nmand, hi = 4 + nown; /* the mandatory ones are among the own */
    int n = engine->args.n;
    ast *const *args = engine->args.items;
    if (n < lo || n > hi) {
        buf msg = {0};
        buf_puts(&msg, "\nname of column with date,\n[sampling element of primary key],\nprimary key expression,\n"
                       "index granularity");
        for (int i = 0; i < nown; i++)
            buf_printf(&msg, ",\n%s", own[i]);
        err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                "ORDER BY or PRIMARY KEY clause is missing. Consider using extended storage definition syntax with "
                "ORDER BY or PRIMARY KEY clause. With deprecated old syntax (highly not recommended) storage %s "
                "requires %d to %d parameters: %s",
                engine->name, lo, hi, buf_cstr(&msg));
        buf_free(&msg);
        return -1;
    }
    if (!allow)
        return err_set(ERR_BAD_ARGUMENTS, "This syntax for *MergeTree engine is deprecated. Use extended storage "
                       "definition syntax with ORDER BY/PRIMARY KEY clause. See also "
                       "`allow_deprecated_syntax_for_merge_tree` setting.");
    /* The engine's own parameters come last: Collapsing's sign, VersionedCollapsing's sign
     * and version, always; Replacing's version column or Summing's (Coalescing's) columns
     * when the last argument is not a literal (the granularity is one). */
    int cnt = n;
    if (nmand) {
        for (int k = 0; k < nmand; k++)
            if (args[cnt - 1 - k]->kind != AST_IDENT)
                return err_set(ERR_BAD_ARGUMENTS, "%s column name must be an unquoted string",
                               k == 0 && nmand == 2 ? "Version" : "Sign");
        cnt -= nmand;
    } else if (nown && !is_literal(args[cnt - 1])) {
        if (!strcmp(engine->name, "ReplacingMergeTree") && args[cnt - 1]->kind != AST_IDENT)
            return err_set(ERR_BAD_ARGUMENTS, "Version column name must be an identifier");
        cnt--;
    }
    out->rest = args + cnt;
    out->nrest = n - cnt;
    int i = 0;
    if (args[i]->kind != AST_IDENT || args[i]->nparts != 1)
        return err_set(ERR_BAD_ARGUMENTS, "Date column name must be an unquoted string");
    out->date = args[i++];
    if (cnt - i == 3)
        out->sample_by = args[i++];
    if (i >= cnt)
        return err_set(ERR_BAD_ARGUMENTS, "Wrong number of engine arguments.");
    out->key = args[i++];
    if (i >= cnt || !is_literal(args[i]) || args[i]->lit != LIT_UINT)
        return err_set(ERR_BAD_ARGUMENTS, "Index granularity must be a positive integer");
    out->granularity_ast = args[i];
    out->granularity = args[i++]->u;
    if (i != cnt)
        return err_set(ERR_BAD_ARGUMENTS, "Wrong number of engine arguments.");
    /* ClickHouse's verifySortingKey: a constant sorts nothing (tuple() is no key at all) */
    if (is_literal(out->key))
        return err_set(ERR_ILLEGAL_COLUMN, "Sorting key cannot contain constants: (while initializing MergeTree "
                       "partition key from date column `%s`)", out->date->parts[0]);
    return 0;
}

int mt_old_syntax_expand(const ast *create, arena *a, const ast **out)
{
    *out = create;
    if (!mt_old_syntax(create, NULL))
        return 0;
    mt_old_args oa;
    if (mt_old_args_split(create->engine, true, &oa))
        return -1;
    ast *cr = arena_alloc(a, sizeof *cr, 8);
    *cr = *create;
    ast *part = ast_new(a, AST_FUNC, oa.date->pos);
    part->name = "toYYYYMM";
    ast_list_push(a, &part->args, (ast *)oa.date);
    cr->partition_key = part;
    const ast *k = oa.key;
    cr->order_by_key = (ast_list){0};
    if (k->kind == AST_FUNC && !strcmp(k->name, "tuple") && !k->has_params)
        for (int i = 0; i < k->args.n; i++)
            ast_list_push(a, &cr->order_by_key, k->args.items[i]);
    else
        ast_list_push(a, &cr->order_by_key, (ast *)k);
    cr->primary_key = (ast_list){0};
    cr->sample_by = (ast *)oa.sample_by;
    ast *s = ast_new(a, AST_SETTING, oa.granularity_ast->pos);
    s->name = "index_granularity";
    s->sub = (ast *)oa.granularity_ast;
    cr->settings = (ast_list){0};
    ast_list_push(a, &cr->settings, s);
    ast *e = arena_alloc(a, sizeof *e, 8);
    *e = *create->engine;
    e->args = (ast_list){0};
    for (int i = 0; i < oa.nrest; i++)
        ast_list_push(a, &e->args, oa.rest[i]);
    cr->engine = e;
    *out = cr;
    return 0;
}

static void key_list_text(buf *out, const ast_list *l)
{
    for (int i = 0; i < l->n; i++) {
        if (i)
            buf_puts(out, ", ");
        ast_format_expr(out, l->items[i]);
    }
}

void mt_key_texts(const ast *create, buf out[4])
{
    const ast *engine = create->engine;
    if (!engine || !ends_with_mergetree(engine->name))
        return;
    arena a;
    arena_init(&a);
    const ast *cr;
    if (mt_old_syntax_expand(create, &a, &cr) == 0) {
        if (cr->partition_key)
            ast_format_expr(&out[0], cr->partition_key);
        const ast_list *order = cr->order_by_key.n ? &cr->order_by_key : &cr->primary_key;
        key_list_text(&out[1], order);
        /* VersionedCollapsingMergeTree sorts by its version column last (not in the
           primary key) when the key does not name it */
        const ast *ver = cr->engine->args.n == 2 ? cr->engine->args.items[1] : NULL;
        if (!strcmp(engine->name, "VersionedCollapsingMergeTree") && ver && ver->kind == AST_IDENT) {
            bool named = false;
            for (int i = 0; i < order->n && !named; i++)
                named = order->items[i]->kind == AST_IDENT &&
                        !strcmp(order->items[i]->parts[order->items[i]->nparts - 1], ver->parts[ver->nparts - 1]);
            if (!named) {
                if (out[1].len)
                    buf_puts(&out[1], ", ");
                ast_format_expr(&out[1], ver);
            }
        }
        key_list_text(&out[2], cr->primary_key.n ? &cr->primary_key : order);
        if (cr->sample_by)
            ast_format_expr(&out[3], cr->sample_by);
    } else {
        err_clear(); /* the table opened: its clauses expanded then */
    }
    arena_free(&a);
}
