/* hasToken(haystack, token) and its CaseInsensitive / OrNull forms: 1 when the constant
 * token occurs in the haystack bounded by separators. As ClickHouse, a separator is any
 * ASCII byte that is not a letter or digit (bytes from 0x80 belong to tokens); a token
 * containing a separator is BAD_ARGUMENTS, or a NULL result with OrNull (whose result is
 * always Nullable(UInt8)); an empty token is never found. The case-insensitive forms fold
 * ASCII letters only. Stateless kernels; thread-safe. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <string.h>

static bool is_sep(unsigned char ch)
{
    return ch < 0x80 && !((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
}

typedef struct tok_mode {
    bool ci;
    bool or_null;
} tok_mode;

static const tok_mode m_plain = {false, false}, m_ci = {true, false}, m_null = {false, true}, m_ci_null = {true, true};

static unsigned char fold(unsigned char ch, bool ci)
{
    return ci && ch >= 'A' && ch <= 'Z' ? (unsigned char)(ch + 32) : ch;
}

static bool eq_bytes(const char *a, const char *b, size_t n, bool ci)
{
    if (!ci)
        return memcmp(a, b, n) == 0;
    for (size_t k = 0; k < n; k++)
        if (fold((unsigned char)a[k], true) != fold((unsigned char)b[k], true))
            return false;
    return true;
}

static bool has_token(const char *h, size_t hl, const char *t, size_t tl, bool ci)
{
    if (!tl || tl > hl)
        return false;
    for (size_t p = 0; p + tl <= hl; p++) {
        if (p > 0 && !is_sep((unsigned char)h[p - 1]))
            continue;
        if (p + tl < hl && !is_sep((unsigned char)h[p + tl]))
            continue;
        if (eq_bytes(h + p, t, tl, ci))
            return true;
    }
    return false;
}

static bool token_valid(const char *t, size_t tl)
{
    for (size_t k = 0; k < tl; k++)
        if (is_sep((unsigned char)t[k]))
            return false;
    return true;
}

static int tok_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const tok_mode *m = c->state;
    if (c->arg_types[0]->id == T_FIXEDSTRING && n) /* checked per block, as ClickHouse */
        return err_set(ERR_ILLEGAL_COLUMN, "Function '%s' doesn't support FixedString haystack argument", c->name);
    size_t tl;
    const char *t = fn_const_str(c, 1, &tl);
    bool valid = token_valid(t, tl);
    if (!valid && !m->or_null)
        return err_set(ERR_BAD_ARGUMENTS, "Needle must not contain whitespace or separator characters");
    uint8_t *d;
    column *v = num_new_u8(n, &d);
    for (size_t i = 0; i < n; i++) {
        size_t hl;
        const char *h = col_str(a[0], i, &hl);
        d[i] = valid && has_token(h, hl, t, tl, m->ci);
    }
    if (!m->or_null) {
        *out = v;
        return 0;
    }
    column *r = col_new(c->ret);
    col_free(r->inner);
    r->inner = v;
    buf_resize_zero(&r->nulls, n);
    if (!valid)
        memset(r->nulls.p, 1, n);
    r->len = n;
    *out = r;
    return 0;
}

static int tok_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    for (int i = 0; i < 2; i++)
        if (!type_is_string(c->arg_types[i]))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                           c->arg_types[i]->name, c->name);
    if (!fn_const_str(c, 1, &(size_t){0}))
        return err_set(ERR_ILLEGAL_COLUMN, "Argument at index 1 for function %s must be constant", c->name);
    const char *nm = c->def->name;
    bool ci = strstr(nm, "CaseInsensitive") != NULL, on = strstr(nm, "OrNull") != NULL;
    c->state = (void *)(ci ? (on ? &m_ci_null : &m_ci) : (on ? &m_null : &m_plain));
    c->ret = on ? type_nullable(type_simple(T_UINT8)) : type_simple(T_UINT8);
    c->exec = tok_exec;
    return 0;
}

void func_register_token(void)
{
    static const func_def defs[] = {
        {"hasToken", 0, tok_resolve, NULL, "1 if the token occurs between separators"},
        {"hasTokenOrNull", 0, tok_resolve, NULL, "hasToken, NULL for a token with separators"},
        {"hasTokenCaseInsensitive", 0, tok_resolve, NULL, "hasToken ignoring ASCII case"},
        {"hasTokenCaseInsensitiveOrNull", 0, tok_resolve, NULL, "hasTokenCaseInsensitive, NULL for a bad token"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
