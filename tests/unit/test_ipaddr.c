/* column/ipaddr: ClickHouse's IPv4/IPv6 text rules (the cases were checked with chdb). */
#include "check.h"
#include "column/ipaddr.h"

/* The printed form of s parsed as IPv6, or "NULL". */
static const char *v6(const char *s)
{
    static char out[IPADDR_V6_TEXT_MAX];
    uint8_t b[16];
    if (!ipaddr_parse_v6(s, strlen(s), b))
        return "NULL";
    ipaddr_format_v6(b, out);
    return out;
}

static const char *v4(const char *s)
{
    static char out[IPADDR_V4_TEXT_MAX];
    uint32_t v;
    if (!ipaddr_parse_v4(s, strlen(s), &v))
        return "NULL";
    size_t n = ipaddr_format_v4(v, out);
    CHECK(n == strlen(out));
    return out;
}

int main(void)
{
    static const char *const v4_cases[][2] = {
        {"1.2.3.4", "1.2.3.4"}, {"0.0.0.0", "0.0.0.0"}, {"255.255.255.255", "255.255.255.255"},
        {"0001.2.3.4", "1.2.3.4"}, {"01.02.03.004", "1.2.3.4"}, {"1.2.3.0004", "1.2.3.4"},
        {"00001.2.3.4", "NULL"}, {"1.2.3.00004", "NULL"}, {"1.2.3", "NULL"}, {"1.2.3.4.5", "NULL"},
        {"256.1.1.1", "NULL"}, {"1..2.3", "NULL"}, {"+1.2.3.4", "NULL"}, {"1.2.3.4 ", "NULL"},
        {" 1.2.3.4", "NULL"}, {"1.2.3.4x", "NULL"}, {"", "NULL"}, {"100.20.3.40", "100.20.3.40"},
    };
    for (size_t i = 0; i < sizeof v4_cases / sizeof v4_cases[0]; i++)
        CHECK_STR(v4(v4_cases[i][0]), v4_cases[i][1]);
    static const char *const v6_cases[][2] = {
        {"::", "::"}, {"::1", "::1"}, {"1::", "1::"}, {"1::2::3", "NULL"}, {":::1", "NULL"},
        {"::ffff:1.2.3.4", "::ffff:1.2.3.4"}, {"::1.2.3.4", "::1.2.3.4"}, {"::01.2.3.4", "::1.2.3.4"},
        {"::0255.1.2.3", "::255.1.2.3"}, {"::1.2.3.0004", "::1.2.3.4"}, {"::1.2.3.00004", "NULL"},
        {"::a.1.2.3", "NULL"}, {"::1234.1.2.3", "NULL"}, {"1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"},
        {"1:2:3:4:5:6:7:8:9", "NULL"}, {"00001::", "NULL"}, {"0001::", "1::"}, {"::g", "NULL"},
        {"FFFF::", "ffff::"}, {"1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"}, {"1:2:3:4:5:6:7:1.2.3.4", "NULL"},
        {"[::1]", "NULL"}, {"::1%eth0", "NULL"}, {"1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"},
        {"1::2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"}, {"::1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"},
        {"1:2:3:4:5:6:7:8::", "NULL"}, {":1::", "NULL"}, {"1::2:", "NULL"}, {"1:2", "NULL"},
        {"0:0:0:0:0:ffff:102:304", "::ffff:1.2.3.4"}, {"::ffff:0:0", "::ffff:0.0.0.0"},
        {"64:ff9b::1.2.3.4", "64:ff9b::102:304"}, {"::ffff:1.2.3.4:5", "NULL"}, {"1:.2.3.4", "NULL"},
        /* bare IPv4, mapped; a leading zero in its first octet is refused here */
        {"1.2.3.4", "::ffff:1.2.3.4"}, {"1.02.3.4", "::ffff:1.2.3.4"}, {"0.2.3.4", "::ffff:0.2.3.4"},
        {"01.2.3.4", "NULL"}, {"00.2.3.4", "NULL"}, {"0001.2.3.4", "NULL"}, {"255.2.3.4", "::ffff:255.2.3.4"},
        {"", "NULL"}, {"::1:2", "::0.1.0.2"}, {"1:0:0:1:0:0:0:1", "1:0:0:1::1"}, {"0:1:0:0:0:0:0:0", "0:1::"},
    };
    for (size_t i = 0; i < sizeof v6_cases / sizeof v6_cases[0]; i++)
        CHECK_STR(v6(v6_cases[i][0]), v6_cases[i][1]);
    /* a length-delimited parse never reads past n */
    uint32_t x;
    CHECK(ipaddr_parse_v4("1.2.3.45", 7, &x) && x == 0x01020304);
    uint8_t b[16];
    CHECK(ipaddr_parse_v6("::1x", 3, b) && b[15] == 1);
    /* IPv4 ↔ IPv4-mapped IPv6 */
    ipaddr_v4_to_v6(0x01020304, b);
    CHECK(ipaddr_v6_to_v4(b, &x) && x == 0x01020304);
    b[9] = 1;
    CHECK(!ipaddr_v6_to_v4(b, &x));
    return check_done("ipaddr");
}
