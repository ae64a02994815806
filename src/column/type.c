#include "column/type.h"

#include "base/err.h"
#include "base/mem.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- interning: a chained hash table keyed by canonical name ---- */

#define INTERN_BUCKETS 1024

typedef struct interned {
    type t;
    struct interned *next;
} interned;

static interned *intern_table[INTERN_BUCKETS];
static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

/* Returns the interned copy of proto (whose name must be set); copies strings it owns. */
static const type *intern(const type *proto)
{
    unsigned h = name_hash(proto->name) % INTERN_BUCKETS;
    pthread_mutex_lock(&intern_lock);
    for (interned *e = intern_table[h]; e; e = e->next)
        if (strcmp(e->t.name, proto->name) == 0) {
            pthread_mutex_unlock(&intern_lock);
            return &e->t;
        }
    interned *e = xcalloc(1, sizeof *e);
    e->t = *proto;
    e->t.name = xstrdup(proto->name);
    if (proto->agg_func)
        e->t.agg_func = xstrdup(proto->agg_func);
    if (proto->tz)
        e->t.tz = xstrdup(proto->tz);
    if (proto->nitems) {
        enum_item *items = xcalloc((size_t)proto->nitems, sizeof *items);
        for (int i = 0; i < proto->nitems; i++) {
            items[i].name = xstrdup(proto->items[i].name);
            items[i].value = proto->items[i].value;
        }
        e->t.items = items;
    }
    if (proto->nfields) {
        const type **f = xcalloc((size_t)proto->nfields, sizeof *f);
        memcpy(f, proto->fields, sizeof *f * (size_t)proto->nfields);
        e->t.fields = f;
        if (proto->field_names) {
            const char **n = xcalloc((size_t)proto->nfields, sizeof *n);
            for (int i = 0; i < proto->nfields; i++)
                n[i] = xstrdup(proto->field_names[i]);
            e->t.field_names = n;
        }
    }
    e->next = intern_table[h];
    intern_table[h] = e;
    pthread_mutex_unlock(&intern_lock);
    return &e->t;
}

static const struct {
    type_id id;
    const char *name;
    uint32_t width;
} simple_types[] = {
    {T_NOTHING, "Nothing", 1},   {T_UINT8, "UInt8", 1},       {T_UINT16, "UInt16", 2},
    {T_UINT32, "UInt32", 4},     {T_UINT64, "UInt64", 8},     {T_UINT128, "UInt128", 16},
    {T_INT8, "Int8", 1},         {T_INT16, "Int16", 2},       {T_INT32, "Int32", 4},
    {T_INT64, "Int64", 8},       {T_INT128, "Int128", 16},    {T_FLOAT32, "Float32", 4},
    {T_FLOAT64, "Float64", 8},   {T_BOOL, "Bool", 1},         {T_STRING, "String", 0},
    {T_DATE, "Date", 2},         {T_DATE32, "Date32", 4},     {T_DATETIME, "DateTime", 4},
    {T_UUID, "UUID", 16},        {T_IPV4, "IPv4", 4},         {T_IPV6, "IPv6", 16},
    {T_UINT256, "UInt256", 32},  {T_INT256, "Int256", 32},
};

const char *type_id_name(type_id id)
{
    for (size_t i = 0; i < sizeof simple_types / sizeof simple_types[0]; i++)
        if (simple_types[i].id == id)
            return simple_types[i].name;
    switch (id) {
    case T_FIXEDSTRING: return "FixedString";
    case T_DATETIME64: return "DateTime64";
    case T_ENUM8: return "Enum8";
    case T_ENUM16: return "Enum16";
    case T_DECIMAL32: return "Decimal32";
    case T_DECIMAL64: return "Decimal64";
    case T_DECIMAL128: return "Decimal128";
    case T_DECIMAL256: return "Decimal256";
    case T_NULLABLE: return "Nullable";
    case T_LOWCARDINALITY: return "LowCardinality";
    case T_ARRAY: return "Array";
    case T_TUPLE: return "Tuple";
    case T_MAP: return "Map";
    case T_AGGSTATE: return "AggregateFunction";
    default: return "?";
    }
}

