/* The server's configuration: ClickHouse's config.xml and users.xml element names, read
 * with libexpat into a tree of elements, looked up by dotted paths ("logger.level",
 * "users.default.password").
 *
 * What is read (docs/server.md lists every element and its default): listen_host (may
 * repeat), http_port, tcp_port, path, tmp_path, user_files_path, max_concurrent_queries,
 * max_server_memory_usage, max_server_memory_usage_to_ram_ratio, keep_alive_timeout,
 * http_receive_timeout, http_send_timeout, display_name, logger (level, log),
 * user_directories.users_xml.path (users.xml, relative to config.xml's folder), and
 * users, profiles and quotas from users.xml or from config.xml itself.
 * An element with from_env="VAR" takes its text from the environment.
 *
 * Ownership: a config owns its tree; strings returned point into it. Thread-safety: read
 * only once loaded (a reload builds a new config). Errors: -1 with err_set
 * (CANNOT_LOAD_CONFIG naming the file, line and column; INVALID_CONFIG_PARAMETER). */
#ifndef SHALE_SERVER_CONFIG_H
#define SHALE_SERVER_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct cfg_node {
    char *name;
    char *text;                /* trimmed text content ("" when none) */
    int nattrs;
    char **attr_names;
    char **attr_values;
    int nchildren;
    struct cfg_node **children;
} cfg_node;

typedef struct config {
    cfg_node *root;            /* the <clickhouse> (or <yandex>) element */
    char *path;                /* the config file, or NULL for built-in defaults */
} config;

/* Loads config_path (NULL = ClickHouse's defaults: user `default` without a password,
 * listening on localhost) and the users.xml it names. */
int config_load(const char *config_path, config **out);
void config_free(config *c);
/* Applies a `--name=value` override (a dotted path; created when missing). */
int config_override(config *c, const char *path, const char *value);

/* The element at a dotted path under `from` (NULL = the root), or NULL. */
const cfg_node *cfg_find(const config *c, const cfg_node *from, const char *path);
/* Its text, or def when missing. */
const char *cfg_str(const config *c, const char *path, const char *def);
/* Its value as an integer (suffixes not accepted), or def; -1 with err_set when malformed. */
int cfg_int(const config *c, const char *path, int64_t def, int64_t *out);
/* Its value as a float, or def. */
int cfg_float(const config *c, const char *path, double def, double *out);
/* The attribute's value, or NULL. */
const char *cfg_attr(const cfg_node *n, const char *name);

#endif
