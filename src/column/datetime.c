/* Calendar and time-zone arithmetic (see datetime.h).
 *
 * Zones: a TZif file (RFC 8536, versions 1-3) gives a sorted list of transition times and
 * the UTC offset in force after each; times past the last transition follow the POSIX TZ
 * rule in the v2+ footer. Loaded zones live in a mutex-protected list for the life of the
 * process, so a tz_info pointer stays valid forever and lookups after loading are
 * lock-free reads of immutable data.
 *
 * Parsing results are not clamped to a column type's range, except dt_parse_datetime,
 * which saturates to DateTime's range [0, 2^32-1] as ClickHouse does. Callers that store
 * into Date/Date32 clamp days themselves. */
#include "column/datetime.h"

#include "base/err.h"
#include "base/mem.h"

#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- civil calendar */

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

/* Days since 1970-01-01 of a proleptic Gregorian date. Works in 400-year eras (146097
 * days) with the year starting in March, so the leap day is the era's last day. */
int64_t dt_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = floor_div(y, 400);
    int64_t yoe = y - era * 400;                                    /* [0, 399] */
    int64_t mp = m > 2 ? (int64_t)m - 3 : (int64_t)m + 9;           /* March = 0 */
    int64_t doy = (153 * mp + 2) / 5 + (int64_t)d - 1;              /* [0, 365] */
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;            /* [0, 146096] */
    return era * 146097 + doe - 719468;
}