const type *type_simple(type_id id)
{
    static const type *cache[T__COUNT];
    if (id >= T__COUNT)
        return NULL;
    const type *c = __atomic_load_n(&cache[id], __ATOMIC_ACQUIRE);
    if (c)
        return c;
    for (size_t i = 0; i < sizeof simple_types / sizeof simple_types[0]; i++)
        if (simple_types[i].id == id) {
            type t = {.id = id, .name = simple_types[i].name, .width = simple_types[i].width};
            c = intern(&t);
            __atomic_store_n(&cache[id], c, __ATOMIC_RELEASE);
            return c;
        }
    return NULL;
}

const type *type_nullable(const type *t)
{
    if (t->id == T_NULLABLE)
        return t;
    if (t->id == T_LOWCARDINALITY)
        return type_lowcard(type_nullable(t->inner));
    char name[1024];
    snprintf(name, sizeof name, "Nullable(%s)", t->name);
    type p = {.id = T_NULLABLE, .name = name, .inner = t};
    return intern(&p);
}

const type *type_lowcard(const type *t)
{
    if (t->id == T_LOWCARDINALITY)
        return t;
    char name[1024];
    snprintf(name, sizeof name, "LowCardinality(%s)", t->name);
    type p = {.id = T_LOWCARDINALITY, .name = name, .inner = t, .width = t->width};
    return intern(&p);
}

const type *type_array(const type *t)
{
    char name[1024];
    snprintf(name, sizeof name, "Array(%s)", t->name);
    type p = {.id = T_ARRAY, .name = name, .inner = t};
    return intern(&p);
}

const type *type_fixedstring(uint32_t n)
{
    char name[64];
    snprintf(name, sizeof name, "FixedString(%u)", n);
    type p = {.id = T_FIXEDSTRING, .name = name, .width = n};
    return intern(&p);
}

const type *type_decimal(int precision, int scale)
{
    char name[64];
    snprintf(name, sizeof name, "Decimal(%d, %d)", precision, scale);
    type p = {.name = name, .precision = (uint8_t)precision, .scale = (uint8_t)scale};
    if (precision <= 9) {
        p.id = T_DECIMAL32;
        p.width = 4;
    } else if (precision <= 18) {
        p.id = T_DECIMAL64;
        p.width = 8;
    } else if (precision <= 38) {
        p.id = T_DECIMAL128;
        p.width = 16;
    } else {
        p.id = T_DECIMAL256;
        p.width = 32;
    }
    return intern(&p);
}

const type *type_datetime(const char *tz)
{
    if (!tz)
        return type_simple(T_DATETIME);
    char name[256];
    snprintf(name, sizeof name, "DateTime('%s')", tz);
    type p = {.id = T_DATETIME, .name = name, .width = 4, .tz = tz};
    return intern(&p);
}

const type *type_datetime64(int precision, const char *tz)
{
    char name[256];
    if (tz)
        snprintf(name, sizeof name, "DateTime64(%d, '%s')", precision, tz);
    else
        snprintf(name, sizeof name, "DateTime64(%d)", precision);
    type p = {.id = T_DATETIME64, .name = name, .width = 8, .scale = (uint8_t)precision, .tz = tz};
    return intern(&p);
}

static int cmp_item(const void *a, const void *b)
{
    const enum_item *x = a, *y = b;
    return (x->value > y->value) - (x->value < y->value);
}

/* Writes s as a ClickHouse quoted string literal ('a\'b'). */
static size_t put_quoted(char *out, size_t cap, size_t pos, const char *s)
{
    if (pos < cap)
        out[pos] = '\'';
    pos++;
    for (; *s; s++) {
        if (*s == '\'' || *s == '\\') {
            if (pos < cap)
                out[pos] = '\\';
            pos++;
        }
        if (pos < cap)
            out[pos] = *s;
        pos++;
    }
    if (pos < cap)
        out[pos] = '\'';
    return pos + 1;
}

