/* IPv4 and IPv6 addresses as text, with ClickHouse's rules (the IPv4/IPv6 types, toIPv4,
 * toIPv6, CAST and every text format use these).
 *
 * Parsing is ClickHouse's, which is laxer than inet_pton in places:
 *   IPv4  four dot-separated decimal octets, each 1–4 digits with a value ≤ 255 (so
 *         "01.2.3.4" and "0001.2.3.4" are 1.2.3.4); nothing before or after.
 *   IPv6  hex groups of 1–4 digits, one "::", an IPv4 tail after at least two groups or a
 *         "::" (its first octet is the last group's digits read as decimal); or, when a '.'
 *         comes before any ':' among the first four characters, an IPv4 address whose
 *         first octet has no leading zero, which becomes its IPv4-mapped address
 *         ::ffff:a.b.c.d.
 * Printing: IPv4 in dotted decimal; IPv6 as RFC 5952 (what glibc's inet_ntop prints, which
 * is also ClickHouse's text: lower case, the longest run of two or more zero groups as
 * "::", an IPv4-mapped or IPv4-compatible address with a dotted tail).
 *
 * An IPv4 value is a host-order uint32; an IPv6 value is 16 bytes in network order.
 * Pure functions, thread-safe; they never set an error (callers choose the code). */
#ifndef SHALE_COLUMN_IPADDR_H
#define SHALE_COLUMN_IPADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IPADDR_V4_TEXT_MAX 16 /* "255.255.255.255" + NUL */
#define IPADDR_V6_TEXT_MAX 46 /* INET6_ADDRSTRLEN */

/* true when s[0..n) is exactly one IPv4 address. */
bool ipaddr_parse_v4(const char *s, size_t n, uint32_t *out);
/* true when s[0..n) is exactly one IPv6 address (or an IPv4 one, mapped). */
bool ipaddr_parse_v6(const char *s, size_t n, uint8_t out[16]);
/* Text of an address into out (at least IPADDR_*_TEXT_MAX bytes, NUL-terminated); the length. */
size_t ipaddr_format_v4(uint32_t v, char *out);
size_t ipaddr_format_v6(const uint8_t v[16], char *out);
/* The IPv4-mapped address ::ffff:a.b.c.d of v4. */
void ipaddr_v4_to_v6(uint32_t v4, uint8_t out[16]);
/* true when v is IPv4-mapped (::ffff:a.b.c.d), with the IPv4 address in *v4. */
bool ipaddr_v6_to_v4(const uint8_t v[16], uint32_t *v4);

#endif
