/* config.xml / users.xml (see config.h). */
#include "server/config.h"

#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"

#include <errno.h>
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cfg_node *node_new(const char *name)
{
    cfg_node *n = xcalloc(1, sizeof *n);
    n->name = xstrdup(name);
    n->text = xstrdup("");
    return n;
}

static void node_free(cfg_node *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->nchildren; i++)
        node_free(n->children[i]);
    for (int i = 0; i < n->nattrs; i++) {
        free(n->attr_names[i]);
        free(n->attr_values[i]);
    }
    free(n->attr_names);
    free(n->attr_values);
    free(n->children);
    free(n->name);
    free(n->text);
    free(n);
}

static void node_add(cfg_node *parent, cfg_node *child)
{
    parent->children = xrealloc(parent->children, sizeof *parent->children * (size_t)(parent->nchildren + 1));
    parent->children[parent->nchildren++] = child;
}

/* ---- parsing ---- */

typedef struct parse_state {
    cfg_node *root;
    cfg_node *stack[64];
    int depth;
    buf text;
    bool too_deep;
} parse_state;

static void on_start(void *ud, const XML_Char *name, const XML_Char **attrs)
{
    parse_state *ps = ud;
    if (ps->depth >= 64) {
        ps->too_deep = true;
        return;
    }
    cfg_node *n = node_new(name);
    for (int i = 0; attrs[i]; i += 2) {
        n->attr_names = xrealloc(n->attr_names, sizeof(char *) * (size_t)(n->nattrs + 1));
        n->attr_values = xrealloc(n->attr_values, sizeof(char *) * (size_t)(n->nattrs + 1));
        n->attr_names[n->nattrs] = xstrdup(attrs[i]);
        n->attr_values[n->nattrs] = xstrdup(attrs[i + 1]);
        n->nattrs++;
    }
    if (ps->depth == 0)
        ps->root = n;
    else
        node_add(ps->stack[ps->depth - 1], n);
    ps->stack[ps->depth++] = n;
    ps->text.len = 0;
}

static void on_end(void *ud, const XML_Char *name)
{
    (void)name;
    parse_state *ps = ud;
    if (ps->too_deep || ps->depth == 0)
        return;
    cfg_node *n = ps->stack[--ps->depth];
    if (n->nchildren == 0) {
        const char *t = buf_cstr(&ps->text);
        size_t len = ps->text.len;
        while (len && strchr(" \t\r\n", *t)) {
            t++;
            len--;
        }
        while (len && strchr(" \t\r\n", t[len - 1]))
            len--;
        free(n->text);
        n->text = xstrndup(t, len);
    }
    const char *env = cfg_attr(n, "from_env");
    if (env) {
        const char *v = getenv(env);
        free(n->text);
        n->text = xstrdup(v ? v : "");
    }
    ps->text.len = 0;
}

static void on_text(void *ud, const XML_Char *s, int len)
{
    parse_state *ps = ud;
    buf_append(&ps->text, s, (size_t)len);
}

static int parse_file(const char *path, cfg_node **out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(ERR_CANNOT_LOAD_CONFIG, "Cannot open configuration file %s: %s", path, strerror(errno));
    XML_Parser p = XML_ParserCreate(NULL);
    parse_state ps = {0};
    XML_SetUserData(p, &ps);
    XML_SetElementHandler(p, on_start, on_end);
    XML_SetCharacterDataHandler(p, on_text);
    char chunk[65536];
    int rc = 0;
    for (;;) {
        size_t n = fread(chunk, 1, sizeof chunk, f);
        bool last = n < sizeof chunk;
        if (XML_Parse(p, chunk, (int)n, last) == XML_STATUS_ERROR) {
            rc = err_set(ERR_CANNOT_LOAD_CONFIG, "Cannot parse configuration file %s: %s at line %lu, column %lu",
                         path, XML_ErrorString(XML_GetErrorCode(p)), (unsigned long)XML_GetCurrentLineNumber(p),
                         (unsigned long)XML_GetCurrentColumnNumber(p) + 1);
            break;
        }
        if (last)
            break;
    }
    fclose(f);
    XML_ParserFree(p);
    buf_free(&ps.text);
    if (!rc && ps.too_deep)
        rc = err_set(ERR_CANNOT_LOAD_CONFIG, "Configuration file %s is nested too deeply", path);
    if (!rc && !ps.root)
        rc = err_set(ERR_CANNOT_LOAD_CONFIG, "Configuration file %s has no root element", path);
    if (rc) {
        node_free(ps.root);
        return -1;
    }
    *out = ps.root;
    return 0;
}

/* ---- lookups ---- */

const char *cfg_attr(const cfg_node *n, const char *name)
{
    for (int i = 0; n && i < n->nattrs; i++)
        if (strcmp(n->attr_names[i], name) == 0)
            return n->attr_values[i];
    return NULL;
}

static cfg_node *child(const cfg_node *n, const char *name, size_t len)
{
    for (int i = 0; i < n->nchildren; i++)
        if (strlen(n->children[i]->name) == len && strncmp(n->children[i]->name, name, len) == 0)
            return n->children[i];
    return NULL;
}

