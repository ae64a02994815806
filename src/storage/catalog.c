/* The catalog (storage/catalog.h): databases and tables in memory, mirrored in the
 * metadata directory. One mutex guards the lists; engines do their own locking. */
#include "storage/catalog.h"

#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"
#include "func/udf.h"
#include "parse/ast.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct database {
    char *name;
    table **tables; /* sorted by name */
    int n, cap;
} database;

struct catalog {
    pthread_mutex_t mu;
    char *path;
    database *dbs;  /* sorted by name; `system` is virtual and not in the list */
    int ndb, capdb;
};

/* ---- names on disk: ClickHouse's escapeForFileName (keeps [A-Za-z0-9_], %XX the rest) ---- */

void catalog_escape_name(buf *out, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_')
            buf_putc(out, (char)ch);
        else
            buf_printf(out, "%%%02X", ch);
    }
}

char *catalog_unescape_name(const char *s, size_t n)
{
    char *o = xmalloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' && i + 2 < n) {
            char hex[3] = {s[i + 1], s[i + 2], 0};
            o[k++] = (char)strtol(hex, NULL, 16);
            i += 2;
        } else {
            o[k++] = s[i];
        }
    }
    o[k] = 0;
    return o;
}

static char *path_printf(const catalog *c, const char *kind, const char *db, const char *tbl, const char *suffix)
{
    buf b = {0};
    buf_printf(&b, "%s/%s/", c->path, kind);
    catalog_escape_name(&b, db);
    if (tbl) {
        buf_putc(&b, '/');
        catalog_escape_name(&b, tbl);
    }
    buf_puts(&b, suffix);
    char *s = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return s;
}

static int write_file_atomic(const char *path, const char *text)
{
    buf tmp = {0};
    buf_printf(&tmp, "%s.tmp", path);
    const char *tp = buf_cstr(&tmp);
    int fd = open(tp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        err_set(ERR_CANNOT_OPEN_FILE, "Cannot open file %s: %s", tp, strerror(errno));
        buf_free(&tmp);
        return -1;
    }
    size_t n = strlen(text), off = 0;
    while (off < n) {
        ssize_t w = write(fd, text + off, n - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot write to file %s: %s", tp, strerror(errno));
            close(fd);
            unlink(tp);
            buf_free(&tmp);
            return -1;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot fsync file %s: %s", tp, strerror(errno));
        unlink(tp);
        buf_free(&tmp);
        return -1;
    }
    if (rename(tp, path) != 0) {
        err_set(ERR_CANNOT_OPEN_FILE, "Cannot rename %s to %s: %s", tp, path, strerror(errno));
        unlink(tp);
        buf_free(&tmp);
        return -1;
    }
    buf_free(&tmp);
    return 0;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void remove_tree(const char *path) { nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

static int mkdir_p(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = 0;
        mkdir(p, 0755);
        *s = '/';
    }
    int rc = mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
    if (rc)
        err_set(ERR_CANNOT_OPEN_FILE, "Cannot create directory %s: %s", p, strerror(errno));
    free(p);
    return rc;
}

/* ---- lookup (lock held) ---- */

static database *find_db(catalog *c, const char *name)
{
    for (int i = 0; i < c->ndb; i++)
        if (strcmp(c->dbs[i].name, name) == 0)
            return &c->dbs[i];
    return NULL;
}

static int find_table(database *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->tables[i]->name, name) == 0)
            return i;
    return -1;
}

static database *add_db(catalog *c, const char *name)
{
    if (c->ndb == c->capdb) {
        c->capdb = c->capdb ? c->capdb * 2 : 8;
        c->dbs = xrealloc(c->dbs, sizeof *c->dbs * (size_t)c->capdb);
    }
    int at = 0;
    while (at < c->ndb && strcmp(c->dbs[at].name, name) < 0)
        at++;
    memmove(&c->dbs[at + 1], &c->dbs[at], sizeof *c->dbs * (size_t)(c->ndb - at));
    c->ndb++;
    memset(&c->dbs[at], 0, sizeof c->dbs[at]);
    c->dbs[at].name = xstrdup(name);
    return &c->dbs[at];
}