const type *type_enum(int bits, int n, const enum_item *items)
{
    enum_item *sorted = xcalloc((size_t)n, sizeof *sorted);
    memcpy(sorted, items, sizeof *sorted * (size_t)n);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_item);
    size_t cap = 64;
    for (int i = 0; i < n; i++)
        cap += strlen(sorted[i].name) * 2 + 16;
    char *name = xmalloc(cap);
    size_t pos = (size_t)snprintf(name, cap, "Enum%d(", bits);
    for (int i = 0; i < n; i++) {
        if (i)
            pos += (size_t)snprintf(name + pos, cap - pos, ", ");
        pos = put_quoted(name, cap, pos, sorted[i].name);
        pos += (size_t)snprintf(name + pos, cap - pos, " = %d", sorted[i].value);
    }
    snprintf(name + pos, cap - pos, ")");
    type p = {.id = bits == 8 ? T_ENUM8 : T_ENUM16, .name = name, .width = bits == 8 ? 1 : 2,
              .nitems = n, .items = sorted};
    const type *r = intern(&p);
    free(name);
    free(sorted);
    return r;
}

const type *type_tuple(int n, const type *const *fields, const char *const *names)
{
    size_t cap = 64;
    for (int i = 0; i < n; i++)
        cap += strlen(fields[i]->name) + (names ? strlen(names[i]) : 0) + 4;
    char *name = xmalloc(cap);
    size_t pos = (size_t)snprintf(name, cap, "Tuple(");
    for (int i = 0; i < n; i++) {
        if (i)
            pos += (size_t)snprintf(name + pos, cap - pos, ", ");
        if (names)
            pos += (size_t)snprintf(name + pos, cap - pos, "%s ", names[i]);
        pos += (size_t)snprintf(name + pos, cap - pos, "%s", fields[i]->name);
    }
    snprintf(name + pos, cap - pos, ")");
    type p = {.id = T_TUPLE, .name = name, .nfields = n, .fields = fields, .field_names = names};
    const type *r = intern(&p);
    free(name);
    return r;
}

const type *type_map(const type *k, const type *v)
{
    if (type_is_nullable(k))
        return err_set(ERR_BAD_ARGUMENTS, "Map cannot have a key of type %s", k->name), NULL;
    const type *kv[2] = {k, v};
    static const char *const names[2] = {"keys", "values"};
    size_t cap = strlen(k->name) + strlen(v->name) + 16;
    char *name = xmalloc(cap);
    snprintf(name, cap, "Map(%s, %s)", k->name, v->name);
    type p = {.id = T_MAP, .name = name, .inner = type_tuple(2, kv, names)};
    const type *r = intern(&p);
    free(name);
    return r;
}

/* ---- AggregateFunction / SimpleAggregateFunction ---- */

static const type_agg_hooks *agg_hooks;

void type_set_agg_hooks(const type_agg_hooks *h) { __atomic_store_n(&agg_hooks, h, __ATOMIC_RELEASE); }
const type_agg_hooks *type_get_agg_hooks(void) { return __atomic_load_n(&agg_hooks, __ATOMIC_ACQUIRE); }

const type *type_aggstate(const char *func, int nargs, const type *const *args)
{
    size_t cap = strlen(func) + 32;
    for (int i = 0; i < nargs; i++)
        cap += strlen(args[i]->name) + 2;
    char *name = xmalloc(cap);
    /* a versioned function's state (sumMap...) names its version, as ClickHouse does */
    const type_agg_hooks *vh = type_get_agg_hooks();
    int version = vh && vh->version ? vh->version(func, nargs, args) : 0;
    size_t pos = version > 0 ? (size_t)snprintf(name, cap, "AggregateFunction(%d, %s", version, func)
                             : (size_t)snprintf(name, cap, "AggregateFunction(%s", func);
    for (int i = 0; i < nargs; i++)
        pos += (size_t)snprintf(name + pos, cap - pos, ", %s", args[i]->name);
    snprintf(name + pos, cap - pos, ")");
    type p = {.id = T_AGGSTATE, .name = name, .nfields = nargs, .fields = args, .agg_func = func};
    const type *r = intern(&p);
    free(name);
    const type_agg_hooks *h = type_get_agg_hooks();
    if (h && h->validate && h->validate(r) < 0)
        return NULL;
    return r;
}