void dt_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d)
{
    days += 719468;
    int64_t era = floor_div(days, 146097);
    int64_t doe = days - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
    *m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static unsigned days_in_month(int64_t y, unsigned m)
{
    static const unsigned dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : dm[m - 1];
}

/* 0 = Sunday */
static int weekday_from_days(int64_t days) { return (int)((days % 7 + 11) % 7); }

/* ---------------------------------------------------------------- POSIX TZ rules */

typedef struct tz_rule_date {
    char kind; /* 'J' (1..365, no Feb 29), 'N' (0..365), 'M' (month.week.day) */
    int n, m, w, d;
    int32_t time; /* seconds after local midnight (may be negative or > 24h) */
} tz_rule_date;

typedef struct tz_rule {
    bool has_dst;
    int32_t std_off; /* seconds east of UTC */
    int32_t dst_off;
    tz_rule_date start, end;
} tz_rule;

struct tz_info {
    char *name;
    int64_t *trans;   /* n_trans sorted transition times */
    int32_t *offs;    /* offset in force from trans[i] */
    size_t n_trans;
    int32_t first_off; /* before the first transition */
    bool has_rule;
    tz_rule rule;
    struct tz_info *next;
};

static const char *rule_name(const char *p, const char *e)
{
    if (p < e && *p == '<') {
        while (p < e && *p != '>')
            p++;
        return p < e ? p + 1 : NULL;
    }
    const char *s = p;
    while (p < e && isalpha((unsigned char)*p))
        p++;
    return p - s >= 3 ? p : NULL;
}

/* [+-]hh[:mm[:ss]] into seconds; NULL on a malformed value. */
static const char *rule_hms(const char *p, const char *e, int32_t *out, bool allow_sign)
{
    int sign = 1;
    if (allow_sign && p < e && (*p == '+' || *p == '-')) {
        sign = *p == '-' ? -1 : 1;
        p++;
    }
    int32_t parts[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        if (k > 0) {
            if (p >= e || *p != ':')
                break;
            p++;
        }
        if (p >= e || !isdigit((unsigned char)*p))
            return NULL;
        int v = 0, nd = 0;
        while (p < e && isdigit((unsigned char)*p) && nd < 3) {
            v = v * 10 + (*p++ - '0');
            nd++;
        }
        parts[k] = v;
    }
    if (parts[0] > 167 || parts[1] > 59 || parts[2] > 59)
        return NULL;
    *out = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
    return p;
}

static const char *rule_date(const char *p, const char *e, tz_rule_date *rd)
{
    memset(rd, 0, sizeof *rd);
    rd->time = 7200;
    if (p >= e)
        return NULL;
    if (*p == 'M') {
        p++;
        int v[3];
        for (int k = 0; k < 3; k++) {
            if (k > 0) {
                if (p >= e || *p != '.')
                    return NULL;
                p++;
            }
            if (p >= e || !isdigit((unsigned char)*p))
                return NULL;
            v[k] = 0;
            while (p < e && isdigit((unsigned char)*p) && v[k] < 100)
                v[k] = v[k] * 10 + (*p++ - '0');
        }
        if (v[0] < 1 || v[0] > 12 || v[1] < 1 || v[1] > 5 || v[2] > 6)
            return NULL;
        rd->kind = 'M';
        rd->m = v[0], rd->w = v[1], rd->d = v[2];
    } else {
        rd->kind = 'N';
        if (*p == 'J') {
            rd->kind = 'J';
            p++;
        }
        if (p >= e || !isdigit((unsigned char)*p))
            return NULL;
        int v = 0;
        while (p < e && isdigit((unsigned char)*p) && v < 1000)
            v = v * 10 + (*p++ - '0');
        if (v > 365 || (rd->kind == 'J' && v < 1))
            return NULL;
        rd->n = v;
    }
    if (p < e && *p == '/') {
        p = rule_hms(p + 1, e, &rd->time, true);
        if (!p)
            return NULL;
    }
    return p;
}

static bool parse_rule(const char *p, const char *e, tz_rule *r)
{
    memset(r, 0, sizeof *r);
    p = rule_name(p, e);
    if (!p)
        return false;
    int32_t off;
    p = rule_hms(p, e, &off, true);
    if (!p)
        return false;
    r->std_off = -off;
    if (p == e)
        return true;
    p = rule_name(p, e);
    if (!p)
        return false;
    r->has_dst = true;
    r->dst_off = r->std_off + 3600;
    if (p < e && *p != ',') {
        p = rule_hms(p, e, &off, true);
        if (!p)
            return false;
        r->dst_off = -off;
    }
    if (p >= e || *p != ',')
        return false; /* no default rule: zoneinfo footers always spell it out */
    p = rule_date(p + 1, e, &r->start);
    if (!p || p >= e || *p != ',')
        return false;
    p = rule_date(p + 1, e, &r->end);
    return p == e;
}

/* Local-time seconds (from 1970, midnight of the rule's day + time) in year y. */
static int64_t rule_local_time(const tz_rule_date *rd, int64_t y)
{
    int64_t day;
    if (rd->kind == 'J') {
        day = dt_days_from_civil(y, 1, 1) + rd->n - 1;
        if (is_leap(y) && rd->n >= 60)
            day++;
    } else if (rd->kind == 'N') {
        day = dt_days_from_civil(y, 1, 1) + rd->n;
    } else {
        int64_t first = dt_days_from_civil(y, (unsigned)rd->m, 1);
        int wd = weekday_from_days(first);
        int64_t dd = (rd->d - wd + 7) % 7 + (int64_t)(rd->w - 1) * 7;
        unsigned dim = days_in_month(y, (unsigned)rd->m);
        while (dd >= dim)
            dd -= 7;
        day = first + dd;
    }
    return day * 86400 + rd->time;
}

static int32_t rule_offset_at(const tz_rule *r, int64_t t)
{
    if (!r->has_dst)
        return r->std_off;
    int64_t y;
    unsigned m, d;
    dt_civil_from_days(floor_div(t + r->std_off, 86400), &y, &m, &d);
    /* Within one year: a northern rule has DST between start and end, a southern one
     * (start after end) outside end..start. */
    int64_t s = rule_local_time(&r->start, y) - r->std_off; /* start is in standard time */
    int64_t en = rule_local_time(&r->end, y) - r->dst_off;  /* end is in DST */
    if (s < en)
        return t >= s && t < en ? r->dst_off : r->std_off;
    return t >= en && t < s ? r->std_off : r->dst_off;
}

/* ---------------------------------------------------------------- TZif */

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

typedef struct tzif_counts {
    uint32_t isut, isstd, leap, time, type, chr;
} tzif_counts;

static int tzif_header(const uint8_t *p, size_t n, size_t at, tzif_counts *c, int *version)
{
    if (n < at || n - at < 44 || memcmp(p + at, "TZif", 4) != 0)
        return -1;
    *version = p[at + 4] == 0 ? 1 : p[at + 4] - '0';
    const uint8_t *h = p + at + 20;
    c->isut = be32(h), c->isstd = be32(h + 4), c->leap = be32(h + 8);
    c->time = be32(h + 12), c->type = be32(h + 16), c->chr = be32(h + 20);
    if (c->type == 0 || c->type > 256 || c->time > 1000000 || c->leap > 100000 || c->chr > 100000 ||
        (c->isut != 0 && c->isut != c->type) || (c->isstd != 0 && c->isstd != c->type))
        return -1;
    return 0;
}

static size_t tzif_block_size(const tzif_counts *c, int tsz)
{
    return (size_t)c->time * tsz + c->time + (size_t)c->type * 6 + c->chr + (size_t)c->leap * (tsz + 4) + c->isstd + c->isut;
}

/* Parses a whole TZif image; 0 or -1 (malformed). Fills z (except name). */
static int tzif_parse(const uint8_t *p, size_t n, struct tz_info *z)
{
    tzif_counts c;
    int version;
    if (tzif_header(p, n, 0, &c, &version) < 0)
        return -1;
    size_t at = 44;
    int tsz = 4;
    size_t blk = tzif_block_size(&c, 4);
    if (n - at < blk)
        return -1;
    if (version >= 2) {
        at += blk;
        if (tzif_header(p, n, at, &c, &version) < 0)
            return -1;
        at += 44;
        tsz = 8;
        blk = tzif_block_size(&c, 8);
        if (n - at < blk)
            return -1;
    }
    const uint8_t *tp = p + at;
    const uint8_t *ip = tp + (size_t)c.time * tsz;
    const uint8_t *ty = ip + c.time;
    z->n_trans = c.time;
    z->trans = xmalloc((c.time ? c.time : 1) * sizeof(int64_t));
    z->offs = xmalloc((c.time ? c.time : 1) * sizeof(int32_t));
    for (uint32_t i = 0; i < c.time; i++) {
        int64_t t = tsz == 8 ? (int64_t)be64(tp + (size_t)i * 8) : (int64_t)(int32_t)be32(tp + (size_t)i * 4);
        if (i > 0 && t <= z->trans[i - 1])
            return -1;
        if (ip[i] >= c.type)
            return -1;
        int32_t off = (int32_t)be32(ty + (size_t)ip[i] * 6);
        if (off < -25 * 3600 || off > 26 * 3600)
            return -1;
        z->trans[i] = t;
        z->offs[i] = off;
    }
    for (uint32_t k = 0; k < c.type; k++) {
        int32_t off = (int32_t)be32(ty + (size_t)k * 6);
        if (off < -25 * 3600 || off > 26 * 3600 || ty[k * 6 + 4] > 1 || ty[k * 6 + 5] >= (c.chr ? c.chr : 1))
            return -1;
    }
    /* Before the first transition: the first non-DST type, else type 0 (RFC 8536 3.2). */
    z->first_off = (int32_t)be32(ty);
    at += blk;
    if (version >= 2) {
        /* Footer: "\n<POSIX TZ>\n". */
        if (at >= n || p[at] != '\n')
            return -1;
        const char *fs = (const char *)p + at + 1;
        const char *fe = memchr(fs, '\n', n - at - 1);
        if (!fe)
            return -1;
        if (fe > fs) {
            if (!parse_rule(fs, fe, &z->rule))
                return -1;
            z->has_rule = true;
        }
    }
    return 0;
}

static pthread_mutex_t tz_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tz_info *_Atomic tz_list;

static bool tz_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 200 || name[0] == '/' || strstr(name, ".."))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(isalnum((unsigned char)name[i]) || strchr("/_-+.", name[i])))
            return false;
    return true;
}

