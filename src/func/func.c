/* The scalar function registry, resolution with ClickHouse's default implementations
 * (Nullable, constants, LowCardinality) and execution. See func.h for the contract. */
#include "func/func.h"
#include "func/supertype.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/datetime.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- registry ---- */

/* A name entry: a function's own name or an alias of it. Registration happens once,
 * under pthread_once, before any lookup; afterwards the table is read-only, so lookups
 * need no lock. */
typedef struct fentry {
    const char *name;
    const func_def *def;
} fentry;

static fentry *entries;
static int nentries, centries;
static const func_def **defs;
static int ndefs, cdefs;

static void add_entry(const char *name, const func_def *def)
{
    if (nentries == centries) {
        centries = centries ? centries * 2 : 256;
        entries = xrealloc(entries, sizeof *entries * (size_t)centries);
    }
    entries[nentries].name = name;
    entries[nentries].def = def;
    nentries++;
}

void func_register(const func_def *def)
{
    if (ndefs == cdefs) {
        cdefs = cdefs ? cdefs * 2 : 256;
        defs = xrealloc(defs, sizeof *defs * (size_t)cdefs);
    }
    defs[ndefs++] = def;
    add_entry(def->name, def);
}

static const func_def *lookup_raw(const char *name)
{
    for (int i = 0; i < nentries; i++)
        if (strcmp(entries[i].name, name) == 0)
            return entries[i].def;
    for (int i = 0; i < nentries; i++)
        if ((entries[i].def->flags & FN_CASE_INSENSITIVE) && strcasecmp(entries[i].name, name) == 0)
            return entries[i].def;
    return NULL;
}

void func_register_alias(const char *alias, const char *name)
{
    const func_def *d = lookup_raw(name);
    if (d)
        add_entry(alias, d);
}

static pthread_once_t registry_once = PTHREAD_ONCE_INIT;

static void registry_init_once(void)
{
    func_register_arith();
    func_register_compare();
    func_register_logic();
    func_register_cond();
    func_register_math();
    func_register_string();
    func_register_regex();
    func_register_date();
    func_register_conv();
    func_register_array();
    func_register_hash();
    func_register_misc();
    func_register_bits();
    func_register_map();
    func_register_hof();
    func_register_aggstate();
    func_register_transform();
    func_register_join_get();
    func_register_uuid();
    func_register_map_fn();
    func_register_format();
    func_register_token();
    func_register_array_enum();
    func_register_pred();
    func_register_ip();
    func_register_url();
    func_register_json();
    func_register_jsonpath();
    func_register_array_set();
    func_register_reinterpret();
    func_register_minmax2();
    /* funcs3 */
    func_register_distance();
    func_register_tojson();
    func_register_relnum();
    func_register_unixts64();
    func_register_string2();
    func_register_bits2();
    func_register_makedate();
    func_register_typefn();
    /* ClickHouse's aliases of functions registered by the families above (system.functions
     * alias_to), registered after all of them so that every target exists. */
    static const char *const compat[][2] = {
        {"CARDINALITY", "length"}, {"OCTET_LENGTH", "length"}, {"FORMAT_BYTES", "formatReadableSize"},
        {"LAST_DAY", "toLastDayOfMonth"}, {"MILLISECOND", "toMillisecond"}, {"REGEXP_MATCHES", "match"},
        {"SCHEMA", "currentDatabase"}, {"array_to_string", "arrayStringConcat"}, {"byteSlice", "substring"},
        {"current_user", "currentUser"}, {"session_user", "currentUser"}, {"date_bin", "toStartOfInterval"},
        {"time_bucket", "toStartOfInterval"}, {"hostname", "hostName"}, {"instr", "positionCaseInsensitive"},
        {"localtimestamp", "now"}, {"week", "toWeek"}, {"yearweek", "toYearWeek"},
    };
    for (size_t i = 0; i < sizeof compat / sizeof compat[0]; i++)
        func_register_alias(compat[i][0], compat[i][1]);
}

void func_registry_init(void) { pthread_once(&registry_once, registry_init_once); }

/* funcs3: every name entry (own names and aliases), for the listing (func/listing.c). */
int func_entry_count(void)
{
    func_registry_init();
    return nentries;
}

const char *func_entry_at(int i, const func_def **def)
{
    *def = entries[i].def;
    return entries[i].name;
}

const func_def *func_lookup(const char *name)
{
    func_registry_init();
    return lookup_raw(name);
}

int func_count(void)
{
    func_registry_init();
    return ndefs;
}

const func_def *func_at(int i)
{
    func_registry_init();
    return i >= 0 && i < ndefs ? defs[i] : NULL;
}

