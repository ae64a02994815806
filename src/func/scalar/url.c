/* URL functions over String, with ClickHouse's (deliberately simplified, not RFC 3986) rules:
 *   parts:  protocol, domain, domainWithoutWWW, topLevelDomain, firstSignificantSubdomain,
 *           cutToFirstSignificantSubdomain[WithWWW], port, path, pathFull, queryString,
 *           fragment, queryStringAndFragment, netloc, extractURLParameter
 *   cuts:   cutWWW, cutQueryString, cutFragment, cutQueryStringAndFragment, cutURLParameter
 *   arrays: extractURLParameters, extractURLParameterNames, URLHierarchy, URLPathHierarchy
 *   codecs: decodeURLComponent, encodeURLComponent, decodeURLFormComponent,
 *           encodeURLFormComponent
 *
 * A part that is not there is the empty string, a cut that finds nothing leaves the URL as it
 * is; nothing here fails on any input. The host rules (scheme up to 16 bytes before "://",
 * userinfo up to the last '@', a host needs a dot with something after it, characters such
 * as ' ', '%', '[', ';', '=' make the whole URL host-less) are ClickHouse's `domain`; the
 * RFC variants (domainRFC, portRFC, …) and the *Custom (custom TLD list) variants are not
 * registered, so they are UNKNOWN_FUNCTION. firstSignificantSubdomain looks the host's last
 * two labels up in the Public Suffix List's two-label rules (generated at build time from
 * Debian's publicsuffix package, cmake/psl.cmake); a list newer or older than ClickHouse's
 * can differ on suffixes added or removed in between.
 * Stateless kernels, thread-safe; the suffix list is sorted once under pthread_once. */
#include "func/func.h"

#include "base/err.h"
#include "base/mem.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A part of s[0..n): [off, off + len). */
typedef struct span {
    size_t off, len;
} span;

typedef span (*url_part_fn)(const char *s, size_t n);

static bool is_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The characters that make a URL host-less wherever they appear before the host ends. */
static bool is_restricted(char c)
{
    return strchr(" \t<>%{}|\\^~[];=&", c) != NULL && c != 0;
}

static size_t find_any(const char *s, size_t from, size_t n, const char *set)
{
    for (size_t i = from; i < n; i++)
        if (s[i] && strchr(set, s[i]))
            return i;
    return n;
}

/* Where the authority starts: after "//", after "scheme://" (a scheme within the first 16
 * bytes), else at 0. -1 when a restricted character comes first in the would-be scheme. */
static long authority_start(const char *s, size_t n)
{
    if (n >= 2 && s[0] == '/' && s[1] == '/')
        return 2;
    size_t se = n < 16 ? n : 16, p = 1;
    for (; p < se; p++) {
        if (is_alnum(s[p]) || s[p] == '.' || s[p] == '-' || s[p] == '+')
            continue;
        if (is_restricted(s[p]))
            return -1;
        break;
    }
    if (p < se && se - p > 2 && s[p] == ':' && s[p + 1] == '/' && s[p + 2] == '/')
        return (long)p + 3;
    return 0;
}

static span no_span(void) { return (span){0, 0}; }

static span host_check(const char *s, size_t n, size_t pos, long dot, size_t start)
{
    if (dot < 0 || start >= pos || pos - (size_t)dot == 1)
        return no_span();
    char after = (size_t)dot + 1 < n ? s[dot + 1] : 0;
    if (after == ':' || after == '/' || after == '?' || after == '#')
        return no_span();
    return (span){start, pos - start};
}

/* ClickHouse's getURLHost. */
static span url_host(const char *s, size_t n)
{
    long a = authority_start(s, n);
    if (a < 0)
        return no_span();
    size_t start = (size_t)a;
    long dot = -1;
    for (size_t p = start; p < n; p++) {
        char c = s[p];
        if (c == '.')
            dot = (long)p;
        else if (c == ':' || c == '/' || c == '?' || c == '#')
            return host_check(s, n, p, dot, start);
        else if (c == '@')
            start = p + 1;
        else if (is_restricted(c))
            return no_span();
    }
    return host_check(s, n, n, dot, start);
}

