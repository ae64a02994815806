/* Scalar functions: a registry of definitions and the resolved calls made from them.
 *
 * Resolution happens once per query at analysis time: func_resolve() looks a name up,
 * lets the definition check argument types and pick a result type and a kernel, and
 * returns a fn_call. Execution then calls fn_exec() on every block.
 *
 * The framework handles three things so that kernels don't have to (ClickHouse's
 * "default implementations"), unless the definition opts out with a flag:
 *   - Nullable: arguments are resolved and executed without Nullable; the result becomes
 *     Nullable and a row is NULL when any argument row is NULL. A NULL literal argument
 *     (Nullable(Nothing)) makes the result a NULL constant of type Nullable(Nothing).
 *   - Constants: if all arguments are constant the kernel runs on one row and the result
 *     is constant; otherwise constant arguments are materialised (FN_CONST_ARGS_OK keeps
 *     them, for kernels with fast const paths).
 *   - LowCardinality: arguments are resolved without it; with one LowCardinality argument
 *     and all others constant the result type is LowCardinality (as in ClickHouse).
 *
 * Kernels receive non-Nullable, non-LowCardinality-typed arguments with exactly `rows`
 * rows, and return a new column of call->ret's physical type with `rows` rows (they may
 * return a constant column when FN_CONST_ARGS_OK is set and all inputs are constant).
 * Errors: kernels and resolvers return -1 with err_set (e.g. ERR_ILLEGAL_TYPE_OF_ARGUMENT
 * naming the function and the argument types).
 * Thread-safety: a resolved fn_call is read-only during execution and is shared by all
 * worker threads; any mutable scratch must live on the stack or in the output column. */
#ifndef SHALE_FUNC_FUNC_H
#define SHALE_FUNC_FUNC_H

#include "column/column.h"

#include <stdbool.h>

enum {
    FN_CASE_INSENSITIVE = 1 << 0, /* SQL-standard names: lower(), LOWER() */
    FN_OWN_NULLS = 1 << 1,        /* kernel handles Nullable arguments itself */
    FN_CONST_ARGS_OK = 1 << 2,    /* kernel accepts constant argument columns */
    FN_NOT_DETERMINISTIC = 1 << 3,/* now(), rand(): never constant-folded across queries */
    FN_OWN_LOWCARD = 1 << 4,      /* resolver sees LowCardinality argument types */
    FN_NO_CONST_FOLD = 1 << 5,    /* materialize(), rand(): runs on all rows even when all
                                     arguments are constant; result is never constant */
    FN_NO_LOWCARD_RESULT = 1 << 6,/* if, multiIf, and, or, xor: a LowCardinality argument
                                     does not make the result LowCardinality (ClickHouse
                                     evaluates them per row, not per dictionary entry) */
    FN_NULL_DIVISOR_ONE = 1 << 7, /* intDiv, modulo, Decimal divide: the NULL rows of a
                                     Nullable second argument reach the kernel as 1, not 0,
                                     so they are no division by zero (as ClickHouse) */
};

/* Per-query facts a function may need. */
typedef struct func_env {
    const char *timezone;   /* session time zone (never NULL) */
    int64_t query_start;    /* unix seconds at query start, for now()/today() */
    const char *database;   /* the session's current database (currentDatabase()); may be NULL = "default" */
    const char *user;       /* the session's user (currentUser()); may be NULL = "default" */
    bool multiif_to_if;     /* optimize_multiif_to_if: multiIf(c, a, b) behaves as if(c, a, b) */
} func_env;

struct fn_call;
typedef int (*fn_kernel)(const struct fn_call *call, column **args, size_t rows, column **out);

typedef struct fn_call {
    const struct func_def *def;
    const char *name;            /* as written by the user (for messages) */
    int nargs;
    const type **arg_types;      /* as the kernel sees them (see above) */
    /* Arguments known at analysis time (literals, folded constants): a constant column
     * per argument, or NULL. Resolvers use them for things such as a format string, a
     * regular expression, a decimal scale or a time zone name. */
    column **const_args;
    const type *ret;             /* set by the resolver */
    fn_kernel exec;              /* set by the resolver */
    void *state;                 /* resolver's compiled data, freed by def->free_state */
    const func_env *env;
    /* Filled by the framework: */
    bool wrap_nullable;
    bool strip_nullable;    /* Nullable arguments reach the kernel as their values (NULL rows
                             * as defaults); the result is Nullable only with wrap_nullable */
    bool wrap_lowcard;
    bool null_result;            /* result is always NULL */
    const type *result_type;     /* what the expression evaluates to, wrappers included */
} fn_call;

typedef struct func_def {
    const char *name;
    int flags;
    /* Checks call->nargs/arg_types/const_args; sets ret, exec and optionally state.
     * Returns -1 with an error on bad arguments. */
    int (*resolve)(fn_call *call);
    void (*free_state)(void *state);
    const char *description; /* one line, shown by system.functions */
} func_def;

void func_register(const func_def *def);
void func_register_alias(const char *alias, const char *name);
const func_def *func_lookup(const char *name);
/* Names of all functions, for system.functions and "maybe you meant" hints. */
int func_count(void);
const func_def *func_at(int i);
void func_registry_init(void); /* registers every built-in; idempotent */
/* Every name entry of the registry, own names and aliases (an alias's def has another name). */
int func_entry_count(void);
const char *func_entry_at(int i, const func_def **def);