const cfg_node *cfg_find(const config *c, const cfg_node *from, const char *path)
{
    const cfg_node *n = from ? from : c->root;
    const char *p = path;
    while (n && *p) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        n = child(n, p, len);
        p += len + (dot ? 1 : 0);
    }
    return n;
}

const char *cfg_str(const config *c, const char *path, const char *def)
{
    const cfg_node *n = cfg_find(c, NULL, path);
    return n ? n->text : def;
}

int cfg_int(const config *c, const char *path, int64_t def, int64_t *out)
{
    const cfg_node *n = cfg_find(c, NULL, path);
    if (!n || !n->text[0]) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    long long v = strtoll(n->text, &end, 10);
    if (errno || *end)
        return err_set(ERR_INVALID_CONFIG_PARAMETER, "Configuration parameter %s must be an integer, got '%s'", path,
                       n->text);
    *out = v;
    return 0;
}

int cfg_float(const config *c, const char *path, double def, double *out)
{
    const cfg_node *n = cfg_find(c, NULL, path);
    if (!n || !n->text[0]) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(n->text, &end);
    if (errno || *end)
        return err_set(ERR_INVALID_CONFIG_PARAMETER, "Configuration parameter %s must be a number, got '%s'", path,
                       n->text);
    *out = v;
    return 0;
}

int config_override(config *c, const char *path, const char *value)
{
    cfg_node *n = c->root;
    const char *p = path;
    while (*p) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (len == 0)
            return err_set(ERR_INVALID_CONFIG_PARAMETER, "Malformed configuration override --%s", path);
        cfg_node *next = child(n, p, len);
        if (!next) {
            char *name = xstrndup(p, len);
            next = node_new(name);
            free(name);
            node_add(n, next);
        }
        n = next;
        p += len + (dot ? 1 : 0);
    }
    free(n->text);
    n->text = xstrdup(value);
    return 0;
}

/* ---- defaults and users.xml ---- */

/* ClickHouse's shipped defaults that matter when there is no configuration file. */
static cfg_node *default_root(void)
{
    cfg_node *root = node_new("clickhouse");
    config tmp = {.root = root};
    config_override(&tmp, "users.default.password", "");
    config_override(&tmp, "users.default.networks.ip", "::/0");
    config_override(&tmp, "users.default.profile", "default");
    config_override(&tmp, "users.default.quota", "default");
    config_override(&tmp, "profiles.default", "");
    config_override(&tmp, "profiles.readonly.readonly", "1");
    return root;
}

static char *sibling_path(const char *base_file, const char *name)
{
    if (name[0] == '/')
        return xstrdup(name);
    const char *slash = strrchr(base_file, '/');
    buf b = {0};
    if (slash)
        buf_append(&b, base_file, (size_t)(slash - base_file + 1));
    buf_puts(&b, name);
    char *s = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return s;
}

/* Moves users, profiles and quotas of users.xml into the main tree (replacing). */
static void merge_users(cfg_node *root, cfg_node *users_root)
{
    static const char *sections[] = {"users", "profiles", "quotas"};
    for (int s = 0; s < 3; s++) {
        cfg_node *src = child(users_root, sections[s], strlen(sections[s]));
        if (!src)
            continue;
        for (int i = 0; i < root->nchildren; i++)
            if (strcmp(root->children[i]->name, sections[s]) == 0) {
                node_free(root->children[i]);
                root->children[i] = root->children[--root->nchildren];
                break;
            }
        for (int i = 0; i < users_root->nchildren; i++)
            if (users_root->children[i] == src) {
                users_root->children[i] = users_root->children[--users_root->nchildren];
                break;
            }
        node_add(root, src);
    }
}

int config_load(const char *config_path, config **out)
{
    config *c = xcalloc(1, sizeof *c);
    if (!config_path) {
        c->root = default_root();
        *out = c;
        return 0;
    }
    c->path = xstrdup(config_path);
    if (parse_file(config_path, &c->root)) {
        config_free(c);
        return -1;
    }
    const char *users = cfg_str(c, "user_directories.users_xml.path", NULL);
    if (!users && !cfg_find(c, NULL, "users"))
        users = "users.xml"; /* ClickHouse's default when config.xml names none */
    if (users) {
        char *up = sibling_path(config_path, users);
        FILE *probe = fopen(up, "rb");
        bool named = cfg_find(c, NULL, "user_directories.users_xml.path") != NULL;
        if (probe || named) {
            if (probe)
                fclose(probe);
            cfg_node *ur;
            if (parse_file(up, &ur)) {
                free(up);
                config_free(c);
                return -1;
            }
            merge_users(c->root, ur);
            node_free(ur);
        }
        free(up);
    }
    if (!cfg_find(c, NULL, "users")) {
        cfg_node *d = default_root();
        merge_users(c->root, d);
        node_free(d);
    }
    *out = c;
    return 0;
}

void config_free(config *c)
{
    if (!c)
        return;
    node_free(c->root);
    free(c->path);
    free(c);
}