static span part_domain(const char *s, size_t n) { return url_host(s, n); }

static span strip_www(const char *s, span h)
{
    if (h.len > 4 && memcmp(s + h.off, "www.", 4) == 0)
        return (span){h.off + 4, h.len - 4};
    return h;
}

static span part_domain_without_www(const char *s, size_t n) { return strip_www(s, url_host(s, n)); }

static span part_tld(const char *s, size_t n)
{
    span h = url_host(s, n);
    if (h.len == 0)
        return no_span();
    if (s[h.off + h.len - 1] == '.')
        h.len--;
    size_t e = h.off + h.len;
    size_t d = e;
    while (d > h.off && s[d - 1] != '.')
        d--;
    if (d == h.off)
        return no_span();
    /* IPv4 addresses (and anything whose last label starts with a digit or less) have none. */
    if (d >= n || s[d] <= '9')
        return no_span();
    return (span){d, e - d};
}

static span part_protocol(const char *s, size_t n)
{
    if (n == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return no_span();
    size_t p = 1;
    while (p < n && (is_alnum(s[p]) || s[p] == '+' || s[p] == '-' || s[p] == '.'))
        p++;
    if (n - p < 4 || s[p] != ':')
        return no_span();
    return (span){0, p};
}

/* ---- the public suffix list ---- */

extern const char *const url_psl_names[];
extern const size_t url_psl_count;
static const char **psl_sorted;
static pthread_once_t psl_once = PTHREAD_ONCE_INIT;

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void psl_init(void)
{
    psl_sorted = xmalloc(sizeof *psl_sorted * (url_psl_count ? url_psl_count : 1));
    memcpy(psl_sorted, url_psl_names, sizeof *psl_sorted * url_psl_count);
    qsort(psl_sorted, url_psl_count, sizeof *psl_sorted, cmp_cstr);
}

static bool psl_has(const char *s, size_t n)
{
    pthread_once(&psl_once, psl_init);
    size_t lo = 0, hi = url_psl_count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const char *m = psl_sorted[mid];
        size_t ml = strlen(m);
        int c = memcmp(m, s, ml < n ? ml : n);
        if (c == 0)
            c = (ml > n) - (ml < n);
        if (c == 0)
            return true;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* The first significant subdomain of the host h; *dom_end is where the host ends. */
static span first_significant(const char *s, span h, size_t *dom_end)
{
    *dom_end = h.off + h.len;
    if (h.len == 0)
        return no_span();
    if (s[h.off + h.len - 1] == '.')
        h.len--;
    size_t b = h.off, e = h.off + h.len;
    long p0 = -1, p1 = -1, p2 = -1; /* the last three dots, p0 the last */
    for (size_t i = b; i < e; i++)
        if (s[i] == '.') {
            p2 = p1;
            p1 = p0;
            p0 = (long)i;
        }
    if (p0 < 0)
        return h;
    if (p1 < 0)
        return (span){b, (size_t)p0 - b};
    if (p2 < 0)
        p2 = (long)b - 1;
    size_t lvl_end = find_any(s, (size_t)p0, e, "/");
    if (psl_has(s + p1 + 1, lvl_end - (size_t)p1 - 1))
        return (span){(size_t)(p2 + 1), (size_t)(p1 - p2 - 1)};
    return (span){(size_t)(p1 + 1), (size_t)(p0 - p1 - 1)};
}

static span part_first_significant(const char *s, size_t n)
{
    size_t de;
    return first_significant(s, strip_www(s, url_host(s, n)), &de);
}

static span cut_to_first_significant(const char *s, size_t n, bool keep_www)
{
    size_t de;
    span h = url_host(s, n);
    span f = first_significant(s, keep_www ? h : strip_www(s, h), &de);
    if (f.len == 0)
        return no_span();
    return (span){f.off, de - f.off};
}

static span part_cut_to_first(const char *s, size_t n) { return cut_to_first_significant(s, n, false); }
static span part_cut_to_first_www(const char *s, size_t n) { return cut_to_first_significant(s, n, true); }

/* path: from the first '/' that does not start "//" (then from the next '/'). */
static span path_span(const char *s, size_t n, bool full)
{
    size_t p = find_any(s, 0, n, "/");
    if (p == n)
        return no_span();
    if (p + 1 < n && s[p + 1] == '/') {
        p = find_any(s, p + 2, n, "/");
        if (p == n)
            return no_span();
    }
    size_t e = full ? n : find_any(s, p, n, "?#");
    return (span){p, e - p};
}

static span part_path(const char *s, size_t n) { return path_span(s, n, false); }
static span part_path_full(const char *s, size_t n) { return path_span(s, n, true); }

static span part_query_string(const char *s, size_t n)
{
    size_t q = find_any(s, 0, n, "?");
    if (q == n)
        return no_span();
    size_t e = find_any(s, q, n, "#");
    return (span){q + 1, e - q - 1};
}

static span part_fragment(const char *s, size_t n)
{
    size_t h = find_any(s, 0, n, "#");
    if (h == n)
        return no_span();
    return (span){h + 1, n - h - 1};
}

static span part_query_and_fragment(const char *s, size_t n)
{
    size_t q = find_any(s, 0, n, "?");
    if (q < n)
        return (span){q + 1, n - q - 1};
    size_t h = find_any(s, 0, n, "#");
    if (h < n)
        return (span){h, n - h};
    return no_span();
}

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* netloc: userinfo, host and port (ClickHouse's getNetworkLocation; its scheme test is a
 * little stricter than the host's, and without userinfo it ends at the last '/' or the
 * first '?' before a '#'). */
static span part_netloc(const char *s, size_t n)
{
    size_t start = 0;
    if (n > 2 && s[0] == '/' && s[1] == '/') {
        start = 2;
    } else {
        size_t se = n < 16 ? n : 16, p = 1;
        for (; p < se; p++) {
            if (is_alnum(s[p]) || s[p] == '.' || s[p] == '-' || s[p] == '+')
                continue;
            if (is_restricted(s[p]))
                return no_span();
            break;
        }
        if (p + 2 < se && s[p] == ':' && s[p + 1] == '/' && s[p + 2] == '/')
            start = p + 3;
    }
    size_t qm = n, slash = n, host_end = n, p = start;
    bool ident = false;
    for (; p < n; p++) {
        char c = s[p];
        if (c == '/' || c == '?') {
            if (ident)
                return (span){start, p - start};
            if (c == '/')
                slash = p;
            else
                qm = p;
        } else if (c == '#') {
            return (span){start, p - start};
        } else if (c == '@') {
            ident = true;
            host_end = n;
        } else if (c && strchr(";=&~%", c) && !ident) {
            host_end = p; /* sub-delims: allowed in userinfo */
        } else if (c && strchr(";=&~% \t<>{}|\\^[]", c)) {
            return p > start ? (span){start, min3(p, qm, slash) - start} : no_span();
        }
    }
    if (ident)
        return (span){start, p - start};
    size_t e = min3(p, qm, slash);
    return (span){start, (e < host_end ? e : host_end) - start};
}

/* ---- cuts (the span is removed) ---- */

static span cut_www(const char *s, size_t n)
{
    size_t p = find_any(s, 0, n, "/");
    if (p == n)
        return no_span();
    if (p != 0) {
        span proto = part_protocol(s, n);
        if (p != proto.len + 1)
            return no_span();
    }
    if (n - p < 2 || s[p] != '/' || s[p + 1] != '/')
        return no_span();
    size_t start = p + 2;
    for (p = start; p < n; p++) {
        if (s[p] == '@')
            start = p + 1;
        else if (s[p] == ':' || s[p] == '/' || s[p] == '?' || s[p] == '#')
            break;
    }
    if (start + 4 < n && memcmp(s + start, "www.", 4) == 0)
        return (span){start, 4};
    return no_span();
}

static span cut_query_string(const char *s, size_t n)
{
    size_t q = find_any(s, 0, n, "?");
    if (q == n)
        return no_span();
    return (span){q, find_any(s, q, n, "#") - q};
}

static span cut_fragment(const char *s, size_t n)
{
    size_t h = find_any(s, 0, n, "#");
    return (span){h, n - h};
}

static span cut_query_and_fragment(const char *s, size_t n)
{
    size_t q = find_any(s, 0, n, "?");
    if (q == n)
        q = find_any(s, 0, n, "#");
    return (span){q, n - q};
}

/* ---- String -> String kernels ---- */

typedef struct part_def {
    const char *name;
    url_part_fn fn;
    bool cut;
    const char *description;
} part_def;

static const part_def parts[] = {
    {"protocol", part_protocol, false, "the URL's scheme (http, ftp, …)"},
    {"domain", part_domain, false, "the URL's host"},
    {"domainWithoutWWW", part_domain_without_www, false, "the URL's host without a leading www."},
    {"topLevelDomain", part_tld, false, "the last label of the URL's host"},
    {"firstSignificantSubdomain", part_first_significant, false, "the host label left of the public suffix"},
    {"cutToFirstSignificantSubdomain", part_cut_to_first, false, "the host from its first significant subdomain (without www.)"},
    {"cutToFirstSignificantSubdomainWithWWW", part_cut_to_first_www, false, "the host from its first significant subdomain"},
    {"path", part_path, false, "the URL's path without query string and fragment"},
    {"pathFull", part_path_full, false, "the URL's path with query string and fragment"},
    {"queryString", part_query_string, false, "the URL's query string without '?'"},
    {"fragment", part_fragment, false, "the URL's fragment without '#'"},
    {"queryStringAndFragment", part_query_and_fragment, false, "the URL's query string and fragment"},
    {"netloc", part_netloc, false, "the URL's user info, host and port"},
    {"cutWWW", cut_www, true, "the URL without a leading www. in its host"},
    {"cutQueryString", cut_query_string, true, "the URL without its query string"},
    {"cutFragment", cut_fragment, true, "the URL without its fragment"},
    {"cutQueryStringAndFragment", cut_query_and_fragment, true, "the URL without query string and fragment"},
};

static const part_def *part_of(const fn_call *c)
{
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (!strcmp(parts[i].name, c->def->name))
            return &parts[i];
    return NULL;
}

static int part_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const part_def *d = c->state;
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        span sp = d->fn(s, l);
        if (!d->cut) {
            col_push_str(r, s + sp.off, sp.len);
            continue;
        }
        tmp.len = 0;
        buf_append(&tmp, s, sp.off);
        buf_append(&tmp, s + sp.off + sp.len, l - sp.off - sp.len);
        col_push_str(r, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = r;
    return 0;
}

static int string_arg(const fn_call *c, int i)
{
    if (c->arg_types[i]->id != T_STRING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s. Must be String.",
                       c->arg_types[i]->name, c->name);
    return 0;
}

static int part_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (string_arg(c, 0) < 0)
        return -1;
    c->state = (void *)part_of(c);
    c->ret = type_simple(T_STRING);
    c->exec = part_exec;
    return 0;
}

/* ---- port(url[, default]) ---- */

static int port_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int64_t dflt = 0;
    if (c->nargs == 2)
        fn_const_int(c, 1, &dflt);
    column *r = col_new(type_simple(T_UINT16));
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        span h = url_host(s, l);
        int64_t port = dflt;
        size_t p = h.off + h.len;
        if (h.len && p < l && s[p] == ':') {
            int64_t v = 0;
            size_t digits = p + 1;
            for (p++; p < l && s[p] != '/'; p++) {
                if (s[p] < '0' || s[p] > '9' || (v = v * 10 + (s[p] - '0')) > 65535) {
                    v = dflt;
                    break;
                }
            }
            port = p > digits ? v : dflt;
        }
        uint16_t v16 = (uint16_t)port;
        col_push_fixed(r, &v16);
    }
    *out = r;
    return 0;
}