static struct tz_info *tz_find(const char *name)
{
    for (struct tz_info *z = tz_list; z; z = z->next)
        if (strcmp(z->name, name) == 0)
            return z;
    return NULL;
}

static struct tz_info *tz_load(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "/usr/share/zoneinfo/%s", name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *data = xmalloc(cap);
    for (;;) {
        size_t got = fread(data + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            if (cap >= (8u << 20))
                break;
            cap *= 2;
            data = xrealloc(data, cap);
        }
    }
    fclose(f);
    struct tz_info *z = xcalloc(1, sizeof *z);
    if (tzif_parse(data, n, z) < 0) {
        free(z->trans);
        free(z->offs);
        free(z);
        free(data);
        return NULL;
    }
    free(data);
    z->name = xstrdup(name);
    return z;
}

const tz_info *tz_get(const char *name)
{
    if (!name)
        name = tz_default_name();
    struct tz_info *z = tz_find(name);
    if (z)
        return z;
    if (!tz_name_ok(name)) {
        err_set(ERR_BAD_ARGUMENTS, "Cannot load time zone %s", name);
        return NULL;
    }
    pthread_mutex_lock(&tz_lock);
    z = tz_find(name);
    if (!z) {
        z = tz_load(name);
        if (z) {
            z->next = tz_list;
            tz_list = z; /* published after z is fully built */
        }
    }
    pthread_mutex_unlock(&tz_lock);
    if (!z)
        err_set(ERR_BAD_ARGUMENTS, "Cannot load time zone %s", name);
    return z;
}

const char *tz_name(const tz_info *tz) { return tz->name; }

static char default_tz[256];

