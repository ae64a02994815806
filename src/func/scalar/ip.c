/* IP address functions over the IPv4/IPv6 types and over numbers and bytes:
 * IPv4NumToString, IPv4NumToStringClassC, IPv4StringToNum[OrNull|OrDefault],
 * IPv6NumToString, IPv6StringToNum[OrNull|OrDefault], isIPv4String, isIPv6String,
 * IPv4ToIPv6, IPv4CIDRToRange, IPv6CIDRToRange, isIPAddressInRange, cutIPv6
 * (toIPv4/toIPv6 and their OrNull/OrZero/OrDefault forms are conversions: conv.c).
 *
 * As ClickHouse: an IPv4 is an IPv4 or a UInt32 (UInt8/16 accepted), text in dotted decimal without
 * leading zeros; an IPv6 is FixedString(16) in network order, printed as RFC 5952 says
 * (lower case, the first longest run of two or more zero groups as "::", IPv4-mapped and
 * IPv4-compatible addresses with a dotted tail), which is what inet_ntop prints; an IPv4
 * text given to IPv6StringToNum becomes its IPv4-mapped address. Bad text is
 * CANNOT_PARSE_IPV4 / CANNOT_PARSE_IPV6, NULL with OrNull, zero with OrDefault.
 * Stateless kernels; inet_pton/inet_ntop are thread-safe. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"
#include "column/ipaddr.h"

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
    if (id != T_UINT8 && id != T_UINT16 && id != T_UINT32 && id != T_IPV4)
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

static bool is_v6_bytes(const type *t)
{
    return t->id == T_IPV6 || (t->id == T_FIXEDSTRING && t->width == 16);
}

static int v6_to_string_exec(const fn_call *c, column **a, size_t n, column **out)
{
    (void)c;
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *p = col_str(a[0], i, &len);
        (void)len;
        char b[IPADDR_V6_TEXT_MAX];
        col_push_str(r, b, ipaddr_format_v6((const uint8_t *)p, b));
    }
    *out = r;
    return 0;
}

static int v6_to_string_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (!is_v6_bytes(c->arg_types[0]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of argument of function %s, expected IPv6 or FixedString(16)",
                       c->arg_types[0]->name, c->name);
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

/* ---- IPv4ToIPv6 ---- */

static int v4_to_v6_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(c->ret);
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        uint8_t b[16];
        ipaddr_v4_to_v6((uint32_t)col_get_u64(a[0], i), b);
        col_push_fixed(r, b);
    }
    *out = r;
    return 0;
}

static int v4_to_v6_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    type_id id = c->arg_types[0]->id;
    if (id != T_UINT32 && id != T_IPV4)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                       c->arg_types[0]->name, c->name);
    /* IPv4 gives IPv6, a number the 16 bytes (as ClickHouse) */
    c->ret = id == T_IPV4 ? type_simple(T_IPV6) : type_fixedstring(16);
    c->exec = v4_to_v6_exec;
    return 0;
}

/* ---- IPv4CIDRToRange, IPv6CIDRToRange: (lowest, highest) of the prefix ---- */

/* Keeps the first `bits` bits of a[16] (bits ≥ 128 keeps all); the rest set to `fill`. */
static void v6_mask(const uint8_t *a, unsigned bits, uint8_t fill, uint8_t *out)
{
    for (unsigned k = 0; k < 16; k++) {
        unsigned keep = bits >= 8 * (k + 1) ? 8 : bits > 8 * k ? bits - 8 * k : 0;
        uint8_t m = (uint8_t)(keep == 8 ? 0xff : (0xff00 >> keep) & 0xff);
        out[k] = (uint8_t)((a[k] & m) | (fill & ~m));
    }
}

static int cidr_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool v6 = c->state != NULL;
    column *r = col_new(c->ret);
    column *lo = r->fields[0], *hi = r->fields[1];
    col_reserve(lo, n);
    col_reserve(hi, n);
    for (size_t i = 0; i < n; i++) {
        unsigned bits = (unsigned)col_get_u64(a[1], i);
        if (v6) {
            size_t len;
            const uint8_t *p = (const uint8_t *)col_str(a[0], i, &len);
            uint8_t b[16];
            v6_mask(p, bits, 0, b);
            col_push_fixed(lo, b);
            v6_mask(p, bits, 0xff, b);
            col_push_fixed(hi, b);
        } else {
            uint32_t v = (uint32_t)col_get_u64(a[0], i);
            uint32_t m = bits >= 32 ? 0xffffffffu : bits == 0 ? 0 : 0xffffffffu << (32 - bits);
            uint32_t l = v & m, h = v | ~m;
            col_push_fixed(lo, &l);
            col_push_fixed(hi, &h);
        }
    }
    r->len = n;
    *out = r;
    return 0;
}