static int port_resolve(fn_call *c)
{
    if (c->nargs != 1 && c->nargs != 2)
        return fn_bad_nargs(c, "1 or 2");
    if (string_arg(c, 0) < 0)
        return -1;
    if (c->nargs == 2) {
        if (c->arg_types[1]->id != T_UINT16)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "Illegal type %s of second argument of function %s. Must be UInt16.", c->arg_types[1]->name,
                           c->name);
        int64_t v;
        if (fn_const_int(c, 1, &v) < 0)
            return err_set(ERR_ILLEGAL_COLUMN, "Second argument for function %s must be constant UInt16", c->name);
    }
    c->ret = type_simple(T_UINT16);
    c->exec = port_exec;
    return 0;
}

/* ---- extractURLParameter(url, name), cutURLParameter(url, name) ---- */

/* The first "name=" that starts the query string or fragment or follows '&': the offset
 * of the "name=" in *at; false when there is none. */
static bool find_param(const char *s, size_t n, const char *name, size_t nl, size_t *at)
{
    size_t q = find_any(s, 0, n, "?#");
    if (q >= n)
        return false;
    size_t p = q + 1;
    while (p + nl + 1 <= n) {
        const char *f = NULL;
        for (size_t k = p; k + nl + 1 <= n; k++)
            if (memcmp(s + k, name, nl) == 0 && s[k + nl] == '=') {
                f = s + k;
                break;
            }
        if (!f)
            return false;
        size_t k = (size_t)(f - s);
        char before = s[k - 1];
        if (before == '?' || before == '#' || before == '&') {
            *at = k;
            return true;
        }
        p = k + nl + 1;
    }
    return false;
}