/* ---- "Maybe you meant" ---- */

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 1000;
    size_t d[65], prev;
    for (size_t j = 0; j <= lb; j++)
        d[j] = j;
    for (size_t i = 1; i <= la; i++) {
        prev = d[0];
        d[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cur = d[j];
            size_t sub = prev + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            size_t m = d[j] + 1 < d[j - 1] + 1 ? d[j] + 1 : d[j - 1] + 1;
            d[j] = m < sub ? m : sub;
            prev = cur;
        }
    }
    return d[lb];
}

static int unknown_function(const char *name)
{
    /* Like ClickHouse's NamePrompter: the closest names within a distance that grows
     * with the name's length, at most two of them. */
    size_t len = strlen(name), limit = len / 2;
    if (limit < 1)
        limit = 1;
    const char *best[2] = {NULL, NULL};
    size_t bestd[2] = {(size_t)-1, (size_t)-1};
    for (int i = 0; i < nentries; i++) {
        size_t dd = edit_distance(name, entries[i].name);
        if (dd > limit || dd == 0)
            continue;
        if (dd < bestd[0]) {
            best[1] = best[0], bestd[1] = bestd[0];
            best[0] = entries[i].name, bestd[0] = dd;
        } else if (dd < bestd[1] && strcmp(entries[i].name, best[0]) != 0) {
            best[1] = entries[i].name, bestd[1] = dd;
        }
    }
    if (best[1] && bestd[1] > bestd[0]) /* only the closest distance is suggested */
        best[1] = NULL;
    if (!best[0])
        return err_set(ERR_UNKNOWN_FUNCTION, "Function with name `%s` does not exist.", name);
    if (!best[1])
        return err_set(ERR_UNKNOWN_FUNCTION, "Function with name `%s` does not exist. Maybe you meant: ['%s'].",
                       name, best[0]);
    return err_set(ERR_UNKNOWN_FUNCTION, "Function with name `%s` does not exist. Maybe you meant: ['%s','%s'].",
                   name, best[0], best[1]);
}

/* ---- resolution ---- */

static bool lowcard_can_hold(const type *t)
{
    t = type_strip_nullable(t);
    return type_is_number(t) || type_is_string(t) || type_is_date_or_time(t) || t->id == T_UUID || type_is_ip(t);
}

int func_resolve(const char *name, int nargs, const type *const *arg_types, column *const *const_args,
                 const func_env *env, fn_call **out)
{
    func_registry_init();
    *out = NULL;
    const func_def *def = lookup_raw(name);
    if (!def)
        return unknown_function(name);
    fn_call *c = xcalloc(1, sizeof *c);
    c->def = def;
    c->name = xstrdup(name);
    c->nargs = nargs;
    c->env = env;
    c->arg_types = xcalloc((size_t)(nargs ? nargs : 1), sizeof *c->arg_types);
    c->const_args = xcalloc((size_t)(nargs ? nargs : 1), sizeof *c->const_args);
    /* ClickHouse's default for LowCardinality: the result is LowCardinality when some
     * argument is LowCardinality (a constant counts) and every other argument is a
     * constant, so that at most one full column, a LowCardinality one, remains */
    int nlowcard = 0, nnonconst = 0;
    bool any_lowcard = false;
    bool any_null_literal = false, any_nullable = false;
    for (int i = 0; i < nargs; i++) {
        const type *t = arg_types[i];
        column *k = const_args ? const_args[i] : NULL;
        if (!k)
            nnonconst++;
        if (t->id == T_LOWCARDINALITY && !(def->flags & FN_OWN_LOWCARD)) {
            any_lowcard = true;
            if (!k)
                nlowcard++;
            t = t->inner;
        }
        if (!(def->flags & FN_OWN_NULLS) && t->id == T_NULLABLE) {
            any_nullable = true;
            if (t->inner->id == T_NOTHING)
                any_null_literal = true;
            t = t->inner;
            /* A constant Nullable argument is passed as its inner column; NULL constants
             * are handled by null_result below. */
            if (k) {
                k = (k->nulls.p && k->nulls.p[0]) ? NULL : k->inner;
            }
        }
        c->arg_types[i] = t;
        c->const_args[i] = k ? col_ref(k) : NULL;
    }
    if (any_null_literal) {
        c->null_result = true;
        c->ret = c->result_type = type_nullable(type_simple(T_NOTHING));
        *out = c;
        return 0;
    }
    if (def->resolve(c) < 0) {
        fn_call_free(c);
        return -1;
    }
    const type *rt = c->ret;
    /* As ClickHouse's default for NULLs: the kernel runs on the values; a result that
     * cannot be inside Nullable (an Array) is returned as it is. */
    c->strip_nullable = any_nullable;
    if (any_nullable && type_can_be_nullable(rt)) {
        c->wrap_nullable = true;
        rt = type_nullable(rt);
    }
    if (any_lowcard && nlowcard == nnonconst && nlowcard <= 1 && lowcard_can_hold(rt) && rt->id != T_LOWCARDINALITY &&
        !(def->flags & FN_NO_LOWCARD_RESULT)) {
        c->wrap_lowcard = true;
        rt = type_lowcard(rt);
    }
    c->result_type = rt;
    *out = c;
    return 0;
}