const type *type_simple_agg(const char *func, const type *t)
{
    t = type_strip_simple_agg(t);
    const type_agg_hooks *h = type_get_agg_hooks();
    if (h && h->validate_simple && h->validate_simple(func, t) < 0)
        return NULL;
    size_t cap = strlen(func) + strlen(t->name) + 32;
    char *name = xmalloc(cap);
    snprintf(name, cap, "SimpleAggregateFunction(%s, %s)", func, t->name);
    type p = *t;
    p.name = name;
    p.agg_func = func;
    p.simple_agg = true;
    p.plain = t;
    const type *r = intern(&p);
    free(name);
    return r;
}

const type *type_strip_simple_agg(const type *t)
{
    return t->simple_agg ? t->plain : t;
}

const type *type_strip_nullable(const type *t)
{
    if (t->id == T_LOWCARDINALITY && t->inner->id == T_NULLABLE)
        return type_lowcard(t->inner->inner);
    return t->id == T_NULLABLE ? t->inner : t;
}

const type *type_base(const type *t)
{
    for (;;) {
        if (t->id == T_LOWCARDINALITY || t->id == T_NULLABLE)
            t = t->inner;
        else
            return t;
    }
}

bool type_is_integer(const type *t)
{
    t = type_base(t);
    return (t->id >= T_UINT8 && t->id <= T_INT128);
}

bool type_is_signed(const type *t)
{
    t = type_base(t);
    return (t->id >= T_INT8 && t->id <= T_FLOAT64) || type_is_decimal(t);
}

bool type_is_float(const type *t)
{
    t = type_base(t);
    return t->id == T_FLOAT32 || t->id == T_FLOAT64;
}

bool type_is_decimal(const type *t)
{
    t = type_base(t);
    return t->id == T_DECIMAL32 || t->id == T_DECIMAL64 || t->id == T_DECIMAL128;
}

bool type_is_number(const type *t)
{
    t = type_base(t);
    return (t->id >= T_UINT8 && t->id <= T_BOOL) || type_is_decimal(t);
}

bool type_is_string(const type *t)
{
    t = type_base(t);
    return t->id == T_STRING || t->id == T_FIXEDSTRING;
}

bool type_is_date_or_time(const type *t)
{
    t = type_base(t);
    return t->id >= T_DATE && t->id <= T_DATETIME64;
}

bool type_is_ip(const type *t)
{
    t = type_base(t);
    return t->id == T_IPV4 || t->id == T_IPV6;
}

bool type_is_wide(const type *t)
{
    t = type_base(t);
    return t->id == T_UINT256 || t->id == T_INT256 || t->id == T_DECIMAL256;
}

bool type_can_be_nullable(const type *t)
{
    return !(t->id == T_ARRAY || t->id == T_TUPLE || t->id == T_MAP || t->id == T_NULLABLE || t->id == T_LOWCARDINALITY);
}

int128_t type_decimal_scale_multiplier(const type *t)
{
    int128_t m = 1;
    for (int i = 0; i < type_base(t)->scale; i++)
        m *= 10;
    return m;
}

/* ---- parsing ---- */

typedef struct tparser {
    const char *s;
    size_t len;
    size_t pos;
    const char *whole;
} tparser;

static void skip_ws(tparser *p)
{
    while (p->pos < p->len && isspace((unsigned char)p->s[p->pos]))
        p->pos++;
}

static bool accept(tparser *p, char c)
{
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == c) {
        p->pos++;
        return true;
    }
    return false;
}