static void add_table(database *d, table *t)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 8;
        d->tables = xrealloc(d->tables, sizeof *d->tables * (size_t)d->cap);
    }
    int at = 0;
    while (at < d->n && strcmp(d->tables[at]->name, t->name) < 0)
        at++;
    memmove(&d->tables[at + 1], &d->tables[at], sizeof *d->tables * (size_t)(d->n - at));
    d->tables[at] = t;
    d->n++;
}

static table *remove_table_at(database *d, int i)
{
    table *t = d->tables[i];
    memmove(&d->tables[i], &d->tables[i + 1], sizeof *d->tables * (size_t)(d->n - i - 1));
    d->n--;
    return t;
}

/* ---- a table from its canonical text ---- */

/* Parses create_sql and fills columns, schema and engine; does not open the engine. */
static int table_build(catalog *c, const char *db, const char *name, const char *create_sql, table **out)
{
    table *t = xcalloc(1, sizeof *t);
    atomic_init(&t->refs, 1);
    arena_init(&t->a);
    t->database = xstrdup(db);
    t->name = xstrdup(name);
    t->create_sql = xstrdup(create_sql);
    t->data_dir = path_printf(c, "data", db, name, "/");
    /* The AST keeps pointers into the text it was parsed from: parse a copy in the arena. */
    const char *text = arena_strdup(&t->a, create_sql);
    size_t pos = 0;
    ast *st;
    if (sql_parse_statement(&t->a, text, strlen(text), &pos, 1000, &st) || !st ||
        st->kind != AST_STMT_CREATE_TABLE) {
        if (!err_code())
            err_set(ERR_INCORRECT_QUERY, "Not a CREATE TABLE statement");
        table_unref(t);
        return -1;
    }
    t->create = st;
    t->ncols = st->columns.n;
    t->cols = arena_zalloc(&t->a, sizeof *t->cols * (size_t)(t->ncols + 1), 8);
    int nstored = 0;
    for (int i = 0; i < t->ncols; i++) {
        const ast *cd = st->columns.items[i];
        table_column *tc = &t->cols[i];
        tc->name = cd->name;
        tc->type = cd->str ? type_parse(cd->str, cd->str_len) : NULL;
        if (!tc->type) {
            if (!err_code() || !cd->str)
                err_set(ERR_UNKNOWN_TYPE, "Column %s of table %s.%s has no type", cd->name, db, name);
            table_unref(t);
            return -1;
        }
        if (cd->nullable == 1)
            tc->type = type_nullable(tc->type);
        tc->default_kind = cd->default_kind;
        tc->default_expr = cd->sub;
        tc->codec = cd->codec.n ? &cd->codec : NULL;
        tc->comment = cd->comment;
        if (!cd->default_kind || (strcmp(cd->default_kind, "ALIAS") && strcmp(cd->default_kind, "EPHEMERAL")))
            nstored++;
    }
    t->sch = schema_new(nstored);
    for (int i = 0, k = 0; i < t->ncols; i++) {
        const char *dk = t->cols[i].default_kind;
        if (!dk || (strcmp(dk, "ALIAS") && strcmp(dk, "EPHEMERAL")))
            schema_set(t->sch, k++, t->cols[i].name, t->cols[i].type);
    }
    const char *ename = st->engine ? st->engine->name : "";
    bool view = st->show_what && strcmp(st->show_what, "VIEW") == 0;
    bool mview = st->show_what && strcmp(st->show_what, "MATERIALIZED VIEW") == 0;
    t->engine = view ? &engine_view : mview ? &engine_materialized_view : table_engine_find(ename);
    if (!t->engine) {
        err_set(ERR_UNKNOWN_STORAGE, "Unknown table engine %s", ename);
        table_unref(t);
        return -1;
    }
    *out = t;
    return 0;
}

/* What the canonical text creates: "TABLE ", "VIEW " or "MATERIALIZED VIEW " (its first
 * line is "CREATE <kind>db.name"; a materialized view's TO clause is on the next line). */
static const char *create_kind(const char *create_sql)
{
    static const char *const kinds[] = {"VIEW ", "MATERIALIZED VIEW "};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strncmp(create_sql, "CREATE ", 7) == 0 && strncmp(create_sql + 7, kinds[i], strlen(kinds[i])) == 0)
            return kinds[i];
    return "TABLE ";
}