/* cutURLParameter: s without the first "name=value" (and one '&' beside it), into o. */
static void cut_param(buf *o, const char *s, size_t l, const char *name, size_t nl)
{
    size_t at;
    o->len = 0;
    if (!find_param(s, l, name, nl, &at)) {
        buf_append(o, s, l);
        return;
    }
    size_t b = at, e = at + nl + 1;
    while (e < l && s[e] && s[e] != '&' && s[e] != '#')
        e++;
    if (e < l && s[e] == '&')
        e++;
    else if (s[b - 1] == '&')
        b--;
    buf_append(o, s, b);
    buf_append(o, s + e, l - e);
}

static int param_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool cut = strcmp(c->def->name, "cutURLParameter") == 0;
    const column *names = c->const_args[1];
    bool many = c->arg_types[1]->id == T_ARRAY;
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    buf tmp = {0}, tmp2 = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l, nl;
        const char *s = col_str(a[0], i, &l);
        if (cut) {
            if (!many) {
                const char *name = col_str(names, 0, &nl);
                cut_param(&tmp, s, l, name, nl);
            } else {
                /* each name in turn, on what the previous ones left */
                const uint64_t *offs = col_offs(names);
                tmp.len = 0;
                buf_append(&tmp, s, l);
                for (uint64_t k = offs[0]; k < offs[1]; k++) {
                    const char *name = col_str(names->inner, k, &nl);
                    cut_param(&tmp2, (const char *)tmp.p, tmp.len, name, nl);
                    buf t = tmp;
                    tmp = tmp2;
                    tmp2 = t;
                }
            }
            col_push_str(r, (const char *)tmp.p, tmp.len);
            continue;
        }
        const char *name = col_str(names, 0, &nl);
        size_t at;
        if (!find_param(s, l, name, nl, &at)) {
            col_push_str(r, "", 0);
            continue;
        }
        size_t b = at + nl + 1, e = find_any(s, b, l, "&#");
        if (e == l) {
            const char *z = memchr(s + b, 0, l - b); /* ClickHouse stops at a NUL here */
            e = z ? (size_t)(z - s) : l;
        }
        col_push_str(r, s + b, e - b);
    }
    buf_free(&tmp);
    buf_free(&tmp2);
    *out = r;
    return 0;
}

