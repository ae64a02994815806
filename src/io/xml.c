/* Minimal XML element search for S3 responses; see xml.h. */
#include "io/xml.h"

#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

bool xml_find(const char *p, const char *end, const char *tag, const char **val, size_t *len, const char **after)
{
    size_t tl = strlen(tag);
    while (p < end) {
        const char *lt = memchr(p, '<', (size_t)(end - p));
        if (!lt || lt + 1 + tl > end)
            return false;
        p = lt + 1;
        if (memcmp(p, tag, tl) != 0)
            continue;
        const char *q = p + tl;
        if (q >= end)
            return false;
        if (*q == '/' && q + 1 < end && q[1] == '>') {
            *val = q;
            *len = 0;
            if (after)
                *after = q + 2;
            return true;
        }
        if (*q != '>' && *q != ' ')
            continue; /* a longer name: <KeyCount> when looking for <Key> */
        const char *gt = memchr(q, '>', (size_t)(end - q));
        if (!gt)
            return false;
        const char *start = gt + 1;
        /* the closing tag */
        for (const char *c = start; c + 2 + tl < end; c++) {
            c = memchr(c, '<', (size_t)(end - c));
            if (!c || c + 2 + tl >= end)
                return false;
            if (c[1] == '/' && memcmp(c + 2, tag, tl) == 0 && c[2 + tl] == '>') {
                *val = start;
                *len = (size_t)(c - start);
                if (after)
                    *after = c + 3 + tl;
                return true;
            }
        }
        return false;
    }
    return false;
}

static void put_utf8(buf *out, unsigned long cp)
{
    if (cp < 0x80) {
        buf_putc(out, (char)cp);
    } else if (cp < 0x800) {
        buf_putc(out, (char)(0xC0 | (cp >> 6)));
        buf_putc(out, (char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        buf_putc(out, (char)(0xE0 | (cp >> 12)));
        buf_putc(out, (char)(0x80 | ((cp >> 6) & 0x3F)));
        buf_putc(out, (char)(0x80 | (cp & 0x3F)));
    } else {
        buf_putc(out, (char)(0xF0 | (cp >> 18)));
        buf_putc(out, (char)(0x80 | ((cp >> 12) & 0x3F)));
        buf_putc(out, (char)(0x80 | ((cp >> 6) & 0x3F)));
        buf_putc(out, (char)(0x80 | (cp & 0x3F)));
    }
}

void xml_unescape(buf *out, const char *s, size_t n)
{
    static const struct {
        const char *name;
        char c;
    } ents[] = {{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}};
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '&') {
            buf_putc(out, s[i]);
            continue;
        }
        size_t rest = n - i - 1;
        const char *e = s + i + 1;
        bool done = false;
        for (size_t k = 0; k < sizeof ents / sizeof ents[0] && !done; k++) {
            size_t l = strlen(ents[k].name);
            if (rest >= l && memcmp(e, ents[k].name, l) == 0) {
                buf_putc(out, ents[k].c);
                i += l;
                done = true;
            }
        }
        if (!done && rest >= 3 && e[0] == '#') {
            const char *semi = memchr(e, ';', rest);
            if (semi) {
                char *stop;
                unsigned long cp = e[1] == 'x' || e[1] == 'X' ? strtoul(e + 2, &stop, 16) : strtoul(e + 1, &stop, 10);
                if (stop == semi && cp > 0 && cp < 0x110000) {
                    put_utf8(out, cp);
                    i += (size_t)(semi - e) + 1;
                    done = true;
                }
            }
        }
        if (!done)
            buf_putc(out, '&');
    }
}

char *xml_text(const char *p, const char *end, const char *tag)
{
    const char *v;
    size_t n;
    if (!xml_find(p, end, tag, &v, &n, NULL))
        return NULL;
    buf b = {0};
    xml_unescape(&b, v, n);
    char *s = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return s;
}
