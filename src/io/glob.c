/* Path globs (see glob.h).
 *
 * Braces are expanded first into brace-free patterns (they may contain '/', so they
 * cannot be matched segment by segment); each of those is then matched by a small
 * backtracking matcher, or walked directory by directory for local files. */
#include "io/glob.h"

#include "base/err.h"
#include "base/mem.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_EXPANSION 1000000

bool glob_has_magic(const char *s)
{
    return strpbrk(s, "*?{") != NULL;
}

typedef struct strvec {
    char **v;
    size_t n, cap;
} strvec;

static void sv_push(strvec *sv, char *s)
{
    if (sv->n == sv->cap) {
        sv->cap = sv->cap ? sv->cap * 2 : 16;
        sv->v = xrealloc(sv->v, sv->cap * sizeof *sv->v);
    }
    sv->v[sv->n++] = s;
}

static void sv_free(strvec *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    sv->v = NULL;
    sv->n = sv->cap = 0;
}

static bool parse_range(const char *s, size_t n, long long *a, long long *b, int *width)
{
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < n; i++)
        if (s[i] == '.' && s[i + 1] == '.') {
            dots = s + i;
            break;
        }
    if (!dots)
        return false;
    size_t la = (size_t)(dots - s), lb = n - la - 2;
    if (la == 0 || lb == 0 || la > 18 || lb > 18)
        return false;
    for (size_t i = 0; i < la; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    for (size_t i = 0; i < lb; i++)
        if (dots[2 + i] < '0' || dots[2 + i] > '9')
            return false;
    *a = strtoll(s, NULL, 10);
    *b = strtoll(dots + 2, NULL, 10);
    bool zero = (la > 1 && s[0] == '0') || (lb > 1 && dots[2] == '0');
    *width = zero ? (int)(la > lb ? la : lb) : 0;
    if (*a > *b) {
        long long t = *a;
        *a = *b;
        *b = t;
    }
    return true;
}

/* Expands the first brace group of p (recursively the rest) into out. */
static int expand(const char *p, strvec *out)
{
    const char *open = strchr(p, '{');
    if (!open) {
        if (out->n >= MAX_EXPANSION)
            return err_set(ERR_BAD_ARGUMENTS, "Glob expansion of '%s' yields more than %d patterns", p, MAX_EXPANSION);
        sv_push(out, xstrdup(p));
        return 0;
    }
    int depth = 0;
    const char *close = NULL;
    for (const char *q = open; *q; q++) {
        if (*q == '{')
            depth++;
        else if (*q == '}' && --depth == 0) {
            close = q;
            break;
        }
    }
    if (!close)
        return err_set(ERR_BAD_ARGUMENTS, "Unbalanced '{' in glob pattern '%s'", p);
    size_t pre = (size_t)(open - p);
    const char *body = open + 1;
    size_t blen = (size_t)(close - body);
    const char *rest = close + 1;
    size_t rlen = strlen(rest);
    long long a, b;
    int width;
    char *tmp;
    if (parse_range(body, blen, &a, &b, &width)) {
        if (b - a >= MAX_EXPANSION)
            return err_set(ERR_BAD_ARGUMENTS, "Glob range {%.*s} is too large", (int)blen, body);
        tmp = xmalloc(pre + rlen + 32);
        for (long long v = a; v <= b; v++) {
            int k = snprintf(tmp + pre, 32, "%0*lld", width, v);
            memcpy(tmp, p, pre);
            memcpy(tmp + pre + k, rest, rlen + 1);
            if (expand(tmp, out) < 0) {
                free(tmp);
                return -1;
            }
        }
        free(tmp);
        return 0;
    }
    tmp = xmalloc(pre + blen + rlen + 1);
    const char *alt = body;
    depth = 0;
    for (const char *q = body;; q++) {
        if (q < close && *q == '{')
            depth++;
        else if (q < close && *q == '}')
            depth--;
        if (q == close || (*q == ',' && depth == 0)) {
            size_t al = (size_t)(q - alt);
            memcpy(tmp, p, pre);
            memcpy(tmp + pre, alt, al);
            memcpy(tmp + pre + al, rest, rlen + 1);
            if (expand(tmp, out) < 0) {
                free(tmp);
                return -1;
            }
            alt = q + 1;
            if (q == close)
                break;
        }
    }
    free(tmp);
    return 0;
}