static int param_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    if (string_arg(c, 0) < 0)
        return -1;
    const type *t = c->arg_types[1];
    bool cut = strcmp(c->def->name, "cutURLParameter") == 0;
    if (cut && t->id == T_ARRAY && t->inner->id != T_STRING)
        return err_set(ERR_ILLEGAL_COLUMN, "Second argument of function %s must be constant array of strings", c->name);
    if (t->id != T_STRING && !(cut && t->id == T_ARRAY))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s. Must be String%s.",
                       t->name, c->name, cut ? " or Array(String)" : "");
    if (!c->const_args[1])
        return err_set(ERR_ILLEGAL_COLUMN, "Argument at index 1 for function %s must be constant", c->name);
    c->ret = type_simple(T_STRING);
    c->exec = param_exec;
    return 0;
}

/* ---- arrays: extractURLParameters, extractURLParameterNames, URLHierarchy, URLPathHierarchy ---- */

/* A function of a family that shares one resolve: the family's kind for it (an enum of the
 * family) and the line system.functions shows. */
typedef struct kind_def {
    const char *name;
    int kind;
    const char *description;
} kind_def;

/* The kind of the called function in its family's table; -1 is never returned, as only
 * the table's names are registered with the family's resolve. */
static int kind_of(const fn_call *c, const kind_def *defs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(defs[i].name, c->def->name))
            return defs[i].kind;
    return -1;
}