/* The canonical text with the header "CREATE <kind>db.name" replaced by
 * "<verb> <kind>db.name" (the kind kept: a view stays a view). */
static char *with_header(const char *create_sql, const char *verb, const char *db, const char *name)
{
    const char *body = strchr(create_sql, '\n');
    buf b = {0};
    buf_printf(&b, "%s %s", verb, create_kind(create_sql));
    if (db) {
        ast_format_ident(&b, db);
        buf_putc(&b, '.');
    }
    ast_format_ident(&b, name);
    if (body)
        buf_puts(&b, body);
    char *s = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return s;
}

static int persist_table(catalog *c, const table *t)
{
    /* ClickHouse's metadata files: "ATTACH TABLE _ (…) ENGINE = …" ("ATTACH VIEW _ …"). */
    char *text = with_header(t->create_sql, "ATTACH", NULL, "_");
    buf b = {0};
    buf_puts(&b, text);
    buf_putc(&b, '\n');
    char *path = path_printf(c, "metadata", t->database, t->name, ".sql");
    int rc = write_file_atomic(path, buf_cstr(&b));
    free(path);
    free(text);
    buf_free(&b);
    return rc;
}

static int open_table(table *t, bool created, query_ctx *q)
{
    if (t->engine->has_data_dir && mkdir_p(t->data_dir))
        return -1;
    if (t->engine->open(t, created, q)) {
        err_prefix("Table %s: ", table_full_name(t));
        return -1;
    }
    return 0;
}

/* ---- open / close ---- */

static char *read_text_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    buf b = {0};
    char tmp[4096];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        buf_append(&b, tmp, n);
    fclose(f);
    char *s = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return s;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Names of the *.sql files in dir (without .sql, unescaped), sorted. */
static char **list_sql(const char *dir, int *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    int cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".sql") != 0)
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            names = xrealloc(names, sizeof *names * (size_t)cap);
        }
        names[(*n)++] = catalog_unescape_name(e->d_name, len - 4);
    }
    closedir(d);
    if (*n)
        qsort(names, (size_t)*n, sizeof *names, cmp_str);
    return names;
}

/* Loads and opens the table `name` of d from its metadata file at path ("ATTACH TABLE _ …"):
 * 0 with *out, or -1 with the error. */
static int load_table(catalog *c, database *d, const char *name, const char *path, query_ctx *q, table **out)
{
    char *text = read_text_file(path);
    if (!text)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot read %s: %s", path, strerror(errno));
    /* Back from "ATTACH <kind>_ …" to the canonical "CREATE <kind>db.name …". */
    const char *body = text, *kind = "TABLE ";
    static const char *const kinds[] = {"TABLE ", "VIEW ", "MATERIALIZED VIEW "};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t kl = strlen(kinds[k]);
        if (strncmp(text, "ATTACH ", 7) == 0 && strncmp(text + 7, kinds[k], kl) == 0 && text[7 + kl] == '_') {
            kind = kinds[k];
            body = text + 7 + kl + 1;
        }
    }
    buf hb = {0};
    buf_printf(&hb, "CREATE %s", kind);
    ast_format_ident(&hb, d->name);
    buf_putc(&hb, '.');
    ast_format_ident(&hb, name);
    buf_puts(&hb, body);
    free(text);
    char *sql = xstrdup(buf_cstr(&hb));
    buf_free(&hb);
    size_t len = strlen(sql);
    while (len && (sql[len - 1] == '\n' || sql[len - 1] == ' '))
        sql[--len] = 0;
    table *t = NULL;
    int rc = table_build(c, d->name, name, sql, &t);
    free(sql);
    if (!rc && (rc = open_table(t, false, q))) {
        t->engine = NULL; /* not opened: nothing to close */
        table_unref(t);
    }
    if (!rc)
        *out = t;
    return rc;
}

static void load_database(catalog *c, database *d, query_ctx *q)
{
    char *dir = path_printf(c, "metadata", d->name, NULL, "");
    int n;
    char **names = list_sql(dir, &n);
    for (int i = 0; i < n; i++) {
        char *path = path_printf(c, "metadata", d->name, names[i], ".sql");
        table *t = NULL;
        /* ClickHouse refuses to start when a table cannot be loaded; for a local tool a
         * warning is friendlier: the other tables stay usable and the data stays on disk
         * for the user to repair. */
        if (load_table(c, d, names[i], path, q, &t))
            fprintf(stderr, "shale: warning: cannot load table %s.%s (%s): %s\n", d->name, names[i], path, err_msg());
        else
            add_table(d, t);
        err_clear();
        free(path);
        free(names[i]);
    }
    free(names);
    free(dir);
}