static int cidr_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    bool v6 = strstr(c->def->name, "IPv6") != NULL;
    if (type_is_nullable(c->arg_types[0]) || type_is_nullable(c->arg_types[1]))
        return err_set(ERR_NOT_IMPLEMENTED, "%s over Nullable arguments (a Nullable(Tuple) result) is not supported",
                       c->name);
    const type *t = c->arg_types[0];
    if (v6 ? !is_v6_bytes(t) : !(t->id == T_IPV4 || t->id == T_UINT8 || t->id == T_UINT16 || t->id == T_UINT32))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of first argument of function %s, expected %s",
                       t->name, c->name, v6 ? "IPv6 or FixedString(16)" : "IPv4 or UInt8 or UInt16 or UInt32");
    if (c->arg_types[1]->id != T_UINT8)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of second argument of function %s, expected UInt8", c->arg_types[1]->name,
                       c->name);
    const type *e = type_simple(v6 ? T_IPV6 : T_IPV4);
    const type *f[2] = {e, e};
    c->state = v6 ? (void *)1 : NULL;
    c->ret = type_tuple(2, f, NULL);
    c->exec = cidr_exec;
    return 0;
}

/* ---- isIPAddressInRange(address, 'prefix/bits') ----
 * Text addresses are read strictly (inet_pton: '01.2.3.4' is no address, as in
 * ClickHouse, which reads them with Poco); an address and a CIDR of different families
 * never match; NULL addresses give 0. */

typedef struct ip_any {
    bool v6;
    uint8_t b[16]; /* IPv4: the first four bytes, network order */
} ip_any;

static bool parse_any(const char *s, size_t len, ip_any *out)
{
    char z[INET6_ADDRSTRLEN + 1];
    if (!cstr(s, len, z, sizeof z))
        return false;
    if (inet_pton(AF_INET, z, out->b) == 1) {
        out->v6 = false;
        return true;
    }
    out->v6 = true;
    return inet_pton(AF_INET6, z, out->b) == 1;
}

static int parse_cidr(const char *s, size_t len, ip_any *addr, unsigned *bits)
{
    const char *slash = memchr(s, '/', len);
    if (!slash)
        return err_set(ERR_CANNOT_PARSE_TEXT, "The text does not contain '/': %.*s", (int)len, s);
    if (!parse_any(s, (size_t)(slash - s), addr))
        return err_set(ERR_CANNOT_PARSE_TEXT, "Neither IPv4 nor IPv6 address: '%.*s'", (int)(slash - s), s);
    size_t k = (size_t)(slash - s) + 1;
    unsigned v = 0;
    if (k == len)
        goto bad;
    for (; k < len; k++) {
        if (s[k] < '0' || s[k] > '9' || v > 1000)
            goto bad;
        v = v * 10 + (unsigned)(s[k] - '0');
    }
    if (v > (addr->v6 ? 128u : 32u))
        goto bad;
    *bits = v;
    return 0;
bad:
    return err_set(ERR_CANNOT_PARSE_TEXT, "The CIDR has a malformed prefix bits: %.*s", (int)len, s);
}