static void default_tz_init(void)
{
    const char *e = getenv("TZ");
    if (e && *e == ':')
        e++;
    if (e && *e && tz_name_ok(e)) {
        snprintf(default_tz, sizeof default_tz, "%s", e);
        return;
    }
    FILE *f = fopen("/etc/timezone", "r");
    if (f) {
        char line[256];
        if (fgets(line, sizeof line, f)) {
            line[strcspn(line, " \r\n")] = 0;
            if (tz_name_ok(line)) {
                snprintf(default_tz, sizeof default_tz, "%s", line);
                fclose(f);
                return;
            }
        }
        fclose(f);
    }
    char link[512];
    ssize_t k = readlink("/etc/localtime", link, sizeof link - 1);
    if (k > 0) {
        link[k] = 0;
        const char *z = strstr(link, "zoneinfo/");
        if (z && tz_name_ok(z + 9)) {
            snprintf(default_tz, sizeof default_tz, "%s", z + 9);
            return;
        }
    }
    snprintf(default_tz, sizeof default_tz, "UTC");
}

const char *tz_default_name(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, default_tz_init);
    return default_tz;
}

/* ---------------------------------------------------------------- conversions */

int32_t tz_offset_at(const tz_info *tz, int64_t t)
{
    size_t n = tz->n_trans;
    if (n == 0 || t < tz->trans[0]) {
        if (n == 0 && tz->has_rule)
            return rule_offset_at(&tz->rule, t);
        return tz->first_off;
    }
    if (t >= tz->trans[n - 1] && tz->has_rule)
        return rule_offset_at(&tz->rule, t);
    size_t lo = 0, hi = n; /* find the last transition <= t */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (tz->trans[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return tz->offs[lo];
}

/* ClickHouse (DateLUT::makeDateTime) adds the time of day to the UTC instant of local
 * midnight and, past the day's offset change, applies the change: so a time inside a gap
 * moves by the gap (02:30 in a spring-forward gap becomes 01:30 in the old offset), and a
 * time inside an overlap takes the earlier (pre-change) offset. */
int64_t tz_local_to_utc(const tz_info *tz, int64_t local)
{
    int32_t before = tz_offset_at(tz, local - 30 * 3600);
    int32_t after = tz_offset_at(tz, local + 30 * 3600);
    if (before == after) {
        int32_t o = tz_offset_at(tz, local - before);
        if (o == before)
            return local - before;
        /* Two transitions within the window: fall back to a fixed-point search. */
        int64_t t = local - o;
        return tz_offset_at(tz, t) == o ? t : local - before;
    }
    bool ok_before = tz_offset_at(tz, local - before) == before;
    bool ok_after = tz_offset_at(tz, local - after) == after;
    if (ok_before)
        return local - before; /* includes overlaps: the earlier offset */
    if (ok_after)
        return local - after;
    return local - after; /* gap */
}

/* ---------------------------------------------------------------- formatting */

static char *put2(char *p, unsigned v)
{
    p[0] = (char)('0' + v / 10 % 10);
    p[1] = (char)('0' + v % 10);
    return p + 2;
}

static char *put_year(char *p, int64_t y)
{
    if (y >= 0 && y <= 9999) {
        unsigned u = (unsigned)y;
        p = put2(p, u / 100);
        return put2(p, u % 100);
    }
    return p + sprintf(p, "%04lld", (long long)y);
}

size_t dt_format_date(int64_t days, char *out)
{
    int64_t y;
    unsigned m, d;
    dt_civil_from_days(days, &y, &m, &d);
    char *p = put_year(out, y);
    *p++ = '-';
    p = put2(p, m);
    *p++ = '-';
    p = put2(p, d);
    return (size_t)(p - out);
}

size_t dt_format_datetime(int64_t secs, const tz_info *tz, char *out)
{
    int64_t local = secs + (tz ? tz_offset_at(tz, secs) : 0);
    int64_t days = floor_div(local, 86400);
    int64_t sod = local - days * 86400;
    size_t n = dt_format_date(days, out);
    char *p = out + n;
    *p++ = ' ';
    p = put2(p, (unsigned)(sod / 3600));
    *p++ = ':';
    p = put2(p, (unsigned)(sod / 60 % 60));
    *p++ = ':';
    p = put2(p, (unsigned)(sod % 60));
    return (size_t)(p - out);
}

static const int64_t pow10_tab[19] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
                                      1000000000, 10000000000LL, 100000000000LL, 1000000000000LL,
                                      10000000000000LL, 100000000000000LL, 1000000000000000LL,
                                      10000000000000000LL, 100000000000000000LL, 1000000000000000000LL};

size_t dt_format_datetime64(int64_t ticks, int scale, const tz_info *tz, char *out)
{
    if (scale < 0)
        scale = 0;
    if (scale > 18)
        scale = 18;
    int64_t mul = pow10_tab[scale];
    int64_t secs = floor_div(ticks, mul);
    int64_t frac = ticks - secs * mul;
    /* Outside years 0000..9999 ClickHouse prints the nearest end of that range (keeping
     * the fraction), e.g. a Parquet timestamp far in the future. */
    if (secs > 253402300799 - tz_offset_at(tz, 253402300799))
        secs = 253402300799 - tz_offset_at(tz, 253402300799);
    else if (secs < -62167219200 - tz_offset_at(tz, -62167219200))
        secs = -62167219200 - tz_offset_at(tz, -62167219200);
    size_t n = dt_format_datetime(secs, tz, out);
    if (scale > 0) {
        out[n++] = '.';
        for (int i = scale - 1; i >= 0; i--) {
            out[n + (size_t)i] = (char)('0' + frac % 10);
            frac /= 10;
        }
        n += (size_t)scale;
    }
    return n;
}

/* ---------------------------------------------------------------- parsing */

typedef struct dt_parts {
    int64_t year;
    int month, day, hour, minute, second;
    int64_t frac;      /* fraction digits, scaled to frac_scale */
    bool has_date, has_time, has_tz, is_timestamp;
    int32_t tz_off;
    int64_t timestamp;
} dt_parts;

static bool isdig(char c) { return c >= '0' && c <= '9'; }

/* Reads up to max digits; returns the count. */
static size_t read_num(const char *s, size_t n, size_t *i, size_t max, int64_t *v)
{
    size_t k = 0;
    int64_t x = 0;
    while (*i < n && k < max && isdig(s[*i])) {
        x = x * 10 + (s[*i] - '0');
        (*i)++;
        k++;
    }
    *v = x;
    return k;
}

/* Fraction digits after '.', kept to `scale` digits (the rest is truncated). */
static void read_frac(const char *s, size_t n, size_t *i, int scale, int64_t *frac)
{
    int64_t f = 0;
    int k = 0;
    while (*i < n && isdig(s[*i])) {
        if (k < scale) {
            f = f * 10 + (s[*i] - '0');
            k++;
        }
        (*i)++;
    }
    while (k < scale) {
        f *= 10;
        k++;
    }
    *frac = f;
}

static const char *const month_names[12] = {"january", "february", "march", "april", "may", "june", "july",
                                            "august", "september", "october", "november", "december"};
static const char *const weekday_names[7] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};

