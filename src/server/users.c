/* Users, passwords, networks and settings profiles (see users.h). */
#include "server/users.h"

#include "base/err.h"
#include "base/mem.h"
#include "io/crypto.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int parse_mask(const char *text, net_mask *m)
{
    char addr[128];
    const char *slash = strchr(text, '/');
    size_t n = slash ? (size_t)(slash - text) : strlen(text);
    if (n >= sizeof addr)
        return -1;
    memcpy(addr, text, n);
    addr[n] = 0;
    memset(m, 0, sizeof *m);
    if (inet_pton(AF_INET, addr, m->addr) == 1) {
        m->family = 4;
        m->prefix = 32;
    } else if (inet_pton(AF_INET6, addr, m->addr) == 1) {
        m->family = 6;
        m->prefix = 128;
    } else {
        return -1;
    }
    if (slash) {
        char *end;
        long p = strtol(slash + 1, &end, 10);
        if (*end || p < 0 || p > m->prefix)
            return -1;
        m->prefix = (int)p;
    }
    return 0;
}

static bool prefix_equal(const uint8_t *a, const uint8_t *b, int bits)
{
    int whole = bits / 8, rest = bits % 8;
    if (memcmp(a, b, (size_t)whole) != 0)
        return false;
    if (!rest)
        return true;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return (a[whole] & mask) == (b[whole] & mask);
}

/* An IPv4 client also matches IPv6 masks through its mapped address (::ffff:a.b.c.d),
 * as ClickHouse matches ::/0 for every client. */
static bool mask_matches(const net_mask *m, const char *peer)
{
    uint8_t a4[4], a6[16];
    if (inet_pton(AF_INET, peer, a4) == 1) {
        if (m->family == 4)
            return prefix_equal(a4, m->addr, m->prefix);
        memset(a6, 0, 10);
        a6[10] = a6[11] = 0xff;
        memcpy(a6 + 12, a4, 4);
        return prefix_equal(a6, m->addr, m->prefix);
    }
    if (inet_pton(AF_INET6, peer, a6) == 1) {
        if (m->family == 6)
            return prefix_equal(a6, m->addr, m->prefix);
        static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        return memcmp(a6, mapped, 12) == 0 && prefix_equal(a6 + 12, m->addr, m->prefix);
    }
    return false;
}

static int load_user(const config *c, const cfg_node *n, user_def *u)
{
    u->name = xstrdup(n->name);
    const cfg_node *pw;
    if ((pw = cfg_find(c, n, "password_sha256_hex"))) {
        u->pw = PW_SHA256_HEX;
        u->secret = xstrdup(pw->text);
        if (strlen(u->secret) != 64)
            return err_set(ERR_INVALID_CONFIG_PARAMETER, "User %s: password_sha256_hex must have 64 hex digits", u->name);
    } else if ((pw = cfg_find(c, n, "password_double_sha1_hex"))) {
        u->pw = PW_DOUBLE_SHA1_HEX;
        u->secret = xstrdup(pw->text);
        if (strlen(u->secret) != 40)
            return err_set(ERR_INVALID_CONFIG_PARAMETER, "User %s: password_double_sha1_hex must have 40 hex digits",
                           u->name);
    } else if ((pw = cfg_find(c, n, "password")) && pw->text[0]) {
        u->pw = PW_PLAIN;
        u->secret = xstrdup(pw->text);
    } else {
        u->pw = PW_NONE; /* <no_password/>, or an empty <password> */
    }
    const cfg_node *nets = cfg_find(c, n, "networks");
    for (int i = 0; nets && i < nets->nchildren; i++) {
        const cfg_node *e = nets->children[i];
        if (strcmp(e->name, "ip") != 0)
            return err_set(ERR_NOT_IMPLEMENTED, "User %s: networks.%s is not supported (only <ip> masks)", u->name,
                           e->name);
        u->nets = xrealloc(u->nets, sizeof *u->nets * (size_t)(u->nnets + 1));
        if (parse_mask(e->text, &u->nets[u->nnets]))
            return err_set(ERR_INVALID_CONFIG_PARAMETER, "User %s: malformed network mask '%s'", u->name, e->text);
        u->nnets++;
    }
    if (!nets) { /* ClickHouse allows every address when <networks> is absent */
        u->nets = xcalloc(1, sizeof *u->nets);
        parse_mask("::/0", &u->nets[0]);
        u->nnets = 1;
    }
    const cfg_node *p = cfg_find(c, n, "profile");
    u->profile = p ? xstrdup(p->text) : NULL;
    const cfg_node *d = cfg_find(c, n, "default_database");
    u->default_database = d && d->text[0] ? xstrdup(d->text) : NULL;
    return 0;
}

void users_free(user_set *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++) {
        user_def *u = &s->users[i];
        free(u->name);
        free(u->secret);
        free(u->nets);
        free(u->profile);
        free(u->default_database);
    }
    free(s->users);
    free(s);
}