static void register_kinds(const kind_def *defs, size_t n, int (*resolve)(fn_call *), func_def *store)
{
    for (size_t i = 0; i < n; i++) {
        store[i] = (func_def){defs[i].name, 0, resolve, NULL, defs[i].description};
        func_register(&store[i]);
    }
}

typedef enum { A_PARAMS, A_NAMES, A_HIER, A_PATH_HIER } arr_kind;

static const kind_def arr_fns[] = {
    {"extractURLParameters", A_PARAMS, "the URL's name=value parameters"},
    {"extractURLParameterNames", A_NAMES, "the URL's parameter names"},
    {"URLHierarchy", A_HIER, "the URL cut after each path level"},
    {"URLPathHierarchy", A_PATH_HIER, "the URL's path cut after each level"},
};

static void push_params(column *inner, const char *s, size_t n, bool names)
{
    size_t p = find_any(s, 0, n, "?#");
    if (p + 1 >= n)
        return;
    p++;
    for (;;) {
        size_t b, e;
        for (;;) {
            b = p;
            p = find_any(s, p, n, "=&#?");
            if (p == n)
                return;
            if (s[p] == '?') {
                p++;
                continue;
            }
            break;
        }
        if (names) {
            col_push_str(inner, s + b, p - b);
            p = find_any(s, p, n, "&#");
            if (p + 1 >= n)
                return;
            p++;
            continue;
        }
        if (s[p] == '&' || s[p] == '#') {
            e = p++;
        } else {
            p = find_any(s, p + 1, n, "&#");
            e = p;
            if (p < n)
                p++;
        }
        col_push_str(inner, s + b, e - b);
        if (p >= n)
            return;
    }
}

/* The URL hierarchies: prefixes ending after each '/', '?' or '#' past the host. Only URLs
 * with a scheme of characters strictly between 'a' and 'z' or '0' and '9' (ClickHouse's
 * test, which leaves out 'a', 'z', '0' and '9') followed by "://" and more. */
static void push_hierarchy(column *inner, const char *s, size_t n, bool path_only)
{
    size_t p = 0;
    while (p < n && ((s[p] > 'a' && s[p] < 'z') || (s[p] > '0' && s[p] < '9')))
        p++;
    if (n == 0)
        return;
    if (p == 0 || p + 3 >= n || s[p] != ':' || s[p + 1] != '/' || s[p + 2] != '/') {
        if (!path_only)
            col_push_str(inner, s, n);
        return;
    }
    p += 3;
    while (p < n && s[p] != '/' && s[p] != '?' && s[p] != '#')
        p++;
    size_t start = path_only ? p : 0;
    if (p < n)
        p++;
    if (!path_only)
        col_push_str(inner, s, p);
    for (;;) {
        while (p < n && (s[p] == '/' || s[p] == '?' || s[p] == '#'))
            p++;
        if (p == n)
            return;
        while (p < n && s[p] != '/' && s[p] != '?' && s[p] != '#')
            p++;
        if (p < n)
            p++;
        col_push_str(inner, s + start, p - start);
    }
}