static size_t read_ident(tparser *p, char *out, size_t cap)
{
    skip_ws(p);
    size_t n = 0;
    bool quoted = p->pos < p->len && (p->s[p->pos] == '`' || p->s[p->pos] == '"');
    if (quoted) {
        char q = p->s[p->pos++];
        while (p->pos < p->len && p->s[p->pos] != q) {
            if (n + 1 < cap)
                out[n++] = p->s[p->pos];
            p->pos++;
        }
        if (p->pos < p->len)
            p->pos++;
    } else {
        while (p->pos < p->len && (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_')) {
            if (n + 1 < cap)
                out[n++] = p->s[p->pos];
            p->pos++;
        }
    }
    out[n] = 0;
    return n;
}

static int read_int(tparser *p, long long *v)
{
    skip_ws(p);
    char *end;
    char tmp[32];
    size_t n = 0;
    while (p->pos + n < p->len && n < sizeof tmp - 1 &&
           (isdigit((unsigned char)p->s[p->pos + n]) || (n == 0 && p->s[p->pos] == '-'))) {
        tmp[n] = p->s[p->pos + n];
        n++;
    }
    tmp[n] = 0;
    if (n == 0 || (n == 1 && tmp[0] == '-'))
        return -1;
    *v = strtoll(tmp, &end, 10);
    p->pos += n;
    return 0;
}

/* Reads a '...' literal with backslash escapes into out. */
static int read_string(tparser *p, char *out, size_t cap)
{
    skip_ws(p);
    if (p->pos >= p->len || p->s[p->pos] != '\'')
        return -1;
    p->pos++;
    size_t n = 0;
    while (p->pos < p->len && p->s[p->pos] != '\'') {
        char c = p->s[p->pos++];
        if (c == '\\' && p->pos < p->len)
            c = p->s[p->pos++];
        if (n + 1 < cap)
            out[n++] = c;
    }
    if (p->pos >= p->len)
        return -1;
    p->pos++;
    out[n] = 0;
    return 0;
}

static int bad(tparser *p, const char *why)
{
    return err_set(ERR_SYNTAX_ERROR, "Cannot parse data type '%.*s' at position %zu: %s",
                   (int)p->len, p->s, p->pos, why);
}

static const struct {
    const char *alias;
    type_id id;
} aliases[] = {
    {"TINYINT", T_INT8},      {"INT1", T_INT8},          {"BYTE", T_INT8},
    {"SMALLINT", T_INT16},    {"INT", T_INT32},          {"INTEGER", T_INT32},
    {"MEDIUMINT", T_INT32},   {"BIGINT", T_INT64},       {"FLOAT", T_FLOAT32},
    {"REAL", T_FLOAT32},      {"SINGLE", T_FLOAT32},     {"DOUBLE", T_FLOAT64},
    {"TEXT", T_STRING},       {"VARCHAR", T_STRING},     {"CHAR", T_STRING},
    {"BLOB", T_STRING},       {"LONGTEXT", T_STRING},    {"MEDIUMTEXT", T_STRING},
    {"TINYTEXT", T_STRING},   {"BOOLEAN", T_BOOL},       {"BOOL", T_BOOL},
    {"TIMESTAMP", T_DATETIME}, {"BINARY", T_STRING},     {"VARBINARY", T_STRING},
    {"UNSIGNED", T_UINT32},   {"INET4", T_IPV4},         {"INET6", T_IPV6},
};

static const type *parse_type(tparser *p, int depth);

/* A numeric parameter as ClickHouse prints it in a type name: integers plainly, other
 * numbers in the shortest form that reads back exactly. */
static int read_param(tparser *p, char *out, size_t cap)
{
    skip_ws(p);
    size_t n = 0;
    while (p->pos + n < p->len && n < 64 && strchr("0123456789+-.eE", p->s[p->pos + n]))
        n++;
    if (n == 0)
        return -1;
    char tmp[80];
    memcpy(tmp, p->s + p->pos, n);
    tmp[n] = 0;
    char *end;
    double v = strtod(tmp, &end);
    if (*end)
        return -1;
    p->pos += n;
    if (v == (double)(long long)v && fabs(v) < 1e18) {
        snprintf(out, cap, "%lld", (long long)v);
        return 0;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(out, cap, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            break;
    }
    return 0;
}

/* AggregateFunction(f[(params)], T...) / SimpleAggregateFunction(f, T) after the '('. */
static const type *parse_aggregate_type(tparser *p, bool simple, int depth)
{
    char fn[512];
    skip_ws(p);
    long version = -1; /* AggregateFunction(version, f, T...) */
    if (!simple && p->pos < p->len && isdigit((unsigned char)p->s[p->pos])) {
        version = 0;
        while (p->pos < p->len && isdigit((unsigned char)p->s[p->pos]) && version < 1000)
            version = version * 10 + (p->s[p->pos++] - '0');
        if (!accept(p, ','))
            return bad(p, "expected ',' after the version of the aggregate function state"), NULL;
    }
    if (!read_ident(p, fn, 256))
        return bad(p, "expected an aggregate function name"), NULL;
    size_t fl = strlen(fn);
    if (accept(p, '(')) {
        if (simple)
            return bad(p, "SimpleAggregateFunction takes a function without parameters"), NULL;
        fn[fl++] = '(';
        if (!accept(p, ')')) {
            do {
                char v[64];
                if (read_param(p, v, sizeof v) < 0)
                    return bad(p, "expected a numeric parameter of the aggregate function"), NULL;
                if (fn[fl - 1] != '(')
                    fl += (size_t)snprintf(fn + fl, sizeof fn - fl, ", ");
                fl += (size_t)snprintf(fn + fl, sizeof fn - fl, "%s", v);
                if (fl + 70 > sizeof fn)
                    return bad(p, "too many parameters"), NULL;
            } while (accept(p, ','));
            if (!accept(p, ')'))
                return bad(p, "expected ')'"), NULL;
        }
        fn[fl++] = ')';
        fn[fl] = 0;
    }
    const type *args[64];
    int n = 0;
    while (accept(p, ',')) {
        if (n == 64)
            return bad(p, "too many arguments"), NULL;
        if (!(args[n++] = parse_type(p, depth + 1)))
            return NULL;
    }
    if (!accept(p, ')'))
        return bad(p, "expected ')'"), NULL;
    if (simple) {
        if (n != 1)
            return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                           "Data type SimpleAggregateFunction requires parameters: name of aggregate function "
                           "and one argument data type"), NULL;
        return type_simple_agg(fn, args[0]);
    }
    const type_agg_hooks *h = type_get_agg_hooks();
    if (version >= 0 && h && h->version && version != h->version(fn, n, args))
        return err_set(ERR_NOT_IMPLEMENTED, "Version %ld of the states of aggregate function %s is not supported",
                       version, fn), NULL;
    return type_aggstate(fn, n, args);
}

static const type *parse_args_then(tparser *p, const char *name, int depth)
{
    char tmp[1024];
    if (strcmp(name, "Nullable") == 0 || strcmp(name, "LowCardinality") == 0 ||
        strcmp(name, "Array") == 0) {
        const type *inner = parse_type(p, depth + 1);
        if (!inner)
            return NULL;
        if (!accept(p, ')'))
            return bad(p, "expected ')'"), NULL;
        if (name[0] == 'N') {
            if (!type_can_be_nullable(inner))
                return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Nested type %s cannot be inside Nullable type",
                               inner->name), NULL;
            return type_nullable(inner);
        }
        if (name[0] == 'L')
            return type_lowcard(inner);
        return type_array(inner);
    }
    if (strcmp(name, "FixedString") == 0) {
        long long n;
        if (read_int(p, &n) || n <= 0 || n > (1 << 30) || !accept(p, ')'))
            return bad(p, "FixedString takes one positive length"), NULL;
        return type_fixedstring((uint32_t)n);
    }
    if (strncmp(name, "Decimal", 7) == 0) {
        long long a, b = 0;
        if (read_int(p, &a))
            return bad(p, "expected precision"), NULL;
        bool two = accept(p, ',');
        if (two && read_int(p, &b))
            return bad(p, "expected scale"), NULL;
        if (!accept(p, ')'))
            return bad(p, "expected ')'"), NULL;
        int prec, scale;
        if (strcmp(name, "Decimal") == 0) {
            prec = (int)a;
            scale = two ? (int)b : 0;
        } else {
            if (two)
                return bad(p, "Decimal32/64/128/256 take only the scale"), NULL;
            prec = strcmp(name, "Decimal32") == 0   ? 9
                   : strcmp(name, "Decimal64") == 0 ? 18
                   : strcmp(name, "Decimal128") == 0 ? 38
                                                     : 76;
            scale = (int)a;
        }
        if (prec < 1 || prec > 76)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND,
                           "Precision for Decimal data type is out of bounds: %d (in type '%.*s')", prec,
                           (int)p->len, p->s), NULL;
        if (scale < 0 || scale > prec)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND,
                           "Scale %d is out of bounds (max scale: %d) (in type '%.*s')", scale, prec,
                           (int)p->len, p->s), NULL;
        return type_decimal(prec, scale);
    }
    if (strcmp(name, "DateTime") == 0) {
        if (read_string(p, tmp, sizeof tmp) || !accept(p, ')'))
            return bad(p, "DateTime takes a time zone name"), NULL;
        return type_datetime(tmp);
    }
    if (strcmp(name, "DateTime64") == 0) {
        long long prec;
        if (read_int(p, &prec) || prec < 0 || prec > 9)
            return bad(p, "DateTime64 precision must be 0..9"), NULL;
        const char *tz = NULL;
        if (accept(p, ',')) {
            if (read_string(p, tmp, sizeof tmp))
                return bad(p, "expected a time zone name"), NULL;
            tz = tmp;
        }
        if (!accept(p, ')'))
            return bad(p, "expected ')'"), NULL;
        return type_datetime64((int)prec, tz);
    }
    if (strcmp(name, "Enum8") == 0 || strcmp(name, "Enum16") == 0 || strcmp(name, "Enum") == 0) {
        enum_item items[1024];
        char *names[1024];
        int n = 0;
        long long next = 1, lo = 0, hi = 0;
        do {
            if (n >= 1024)
                return bad(p, "too many enum values"), NULL;
            if (read_string(p, tmp, sizeof tmp)) {
                for (int i = 0; i < n; i++)
                    free(names[i]);
                return bad(p, "expected 'name' = value"), NULL;
            }
            long long v = next;
            if (accept(p, '=') && read_int(p, &v)) {
                for (int i = 0; i < n; i++)
                    free(names[i]);
                return bad(p, "expected an enum value"), NULL;
            }
            names[n] = xstrdup(tmp);
            items[n].name = names[n];
            items[n].value = (int16_t)v;
            if (n == 0 || v < lo)
                lo = v;
            if (n == 0 || v > hi)
                hi = v;
            next = v + 1;
            n++;
        } while (accept(p, ','));
        if (!accept(p, ')')) {
            for (int i = 0; i < n; i++)
                free(names[i]);
            return bad(p, "expected ')'"), NULL;
        }
        int bits = strcmp(name, "Enum8") == 0 ? 8 : strcmp(name, "Enum16") == 0 ? 16
                   : (lo >= -128 && hi <= 127) ? 8 : 16;
        const type *t = NULL;
        if ((bits == 8 && (lo < -128 || hi > 127)) || lo < -32768 || hi > 32767)
            err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Value for enum is out of range in '%.*s'", (int)p->len, p->s);
        else
            t = type_enum(bits, n, items);
        for (int i = 0; i < n; i++)
            free(names[i]);
        return t;
    }
    if (strcmp(name, "AggregateFunction") == 0 || strcmp(name, "SimpleAggregateFunction") == 0)
        return parse_aggregate_type(p, name[0] == 'S', depth);
    if (strcmp(name, "Map") == 0) {
        const type *k = parse_type(p, depth + 1);
        if (!k)
            return NULL;
        if (!accept(p, ','))
            return bad(p, "Map takes a key type and a value type"), NULL;
        const type *v = parse_type(p, depth + 1);
        if (!v)
            return NULL;
        if (!accept(p, ')'))
            return bad(p, "expected ')'"), NULL;
        return type_map(k, v);
    }
    if (strcmp(name, "Tuple") == 0) {
        const type *fields[256];
        char *fnames[256];
        int n = 0;
        bool named = false;
        const type *r = NULL;
        skip_ws(p);
        if (accept(p, ')'))
            return type_tuple(0, NULL, NULL); /* Tuple(): the empty tuple */
        do {
            if (n >= 256) {
                bad(p, "too many tuple elements");
                goto tuple_out;
            }
            /* "name Type" or just "Type": peek for two identifiers in a row. */
            size_t save = p->pos;
            char id1[256];
            read_ident(p, id1, sizeof id1);
            skip_ws(p);
            fnames[n] = NULL;
            if (id1[0] && p->pos < p->len && (isalpha((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_')) {
                fnames[n] = xstrdup(id1);
                named = true;
            } else {
                p->pos = save;
            }
            fields[n] = parse_type(p, depth + 1);
            n++;
            if (!fields[n - 1])
                goto tuple_out;
        } while (accept(p, ','));
        if (!accept(p, ')')) {
            bad(p, "expected ')'");
            goto tuple_out;
        }
        if (named)
            for (int i = 0; i < n; i++)
                if (!fnames[i]) {
                    bad(p, "either all or no tuple elements must be named");
                    goto tuple_out;
                }
        r = type_tuple(n, fields, named ? (const char *const *)fnames : NULL);
    tuple_out:
        for (int i = 0; i < n; i++)
            free(fnames[i]);
        return r;
    }
    /* SQL aliases with a length or precision that ClickHouse ignores: VARCHAR(255), INT(11). */
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcasecmp(aliases[i].alias, name) == 0 && aliases[i].id != T_IPV4 && aliases[i].id != T_IPV6) {
            long long ignored;
            while (read_int(p, &ignored) == 0 && accept(p, ','))
                ;
            if (!accept(p, ')'))
                return bad(p, "expected ')'"), NULL;
            return type_simple(aliases[i].id);
        }
    return err_set(ERR_UNKNOWN_TYPE, "Unknown data type family: %s", name), NULL;
}

static const type *parse_type(tparser *p, int depth)
{
    if (depth > 64)
        return bad(p, "type is nested too deeply"), NULL;
    char name[256];
    if (!read_ident(p, name, sizeof name))
        return bad(p, "expected a type name"), NULL;
    if (accept(p, '('))
        return parse_args_then(p, name, depth);
    for (size_t i = 0; i < sizeof simple_types / sizeof simple_types[0]; i++)
        if (strcmp(simple_types[i].name, name) == 0)
            return type_simple(simple_types[i].id);
    if (strcasecmp(name, "Decimal") == 0)
        return type_decimal(10, 0);
    if (strcmp(name, "DateTime64") == 0)
        return bad(p, "DateTime64 needs a precision"), NULL;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcasecmp(aliases[i].alias, name) == 0) {
            /* "INT UNSIGNED", "BIGINT UNSIGNED" */
            size_t save = p->pos;
            char next[32];
            read_ident(p, next, sizeof next);
            if (strcasecmp(next, "UNSIGNED") == 0) {
                switch (aliases[i].id) {
                case T_INT8: return type_simple(T_UINT8);
                case T_INT16: return type_simple(T_UINT16);
                case T_INT32: return type_simple(T_UINT32);
                case T_INT64: return type_simple(T_UINT64);
                default: break;
                }
            }
            p->pos = save;
            return type_simple(aliases[i].id);
        }
    /* Case-insensitive spellings of the simple names (ClickHouse accepts e.g. "string"). */
    static const char *ci_names[] = {"String", "Date", "DateTime", "Date32", "UUID", "Bool"};
    for (size_t i = 0; i < sizeof ci_names / sizeof ci_names[0]; i++)
        if (strcasecmp(ci_names[i], name) == 0)
            return type_parse_cstr(ci_names[i]);
    return err_set(ERR_UNKNOWN_TYPE, "Unknown data type family: %s", name), NULL;
}

const type *type_parse(const char *s, size_t len)
{
    tparser p = {.s = s, .len = len, .pos = 0};
    const type *t = parse_type(&p, 0);
    if (!t)
        return NULL;
    skip_ws(&p);
    if (p.pos != len)
        return bad(&p, "unexpected text after the type"), NULL;
    return t;
}

const type *type_parse_cstr(const char *s) { return type_parse(s, strlen(s)); }