/* Brace-free matching; `star_slash` makes a single '*' cross '/' (used for a segment
 * that contains "**" when matching one directory level). */
static bool match_simple(const char *p, const char *s)
{
    const char *star_p = NULL, *star_s = NULL;
    bool star_any = false;
    while (*s) {
        if (p[0] == '*' && p[1] == '*') {
            while (*p == '*')
                p++;
            star_p = p, star_s = s, star_any = true;
            continue;
        }
        if (*p == '*') {
            p++;
            star_p = p, star_s = s, star_any = false;
            continue;
        }
        if ((*p == '?' && *s != '/') || (*p && *p != '?' && *p == *s)) {
            p++, s++;
            continue;
        }
        /* backtrack: let the last star swallow one more character */
        if (star_p && (star_any || *star_s != '/')) {
            star_s++;
            s = star_s;
            p = star_p;
            continue;
        }
        return false;
    }
    while (*p == '*')
        p++;
    return *p == 0;
}

bool glob_match(const char *pattern, const char *path)
{
    if (!strchr(pattern, '{'))
        return match_simple(pattern, path);
    strvec pats = {0};
    bool ok = false;
    if (expand(pattern, &pats) == 0)
        for (size_t i = 0; i < pats.n && !ok; i++)
            ok = match_simple(pats.v[i], path);
    sv_free(&pats);
    return ok;
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *r = xmalloc(a + b + 2);
    memcpy(r, dir, a);
    size_t k = a;
    if (a > 0 && dir[a - 1] != '/')
        r[k++] = '/';
    memcpy(r + k, name, b + 1);
    return r;
}

/* Walks `dir` against the remaining segments `segs` (a brace-free pattern tail). */
static void walk(const char *dir, const char *segs, strvec *out, int depth)
{
    if (depth > 64)
        return;
    /* Take literal segments without listing. */
    char *cur = xstrdup(dir);
    while (*segs) {
        const char *slash = strchr(segs, '/');
        size_t len = slash ? (size_t)(slash - segs) : strlen(segs);
        char *seg = xstrndup(segs, len);
        const char *next = slash ? slash + 1 : segs + len;
        if (len == 0) { /* repeated '/' */
            free(seg);
            segs = next;
            continue;
        }
        if (!glob_has_magic(seg)) {
            char *j = join(cur, seg);
            free(cur);
            cur = j;
            free(seg);
            segs = next;
            continue;
        }
        bool last = *next == 0;
        bool deep = strcmp(seg, "**") == 0;
        if (deep) /* zero levels */
            walk(cur, next, out, depth + 1);
        DIR *d = opendir(cur[0] ? cur : ".");
        if (d) {
            struct dirent *e;
            while ((e = readdir(d))) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                char *child = join(cur, e->d_name);
                if (deep) {
                    if (is_dir(child))
                        walk(child, segs, out, depth + 1); /* "**" again: any depth */
                    else if (last)
                        sv_push(out, xstrdup(child));
                } else if (match_simple(seg, e->d_name)) {
                    if (last) {
                        if (is_file(child))
                            sv_push(out, xstrdup(child));
                    } else if (is_dir(child)) {
                        walk(child, next, out, depth + 1);
                    }
                }
                free(child);
            }
            closedir(d);
        }
        free(seg);
        free(cur);
        return;
    }
    if (is_file(cur))
        sv_push(out, cur);
    else
        free(cur);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int glob_expand_local(const char *pattern, char ***paths, size_t *n)
{
    strvec pats = {0}, out = {0};
    *paths = NULL;
    *n = 0;
    if (expand(pattern, &pats) < 0) {
        sv_free(&pats);
        return -1;
    }
    for (size_t i = 0; i < pats.n; i++) {
        const char *p = pats.v[i];
        if (p[0] == '/')
            walk("/", p + 1, &out, 0);
        else
            walk("", p, &out, 0);
    }
    sv_free(&pats);
    if (out.n > 1) {
        qsort(out.v, out.n, sizeof *out.v, cmp_str);
        size_t k = 1;
        for (size_t i = 1; i < out.n; i++) {
            if (strcmp(out.v[i], out.v[k - 1]) == 0)
                free(out.v[i]);
            else
                out.v[k++] = out.v[i];
        }
        out.n = k;
    }
    *paths = out.v;
    *n = out.n;
    return 0;
}

void glob_free(char **paths, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}