/* ---- SQL user-defined functions: <path>/user_defined/function_<name>.sql ---- */

static void function_file(const catalog *c, const char *name, buf *out)
{
    buf_printf(out, "%s/user_defined/function_", c->path);
    catalog_escape_name(out, name);
    buf_puts(out, ".sql");
}

int catalog_store_function(catalog *c, const char *name, const char *create_query)
{
    buf dir = {0}, file = {0};
    buf_printf(&dir, "%s/user_defined", c->path);
    function_file(c, name, &file);
    int rc = 0;
    pthread_mutex_lock(&c->mu);
    if (!create_query) {
        if (unlink(buf_cstr(&file)) != 0 && errno != ENOENT)
            rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot remove file %s: %s", buf_cstr(&file), strerror(errno));
    } else {
        rc = mkdir_p(buf_cstr(&dir)) ? -1 : write_file_atomic(buf_cstr(&file), create_query);
    }
    pthread_mutex_unlock(&c->mu);
    buf_free(&dir);
    buf_free(&file);
    return rc;
}

/* Registers every function stored under <path>/user_defined; one that does not load is a
 * warning, as a table's metadata (the instance still opens). */
static void load_functions(catalog *c)
{
    buf dir = {0};
    buf_printf(&dir, "%s/user_defined", c->path);
    int n;
    char **names = list_sql(buf_cstr(&dir), &n);
    for (int i = 0; i < n; i++) {
        if (strncmp(names[i], "function_", 9) == 0) {
            int rc;
            buf file = {0};
            function_file(c, names[i] + 9, &file);
            char *text = read_text_file(buf_cstr(&file));
            arena a;
            arena_init(&a);
            size_t pos = 0;
            ast *st = NULL;
            bool added;
            if (!text || sql_parse_statement(&a, text, strlen(text), &pos, 1000, &st) || !st ||
                st->kind != AST_STMT_CREATE_FUNCTION)
                rc = err_set(ERR_INCORRECT_DATA, "Cannot load user-defined function from %s", buf_cstr(&file));
            else
                rc = udf_add(st->name, st->str, text, true, false, &added);
            if (rc)
                fprintf(stderr, "shale: warning: cannot load function %s: %s\n", buf_cstr(&file), err_msg());
            arena_free(&a);
            free(text);
            buf_free(&file);
        }
        free(names[i]);
    }
    free(names);
    buf_free(&dir);
}