/* What system.functions lists besides the aggregates of func/agg.h: the registry's functions
 * and aliases, the higher-order functions (func/hof.h) and the functions the analyzer
 * resolves itself (arrayJoin, the map higher-order functions, window functions), each once,
 * in a fixed order. Built once; read-only afterwards (thread-safe). func/listing.c. */
typedef struct func_listing {
    const char *name;
    const char *alias_to;    /* "" unless an alias */
    const char *description;
    bool is_aggregate;       /* window functions, as ClickHouse lists them */
    bool case_insensitive;
} func_listing;
int func_listing_count(void);
const func_listing *func_listing_at(int i);

/* Resolves name(arg_types...). const_args may be NULL or have NULL entries. On success
 * *out is a new call owned by the caller (free with fn_call_free). */
int func_resolve(const char *name, int nargs, const type *const *arg_types, column *const *const_args,
                 const func_env *env, fn_call **out);
/* Runs the call on argument columns of `rows` rows (they keep their owners); *out is new. */
int fn_exec(const fn_call *call, column *const *args, size_t rows, column **out);
/* CAST(src, 't') over a whole column (src keeps its owner; *out is new). */
int func_cast_column(column *src, const type *t, const func_env *env, column **out);
void fn_call_free(fn_call *call);

/* Helpers for resolvers and kernels. */
int fn_bad_types(const fn_call *call);   /* ERR_ILLEGAL_TYPE_OF_ARGUMENT listing the types */
int fn_bad_nargs(const fn_call *call, const char *expected); /* NUMBER_OF_ARGUMENTS_DOESNT_MATCH */
/* The constant String argument i, or NULL when it is not a constant string. */
const char *fn_const_str(const fn_call *call, int i, size_t *len);
/* The constant integer argument i (any integer type); returns -1 if not a constant int. */
int fn_const_int(const fn_call *call, int i, int64_t *v);
/* Column m (takes it; type `from`, n rows, maybe constant) materialised and converted to
 * `to`, a supertype of `from` (func/supertype.h); a NULL literal (Nothing) becomes n
 * defaults of `to`. NULL with an error when the conversion fails. */
/* 64 random bits from a per-thread generator seeded from the clock (rand(), UUIDs). */
uint64_t fn_rand_u64(void);
column *fn_cast_arg(const fn_call *call, column *m, const type *from, const type *to, size_t n);

/* Registration entry points of the built-in function families (one per source file). */
void func_register_arith(void);
void func_register_compare(void);
void func_register_logic(void);
void func_register_cond(void);
void func_register_math(void);
void func_register_string(void);
void func_register_regex(void);
void func_register_date(void);
void func_register_conv(void);
void func_register_array(void);
void func_register_hash(void);
void func_register_misc(void);
void func_register_bits(void);
void func_register_map(void);
void func_register_aggstate(void); /* finalizeAggregation, initializeAggregation */
void func_register_hof(void); /* arrayAvg, arrayProduct (func/scalar/hof.c) */
void func_register_transform(void);
void func_register_join_get(void); /* __joinGetLookup, joinGet's kernel (func/scalar/join_get.c) */
void func_register_uuid(void);
void func_register_map_fn(void);
void func_register_format(void); /* formatReadable*, randomString (func/scalar/format.c) */
void func_register_token(void);
void func_register_array_enum(void); /* arrayZip, arrayResize, arrayEnumerateUniq/Dense */
void func_register_pred(void);
void func_register_ip(void);
void func_register_url(void);  /* domain, path, extractURLParameter, … (func/scalar/url.c) */
void func_register_json(void); /* JSONExtract*, simpleJSON*, isValidJSON (func/scalar/json*.c) */
void func_register_jsonpath(void); /* JSON_EXISTS, JSON_VALUE, JSON_QUERY (func/scalar/jsonpath.c) */
void func_register_array_set(void); /* hasAll, hasAny, arrayPopFront, … (func/scalar/array_set.c) */
void func_register_reinterpret(void); /* reinterpret, reinterpretAs<T> (func/scalar/reinterpret.c) */
void func_register_minmax2(void); /* max2, min2 (func/scalar/minmax2.c) */
/* Added by the funcs3 branch (one block for merging): */
void func_register_distance(void); /* L2Distance, cosineDistance, dotProduct, L2Norm, … (func/scalar/distance.c) */
void func_register_tojson(void);   /* toJSONString, toStringCutToZero (func/scalar/tojson.c) */
void func_register_relnum(void);   /* toRelative{Year,Quarter,Month,Week,Day,Hour,Minute,Second}Num (func/scalar/relnum.c) */
void func_register_unixts64(void); /* to/fromUnixTimestamp64Second/Milli/Micro/Nano (func/scalar/unixts64.c) */
void func_register_string2(void);  /* splitByWhitespace, substringIndex, translate, editDistance, … (func/scalar/string2.c) */
void func_register_bits2(void);    /* bitRotateLeft/Right, bitTestAll/Any, bitmaskToArray, byteSwap, … (func/scalar/bits2.c) */
void func_register_makedate(void); /* makeDate, makeDate32, makeDateTime, makeDateTime64 (func/scalar/makedate.c) */
void func_register_typefn(void);   /* defaultValueOf*, getSizeOfEnumType, toStartOfSecond/…Nanosecond (func/scalar/typefn.c) */
/* The time zone of a name that is not NUL-terminated (a constant string argument); NULL
 * with BAD_ARGUMENTS when unknown (func.c). */
const struct tz_info *fn_tz_named(const char *name, size_t len);
/* arrayElement on a Map (m[k]); func/scalar/map.c. */
int map_element_resolve(fn_call *call);

#endif
