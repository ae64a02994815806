/* IP address functions over numbers and bytes (shale has no IPv4/IPv6 types yet):
 * IPv4NumToString, IPv4NumToStringClassC, IPv4StringToNum[OrNull|OrDefault],
 * IPv6NumToString, IPv6StringToNum[OrNull|OrDefault], isIPv4String, isIPv6String.
 *
 * As ClickHouse: an IPv4 is a UInt32 (UInt8/16 accepted), text in dotted decimal without
 * leading zeros; an IPv6 is FixedString(16) in network order, printed as RFC 5952 says
 * (lower case, the first longest run of two or more zero groups as "::", IPv4-mapped and
 * IPv4-compatible addresses with a dotted tail), which is what inet_ntop prints; an IPv4
 * text given to IPv6StringToNum becomes its IPv4-mapped address. Bad text is
 * CANNOT_PARSE_IPV4 / CANNOT_PARSE_IPV6, NULL with OrNull, zero with OrDefault.
 * Stateless kernels; inet_pton/inet_ntop are thread-safe. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

typedef enum { IP_THROW, IP_NULL, IP_DEFAULT } ip_mode;

static ip_mode mode_of(const char *name)
{
    size_t n = strlen(name);
    if (n > 6 && strcmp(name + n - 6, "OrNull") == 0)
        return IP_NULL;
    if (n > 9 && strcmp(name + n - 9, "OrDefault") == 0)
        return IP_DEFAULT;
    return IP_THROW;
}

/* s[0..len) as a NUL-terminated copy in buf (false when too long for any address). */
static bool cstr(const char *s, size_t len, char *out, size_t cap)
{
    if (len >= cap || memchr(s, 0, len))
        return false;
    memcpy(out, s, len);
    out[len] = 0;
    return true;
}

static bool parse_v4(const char *s, size_t len, uint32_t *v)
{
    char b[INET_ADDRSTRLEN + 1];
    struct in_addr a;
    if (!cstr(s, len, b, sizeof b) || inet_pton(AF_INET, b, &a) != 1)
        return false;
    *v = ntohl(a.s_addr);
    return true;
}

static bool parse_v6(const char *s, size_t len, uint8_t out[16])
{
    char b[INET6_ADDRSTRLEN + 1];
    if (!cstr(s, len, b, sizeof b))
        return false;
    if (inet_pton(AF_INET6, b, out) == 1)
        return true;
    uint32_t v4;
    if (!parse_v4(s, len, &v4))
        return false;
    memset(out, 0, 10); /* ::ffff:a.b.c.d */
    out[10] = out[11] = 0xff;
    for (int k = 0; k < 4; k++)
        out[12 + k] = (uint8_t)(v4 >> (24 - 8 * k));
    return true;
}

/* ---- IPv4NumToString, IPv4NumToStringClassC ---- */

static int v4_to_string_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool class_c = c->state != NULL;
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        uint32_t v = (uint32_t)col_get_u64(a[0], i);
        char b[32];
        int len = class_c ? snprintf(b, sizeof b, "%u.%u.%u.xxx", v >> 24, (v >> 16) & 255, (v >> 8) & 255)
                          : snprintf(b, sizeof b, "%u.%u.%u.%u", v >> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255);
        col_push_str(r, b, (size_t)len);
    }
    *out = r;
    return 0;
}

static int v4_to_string_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    type_id id = c->arg_types[0]->id;
    if (id != T_UINT8 && id != T_UINT16 && id != T_UINT32)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of first argument of function %s, expected IPv4 or UInt8 or UInt16 or UInt32",
                       c->arg_types[0]->name, c->name);
    c->state = strstr(c->def->name, "ClassC") ? (void *)1 : NULL;
    c->ret = type_simple(T_STRING);
    c->exec = v4_to_string_exec;
    return 0;
}

/* ---- IPv4StringToNum*, IPv6StringToNum* ---- */

/* Wraps v (n rows) into Nullable with the rows in bad[] NULL. */
static column *nullable_of(const type *t, column *v, const uint8_t *bad, size_t n)
{
    column *r = col_new(type_nullable(t));
    col_free(r->inner);
    r->inner = v;
    buf_append(&r->nulls, bad, n);
    r->len = n;
    return r;
}

