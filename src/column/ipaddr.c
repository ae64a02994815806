/* IPv4/IPv6 text, ClickHouse's rules: see ipaddr.h. */
#include "column/ipaddr.h"
#include "column/text.h"

#include <arpa/inet.h>
#include <string.h>

/* Reads up to four decimal digits at s[*i]; false when there are none or the value is
 * above 255 (ClickHouse reads at most four digits per octet). */
static bool read_octet(const char *s, size_t n, size_t *i, uint32_t *v)
{
    uint32_t x = 0;
    size_t len = 0;
    while (*i < n && len < 4 && s[*i] >= '0' && s[*i] <= '9') {
        x = x * 10 + (uint32_t)(s[*i] - '0');
        (*i)++;
        len++;
    }
    if (len == 0 || x > 255)
        return false;
    *v = x;
    return true;
}

/* The octets from `first` (0 or 1, when the first is already known) of an IPv4 address
 * at s[*i]; leaves *i after the last octet. */
static bool read_v4(const char *s, size_t n, size_t *i, int first, uint32_t *acc)
{
    for (int k = first; k < 4; k++) {
        uint32_t o;
        if (!read_octet(s, n, i, &o))
            return false;
        *acc = *acc << 8 | o;
        if (k < 3) {
            if (*i >= n || s[*i] != '.')
                return false;
            (*i)++;
        }
    }
    return true;
}

bool ipaddr_parse_v4(const char *s, size_t n, uint32_t *out)
{
    size_t i = 0;
    uint32_t v = 0;
    if (!read_v4(s, n, &i, 0, &v) || i != n)
        return false;
    *out = v;
    return true;
}

/* IPv6 proper (no bare IPv4): groups written to out in order, the "::" gap opened at the
 * end. The last group before an IPv4 tail is re-read as the tail's first octet: its hex
 * digits must all be decimal digits (ClickHouse parses the group first, then finds the '.'). */
static bool parse_v6_groups(const char *s, size_t n, uint8_t out[16])
{
    memset(out, 0, 16);
    size_t i = 0;
    int groups = 0, gap = -1; /* gap: byte offset where "::" stands */
    int pos = 0;              /* bytes written */
    bool group_start = true;
    if (n >= 1 && s[0] == ':') {
        if (n < 2 || s[1] != ':')
            return false;
        i = 2;
        gap = 0;
    }
    while (i < n && groups < 8) {
        if (s[i] == ':') {
            i++;
            if (i >= n) /* a trailing ':' */
                return false;
            group_start = true;
            if (s[i] == ':') {
                if (gap >= 0)
                    return false;
                gap = pos;
                i++;
                if (i < n && s[i] == ':')
                    return false;
                continue;
            }
            if (groups == 0)
                return false;
        }
        if (s[i] == '.') {
            if ((groups <= 1 && gap < 0) || group_start)
                return false;
            i++;
            if (i >= n)
                return false;
            groups--;
            pos -= 2;
            uint32_t first = 0;
            for (int k = 0; k < 2; k++) {
                unsigned hi = out[pos + k] >> 4, lo = out[pos + k] & 15;
                if (hi > 9 || lo > 9)
                    return false;
                first = first * 100 + hi * 10 + lo;
            }
            if (first > 255)
                return false;
            uint32_t v4 = first;
            if (!read_v4(s, n, &i, 1, &v4))
                return false;
            for (int k = 0; k < 4; k++)
                out[pos + k] = (uint8_t)(v4 >> (24 - 8 * k));
            pos += 4;
            groups += 2;
            break;
        }
        if (!group_start)
            break;
        group_start = false;
        unsigned v = 0;
        int digits = 0;
        for (; i < n && digits < 4; i++, digits++) {
            int h = text_hex_digit(s[i]);
            if (h < 0)
                break;
            v = v << 4 | (unsigned)h;
        }
        if (digits == 0)
            break;
        out[pos++] = (uint8_t)(v >> 8);
        out[pos++] = (uint8_t)v;
        groups++;
    }
    if (i != n || groups > 8 || (groups < 8 && gap < 0))
        return false;
    if (gap >= 0) {
        int tail = pos - gap;
        memmove(out + 16 - tail, out + gap, (size_t)tail);
        memset(out + gap, 0, (size_t)(16 - pos));
    }
    return true;
}

bool ipaddr_parse_v6(const char *s, size_t n, uint8_t out[16])
{
    /* a '.' before any ':' among the first four characters: an IPv4 address */
    for (size_t k = 0; k < n && k < 4 && s[k] != ':'; k++)
        if (s[k] == '.') {
            /* here (not in ipaddr_parse_v4) a first octet with a leading zero is refused */
            uint32_t v4;
            if ((s[0] == '0' && k > 1) || !ipaddr_parse_v4(s, n, &v4))
                return false;
            ipaddr_v4_to_v6(v4, out);
            return true;
        }
    uint8_t tmp[16];
    if (n == 0 || !parse_v6_groups(s, n, tmp))
        return false;
    memcpy(out, tmp, 16);
    return true;
}

size_t ipaddr_format_v4(uint32_t v, char *out)
{
    char *p = out;
    for (int k = 0; k < 4; k++) {
        unsigned o = (v >> (24 - 8 * k)) & 255;
        if (k)
            *p++ = '.';
        if (o >= 100)
            *p++ = (char)('0' + o / 100);
        if (o >= 10)
            *p++ = (char)('0' + o / 10 % 10);
        *p++ = (char)('0' + o % 10);
    }
    *p = 0;
    return (size_t)(p - out);
}

size_t ipaddr_format_v6(const uint8_t v[16], char *out)
{
    if (!inet_ntop(AF_INET6, v, out, IPADDR_V6_TEXT_MAX)) /* cannot fail with this buffer */
        out[0] = 0;
    return strlen(out);
}

void ipaddr_v4_to_v6(uint32_t v4, uint8_t out[16])
{
    memset(out, 0, 10);
    out[10] = out[11] = 0xff;
    for (int k = 0; k < 4; k++)
        out[12 + k] = (uint8_t)(v4 >> (24 - 8 * k));
}

bool ipaddr_v6_to_v4(const uint8_t v[16], uint32_t *v4)
{
    static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (memcmp(v, prefix, 12) != 0)
        return false;
    *v4 = (uint32_t)v[12] << 24 | (uint32_t)v[13] << 16 | (uint32_t)v[14] << 8 | v[15];
    return true;
}
