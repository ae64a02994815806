#include "interp/mask.h"

#include "base/buf.h"
#include "base/mem.h"
#include "format/format.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct span {
    int from, to;
    const char *value;   /* the secret itself */
} span;

typedef struct spans {
    span v[64];
    int n;
} spans;

static bool is_string_lit(const ast *a)
{
    return a && a->kind == AST_LITERAL && a->lit == LIT_STRING;
}

/* s3(url, key, secret, …): the third argument is a secret when the second is neither a
 * format name nor NOSIGN (ClickHouse's rule for telling the arguments apart). */
static void table_func(const ast *f, spans *out)
{
    if (!f || f->kind != AST_FUNC || !f->name)
        return;
    if (strcasecmp(f->name, "s3") != 0 && strcasecmp(f->name, "s3Cluster") != 0)
        return;
    int first = strcasecmp(f->name, "s3Cluster") == 0 ? 1 : 0;
    if (f->args.n < first + 3)
        return;
    const ast *key = f->args.items[first + 1], *secret = f->args.items[first + 2];
    if (!is_string_lit(key) || !is_string_lit(secret))
        return;
    if (strcasecmp(key->str, "NOSIGN") == 0 || fmt_input_canonical(key->str) || fmt_output_canonical(key->str))
        return;
    if (out->n < 64)
        out->v[out->n++] = (span){secret->pos, secret->end, secret->str};
}

/* The backup engine S3(url, key, secret): the third argument is the secret. */
static void backup_engine(const ast *f, spans *out)
{
    if (f && f->kind == AST_FUNC && f->name && !strcmp(f->name, "S3") && f->args.n >= 3 &&
        is_string_lit(f->args.items[2]) && out->n < 64)
        out->v[out->n++] = (span){f->args.items[2]->pos, f->args.items[2]->end};
}

static void walk(const ast *a, spans *out, int depth)
{
    if (!a || depth > 200)
        return;
    switch (a->kind) {
    case AST_STMT_SELECT:
    case AST_SUBQUERY:
        walk(a->sub, out, depth + 1);
        break;
    case AST_UNION:
        for (int i = 0; i < a->args.n; i++)
            walk(a->args.items[i], out, depth + 1);
        break;
    case AST_SELECT:
        for (int i = 0; i < a->with.n; i++)
            walk(a->with.items[i], out, depth + 1);
        for (int i = 0; i < a->select.n; i++)
            walk(a->select.items[i], out, depth + 1);
        walk(a->from, out, depth + 1);
        walk(a->where, out, depth + 1);
        break;
    case AST_TABLE:
        table_func(a->table_func, out);
        walk(a->sub, out, depth + 1);
        if (a->join)
            walk(a->join->sub, out, depth + 1);
        break;
    case AST_STMT_INSERT:
        table_func(a->table_func, out);
        walk(a->sub, out, depth + 1);
        break;
    case AST_STMT_DESCRIBE:
    case AST_STMT_EXPLAIN:
        walk(a->sub, out, depth + 1);
        break;
    case AST_STMT_BACKUP:
    case AST_STMT_RESTORE:
        /* TO/FROM S3(url, key, secret) and SETTINGS base_backup = S3(…) */
        backup_engine(a->table_func, out);
        for (int i = 0; i < a->settings.n; i++)
            backup_engine(a->settings.items[i]->sub, out);
        break;
    case AST_FUNC:
        for (int i = 0; i < a->args.n; i++)
            walk(a->args.items[i], out, depth + 1);
        break;
    default:
        break;
    }
}

static int cmp_span(const void *a, const void *b)
{
    return ((const span *)a)->from - ((const span *)b)->from;
}

char *mask_secrets(const char *text, size_t len, size_t base, const ast *stmt)
{
    spans sp = {.n = 0};
    walk(stmt, &sp, 0);
    qsort(sp.v, (size_t)sp.n, sizeof sp.v[0], cmp_span);
    buf b = {0};
    size_t at = 0;
    for (int i = 0; i < sp.n; i++) {
        if (sp.v[i].from < (int)base)
            continue;
        size_t from = (size_t)sp.v[i].from - base, to = (size_t)sp.v[i].to - base;
        if (from < at || to > len || to < from)
            continue;
        buf_append(&b, text + at, from - at);
        buf_puts(&b, "'[HIDDEN]'");
        at = to;
    }
    buf_append(&b, text + at, len - at);
    char *r = xstrndup((const char *)b.p ? (const char *)b.p : "", b.len);
    buf_free(&b);
    return r;
}

char *mask_message(const char *msg, const ast *stmt)
{
    spans sp = {.n = 0};
    walk(stmt, &sp, 0);
    char *r = xstrdup(msg ? msg : "");
    for (int i = 0; i < sp.n; i++) {
        const char *v = sp.v[i].value;
        size_t n = v ? strlen(v) : 0;
        if (!n)
            continue;
        buf b = {0};
        const char *p = r, *hit;
        while ((hit = strstr(p, v))) {
            buf_append(&b, p, (size_t)(hit - p));
            buf_puts(&b, "[HIDDEN]");
            p = hit + n;
        }
        buf_puts(&b, p);
        free(r);
        r = xstrndup((const char *)b.p ? (const char *)b.p : "", b.len);
        buf_free(&b);
    }
    return r;
}