static int in_range_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const column *addr = a[0];
    const uint8_t *nulls = NULL;
    if (type_phys(addr->type)->id == T_NULLABLE) {
        nulls = addr->nulls.p;
        addr = addr->inner;
    }
    type_id id = type_phys(addr->type)->id;
    uint8_t *d;
    *out = num_new_u8(n, &d);
    for (size_t i = 0; i < n; i++) {
        d[i] = 0;
        size_t clen;
        const char *cs = col_str(a[1], i, &clen);
        ip_any net = {0};
        unsigned bits = 0;
        if (parse_cidr(cs, clen, &net, &bits) < 0) {
            col_free(*out);
            return -1;
        }
        if (nulls && nulls[col_idx(a[0], i)])
            continue;
        ip_any ip = {0};
        if (id == T_IPV4) {
            uint32_t v = (uint32_t)col_get_u64(addr, i);
            for (int k = 0; k < 4; k++)
                ip.b[k] = (uint8_t)(v >> (24 - 8 * k));
        } else if (id == T_IPV6) {
            size_t len;
            ip.v6 = true;
            memcpy(ip.b, col_str(addr, i, &len), 16);
        } else {
            size_t len;
            const char *s = col_str(addr, i, &len);
            if (!parse_any(s, len, &ip)) {
                col_free(*out);
                return err_set(ERR_CANNOT_PARSE_TEXT, "Neither IPv4 nor IPv6 address: '%.*s'", (int)len, s);
            }
        }
        if (ip.v6 != net.v6)
            continue;
        uint8_t x[16], y[16];
        v6_mask(ip.b, bits, 0, x);
        v6_mask(net.b, bits, 0, y);
        d[i] = memcmp(x, y, ip.v6 ? 16 : 4) == 0;
    }
    (void)c;
    return 0;
}

static int in_range_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *t = type_strip_nullable(c->arg_types[0]);
    if (!(t->id == T_STRING || t->id == T_IPV4 || t->id == T_IPV6) || c->arg_types[1]->id != T_STRING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "The first argument of function %s must be one of: String, IPv4, IPv6, Nullable(String), "
                       "Nullable(IPv4), or Nullable(IPv6) and the second argument must be String. Type of the "
                       "first argument: %s, type of the second argument: %s",
                       c->name, c->arg_types[0]->name, c->arg_types[1]->name);
    c->ret = type_simple(T_UINT8);
    c->exec = in_range_exec;
    return 0;
}

/* ---- cutIPv6(address, bytes to zero for IPv6, bytes to zero for an IPv4-mapped one) ---- */

static int cut_exec(const fn_call *c, column **a, size_t n, column **out)
{
    (void)c;
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t b[16];
        memcpy(b, col_str(a[0], i, &len), 16);
        uint32_t v4;
        unsigned cut = (unsigned)col_get_u64(a[ipaddr_v6_to_v4(b, &v4) ? 2 : 1], i);
        if (cut > 16)
            cut = 16;
        memset(b + 16 - cut, 0, cut);
        char t[IPADDR_V6_TEXT_MAX];
        col_push_str(r, t, ipaddr_format_v6(b, t));
    }
    *out = r;
    return 0;
}

static int cut_resolve(fn_call *c)
{
    if (c->nargs != 3)
        return fn_bad_nargs(c, "3");
    if (!is_v6_bytes(c->arg_types[0]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument 1 of function %s",
                       c->arg_types[0]->name, c->name);
    for (int k = 1; k < 3; k++) {
        int64_t v;
        if (c->arg_types[k]->id != T_UINT8)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument %d of function %s",
                           c->arg_types[k]->name, k + 1, c->name);
        if (fn_const_int(c, k, &v) == 0 && v > 16)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal value for argument %d %s of function %s", k + 1,
                           c->arg_types[k]->name, c->name);
    }
    c->ret = type_simple(T_STRING);
    c->exec = cut_exec;
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
        {"IPv4ToIPv6", 0, v4_to_v6_resolve, NULL, "the IPv4-mapped IPv6 address of an IPv4"},
        {"IPv4CIDRToRange", FN_OWN_NULLS, cidr_resolve, NULL, "(lowest, highest) IPv4 address of a prefix"},
        {"IPv6CIDRToRange", FN_OWN_NULLS, cidr_resolve, NULL, "(lowest, highest) IPv6 address of a prefix"},
        {"isIPAddressInRange", FN_OWN_NULLS, in_range_resolve, NULL, "1 when an address is in a CIDR range"},
        {"cutIPv6", 0, cut_resolve, NULL, "the text of an IPv6 address with its last bytes zeroed"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_alias("INET_ATON", "IPv4StringToNum");
    func_register_alias("INET_NTOA", "IPv4NumToString");
    func_register_alias("INET6_ATON", "IPv6StringToNum");
    func_register_alias("INET6_NTOA", "IPv6NumToString");
}