static int arr_exec(const fn_call *c, column **a, size_t n, column **out)
{
    arr_kind k = (arr_kind)(intptr_t)c->state;
    column *r = col_new(c->ret);
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        if (k == A_PARAMS || k == A_NAMES)
            push_params(r->inner, s, l, k == A_NAMES);
        else
            push_hierarchy(r->inner, s, l, k == A_PATH_HIER);
        col_array_commit(r);
    }
    *out = r;
    return 0;
}

static int arr_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (string_arg(c, 0) < 0)
        return -1;
    c->state = (void *)(intptr_t)kind_of(c, arr_fns, sizeof arr_fns / sizeof arr_fns[0]);
    c->ret = type_array(type_simple(T_STRING));
    c->exec = arr_exec;
    return 0;
}

/* ---- percent encoding ---- */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

typedef enum { C_DECODE, C_ENCODE, C_DECODE_FORM, C_ENCODE_FORM } code_kind;

static const kind_def code_fns[] = {
    {"decodeURLComponent", C_DECODE, "percent-decodes a string"},
    {"encodeURLComponent", C_ENCODE, "percent-encodes a string"},
    {"decodeURLFormComponent", C_DECODE_FORM, "percent-decodes a form value ('+' is a space)"},
    {"encodeURLFormComponent", C_ENCODE_FORM, "percent-encodes a form value (a space is '+')"},
};

static void decode(buf *o, const char *s, size_t n, bool form)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '+' && form) {
            buf_append(o, " ", 1);
        } else if (s[i] == '%' && n - i >= 3 && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
            char v = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
            buf_append(o, &v, 1);
            i += 2;
        } else if (s[i] == '%') {
            /* an invalid escape is kept, and its two characters are not looked at again */
            size_t k = n - i < 3 ? n - i : 3;
            buf_append(o, s + i, k);
            i += k - 1;
        } else {
            buf_append(o, s + i, 1);
        }
    }
}

static void encode(buf *o, const char *s, size_t n, bool form)
{
    static const char hx[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (is_alnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            buf_append(o, &c, 1);
        } else if (c == ' ' && form) {
            buf_append(o, "+", 1);
        } else {
            char e[3] = {'%', hx[(unsigned char)c >> 4], hx[(unsigned char)c & 15]};
            buf_append(o, e, 3);
        }
    }
}

static int code_exec(const fn_call *c, column **a, size_t n, column **out)
{
    code_kind k = (code_kind)(intptr_t)c->state;
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        tmp.len = 0;
        if (k == C_DECODE || k == C_DECODE_FORM)
            decode(&tmp, s, l, k == C_DECODE_FORM);
        else
            encode(&tmp, s, l, k == C_ENCODE_FORM);
        col_push_str(r, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = r;
    return 0;
}

static int code_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (string_arg(c, 0) < 0)
        return -1;
    c->state = (void *)(intptr_t)kind_of(c, code_fns, sizeof code_fns / sizeof code_fns[0]);
    c->ret = type_simple(T_STRING);
    c->exec = code_exec;
    return 0;
}

void func_register_url(void)
{
    static func_def defs[sizeof parts / sizeof parts[0]];
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        defs[i] = (func_def){parts[i].name, 0, part_resolve, NULL, parts[i].description};
        func_register(&defs[i]);
    }
    static const func_def more[] = {
        {"port", 0, port_resolve, NULL, "the URL's port, or the default (0)"},
        {"extractURLParameter", 0, param_resolve, NULL, "the value of a URL parameter"},
        {"cutURLParameter", 0, param_resolve, NULL, "the URL without a parameter"},
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        func_register(&more[i]);
    static func_def arr_defs[sizeof arr_fns / sizeof arr_fns[0]], code_defs[sizeof code_fns / sizeof code_fns[0]];
    register_kinds(arr_fns, sizeof arr_fns / sizeof arr_fns[0], arr_resolve, arr_defs);
    register_kinds(code_fns, sizeof code_fns / sizeof code_fns[0], code_resolve, code_defs);
}