static int match_name(const char *w, size_t wl, const char *const *names, int count)
{
    if (wl < 3)
        return -1;
    for (int k = 0; k < count; k++) {
        size_t nl = strlen(names[k]);
        if ((wl == 3 || wl == nl) && wl <= nl && strncasecmp(w, names[k], wl) == 0)
            return k;
    }
    return -1;
}

static int be_error(const char *why, size_t n_or_neg)
{
    if (n_or_neg != (size_t)-1)
        return err_set(ERR_CANNOT_PARSE_DATETIME, "Cannot read DateTime: %s: %zu", why, n_or_neg);
    return err_set(ERR_CANNOT_PARSE_DATETIME, "Cannot read DateTime: %s", why);
}

/* hh:mm[:ss[.frac]] starting at s[*i] (hour already read). */
static void read_time_rest(const char *s, size_t n, size_t *i, int64_t hour, int scale, dt_parts *p)
{
    int64_t v;
    p->hour = (int)hour;
    p->has_time = true;
    if (*i < n && s[*i] == ':') {
        (*i)++;
        read_num(s, n, i, 2, &v);
        p->minute = (int)v;
        if (*i < n && s[*i] == ':') {
            (*i)++;
            read_num(s, n, i, 2, &v);
            p->second = (int)v;
            if (*i + 1 < n && (s[*i] == '.' || s[*i] == ',') && isdig(s[*i + 1])) {
                (*i)++;
                read_frac(s, n, i, scale, &p->frac);
            }
        }
    }
}

