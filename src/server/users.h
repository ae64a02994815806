/* Users and profiles as ClickHouse's users.xml declares them:
 *   <users><NAME>
 *       <password>…</password> | <password_sha256_hex>…</password_sha256_hex> |
 *       <password_double_sha1_hex>…</password_double_sha1_hex> | <no_password/>
 *       <networks><ip>::/0</ip><ip>127.0.0.1</ip>…</networks>
 *       <profile>default</profile>  <default_database>…</default_database>
 *   </NAME></users>
 *   <profiles><NAME><setting>value</setting>… <profile>parent</profile></NAME></profiles>
 * (host and host_regexp network entries are refused at load: shale matches addresses only.)
 *
 * Ownership: a user set is built from a config and owns copies of what it keeps.
 * Thread-safety: read-only after users_load. Errors: -1 with err_set. */
#ifndef SHALE_SERVER_USERS_H
#define SHALE_SERVER_USERS_H

#include "base/buf.h"
#include "exec/settings.h"
#include "server/config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct net_mask {
    int family;              /* 4 or 6 */
    uint8_t addr[16];
    int prefix;              /* bits */
} net_mask;

typedef enum pw_kind { PW_NONE, PW_PLAIN, PW_SHA256_HEX, PW_DOUBLE_SHA1_HEX } pw_kind;

typedef struct user_def {
    char *name;
    pw_kind pw;
    char *secret;            /* the plain password or the hex digest */
    int nnets;
    net_mask *nets;          /* none: no address may connect */
    char *profile;           /* may be NULL */
    char *default_database;  /* may be NULL */
} user_def;

typedef struct user_set {
    int n;
    user_def *users;
} user_set;

int users_load(const config *c, user_set **out);
void users_free(user_set *u);

/* Checks name/password from the client at address peer ("1.2.3.4" or "::1"):
 * AUTHENTICATION_FAILED (wrong password or unknown user, as ClickHouse says it),
 * REQUIRED_PASSWORD, IP_ADDRESS_NOT_ALLOWED. *out points into u. */
int users_authenticate(const user_set *u, const char *name, const char *password, const char *peer,
                       const user_def **out);

/* The user called name, without a password: the initial user of a query from another server
 * of a cluster that proved it knows the cluster's secret. AUTHENTICATION_FAILED when there is
 * no such user (ClickHouse's message). */
int users_find(const user_set *u, const char *name, const user_def **out);

/* Applies a settings profile (and the profiles it inherits) to st. */
int users_apply_profile(const config *c, const char *profile, settings *st);

/* Decodes standard base64; -1 when malformed. */
int base64_decode(const char *in, size_t n, buf *out);

#endif