int users_load(const config *c, user_set **out)
{
    user_set *s = xcalloc(1, sizeof *s);
    const cfg_node *users = cfg_find(c, NULL, "users");
    for (int i = 0; users && i < users->nchildren; i++) {
        s->users = xrealloc(s->users, sizeof *s->users * (size_t)(s->n + 1));
        memset(&s->users[s->n], 0, sizeof s->users[s->n]);
        s->n++;
        if (load_user(c, users->children[i], &s->users[s->n - 1])) {
            users_free(s);
            return -1;
        }
        if (s->users[s->n - 1].profile) {
            settings *probe = settings_new();
            int rc = users_apply_profile(c, s->users[s->n - 1].profile, probe);
            settings_free(probe);
            if (rc) {
                users_free(s);
                return -1;
            }
        }
    }
    *out = s;
    return 0;
}

static void hex(const unsigned char *d, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[2 * n] = 0;
}

/* Compares in time independent of where the first difference is. */
static bool same_secret(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    unsigned diff = (unsigned)(na ^ nb);
    for (size_t i = 0; i < na && i < nb; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

static bool password_ok(const user_def *u, const char *password)
{
    switch (u->pw) {
    case PW_NONE: return true;
    case PW_PLAIN: return same_secret(u->secret, password);
    case PW_SHA256_HEX: {
        if (crypto_load())
            return false;
        unsigned char d[32];
        char h[65];
        crypto_sha256(password, strlen(password), d);
        hex(d, 32, h);
        return strcasecmp(h, u->secret) == 0;
    }
    case PW_DOUBLE_SHA1_HEX: {
        if (crypto_load())
            return false;
        unsigned char d1[20], d2[20];
        char h[41];
        crypto_sha1(password, strlen(password), d1);
        crypto_sha1(d1, 20, d2);
        hex(d2, 20, h);
        return strcasecmp(h, u->secret) == 0;
    }
    }
    return false;
}

int users_authenticate(const user_set *s, const char *name, const char *password, const char *peer,
                       const user_def **out)
{
    if (!name || !name[0])
        name = "default";
    if (!password)
        password = "";
    const user_def *u = NULL;
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->users[i].name, name) == 0)
            u = &s->users[i];
    bool ok = u && password_ok(u, password);
    if (!ok && u && u->pw != PW_NONE && !password[0])
        return err_set(ERR_REQUIRED_PASSWORD, "%s: Authentication failed: password is incorrect, or there is no user "
                                              "with such name.",
                       name);
    if (!ok)
        return err_set(ERR_AUTHENTICATION_FAILED,
                       "%s: Authentication failed: password is incorrect, or there is no user with such name.", name);
    bool allowed = false;
    for (int i = 0; i < u->nnets && !allowed; i++)
        allowed = mask_matches(&u->nets[i], peer);
    if (!allowed)
        return err_set(ERR_IP_ADDRESS_NOT_ALLOWED, "%s: Authentication failed: the user is not allowed to connect from "
                                                   "address %s.",
                       name, peer);
    *out = u;
    return 0;
}

int users_find(const user_set *s, const char *name, const user_def **out)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->users[i].name, name) == 0) {
            *out = &s->users[i];
            return 0;
        }
    return err_set(ERR_AUTHENTICATION_FAILED,
                   "%s: Authentication failed: password is incorrect, or there is no user with such name.", name);
}

static int apply_profile(const config *c, const char *name, settings *st, int depth)
{
    if (depth > 16)
        return err_set(ERR_INVALID_CONFIG_PARAMETER, "Settings profile %s inherits itself", name);
    const cfg_node *profiles = cfg_find(c, NULL, "profiles");
    const cfg_node *p = profiles ? cfg_find(c, profiles, name) : NULL;
    if (!p) {
        if (strcmp(name, "default") == 0)
            return 0; /* ClickHouse's default profile may be absent */
        return err_set(ERR_INVALID_CONFIG_PARAMETER, "There is no settings profile %s", name);
    }
    for (int i = 0; i < p->nchildren; i++) {
        const cfg_node *e = p->children[i];
        if (strcmp(e->name, "profile") == 0) {
            if (apply_profile(c, e->text, st, depth + 1))
                return -1;
            continue;
        }
        if (strcmp(e->name, "constraints") == 0)
            return err_set(ERR_NOT_IMPLEMENTED, "Settings profile %s: constraints are not supported", name);
        if (settings_set(st, e->name, e->text))
            return -1;
    }
    return 0;
}

int users_apply_profile(const config *c, const char *profile, settings *st)
{
    return apply_profile(c, profile, st, 0);
}

int base64_decode(const char *in, size_t n, buf *out)
{
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = in[i];
        int v;
        if (ch >= 'A' && ch <= 'Z')
            v = ch - 'A';
        else if (ch >= 'a' && ch <= 'z')
            v = ch - 'a' + 26;
        else if (ch >= '0' && ch <= '9')
            v = ch - '0' + 52;
        else if (ch == '+')
            v = 62;
        else if (ch == '/')
            v = 63;
        else if (ch == '=')
            break;
        else
            return -1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            buf_putc(out, (char)((acc >> bits) & 0xff));
        }
    }
    return 0;
}