void fn_call_free(fn_call *call)
{
    if (!call)
        return;
    if (call->state && call->def->free_state)
        call->def->free_state(call->state);
    for (int i = 0; i < call->nargs; i++)
        col_free(call->const_args[i]);
    free(call->const_args);
    free(call->arg_types);
    free((char *)call->name);
    free(call);
}

/* ---- execution ---- */

/* A constant column of `rows` rows holding row 0 of c, sharing nothing with c. */
static column *const_of(const column *c, size_t rows)
{
    column *one = col_slice(c, 0, 1);
    return col_new_const(one, rows);
}

/* Zeroes fixed-width values at NULL rows so the Nullable invariant holds (the kernel
 * computed on default arguments there, which may be anything). */
static void zero_null_rows(column *inner, const uint8_t *nulls, size_t rows)
{
    const type *t = type_phys(inner->type);
    if (!t->width || t->id == T_NULLABLE || inner->is_const)
        return;
    for (size_t i = 0; i < rows; i++)
        if (nulls[i])
            memset(inner->data.p + i * t->width, 0, t->width);
}

/* The values of Nullable column c with 1 (the raw value 1: an integer's one, a decimal's
 * smallest step) in its NULL rows (FN_NULL_DIVISOR_ONE). */
static column *divisor_nulls_one(const column *c)
{
    size_t w = type_phys(c->inner->type)->width;
    if (!type_is_number(c->inner->type) && !type_is_decimal(c->inner->type))
        return col_ref(c->inner);
    column *v = col_clone(c->inner);
    for (size_t r = 0; r < c->len; r++)
        if (c->nulls.p[r]) {
            memset(v->data.p + r * w, 0, w);
            v->data.p[r * w] = 1; /* little-endian */
        }
    return v;
}

int fn_exec(const fn_call *call, column *const *args, size_t rows, column **out)
{
    *out = NULL;
    if (call->null_result) {
        column *one = col_new_defaults(call->result_type, 1);
        *out = col_new_const(one, rows);
        return 0;
    }
    int n = call->nargs;
    column *local[16];
    column **a = n <= 16 ? local : xcalloc((size_t)n, sizeof *a);
    bool all_const = n > 0 && !(call->def->flags & FN_NO_CONST_FOLD);
    for (int i = 0; i < n; i++)
        if (!args[i]->is_const)
            all_const = false;
    size_t krows = all_const ? 1 : rows;
    uint8_t *nulls = NULL; /* OR of argument null maps, krows bytes */
    for (int i = 0; i < n; i++) {
        column *c = args[i];
        bool strip_null = call->strip_nullable && type_phys(c->type)->id == T_NULLABLE;
        column *v;
        if (strip_null) {
            if (!nulls)
                nulls = mem_calloc(krows ? krows : 1);
            if (c->is_const) {
                if (c->nulls.p[0])
                    memset(nulls, 1, krows);
                v = all_const || (call->def->flags & FN_CONST_ARGS_OK) ? const_of(c->inner, krows)
                                                                        : col_materialize(const_of(c->inner, krows));
            } else {
                bool any = false;
                for (size_t r = 0; r < krows; r++) {
                    nulls[r] |= c->nulls.p[r];
                    any |= c->nulls.p[r] != 0;
                }
                v = any && i == 1 && (call->def->flags & FN_NULL_DIVISOR_ONE) ? divisor_nulls_one(c)
                                                                              : col_ref(c->inner);
            }
        } else if (c->is_const) {
            if (all_const)
                v = col_slice(c, 0, 1);
            else if ((call->def->flags & FN_CONST_ARGS_OK) && !(call->def->flags & FN_NO_CONST_FOLD))
                v = col_ref(c);
            else
                v = col_materialize(col_ref(c));
        } else {
            /* a dictionary-coded column (column.h) reaches a kernel as its values */
            v = c->dict ? col_materialize(col_ref(c)) : col_ref(c);
        }
        if (all_const && v->is_const) {
            column *m = col_slice(v, 0, 1);
            col_free(v);
            v = m;
        }
        a[i] = v;
    }
    column *res = NULL;
    int rc = call->exec(call, a, krows, &res);
    for (int i = 0; i < n; i++)
        col_free(a[i]);
    if (a != local)
        free(a);
    if (rc < 0) {
        mem_free(nulls);
        return -1;
    }
    if (call->wrap_nullable) {
        column *w = col_new(type_nullable(call->ret));
        col_free(w->inner);
        if (res->is_const && !all_const)
            res = col_materialize(res);
        w->inner = res;
        if (nulls) {
            zero_null_rows(res, nulls, krows);
            buf_append(&w->nulls, nulls, krows);
        } else {
            buf_resize_zero(&w->nulls, krows);
        }
        w->len = res->is_const ? 1 : krows;
        if (res->is_const) {
            res->is_const = false;
            res->len = 1;
        }
        res = w;
    }
    mem_free(nulls);
    if (all_const && !res->is_const) {
        res = col_new_const(res, rows);
    } else if (all_const && res->len != rows) {
        /* a function that passes a constant argument through (CAST to a type of the same
         * layout) returns the 1-row constant it was given: re-expand to the block's rows */
        column *one = col_new(res->type);
        col_push_from(one, res, 0);
        col_free(res);
        res = col_new_const(one, rows);
    }
    res->type = call->result_type;
    *out = res;
    return 0;
}