/* What parseDateTimeBestEffort understands (see datetime.h). */
static int parse_best_effort(const char *s, size_t n, int scale, dt_parts *p)
{
    memset(p, 0, sizeof *p);
    size_t i = 0;
    bool pm = false, am = false;
    int month_by_name = 0;
    while (i < n) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r') {
            i++;
            continue;
        }
        if (isdig(c)) {
            size_t st = i;
            int64_t v;
            size_t nd = read_num(s, n, &i, 20, &v);
            char nx = i < n ? s[i] : 0;
            if (nd <= 2 && nx == ':' && !p->has_time) {
                read_time_rest(s, n, &i, v, scale, p);
            } else if (nd == 4 && (nx == '-' || nx == '/' || nx == '.') && !p->has_date) {
                char sep = nx;
                p->year = v;
                i++;
                int64_t m = 0, d = 1;
                if (i < n && isdig(s[i])) {
                    if (read_num(s, n, &i, 2, &m) == 0)
                        return be_error("unexpected date", (size_t)-1);
                } else {
                    size_t ws = i;
                    while (i < n && isalpha((unsigned char)s[i]))
                        i++;
                    int k = match_name(s + ws, i - ws, month_names, 12);
                    if (k < 0)
                        return be_error("unexpected word", (size_t)-1);
                    m = k + 1;
                }
                if (i < n && s[i] == sep) {
                    i++;
                    if (read_num(s, n, &i, 2, &d) == 0)
                        return be_error("unexpected date", (size_t)-1);
                }
                p->month = (int)m, p->day = (int)d;
                p->has_date = true;
            } else if (nd <= 2 && (nx == '/' || nx == '-' || nx == '.') && !p->has_date) {
                /* DD/MM/YYYY (or DD-MM-YY) */
                char sep = nx;
                int64_t m, y;
                i++;
                if (read_num(s, n, &i, 2, &m) == 0) {
                    size_t ws = i;
                    while (i < n && isalpha((unsigned char)s[i]))
                        i++;
                    int k = match_name(s + ws, i - ws, month_names, 12);
                    if (k < 0)
                        return be_error("unexpected word", (size_t)-1);
                    m = k + 1;
                }
                if (i >= n || s[i] != sep)
                    return be_error("unexpected date", (size_t)-1);
                i++;
                size_t yd = read_num(s, n, &i, 4, &y);
                if (yd == 2)
                    y += 2000;
                else if (yd != 4)
                    return be_error("unexpected number of decimal digits", yd);
                p->day = (int)v, p->month = (int)m, p->year = y;
                p->has_date = true;
            } else if (nd == 8 && !p->has_date) {
                p->year = v / 10000, p->month = (int)(v / 100 % 100), p->day = (int)(v % 100);
                p->has_date = true;
            } else if ((nd == 14 || nd == 12) && !p->has_date) {
                int64_t t = nd == 12 ? v * 100 : v;
                int64_t d = t / 1000000;
                p->year = d / 10000, p->month = (int)(d / 100 % 100), p->day = (int)(d % 100);
                p->hour = (int)(t / 10000 % 100), p->minute = (int)(t / 100 % 100), p->second = (int)(t % 100);
                p->has_date = p->has_time = true;
                if (i + 1 < n && s[i] == '.' && isdig(s[i + 1])) {
                    i++;
                    read_frac(s, n, &i, scale, &p->frac);
                }
            } else if (nd == 6 && p->has_date && !p->has_time) {
                p->hour = (int)(v / 10000), p->minute = (int)(v / 100 % 100), p->second = (int)(v % 100);
                p->has_time = true;
                if (i + 1 < n && s[i] == '.' && isdig(s[i + 1])) {
                    i++;
                    read_frac(s, n, &i, scale, &p->frac);
                }
            } else if (nd == 4 && p->has_date && !p->has_time && !p->year) {
                p->year = v;
            } else if (nd == 4 && !p->has_date && (p->day || month_by_name)) {
                p->year = v;
            } else if (nd == 4 && !p->has_date && !p->year && st > 0) {
                p->year = v;
            } else if (nd <= 2 && !p->has_date && !p->day) {
                p->day = (int)v;
                if (nx == 't' || nx == 's' || nx == 'n' || nx == 'r') { /* 1st 2nd 3rd 4th */
                    while (i < n && isalpha((unsigned char)s[i]))
                        i++;
                }
            } else if (nd <= 2 && !p->has_time && (nx == 'a' || nx == 'p' || nx == 'A' || nx == 'P')) {
                p->hour = (int)v;
                p->has_time = true;
            } else if ((nd >= 9 && nd <= 10) && st == 0 && !p->has_date && !p->has_time) {
                p->is_timestamp = true;
                p->timestamp = v;
                if (i + 1 < n && s[i] == '.' && isdig(s[i + 1])) {
                    i++;
                    read_frac(s, n, &i, scale, &p->frac);
                }
            } else {
                return be_error("unexpected number of decimal digits", nd);
            }
            continue;
        }
        if (isalpha((unsigned char)c)) {
            size_t ws = i;
            while (i < n && isalpha((unsigned char)s[i]))
                i++;
            size_t wl = i - ws;
            const char *w = s + ws;
            int k;
            if (wl == 1 && (w[0] == 'T' || w[0] == 't') && p->has_date && !p->has_time)
                continue;
            if ((wl == 1 && (w[0] == 'Z' || w[0] == 'z')) || (wl == 3 && (!strncasecmp(w, "UTC", 3) || !strncasecmp(w, "GMT", 3))) ||
                (wl == 2 && !strncasecmp(w, "UT", 2))) {
                p->has_tz = true;
                p->tz_off = 0;
                continue;
            }
            if (wl == 2 && !strncasecmp(w, "AM", 2)) {
                am = true;
                continue;
            }
            if (wl == 2 && !strncasecmp(w, "PM", 2)) {
                pm = true;
                continue;
            }
            if ((k = match_name(w, wl, month_names, 12)) >= 0 && !p->month) {
                p->month = k + 1;
                month_by_name = 1;
                continue;
            }
            if (match_name(w, wl, weekday_names, 7) >= 0)
                continue;
            return be_error("unexpected word", (size_t)-1);
        }
        if ((c == '+' || c == '-') && (p->has_time || p->has_date)) {
            int sign = c == '-' ? 1 : -1; /* offset east is subtracted from local time */
            i++;
            int64_t hh, mm = 0;
            size_t nd = read_num(s, n, &i, 4, &hh);
            if (nd == 4) {
                mm = hh % 100;
                hh /= 100;
            } else if (nd == 0 || nd > 2) {
                return be_error("unexpected number of decimal digits", nd);
            } else if (i < n && s[i] == ':') {
                i++;
                read_num(s, n, &i, 2, &mm);
            }
            p->has_tz = true;
            p->tz_off = (int32_t)(-sign * (hh * 3600 + mm * 60));
            continue;
        }
        return be_error("unexpected character", (size_t)-1);
    }
    if (p->is_timestamp)
        return 0;
    if (month_by_name && !p->has_date) {
        if (!p->day)
            p->day = 1;
        if (!p->year)
            return be_error("year is not specified", (size_t)-1);
        p->has_date = true;
    }
    if (!p->has_date && !p->has_time)
        return be_error("neither Date nor Time was parsed successfully", (size_t)-1);
    if (pm && p->hour < 12)
        p->hour += 12;
    if (am && p->hour == 12)
        p->hour = 0;
    if (!p->has_date) {
        /* time only: ClickHouse takes January 1st of the current year */
        int64_t y;
        unsigned m, d;
        dt_civil_from_days(floor_div((int64_t)time(NULL), 86400), &y, &m, &d);
        p->year = y, p->month = 1, p->day = 1;
        p->has_date = true;
    }
    if (p->month < 1 || p->month > 12 || p->day < 1 || (unsigned)p->day > days_in_month(p->year, (unsigned)p->month)) {
        return err_set(ERR_CANNOT_PARSE_DATETIME, "Cannot read DateTime: unexpected date: %lld-%d-%d",
                       (long long)p->year, p->month, p->day);
    }
    return 0;
}