static int string_to_num_exec(const fn_call *c, column **a, size_t n, column **out)
{
    ip_mode m = mode_of(c->def->name);
    bool v6 = strstr(c->def->name, "IPv6") != NULL;
    const type *t = v6 ? type_fixedstring(16) : type_simple(T_UINT32);
    column *v = col_new(t);
    col_reserve(v, n);
    uint8_t *bad = m == IP_NULL ? mem_calloc(n ? n : 1) : NULL;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = col_str(a[0], i, &len);
        uint8_t b6[16];
        uint32_t b4;
        bool ok = v6 ? parse_v6(s, len, b6) : parse_v4(s, len, &b4);
        if (!ok) {
            if (m == IP_THROW) {
                col_free(v);
                return err_set(v6 ? ERR_CANNOT_PARSE_IPV6 : ERR_CANNOT_PARSE_IPV4, "Invalid %s value",
                               v6 ? "IPv6" : "IPv4");
            }
            if (bad)
                bad[i] = 1;
            memset(b6, 0, sizeof b6);
            b4 = 0;
        }
        if (v6)
            col_push_str(v, (const char *)b6, 16);
        else
            col_push_fixed(v, &b4);
    }
    if (bad) {
        *out = nullable_of(t, v, bad, n);
        mem_free(bad);
    } else {
        *out = v;
    }
    return 0;
}

static int string_to_num_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (c->arg_types[0]->id != T_STRING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                       c->arg_types[0]->name, c->name);
    const type *t = strstr(c->def->name, "IPv6") ? type_fixedstring(16) : type_simple(T_UINT32);
    c->ret = mode_of(c->def->name) == IP_NULL ? type_nullable(t) : t;
    c->exec = string_to_num_exec;
    return 0;
}

/* ---- IPv6NumToString ---- */

static int v6_to_string_exec(const fn_call *c, column **a, size_t n, column **out)
{
    (void)c;
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *p = col_str(a[0], i, &len);
        char b[INET6_ADDRSTRLEN];
        if (!inet_ntop(AF_INET6, p, b, sizeof b))
            b[0] = 0;
        col_push_str(r, b, strlen(b));
    }
    *out = r;
    return 0;
}

static int v6_to_string_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (t->id != T_FIXEDSTRING || t->width != 16)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of argument of function %s, expected IPv6 or FixedString(16)", t->name, c->name);
    c->ret = type_simple(T_STRING);
    c->exec = v6_to_string_exec;
    return 0;
}

/* ---- isIPv4String, isIPv6String ---- */

static int is_ip_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool v6 = c->state != NULL;
    uint8_t *d;
    *out = num_new_u8(n, &d);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = col_str(a[0], i, &len);
        char b[INET6_ADDRSTRLEN + 1];
        uint8_t tmp[16];
        d[i] = cstr(s, len, b, sizeof b) && inet_pton(v6 ? AF_INET6 : AF_INET, b, tmp) == 1;
    }
    return 0;
}

static int is_ip_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (c->arg_types[0]->id != T_STRING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                       c->arg_types[0]->name, c->name);
    c->state = strstr(c->def->name, "IPv6") ? (void *)1 : NULL;
    c->ret = type_simple(T_UINT8);
    c->exec = is_ip_exec;
    return 0;
}

void func_register_ip(void)
{
    static const func_def defs[] = {
        {"IPv4NumToString", 0, v4_to_string_resolve, NULL, "an IPv4 number in dotted decimal"},
        {"IPv4NumToStringClassC", 0, v4_to_string_resolve, NULL, "dotted decimal with the last byte as xxx"},
        {"IPv4StringToNum", 0, string_to_num_resolve, NULL, "the UInt32 of an IPv4 text"},
        {"IPv4StringToNumOrNull", 0, string_to_num_resolve, NULL, "IPv4StringToNum, NULL for bad text"},
        {"IPv4StringToNumOrDefault", 0, string_to_num_resolve, NULL, "IPv4StringToNum, 0 for bad text"},
        {"IPv6NumToString", 0, v6_to_string_resolve, NULL, "the text of an IPv6 address's 16 bytes"},
        {"IPv6StringToNum", 0, string_to_num_resolve, NULL, "the 16 bytes of an IPv6 (or IPv4) text"},
        {"IPv6StringToNumOrNull", 0, string_to_num_resolve, NULL, "IPv6StringToNum, NULL for bad text"},
        {"IPv6StringToNumOrDefault", 0, string_to_num_resolve, NULL, "IPv6StringToNum, zeros for bad text"},
        {"isIPv4String", 0, is_ip_resolve, NULL, "1 for a valid IPv4 text"},
        {"isIPv6String", 0, is_ip_resolve, NULL, "1 for a valid IPv6 text"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_alias("INET_ATON", "IPv4StringToNum");
    func_register_alias("INET_NTOA", "IPv4NumToString");
    func_register_alias("INET6_ATON", "IPv6StringToNum");
    func_register_alias("INET6_NTOA", "IPv6NumToString");
}