/* ---- helpers ---- */

int fn_bad_types(const fn_call *call)
{
    if (call->nargs == 1)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                       call->arg_types[0]->name, call->name);
    char list[1024];
    size_t pos = 0;
    for (int i = 0; i < call->nargs && pos < sizeof list; i++) {
        const char *sep = i == 0 ? "" : i == call->nargs - 1 ? " and " : ", ";
        pos += (size_t)snprintf(list + pos, sizeof list - pos, "%s%s", sep, call->arg_types[i]->name);
    }
    return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types %s of arguments of function %s", list, call->name);
}

int fn_bad_nargs(const fn_call *call, const char *expected)
{
    return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                   "Number of arguments for function %s doesn't match: passed %d, should be %s", call->name,
                   call->nargs, expected);
}

const char *fn_const_str(const fn_call *call, int i, size_t *len)
{
    if (i < 0 || i >= call->nargs || !call->const_args[i])
        return NULL;
    const column *k = call->const_args[i];
    const type *t = type_phys(k->type);
    if (t->id != T_STRING && t->id != T_FIXEDSTRING)
        return NULL;
    if (k->len == 0 && !k->is_const)
        return NULL;
    return col_str(k, 0, len);
}

int fn_const_int(const fn_call *call, int i, int64_t *v)
{
    if (i < 0 || i >= call->nargs || !call->const_args[i])
        return -1;
    const column *k = call->const_args[i];
    if (!type_is_integer(type_phys(k->type)) || type_phys(k->type)->id == T_NULLABLE)
        return -1;
    if (k->len == 0 && !k->is_const)
        return -1;
    *v = col_get_i64(k, 0);
    return 0;
}

int func_cast_column(column *src, const type *t, const func_env *env, column **out)
{
    fn_call *call;
    column *targ = col_new(type_simple(T_STRING));
    col_push_str(targ, t->name, strlen(t->name));
    column *tconst = col_new_const(targ, 1);
    const type *ats[2] = {src->type, type_simple(T_STRING)};
    column *cargs[2] = {NULL, tconst};
    int rc = func_resolve("CAST", 2, ats, cargs, env, &call);
    if (!rc) {
        column *ex[2] = {src, col_new_const(col_slice(tconst, 0, 1), src->len)};
        rc = fn_exec(call, ex, src->len, out);
        col_free(ex[1]);
        fn_call_free(call);
    }
    col_free(tconst);
    return rc;
}

column *fn_cast_arg(const fn_call *call, column *m, const type *from, const type *to, size_t n)
{
    if (type_base(from)->id == T_NOTHING && type_phys(from)->id != T_ARRAY) {
        col_free(m);
        return col_new_defaults(to, n);
    }
    m = col_materialize(m);
    if (from == to || m->type == to)
        return m;
    column *r = type_cast_super(m, from, to, call->env ? call->env->timezone : NULL);
    col_free(m);
    return r;
}

const tz_info *fn_tz_named(const char *name, size_t len)
{
    char *z = xstrndup(name, len);
    const tz_info *tz = tz_get(z);
    free(z);
    return tz;
}