/* The fast, strict path: "YYYY-MM-DD[( |T)hh:mm[:ss[.frac]]]" with 1-2 digit fields and
 * any single separator. Returns 1 if it matched the whole input, 0 if not (try other forms). */
static int parse_basic(const char *s, size_t n, int scale, dt_parts *p)
{
    memset(p, 0, sizeof *p);
    size_t i = 0;
    int64_t v;
    if (read_num(s, n, &i, 4, &v) != 4 || i >= n || isdig(s[i]))
        return 0;
    p->year = v;
    i++;
    if (read_num(s, n, &i, 2, &v) == 0 || i >= n || isdig(s[i]))
        return 0;
    p->month = (int)v;
    i++;
    if (read_num(s, n, &i, 2, &v) == 0)
        return 0;
    p->day = (int)v;
    p->has_date = true;
    if (i == n)
        return 1;
    if (s[i] != ' ' && s[i] != 'T')
        return 0;
    i++;
    if (read_num(s, n, &i, 2, &v) == 0)
        return 0;
    read_time_rest(s, n, &i, v, scale, p);
    while (i < n && s[i] == ' ')
        i++;
    if (i < n && (s[i] == 'Z' || s[i] == 'z') && i + 1 == n)
        return 1;
    return i == n;
}

static void skip_ws(const char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t' || **s == '\n' || **s == '\r')) {
        (*s)++;
        (*n)--;
    }
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' || (*s)[*n - 1] == '\n' || (*s)[*n - 1] == '\r'))
        (*n)--;
}