int catalog_open(const char *data_path, query_ctx *q, catalog **out)
{
    catalog *c = xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    c->path = xstrdup(data_path);
    char *meta = NULL, *data = NULL;
    buf b = {0};
    buf_printf(&b, "%s/metadata", data_path);
    meta = xstrdup(buf_cstr(&b));
    b.len = 0;
    buf_printf(&b, "%s/data", data_path);
    data = xstrdup(buf_cstr(&b));
    buf_free(&b);
    int rc = mkdir_p(meta) || mkdir_p(data) ? -1 : 0;
    if (!rc) {
        int n;
        char **names = list_sql(meta, &n);
        for (int i = 0; i < n; i++) {
            if (strcmp(names[i], "system") != 0 && !find_db(c, names[i]))
                add_db(c, names[i]);
            free(names[i]);
        }
        free(names);
        if (!find_db(c, "default"))
            rc = catalog_create_database(c, "default", true);
        for (int i = 0; !rc && i < c->ndb; i++)
            load_database(c, &c->dbs[i], q);
        if (!rc)
            load_functions(c);
    }
    free(meta);
    free(data);
    if (rc) {
        catalog_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

void catalog_close(catalog *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->ndb; i++) {
        for (int k = 0; k < c->dbs[i].n; k++)
            table_unref(c->dbs[i].tables[k]);
        free(c->dbs[i].tables);
        free(c->dbs[i].name);
    }
    free(c->dbs);
    free(c->path);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

/* ---- queries ---- */

int catalog_get_for_query(query_ctx *q, const char *database, const char *name, table **out)
{
    if (!database && q->temp_catalog) {
        if (catalog_get(q->temp_catalog, "default", name, out) == 0)
            return 0;
        err_clear();
    }
    if (!q->catalog)
        return err_set(ERR_UNKNOWN_TABLE, "Table %s.%s does not exist", database ? database : q->database, name);
    return catalog_get(q->catalog, database ? database : q->database, name, out);
}

int catalog_get(catalog *c, const char *dbname, const char *name, table **out)
{
    pthread_mutex_lock(&c->mu);
    if (!dbname)
        dbname = "default";
    database *d = find_db(c, dbname);
    int rc = 0;
    if (!d) {
        rc = strcmp(dbname, "system") == 0 ? err_set(ERR_UNKNOWN_TABLE, "Table %s.%s does not exist", dbname, name)
                                           : err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", dbname);
    } else {
        int i = find_table(d, name);
        if (i < 0)
            rc = err_set(ERR_UNKNOWN_TABLE, "Table %s.%s does not exist", dbname, name);
        else
            *out = table_ref(d->tables[i]);
    }
    pthread_mutex_unlock(&c->mu);
    return rc;
}

int catalog_list(catalog *c, table ***out, int *n)
{
    pthread_mutex_lock(&c->mu);
    int total = 0;
    for (int i = 0; i < c->ndb; i++)
        total += c->dbs[i].n;
    table **ts = xcalloc((size_t)total + 1, sizeof *ts);
    int k = 0;
    for (int i = 0; i < c->ndb; i++)
        for (int j = 0; j < c->dbs[i].n; j++)
            ts[k++] = table_ref(c->dbs[i].tables[j]);
    pthread_mutex_unlock(&c->mu);
    *out = ts;
    *n = k;
    return 0;
}


bool catalog_has_database(catalog *c, const char *name)
{
    if (strcmp(name, "system") == 0)
        return true;
    pthread_mutex_lock(&c->mu);
    bool has = find_db(c, name) != NULL;
    pthread_mutex_unlock(&c->mu);
    return has;
}

int catalog_list_databases(catalog *c, char ***out, int *n)
{
    pthread_mutex_lock(&c->mu);
    char **names = xcalloc((size_t)c->ndb + 2, sizeof *names);
    int k = 0;
    for (int i = 0; i < c->ndb; i++)
        names[k++] = xstrdup(c->dbs[i].name);
    names[k++] = xstrdup("system");
    pthread_mutex_unlock(&c->mu);
    qsort(names, (size_t)k, sizeof *names, cmp_str);
    *out = names;
    *n = k;
    return 0;
}

int catalog_create_database(catalog *c, const char *name, bool if_not_exists)
{
    pthread_mutex_lock(&c->mu);
    int rc = 0;
    if (find_db(c, name) || strcmp(name, "system") == 0) {
        if (!if_not_exists)
            rc = err_set(ERR_DATABASE_ALREADY_EXISTS, "Database %s already exists", name);
        pthread_mutex_unlock(&c->mu);
        return rc;
    }
    char *dir = path_printf(c, "metadata", name, NULL, "");
    char *file = path_printf(c, "metadata", name, NULL, ".sql");
    buf text = {0};
    buf_puts(&text, "ATTACH DATABASE ");
    ast_format_ident(&text, name);
    buf_puts(&text, "\nENGINE = Ordinary\n");
    rc = mkdir_p(dir);
    if (!rc)
        rc = write_file_atomic(file, buf_cstr(&text));
    if (!rc)
        add_db(c, name);
    buf_free(&text);
    free(dir);
    free(file);
    pthread_mutex_unlock(&c->mu);
    return rc;
}

static void drop_table_files(catalog *c, table *t)
{
    char *meta = path_printf(c, "metadata", t->database, t->name, ".sql");
    unlink(meta);
    free(meta);
    bool has_dir = t->engine && t->engine->has_data_dir;
    char *dir = xstrdup(t->data_dir);
    table_unref(t);
    if (has_dir)
        remove_tree(dir);
    free(dir);
}

int catalog_drop_database(catalog *c, const char *name, bool if_exists)
{
    if (strcmp(name, "system") == 0)
        return err_set(ERR_BAD_ARGUMENTS, "Cannot drop database system");
    pthread_mutex_lock(&c->mu);
    database *d = find_db(c, name);
    if (!d) {
        pthread_mutex_unlock(&c->mu);
        return if_exists ? 0 : err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", name);
    }
    while (d->n)
        drop_table_files(c, remove_table_at(d, d->n - 1));
    char *dir = path_printf(c, "metadata", name, NULL, "");
    char *file = path_printf(c, "metadata", name, NULL, ".sql");
    char *data = path_printf(c, "data", name, NULL, "");
    unlink(file);
    remove_tree(dir);
    remove_tree(data);
    free(dir);
    free(file);
    free(data);
    free(d->tables);
    free(d->name);
    int at = (int)(d - c->dbs);
    memmove(&c->dbs[at], &c->dbs[at + 1], sizeof *c->dbs * (size_t)(c->ndb - at - 1));
    c->ndb--;
    pthread_mutex_unlock(&c->mu);
    return 0;
}

/* The metadata file of a table not in the catalog: ".sql" (detached until the next start, or
 * not loadable) or ".sql.detached" (detached permanently); NULL when there is none. */
static char *detached_metadata(catalog *c, const char *dbname, const char *name, bool *permanently)
{
    static const char *const suffixes[] = {".sql", ".sql.detached"};
    for (int k = 0; k < 2; k++) {
        char *path = path_printf(c, "metadata", dbname, name, suffixes[k]);
        if (access(path, F_OK) == 0) {
            *permanently = k == 1;
            return path;
        }
        free(path);
    }
    return NULL;
}

int catalog_create_table(catalog *c, const char *dbname, const char *name, const char *create_sql,
                         bool if_not_exists, bool or_replace, query_ctx *q, table **out)
{
    if (out)
        *out = NULL;
    if (strcmp(dbname, "system") == 0)
        return err_set(ERR_BAD_ARGUMENTS, "Cannot create tables in database system");
    pthread_mutex_lock(&c->mu);
    database *d = find_db(c, dbname);
    if (!d) {
        pthread_mutex_unlock(&c->mu);
        return err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", dbname);
    }
    int i = find_table(d, name);
    bool permanently;
    char *detached = i < 0 ? detached_metadata(c, dbname, name, &permanently) : NULL;
    free(detached);
    if (detached) {
        pthread_mutex_unlock(&c->mu);
        return if_not_exists ? 0
                             : err_set(ERR_TABLE_ALREADY_EXISTS, "Table `%s`.`%s` already exists (detached%s).", dbname,
                                       name, permanently ? " permanently" : "");
    }
    if (i >= 0) {
        if (or_replace) {
            drop_table_files(c, remove_table_at(d, i));
        } else {
            pthread_mutex_unlock(&c->mu);
            return if_not_exists ? 0 : err_set(ERR_TABLE_ALREADY_EXISTS, "Table %s.%s already exists", dbname, name);
        }
    }
    table *t;
    int rc = table_build(c, dbname, name, create_sql, &t);
    if (!rc && (rc = open_table(t, true, q))) {
        if (t->engine->has_data_dir)
            remove_tree(t->data_dir);
        t->engine = NULL;
        table_unref(t);
    }
    if (!rc && (rc = persist_table(c, t))) {
        bool has_dir = t->engine->has_data_dir;
        char *dir = xstrdup(t->data_dir);
        table_unref(t);
        if (has_dir)
            remove_tree(dir);
        free(dir);
    }
    if (!rc) {
        add_table(d, t);
        if (out)
            *out = table_ref(t);
    }
    pthread_mutex_unlock(&c->mu);
    return rc;
}

int catalog_drop_table(catalog *c, const char *dbname, const char *name, bool if_exists)
{
    pthread_mutex_lock(&c->mu);
    database *d = find_db(c, dbname);
    int i = d ? find_table(d, name) : -1;
    if (i < 0) {
        pthread_mutex_unlock(&c->mu);
        if (if_exists)
            return 0;
        if (!d && strcmp(dbname, "system") != 0)
            return err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", dbname);
        return err_set(ERR_UNKNOWN_TABLE, "Table %s.%s does not exist", dbname, name);
    }
    drop_table_files(c, remove_table_at(d, i));
    pthread_mutex_unlock(&c->mu);
    return 0;
}

int catalog_detach_table(catalog *c, const char *dbname, const char *name, bool if_exists, bool permanently)
{
    pthread_mutex_lock(&c->mu);
    database *d = find_db(c, dbname);
    int i = d ? find_table(d, name) : -1;
    int rc = 0;
    if (i < 0) {
        if (!if_exists)
            rc = !d && strcmp(dbname, "system") != 0
                     ? err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", dbname)
                     : err_set(ERR_UNKNOWN_TABLE, "Table %s.%s does not exist", dbname, name);
        pthread_mutex_unlock(&c->mu);
        return rc;
    }
    if (permanently) {
        char *from = path_printf(c, "metadata", dbname, name, ".sql");
        char *to = path_printf(c, "metadata", dbname, name, ".sql.detached");
        if (rename(from, to))
            rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot rename %s to %s: %s", from, to, strerror(errno));
        free(from);
        free(to);
    }
    if (!rc)
        table_unref(remove_table_at(d, i)); /* closed once the queries using it end */
    pthread_mutex_unlock(&c->mu);
    return rc;
}

int catalog_attach_table(catalog *c, const char *dbname, const char *name, bool if_not_exists, query_ctx *q)
{
    pthread_mutex_lock(&c->mu);
    database *d = find_db(c, dbname);
    int rc = 0;
    bool permanently = false;
    char *path = NULL;
    if (!d)
        rc = err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", dbname);
    else if (find_table(d, name) >= 0)
        rc = if_not_exists ? 0 : err_set(ERR_TABLE_ALREADY_EXISTS, "Table %s.%s already exists.", dbname, name);
    else if (!(path = detached_metadata(c, dbname, name, &permanently)))
        rc = err_set(ERR_CANNOT_GET_CREATE_TABLE_QUERY, "There is no metadata of table `%s` in database `%s`", name,
                     dbname);
    else {
        table *t = NULL;
        if (!(rc = load_table(c, d, name, path, q, &t))) {
            char *sql = path_printf(c, "metadata", dbname, name, ".sql");
            if (permanently && rename(path, sql)) {
                rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot rename %s to %s: %s", path, sql, strerror(errno));
                table_unref(t);
            } else {
                add_table(d, t);
            }
            free(sql);
        }
    }
    free(path);
    pthread_mutex_unlock(&c->mu);
    return rc;
}

static int rename_locked(catalog *c, const char *dbname, const char *name, const char *to_db, const char *to_name,
                         query_ctx *q)
{
    database *d = find_db(c, dbname), *td = find_db(c, to_db);
    int i = d ? find_table(d, name) : -1;
    int rc = 0;
    if (i < 0)
        rc = err_set(ERR_UNKNOWN_TABLE, "Table `%s`.`%s` doesn't exist", dbname, name);
    else if (!td)
        rc = err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", to_db);
    else if (find_table(td, to_name) >= 0)
        rc = err_set(ERR_TABLE_ALREADY_EXISTS, "Table %s.%s already exists", to_db, to_name);
    if (rc)
        return rc;
    table *t = d->tables[i];
    char *new_sql = with_header(t->create_sql, "CREATE", to_db, to_name);
    char *old_meta = path_printf(c, "metadata", dbname, name, ".sql");
    char *new_dir = path_printf(c, "data", to_db, to_name, "/");
    /* Write the new definition first: a crash then leaves both (the old one wins at the
     * next start only if the new one is missing). */
    char *saved_sql = t->create_sql, *saved_db = t->database, *saved_name = t->name;
    t->create_sql = new_sql;
    t->database = xstrdup(to_db);
    t->name = xstrdup(to_name);
    rc = persist_table(c, t);
    if (rc) {
        free(t->create_sql);
        free(t->database);
        free(t->name);
        t->create_sql = saved_sql;
        t->database = saved_db;
        t->name = saved_name;
        free(old_meta);
        free(new_dir);
        return -1;
    }
    unlink(old_meta);
    free(old_meta);
    remove_table_at(d, i);
    if (t->engine->has_data_dir) {
        /* Engines keep paths: close, move the directory, open again at the new path. */
        t->engine->close(t);
        char *parent = path_printf(c, "data", to_db, NULL, "");
        mkdir_p(parent);
        free(parent);
        if (rename(t->data_dir, new_dir) != 0)
            rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot move %s to %s: %s", t->data_dir, new_dir, strerror(errno));
        free(t->data_dir);
        t->data_dir = new_dir;
        if (!rc)
            rc = t->engine->open(t, false, q);
    } else {
        free(t->data_dir);
        t->data_dir = new_dir;
    }
    /* Statements run one at a time in a session: nobody else holds the old names. */
    free(saved_sql);
    free(saved_db);
    free(saved_name);
    add_table(td, t);
    return rc;
}

int catalog_rename_table(catalog *c, const char *dbname, const char *name, const char *to_db, const char *to_name,
                         query_ctx *q)
{
    pthread_mutex_lock(&c->mu);
    int rc = rename_locked(c, dbname, name, to_db, to_name, q);
    pthread_mutex_unlock(&c->mu);
    return rc;
}

int catalog_exchange_tables(catalog *c, const char *dbname, const char *name, const char *to_db, const char *to_name,
                            query_ctx *q)
{
    pthread_mutex_lock(&c->mu);
    database *d = find_db(c, dbname), *td = find_db(c, to_db);
    int rc = 0;
    if (!d || find_table(d, name) < 0)
        rc = err_set(ERR_UNKNOWN_TABLE, "Table %s.%s does not exist", dbname, name);
    else if (!td || find_table(td, to_name) < 0)
        rc = err_set(ERR_UNKNOWN_TABLE, "Table %s.%s does not exist", to_db, to_name);
    char *tmp = NULL;
    if (!rc) {
        buf b = {0};
        buf_printf(&b, ".exchange_tmp_%s", name);
        tmp = xstrdup(buf_cstr(&b));
        buf_free(&b);
        rc = rename_locked(c, dbname, name, dbname, tmp, q);
        if (!rc && (rc = rename_locked(c, to_db, to_name, dbname, name, q)))
            rename_locked(c, dbname, tmp, dbname, name, q); /* undo the first step */
        else if (!rc)
            rc = rename_locked(c, dbname, tmp, to_db, to_name, q);
    }
    free(tmp);
    pthread_mutex_unlock(&c->mu);
    return rc;
}

int catalog_alter_table(catalog *c, table *t, const char *create_sql, query_ctx *q)
{
    table *nt;
    if (table_build(c, t->database, t->name, create_sql, &nt))
        return -1;
    pthread_mutex_lock(&c->mu);
    /* The engine first: closing stops its background work before the definition moves. */
    if (t->engine->close && t->impl)
        t->engine->close(t);
    t->impl = NULL;
    table_retired *r = xcalloc(1, sizeof *r);
    r->a = t->a;
    r->create = t->create;
    r->ncols = t->ncols;
    r->cols = t->cols;
    r->sch = t->sch;
    r->create_sql = t->create_sql;
    r->next = t->retired;
    t->retired = r;
    /* Take over the new definition (its arena holds the AST and the column strings). */
    t->a = nt->a;
    t->create = nt->create;
    t->ncols = nt->ncols;
    t->cols = nt->cols;
    t->sch = nt->sch;
    t->create_sql = nt->create_sql;
    arena_init(&nt->a);
    nt->sch = NULL;
    nt->create_sql = NULL;
    nt->engine = NULL;
    int rc = persist_table(c, t);
    if (!rc)
        rc = open_table(t, false, q);
    if (rc) {
        /* Back to the old definition (its metadata file again), so the table stays
         * usable; the error is the new definition's. */
        char *msg = xstrdup(err_msg());
        int code = err_code();
        if (t->impl && t->engine->close)
            t->engine->close(t);
        t->impl = NULL;
        t->retired = r->next;
        nt->a = t->a;
        nt->sch = t->sch;
        nt->create_sql = t->create_sql;
        t->a = r->a;
        t->create = r->create;
        t->ncols = r->ncols;
        t->cols = r->cols;
        t->sch = r->sch;
        t->create_sql = r->create_sql;
        free(r);
        if (persist_table(c, t) || open_table(t, false, q))
            fprintf(stderr, "shale: warning: table %s could not be reopened after a failed ALTER: %s\n",
                    table_full_name(t), err_msg());
        err_set(code, "%s", msg);
        free(msg);
    }
    pthread_mutex_unlock(&c->mu);
    table_unref(nt);
    return rc;
}