/* Into unix seconds and a fraction at `scale`. */
static int parse_any(const char *s, size_t n, int scale, const tz_info *tz, bool best_effort, int64_t *secs, int64_t *frac)
{
    skip_ws(&s, &n);
    dt_parts p;
    bool ok = false;
    if (!best_effort) {
        ok = parse_basic(s, n, scale, &p) == 1;
        if (ok && (p.month == 0 || p.day == 0)) {
            *secs = 0; /* ClickHouse reads a zero date as the epoch */
            *frac = 0;
            return 0;
        }
        if (ok && (p.month < 1 || p.month > 12 || p.day < 1 || (unsigned)p.day > days_in_month(p.year, (unsigned)p.month)))
            return err_set(ERR_CANNOT_PARSE_DATETIME, "Cannot read DateTime: unexpected date: %lld-%d-%d",
                           (long long)p.year, p.month, p.day);
        if (!ok) {
            /* Unix timestamps as digits (with a fraction for DateTime64). */
            size_t i = 0;
            int64_t v;
            size_t nd = read_num(s, n, &i, 18, &v);
            if (nd > 0 && nd != 8 && nd != 12 && nd != 14 && (i == n || (s[i] == '.' && scale > 0))) {
                int64_t f = 0;
                if (i < n) {
                    i++;
                    read_frac(s, n, &i, scale, &f);
                }
                if (i == n && nd >= 9) {
                    *secs = v;
                    *frac = f;
                    return 0;
                }
            }
        }
    }
    if (!ok && parse_best_effort(s, n, scale, &p) < 0)
        return -1;
    if (p.is_timestamp) {
        *secs = p.timestamp;
        *frac = p.frac;
        return 0;
    }
    int64_t local = dt_days_from_civil(p.year, (unsigned)p.month, (unsigned)p.day) * 86400 +
                    (int64_t)p.hour * 3600 + p.minute * 60 + p.second;
    *secs = p.has_tz ? local - p.tz_off : (tz ? tz_local_to_utc(tz, local) : local);
    *frac = p.frac;
    return 0;
}

int dt_parse_datetime(const char *s, size_t n, const tz_info *tz, bool best_effort, int64_t *secs)
{
    int64_t f, t;
    if (parse_any(s, n, 0, tz, best_effort, &t, &f) < 0)
        return -1;
    *secs = t < 0 ? 0 : t > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : t;
    return 0;
}

int dt_parse_datetime64(const char *s, size_t n, int scale, const tz_info *tz, bool best_effort, int64_t *ticks)
{
    if (scale < 0 || scale > 9)
        return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "DateTime64 scale %d is out of range [0, 9]", scale);
    int64_t f, t;
    if (parse_any(s, n, scale, tz, best_effort, &t, &f) < 0)
        return -1;
    int64_t mul = pow10_tab[scale];
    if (t > INT64_MAX / mul - 1 || t < INT64_MIN / mul + 1)
        return err_set(ERR_CANNOT_PARSE_DATETIME, "Cannot read DateTime64: value '%.*s' is out of range", (int)(n > 100 ? 100 : n), s);
    *ticks = t * mul + f;
    return 0;
}

int dt_parse_date(const char *s, size_t n, int64_t *days)
{
    const char *s0 = s;
    size_t n0 = n;
    size_t i = 0;
    int64_t y, m, d;
    size_t nd = read_num(s, n, &i, 8, &y);
    if (nd == 8) {
        m = y / 100 % 100;
        d = y % 100;
        y /= 10000;
    } else if (nd == 4 && i < n && !isdig(s[i])) {
        i++;
        if (read_num(s, n, &i, 2, &m) == 0 || i >= n || isdig(s[i]))
            goto bad;
        i++;
        if (read_num(s, n, &i, 2, &d) == 0)
            goto bad;
    } else {
        goto bad;
    }
    if (i != n)
        goto bad;
    if (m == 0 || d == 0) {
        *days = 0;
        return 0;
    }
    if (m > 12)
        goto bad;
    /* Out-of-range days roll over into the next month, as ClickHouse computes them. */
    *days = dt_days_from_civil(y, (unsigned)m, 1) + d - 1;
    return 0;
bad:
    if (i > n0)
        i = n0;
    return err_set(ERR_CANNOT_PARSE_TEXT, "Cannot parse string '%.*s' as Date: syntax error at position %zu (parsed just '%.*s')",
                   (int)(n0 > 200 ? 200 : n0), s0, i, (int)i, s0);
}
