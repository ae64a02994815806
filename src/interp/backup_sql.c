/* BACKUP / RESTORE statements (see backup_sql.h).
 *
 * An operation is prepared on the statement's thread — destination opened, tables
 * resolved (and, for RESTORE, created), settings checked — so that every error a user can
 * fix comes back from the statement itself, even with ASYNC; then `op_run` copies the
 * files, on the same thread or, with ASYNC, on a thread of its own with a query of its own. */
#include "interp/backup_sql.h"

#include "backup/ch_meta.h"
#include "backup/repo.h"
#include "base/err.h"
#include "base/mem.h"
#include "base/rand.h"
#include "exec/backup_list.h"
#include "interp/ddl.h"
#include "interp/session.h"
#include "storage/catalog.h"
#include "storage/table.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { COPY_CHUNK = 1 << 20, SMALL_FILE = 8 << 20, MAX_BASE_CHAIN = 32 };

/* ---- names ---- */

/* ---- destinations: File('path') and S3('url'[, key, secret]) ---- */

typedef struct dest {
    bk_repo *repo;
    char *name;   /* as system.backups shows it, the secret masked */
    char *key_id; /* S3 credentials given in the statement, or NULL */
    char *secret;
} dest;

static void dest_close(dest *d)
{
    bk_repo_close(d->repo);
    free(d->name);
    free(d->key_id);
    free(d->secret);
    memset(d, 0, sizeof *d);
}

static const char *string_arg(const ast *f, int i)
{
    const ast *a = i < f->args.n ? f->args.items[i] : NULL;
    return a && a->kind == AST_LITERAL && a->lit == LIT_STRING ? a->str : NULL;
}

/* Is path (absolute, no "..") inside dir? */
static bool path_inside(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == 0);
}

static int file_dest_path(query_ctx *q, const char *arg, char **out)
{
    const instance *in = ((session *)q->session)->inst;
    char deflt[PATH_MAX];
    const char *first = in->nbackup_paths ? in->backup_paths[0] : NULL;
    if (!first) {
        char dp[PATH_MAX];
        if (!realpath(in->data_path, dp))
            return err_set(ERR_BAD_ARGUMENTS, "Cannot resolve the data path %s: %s", in->data_path, strerror(errno));
        snprintf(deflt, sizeof deflt, "%s/backups", dp);
        first = deflt;
    }
    if (!arg[0])
        return err_set(ERR_BAD_ARGUMENTS, "File(): the path of a backup must not be empty");
    for (const char *p = arg; (p = strstr(p, "..")) != NULL; p += 2)
        if ((p == arg || p[-1] == '/') && (p[2] == 0 || p[2] == '/'))
            return err_set(ERR_BAD_ARGUMENTS, "Path '%s' is not allowed for backups: it contains '..'", arg);
    char *path = arg[0] == '/' ? xstrdup(arg) : NULL;
    if (!path) {
        size_t n = strlen(first) + strlen(arg) + 2;
        path = xmalloc(n);
        snprintf(path, n, "%s/%s", first, arg);
    }
    bool ok = path_inside(path, first);
    for (int i = 0; i < in->nbackup_paths && !ok; i++)
        ok = path_inside(path, in->backup_paths[i]);
    if (!ok) {
        free(path);
        return err_set(ERR_BAD_ARGUMENTS, "Path '%s' is not allowed for backups, see the 'backups.allowed_path' "
                       "configuration parameter (allowed: %s%s)", arg, first, in->nbackup_paths > 1 ? ", …" : "");
    }
    *out = path;
    return 0;
}

/* ClickHouse writes a backup whose name ends like an archive as that archive; shale
 * writes directories only, so such names are refused rather than misread. */
static int refuse_archive(const char *path)
{
    static const char *ext[] = {".zip", ".zipx", ".jar", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.lzma", ".tlz",
                                ".tar.zst", ".tzst", ".tar.xz", ".txz", ".7z"};
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        size_t e = strlen(ext[i]);
        if (n > e && strcasecmp(path + n - e, ext[i]) == 0)
            return err_set(ERR_NOT_IMPLEMENTED, "Backup '%s': archives (%s) are not supported; name a directory",
                           path, ext[i]);
    }
    return 0;
}

static int dest_open(const ast *f, query_ctx *q, dest *d)
{
    memset(d, 0, sizeof *d);
    if (!f || f->kind != AST_FUNC)
        return err_set(ERR_BAD_ARGUMENTS, "Expected a backup engine: File('path') or S3('url', …)");
    buf name = {0};
    int rc = 0;
    if (strcmp(f->name, "File") == 0) {
        const char *arg = string_arg(f, 0);
        char *path = NULL;
        if (f->args.n != 1 || !arg)
            rc = err_set(ERR_BAD_ARGUMENTS, "Backup engine 'File' requires one argument: the path as a string literal");
        else if ((rc = refuse_archive(arg)) == 0 && (rc = file_dest_path(q, arg, &path)) == 0)
            rc = bk_repo_open(path, &d->repo);
        free(path);
        ast_format_expr(&name, f);
    } else if (strcmp(f->name, "S3") == 0) {
        const char *url = string_arg(f, 0), *key = string_arg(f, 1), *secret = string_arg(f, 2);
        if (!url || (f->args.n != 1 && f->args.n != 3) || (f->args.n == 3 && (!key || !secret)))
            rc = err_set(ERR_BAD_ARGUMENTS, "Backup engine 'S3' requires 1 or 3 arguments: url [, access_key_id, "
                         "secret_access_key] as string literals");
        else if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))
            rc = err_set(ERR_BAD_ARGUMENTS, "Backup engine 'S3': '%s' is not an http(s) URL", url);
        else if ((rc = refuse_archive(url)) != 0)
            ;
        else
            rc = bk_repo_open_creds(url, key, secret, &d->repo);
        if (key && secret) {
            d->key_id = xstrdup(key);
            d->secret = xstrdup(secret);
        }
        buf_puts(&name, "S3(");
        ast_format_quoted(&name, url ? url : "", url ? strlen(url) : 0);
        if (key) {
            buf_puts(&name, ", ");
            ast_format_quoted(&name, key, strlen(key));
            buf_puts(&name, ", '[HIDDEN]'");
        }
        buf_putc(&name, ')');
    } else if (strcmp(f->name, "Disk") == 0 || strcmp(f->name, "AzureBlobStorage") == 0) {
        rc = err_set(ERR_NOT_IMPLEMENTED, "Backup engine '%s' is not supported: use File('path') or S3('url', …)",
                     f->name);
    } else {
        rc = err_set(ERR_BAD_ARGUMENTS, "Unknown backup engine '%s' (File and S3 are supported)", f->name);
    }
    d->name = xstrndup(name.p ? (const char *)name.p : "", name.len);
    buf_free(&name);
    if (rc)
        dest_close(d);
    return rc;
}

/* The `.backup` of a destination; *missing when there is none. */
static int read_meta(dest *d, ch_meta *m, bool *missing)
{
    buf text = {0};
    int rc = bk_repo_get(d->repo, ".backup", &text, missing);
    if (!rc && !*missing)
        rc = ch_meta_parse(text.p ? (const char *)text.p : "", text.len, d->name, m);
    buf_free(&text);
    return rc;
}

/* A backup name as stored in `.backup` (File('…'), S3('…', 'key', '[HIDDEN]')) back to a
 * destination: Engine('arg', …) with single-quoted arguments. A backup never stores a
 * secret, so an S3 base is opened with the credentials of the backup that names it
 * (`creds`), as ClickHouse's use_same_s3_credentials_for_base_backup does. */
static int dest_open_text(const char *text, const dest *creds, query_ctx *q, dest *d)
{
    arena a;
    arena_init(&a);
    ast *f = ast_new(&a, AST_FUNC, 0);
    const char *p = text, *lp = strchr(text, '(');
    int rc = 0;
    if (!lp)
        rc = err_set(ERR_BACKUP_DAMAGED, "Cannot parse the base backup name '%s'", text);
    if (!rc) {
        f->name = arena_strndup(&a, p, (size_t)(lp - p));
        p = lp + 1;
        while (!rc && *p && *p != ')') {
            while (*p == ' ' || *p == ',')
                p++;
            if (*p == ')')
                break;
            if (*p != '\'') {
                rc = err_set(ERR_BACKUP_DAMAGED, "Cannot parse the base backup name '%s'", text);
                break;
            }
            buf s = {0};
            for (p++; *p && *p != '\''; p++) {
                if (*p == '\\' && p[1])
                    p++;
                buf_putc(&s, *p);
            }
            if (*p != '\'') {
                buf_free(&s);
                rc = err_set(ERR_BACKUP_DAMAGED, "Cannot parse the base backup name '%s'", text);
                break;
            }
            p++;
            ast *l = ast_new(&a, AST_LITERAL, 0);
            l->lit = LIT_STRING;
            l->str = arena_strndup(&a, s.p ? (const char *)s.p : "", s.len);
            l->str_len = s.len;
            ast_list_push(&a, &f->args, l);
            buf_free(&s);
        }
    }
    if (!rc && strcmp(f->name, "S3") == 0 && f->args.n >= 1) {
        /* S3('url') or S3('url', 'key', '[HIDDEN]'): the url, then the given credentials */
        const ast *url = f->args.items[0];
        f->args.n = 0;
        ast_list_push(&a, &f->args, (ast *)url);
        if (creds->key_id && creds->secret) {
            const char *cv[2] = {creds->key_id, creds->secret};
            for (int i = 0; i < 2; i++) {
                ast *l = ast_new(&a, AST_LITERAL, 0);
                l->lit = LIT_STRING;
                l->str = cv[i];
                l->str_len = strlen(cv[i]);
                ast_list_push(&a, &f->args, l);
            }
        }
    }
    if (!rc)
        rc = dest_open(f, q, d);
    arena_free(&a);
    return rc;
}

/* ---- an index of files by (size, checksum): base lookups and deduplication ---- */

typedef struct sum_index {
    size_t cap;  /* power of two */
    int64_t *slot; /* index into files, -1 = empty */
    const ch_meta *m;
} sum_index;

static size_t sum_hash(uint64_t size, u128 s)
{
    uint64_t h = s.lo ^ (s.hi * 0x9E3779B97F4A7C15ull) ^ (size * 0xC2B2AE3D27D4EB4Full);
    return (size_t)(h ^ (h >> 29));
}

static void sum_index_init(sum_index *x, const ch_meta *m, size_t expect)
{
    x->m = m;
    x->cap = 64;
    while (x->cap < expect * 2)
        x->cap *= 2;
    x->slot = xmalloc(x->cap * sizeof *x->slot);
    for (size_t i = 0; i < x->cap; i++)
        x->slot[i] = -1;
}

static int64_t sum_index_find(const sum_index *x, uint64_t size, u128 s)
{
    if (!x->slot)
        return -1;
    for (size_t i = sum_hash(size, s) & (x->cap - 1);; i = (i + 1) & (x->cap - 1)) {
        int64_t k = x->slot[i];
        if (k < 0)
            return -1;
        const ch_meta_file *f = &x->m->files[k];
        if (f->size == size && f->checksum.lo == s.lo && f->checksum.hi == s.hi)
            return k;
    }
}

/* Adds file k of the indexed meta (first one wins); grows as needed. */
static void sum_index_add(sum_index *x, int64_t k)
{
    const ch_meta_file *f = &x->m->files[k];
    if (sum_index_find(x, f->size, f->checksum) >= 0)
        return;
    size_t used = 0;
    for (size_t i = 0; i < x->cap; i++)
        used += x->slot[i] >= 0;
    if ((used + 1) * 2 > x->cap) {
        sum_index bigger;
        sum_index_init(&bigger, x->m, x->cap);
        for (size_t i = 0; i < x->cap; i++)
            if (x->slot[i] >= 0) {
                const ch_meta_file *g = &x->m->files[x->slot[i]];
                size_t j = sum_hash(g->size, g->checksum) & (bigger.cap - 1);
                while (bigger.slot[j] >= 0)
                    j = (j + 1) & (bigger.cap - 1);
                bigger.slot[j] = x->slot[i];
            }
        free(x->slot);
        *x = bigger;
    }
    size_t j = sum_hash(f->size, f->checksum) & (x->cap - 1);
    while (x->slot[j] >= 0)
        j = (j + 1) & (x->cap - 1);
    x->slot[j] = k;
}

static void sum_index_free(sum_index *x)
{
    free(x->slot);
    x->slot = NULL;
}

/* ---- the operation ---- */

typedef struct op_table {
    table *t;          /* a reference */
    char *bdb, *bname; /* its name in the backup */
} op_table;

typedef struct op {
    bool restore;
    bool async;
    bool deduplicate;
    bool structure_only;
    bool allow_non_empty;
    char id[64];
    int slot;          /* in exec/backup_list */
    backup_info info;  /* counters */
    dest d;
    /* the chain of base backups (index 0 = this backup's base) */
    int nbases;
    dest bases[MAX_BASE_CHAIN];
    ch_meta base_meta[MAX_BASE_CHAIN];
    sum_index base_index[MAX_BASE_CHAIN];
    ch_meta meta;      /* BACKUP: being built; RESTORE: read */
    sum_index dedup;
    int ntables;
    op_table *tables;
    int ndatabases;    /* BACKUP DATABASE: their names in the backup */
    char **databases;
    /* BACKUP: keys written so far (removed if the backup fails) */
    size_t nwritten, capwritten;
    char **written;
    query_ctx *q;
    session *own_session; /* ASYNC: the operation's own session and query */
} op;

static void op_free(op *o)
{
    dest_close(&o->d);
    for (int i = 0; i < o->nbases; i++) {
        dest_close(&o->bases[i]);
        ch_meta_free(&o->base_meta[i]);
        sum_index_free(&o->base_index[i]);
    }
    ch_meta_free(&o->meta);
    sum_index_free(&o->dedup);
    for (int i = 0; i < o->ntables; i++) {
        table_unref(o->tables[i].t);
        free(o->tables[i].bdb);
        free(o->tables[i].bname);
    }
    free(o->tables);
    for (int i = 0; i < o->ndatabases; i++)
        free(o->databases[i]);
    free(o->databases);
    for (size_t i = 0; i < o->nwritten; i++)
        free(o->written[i]);
    free(o->written);
    if (o->own_session) {
        query_free(o->q);
        session_free(o->own_session);
    }
    free(o);
}

static bool bool_value(const ast *v, bool *out)
{
    if (v->kind != AST_LITERAL)
        return false;
    if (v->lit == LIT_UINT || v->lit == LIT_BOOL) {
        *out = v->u != 0;
        return true;
    }
    if (v->lit == LIT_STRING && (!strcasecmp(v->str, "true") || !strcmp(v->str, "1"))) {
        *out = true;
        return true;
    }
    if (v->lit == LIT_STRING && (!strcasecmp(v->str, "false") || !strcmp(v->str, "0"))) {
        *out = false;
        return true;
    }
    return false;
}

/* The SETTINGS of BACKUP / RESTORE: ClickHouse's names; those shale does not implement
 * are an error rather than ignored. */
static int op_settings(op *o, const ast *stmt, const ast **base)
{
    static const char *not_implemented[] = {
        "compression_method", "compression_level", "password", "s3_storage_class", "azure_attempt_to_create_container",
        "allow_s3_native_copy", "allow_azure_native_copy", "use_same_s3_credentials_for_base_backup",
        "use_same_password_for_base_backup", "decrypt_files_from_encrypted_disks", "check_parts",
        "check_projection_parts", "allow_backup_broken_projections", "internal", "host_id", "shard_num", "replica_num",
        "cluster_host_ids", "experimental_lightweight_snapshot", "data_file_name_generator",
        "data_file_name_prefix_length", "write_access_entities_dependents", "read_from_filesystem_cache",
        "backup_data_from_refreshable_materialized_view_targets", "create_table", "create_database",
        "allow_different_table_def", "allow_different_database_def", "allow_unresolved_access_dependencies",
        "update_access_entities_dependents", "restore_broken_parts_as_detached", "skip_unresolved_access_dependencies",
        "allow_s3_native_copy", "restore_format_version"};
    *base = NULL;
    for (int i = 0; i < stmt->settings.n; i++) {
        const ast *s = stmt->settings.items[i];
        const ast *v = s->sub;
        bool b;
        if (!strcmp(s->name, "id")) {
            if (v->kind != AST_LITERAL || v->lit != LIT_STRING || !v->str[0] || strlen(v->str) >= sizeof o->id)
                return err_set(ERR_BAD_ARGUMENTS, "Setting 'id' must be a non-empty string of at most 63 bytes");
            snprintf(o->id, sizeof o->id, "%s", v->str);
        } else if (!strcmp(s->name, "base_backup")) {
            if (o->restore)
                return err_set(ERR_BAD_ARGUMENTS, "Setting 'base_backup' is for BACKUP: RESTORE finds the base "
                               "backup in the backup's .backup file");
            if (v->kind != AST_FUNC)
                return err_set(ERR_BAD_ARGUMENTS, "Setting 'base_backup' must be a backup engine: File('…') or S3(…)");
            *base = v;
        } else if (!strcmp(s->name, "async") && bool_value(v, &b)) {
            o->async = o->async || b;
        } else if (!strcmp(s->name, "deduplicate_files") && bool_value(v, &b)) {
            o->deduplicate = b;
        } else if (!strcmp(s->name, "structure_only") && bool_value(v, &b)) {
            o->structure_only = b;
        } else if (o->restore && !strcmp(s->name, "allow_non_empty_tables") && bool_value(v, &b)) {
            o->allow_non_empty = b;
        } else if (!strcmp(s->name, "async") || !strcmp(s->name, "deduplicate_files") ||
                   !strcmp(s->name, "structure_only") || !strcmp(s->name, "allow_non_empty_tables")) {
            return err_set(ERR_CANNOT_PARSE_TEXT, "Setting '%s' expects a boolean (0, 1, true, false)", s->name);
        } else {
            for (size_t k = 0; k < sizeof not_implemented / sizeof *not_implemented; k++)
                if (!strcmp(s->name, not_implemented[k]))
                    return err_set(ERR_NOT_IMPLEMENTED, "Setting '%s' of %s is not supported by shale", s->name,
                                   o->restore ? "RESTORE" : "BACKUP");
            return err_set(ERR_UNKNOWN_SETTING, "Unknown setting '%s'", s->name);
        }
    }
    return 0;
}

/* Opens the base chain starting at the destination named by `first` (an AST or a
 * stored name). */
static int open_bases(op *o, const ast *first_ast, const char *first_text, const char *expect_uuid)
{
    const char *text = first_text;
    const char *uuid = expect_uuid;
    for (int depth = 0;; depth++) {
        if (depth == MAX_BASE_CHAIN)
            return err_set(ERR_BACKUP_DAMAGED, "Backup %s: the chain of base backups is longer than %d", o->d.name,
                           MAX_BASE_CHAIN);
        dest *b = &o->bases[depth];
        int rc = depth == 0 && first_ast ? dest_open(first_ast, o->q, b)
                                         : dest_open_text(text, depth ? &o->bases[depth - 1] : &o->d, o->q, b);
        if (rc)
            return -1;
        o->nbases = depth + 1;
        bool missing = false;
        if (read_meta(b, &o->base_meta[depth], &missing))
            return -1;
        if (missing)
            return err_set(ERR_BACKUP_NOT_FOUND, "Base backup %s not found", b->name);
        if (uuid && uuid[0] && strcmp(uuid, o->base_meta[depth].uuid) != 0)
            return err_set(ERR_WRONG_BASE_BACKUP, "Base backup %s has UUID %s, but %s was made with base UUID %s",
                           b->name, o->base_meta[depth].uuid, depth ? o->bases[depth - 1].name : o->d.name, uuid);
        const ch_meta *bm = &o->base_meta[depth];
        sum_index_init(&o->base_index[depth], bm, bm->n);
        for (size_t i = 0; i < bm->n; i++)
            if (bm->files[i].size)
                sum_index_add(&o->base_index[depth], (int64_t)i);
        if (!bm->base_backup)
            return 0;
        text = bm->base_backup;
        uuid = bm->base_uuid;
    }
}

static void note_written(op *o, const char *key)
{
    if (o->nwritten == o->capwritten) {
        o->capwritten = o->capwritten ? o->capwritten * 2 : 64;
        o->written = xrealloc(o->written, o->capwritten * sizeof *o->written);
    }
    o->written[o->nwritten++] = xstrdup(key);
}

/* ---- BACKUP ---- */

static int store_bytes(op *o, const char *key, const void *p, size_t n)
{
    if (bk_repo_put(o->d.repo, key, p, n))
        return -1;
    note_written(o, key);
    o->info.num_entries++;
    o->info.uncompressed_size += n;
    o->info.compressed_size += n;
    return 0;
}

static int store_file(op *o, const char *key, const char *path, uint64_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open %s: %s", path, strerror(errno));
    char *chunk = xmalloc(size <= SMALL_FILE ? (size ? size : 1) : COPY_CHUNK);
    int rc = 0;
    uint64_t done = 0;
    outstream *w = NULL;
    if (size > SMALL_FILE)
        rc = bk_repo_writer(o->d.repo, key, 16 << 20, 2, false, &w); /* buffered, as its reads are */
    while (!rc && done < size) {
        size_t want = size <= SMALL_FILE ? (size_t)(size - done) : COPY_CHUNK;
        if (want > size - done)
            want = (size_t)(size - done);
        ssize_t r = pread(fd, chunk + (size <= SMALL_FILE ? done : 0), want, (off_t)done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            rc = err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read %s at offset %llu: %s", path,
                         (unsigned long long)done, r < 0 ? strerror(errno) : "the file became shorter");
            break;
        }
        if (w && w->write(w, chunk, (size_t)r))
            rc = -1;
        done += (uint64_t)r;
    }
    close(fd);
    if (w) {
        if (!rc && w->close(w))
            rc = -1;
        else if (rc)
            bk_repo_writer_abort(o->d.repo, w);
        if (!rc) {
            note_written(o, key);
            o->info.num_entries++;
            o->info.uncompressed_size += size;
            o->info.compressed_size += size;
        }
    } else if (!rc) {
        rc = store_bytes(o, key, chunk, (size_t)size);
    }
    free(chunk);
    return rc;
}

/* Records file `name` of the backup (bytes from `path` or from memory), stored unless
 * the base has it (use_base) or this backup already stores the same bytes (data_file). */
static int add_file(op *o, const char *name, const char *path, const void *mem, size_t memlen)
{
    uint64_t size;
    u128 sum;
    if (path) {
        if (ch_meta_file_checksum(path, &size, &sum))
            return -1;
    } else {
        mt_hasher h;
        mt_hasher_init(&h);
        mt_hasher_update(&h, mem, memlen);
        size = memlen;
        sum = mt_hasher_final(&h);
    }
    bool use_base = false;
    const char *data_file = NULL;
    if (size && o->nbases)
        use_base = sum_index_find(&o->base_index[0], size, sum) >= 0;
    if (size && !use_base && o->deduplicate) {
        int64_t k = sum_index_find(&o->dedup, size, sum);
        if (k >= 0)
            data_file = o->meta.files[k].data_file ? o->meta.files[k].data_file : o->meta.files[k].name;
    }
    if (size && !use_base && !data_file) {
        int rc = path ? store_file(o, name, path, size) : store_bytes(o, name, mem, memlen);
        if (rc)
            return -1;
    }
    char *df = data_file ? xstrdup(data_file) : NULL;
    ch_meta_add(&o->meta, name, size, sum, use_base, df);
    free(df);
    if (size && !use_base && !data_file && o->deduplicate)
        sum_index_add(&o->dedup, (int64_t)o->meta.n - 1);
    o->info.num_files++;
    o->info.total_size += size;
    backup_list_update(o->slot, &o->info);
    return 0;
}

typedef struct walk_ctx {
    op *o;
    const char *prefix; /* data/<db>/<t>/ */
} walk_ctx;

static int walk_file(void *ctx, const char *name, const char *path)
{
    walk_ctx *w = ctx;
    buf key = {0};
    buf_puts(&key, w->prefix);
    buf_puts(&key, name);
    int rc = add_file(w->o, buf_cstr(&key), path, NULL, 0);
    buf_free(&key);
    return rc;
}

/* The table's CREATE statement with the name it has in the backup. The canonical text's
 * first line is "CREATE TABLE db.name" (interp/ddl.c). */
static void backup_create_text(const op_table *ot, buf *out)
{
    const char *sql = ot->t->create_sql;
    const char *nl = strchr(sql, '\n');
    buf_puts(out, ot->t->engine == &engine_view ? "CREATE VIEW " : "CREATE TABLE ");
    ast_format_ident(out, ot->bdb);
    buf_putc(out, '.');
    ast_format_ident(out, ot->bname);
    buf_puts(out, nl ? nl : "");
}

static int run_backup(op *o)
{
    int rc = 0;
    for (int i = 0; i < o->ndatabases && !rc; i++) {
        buf key = {0}, text = {0};
        buf_puts(&key, "metadata/");
        catalog_escape_name(&key, o->databases[i]);
        buf_puts(&key, ".sql");
        buf_puts(&text, "CREATE DATABASE ");
        ast_format_ident(&text, o->databases[i]);
        rc = add_file(o, buf_cstr(&key), NULL, text.p, text.len);
        buf_free(&key);
        buf_free(&text);
    }
    for (int i = 0; i < o->ntables && !rc; i++) {
        op_table *ot = &o->tables[i];
        buf key = {0}, text = {0};
        buf_puts(&key, "metadata/");
        catalog_escape_name(&key, ot->bdb);
        buf_putc(&key, '/');
        catalog_escape_name(&key, ot->bname);
        buf_puts(&key, ".sql");
        backup_create_text(ot, &text);
        rc = add_file(o, buf_cstr(&key), NULL, text.p, text.len);
        if (!rc && !o->structure_only) {
            key.len = 0;
            buf_puts(&key, "data/");
            catalog_escape_name(&key, ot->bdb);
            buf_putc(&key, '/');
            catalog_escape_name(&key, ot->bname);
            buf_putc(&key, '/');
            walk_ctx w = {o, buf_cstr(&key)};
            rc = ot->t->engine->backup(ot->t, o->q, walk_file, &w);
        }
        buf_free(&key);
        buf_free(&text);
    }
    if (!rc) {
        /* Last: the backup exists from here on. */
        buf text = {0};
        ch_meta_format(&o->meta, &text);
        rc = bk_repo_put(o->d.repo, ".backup", text.p, text.len);
        if (!rc)
            o->info.num_entries++;
        buf_free(&text);
    }
    if (rc) {
        /* Best effort: leave no unlisted files behind. */
        err_saved e;
        err_save(&e);
        bk_repo_delete(o->d.repo, o->written, o->nwritten);
        err_restore(&e);
    }
    return rc;
}

/* ---- RESTORE ---- */

/* Where the bytes of entry f of the backup at chain level `level` (-1 = the backup
 * itself) are: *repo and *key. */
static int locate(op *o, int level, const ch_meta_file *f, bk_repo **repo, const char **key)
{
    for (;;) {
        const dest *d = level < 0 ? &o->d : &o->bases[level];
        if (!f->use_base) {
            *repo = d->repo;
            *key = f->data_file ? f->data_file : f->name;
            return 0;
        }
        if (level + 1 >= o->nbases)
            return err_set(ERR_BACKUP_DAMAGED, "Backup %s: file %s is in the base backup, but it names none", d->name,
                           f->name);
        int64_t k = sum_index_find(&o->base_index[level + 1], f->size, f->checksum);
        if (k < 0)
            return err_set(ERR_BACKUP_DAMAGED, "Backup %s: file %s (size %llu) is not in its base backup %s", d->name,
                           f->name, (unsigned long long)f->size, o->bases[level + 1].name);
        f = &o->base_meta[level + 1].files[k];
        level++;
    }
}

/* Copies entry f to the local file path, verifying its checksum. */
static int restore_file(op *o, const ch_meta_file *f, const char *path)
{
    bk_repo *repo;
    const char *key;
    if (locate(o, -1, f, &repo, &key))
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot create %s: %s", path, strerror(errno));
    char *chunk = xmalloc(COPY_CHUNK);
    mt_hasher h;
    mt_hasher_init(&h);
    int rc = 0;
    for (uint64_t off = 0; off < f->size && !rc; ) {
        size_t n = f->size - off < COPY_CHUNK ? (size_t)(f->size - off) : COPY_CHUNK;
        if (bk_repo_read(repo, key, off, n, chunk)) {
            rc = err_prefix("Restoring %s from %s: ", f->name, o->d.name);
            break;
        }
        mt_hasher_update(&h, chunk, n);
        rc = bk_write_all(fd, chunk, n, path);
        off += n;
        o->info.bytes_read += n;
        if (!rc)
            rc = query_check(o->q);
    }
    free(chunk);
    if (!rc && fsync(fd))
        rc = err_set(ERR_CANNOT_FSYNC, "Cannot fsync %s: %s", path, strerror(errno));
    close(fd);
    if (!rc && f->size) {
        u128 got = mt_hasher_final(&h);
        if (got.lo != f->checksum.lo || got.hi != f->checksum.hi) {
            char want_hex[33], got_hex[33];
            ch_meta_checksum_hex(f->checksum, want_hex);
            ch_meta_checksum_hex(got, got_hex);
            rc = err_set(ERR_CHECKSUM_DOESNT_MATCH, "Backup %s: checksum of %s (stored as %s) is %s, expected %s",
                         o->d.name, f->name, key, got_hex, want_hex);
        }
    }
    o->info.files_read++;
    backup_list_update(o->slot, &o->info);
    return rc;
}

static int cmp_file_name(const void *a, const void *b)
{
    return strcmp((*(const ch_meta_file *const *)a)->name, (*(const ch_meta_file *const *)b)->name);
}

static void remove_dir_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* The parts of one table: files under data/<db>/<t>/<part>/ grouped by part. */
static int restore_table_data(op *o, op_table *ot)
{
    buf prefix = {0};
    buf_puts(&prefix, "data/");
    catalog_escape_name(&prefix, ot->bdb);
    buf_putc(&prefix, '/');
    catalog_escape_name(&prefix, ot->bname);
    buf_putc(&prefix, '/');
    const ch_meta_file **files = xcalloc(o->meta.n + 1, sizeof *files);
    size_t nf = 0;
    for (size_t i = 0; i < o->meta.n; i++)
        if (!strncmp(o->meta.files[i].name, (const char *)prefix.p, prefix.len))
            files[nf++] = &o->meta.files[i];
    qsort(files, nf, sizeof *files, cmp_file_name);
    int rc = 0;
    if (nf && !ot->t->engine->restore_part)
        rc = err_set(ERR_NOT_IMPLEMENTED, "RESTORE of the data of %s table %s is not supported",
                     ot->t->engine->name, table_full_name(ot->t));
    for (size_t i = 0; i < nf && !rc;) {
        const char *rel = files[i]->name + prefix.len;
        const char *slash = strchr(rel, '/');
        if (!slash || strchr(slash + 1, '/') || slash == rel) {
            rc = err_set(ERR_BACKUP_DAMAGED, "Backup %s: unexpected file %s (expected %s<part>/<file>)", o->d.name,
                         files[i]->name, (const char *)prefix.p);
            break;
        }
        char *part = xstrndup(rel, (size_t)(slash - rel));
        size_t plen = (size_t)(slash - rel);
        char rnd[40];
        rand_uuid_text(rnd);
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%stmp_restore_%s_%.8s/", ot->t->data_dir, part, rnd);
        if (mkdir(dir, 0755))
            rc = err_set(ERR_CANNOT_CREATE_DIRECTORY, "Cannot create %s: %s", dir, strerror(errno));
        size_t j = i;
        for (; j < nf && !strncmp(files[j]->name + prefix.len, part, plen) && files[j]->name[prefix.len + plen] == '/';
             j++) {
            if (rc)
                continue;
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s%s", dir, files[j]->name + prefix.len + plen + 1);
            rc = restore_file(o, files[j], path);
        }
        if (!rc)
            rc = ot->t->engine->restore_part(ot->t, dir, part, o->q);
        if (rc)
            remove_dir_tree(dir);
        free(part);
        i = j;
    }
    free(files);
    buf_free(&prefix);
    return rc;
}

static int run_restore(op *o)
{
    int rc = 0;
    for (int i = 0; i < o->ntables && !rc; i++)
        if (!o->structure_only)
            rc = restore_table_data(o, &o->tables[i]);
    return rc;
}

/* ---- preparing: which tables ---- */

static void add_table(op *o, table *t, const char *bdb, const char *bname)
{
    o->tables = xrealloc(o->tables, (size_t)(o->ntables + 1) * sizeof *o->tables);
    o->tables[o->ntables++] = (op_table){t, xstrdup(bdb), xstrdup(bname)};
}

static int prepare_backup(op *o, const ast *stmt)
{
    query_ctx *q = o->q;
    for (int i = 0; i < stmt->args.n; i++) {
        const ast *e = stmt->args.items[i];
        const ast *as = e->sub;
        if (!strcmp(e->show_what, "TABLE")) {
            const char *db = e->database ? e->database : q->database;
            table *t;
            if (catalog_get(q->catalog, db, e->table_name, &t))
                return -1;
            add_table(o, t, as ? (as->database ? as->database : db) : db, as ? as->table_name : e->table_name);
        } else {
            if (!catalog_has_database(q->catalog, e->database))
                return err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", e->database);
            o->databases = xrealloc(o->databases, (size_t)(o->ndatabases + 1) * sizeof *o->databases);
            o->databases[o->ndatabases++] = xstrdup(as ? as->database : e->database);
            table **all;
            int n;
            if (catalog_list(q->catalog, &all, &n))
                return -1;
            for (int k = 0; k < n; k++) {
                if (!strcmp(all[k]->database, e->database))
                    add_table(o, table_ref(all[k]), as ? as->database : e->database, all[k]->name);
                table_unref(all[k]);
            }
            free(all);
        }
    }
    for (int i = 0; i < o->ntables; i++) {
        if (!o->tables[i].t->engine->backup)
            return err_set(ERR_NOT_IMPLEMENTED, "BACKUP of %s table %s is not supported (MergeTree family and Null "
                           "tables are)", o->tables[i].t->engine->name, table_full_name(o->tables[i].t));
        for (int k = 0; k < i; k++)
            if (!strcmp(o->tables[i].bdb, o->tables[k].bdb) && !strcmp(o->tables[i].bname, o->tables[k].bname))
                return err_set(ERR_BAD_ARGUMENTS, "Table %s.%s is named twice in the backup", o->tables[i].bdb,
                               o->tables[i].bname);
    }
    bool missing = false;
    ch_meta existing;
    if (read_meta(&o->d, &existing, &missing))
        return -1;
    if (!missing) {
        ch_meta_free(&existing);
        return err_set(ERR_BACKUP_ALREADY_EXISTS, "Backup %s already exists", o->d.name);
    }
    o->meta.deduplicate_files = o->deduplicate;
    snprintf(o->meta.uuid, sizeof o->meta.uuid, "%s", o->id);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(o->meta.timestamp, sizeof o->meta.timestamp, "%Y-%m-%d %H:%M:%S", &tm);
    if (o->nbases) {
        o->meta.base_backup = xstrdup(o->bases[0].name);
        snprintf(o->meta.base_uuid, sizeof o->meta.base_uuid, "%s", o->base_meta[0].uuid);
    }
    sum_index_init(&o->dedup, &o->meta, 64);
    return 0;
}

/* The bytes of a small entry (a table's metadata) into out. */
static int read_entry(op *o, const ch_meta_file *f, buf *out)
{
    bk_repo *repo;
    const char *key;
    if (locate(o, -1, f, &repo, &key))
        return -1;
    buf_reserve(out, f->size + 1);
    if (f->size && bk_repo_read(repo, key, 0, f->size, out->p + out->len))
        return err_prefix("Reading %s from %s: ", f->name, o->d.name);
    out->len += f->size;
    return 0;
}

/* Creates the table from its metadata in the backup, or checks the existing one. */
static int restore_table_metadata(op *o, const ch_meta_file *f, const char *bdb, const char *bname, const char *db,
                                  const char *name)
{
    query_ctx *q = o->q;
    table *t = NULL;
    if (catalog_get(q->catalog, db, name, &t) == 0) {
        source *src = NULL;
        int64_t rows = 0;
        if (!o->structure_only && !o->allow_non_empty && t->engine != &engine_view &&
            t->engine->read(t, false, q, &src) == 0) {
            rows = src->count_rows ? src->count_rows(src, q) : 1;
            source_free(src);
        }
        err_clear();
        if (rows != 0) {
            table_unref(t);
            return err_set(ERR_CANNOT_RESTORE_TABLE, "Cannot restore the table %s.%s because it already contains some "
                           "data. You can set structure_only=true or allow_non_empty_tables=true to overcome that in "
                           "the way you want", db, name);
        }
        add_table(o, t, bdb, bname);
        return 0;
    }
    err_clear();
    buf text = {0};
    int rc = read_entry(o, f, &text);
    arena a;
    arena_init(&a);
    ast *st = NULL;
    if (!rc) {
        size_t pos = 0;
        rc = sql_parse_statement(&a, buf_cstr(&text), text.len, &pos, 1000, &st);
        if (rc)
            err_prefix("Backup %s: cannot parse %s: ", o->d.name, f->name);
        else if (!st || st->kind != AST_STMT_CREATE_TABLE)
            rc = err_set(ERR_BACKUP_DAMAGED, "Backup %s: %s is not a CREATE TABLE statement", o->d.name, f->name);
    }
    if (!rc && !catalog_has_database(q->catalog, db))
        rc = catalog_create_database(q->catalog, db, true);
    if (!rc) {
        st->database = db;
        st->table_name = name;
        st->uuid = NULL;
        st->if_not_exists = false;
        schema *sch = NULL;
        block *b = NULL;
        rc = ddl_run(st, q, &sch, &b);
        if (sch)
            schema_free(sch);
        if (b)
            block_free(b);
    }
    if (!rc && (rc = catalog_get(q->catalog, db, name, &t)) == 0)
        add_table(o, t, bdb, bname);
    arena_free(&a);
    buf_free(&text);
    return rc;
}

static int prepare_restore(op *o, const ast *stmt)
{
    query_ctx *q = o->q;
    bool missing = false;
    if (read_meta(&o->d, &o->meta, &missing))
        return -1;
    if (missing)
        return err_set(ERR_BACKUP_NOT_FOUND, "Backup %s not found", o->d.name);
    if (o->meta.base_backup && open_bases(o, NULL, o->meta.base_backup, o->meta.base_uuid))
        return -1;
    for (int i = 0; i < stmt->args.n; i++) {
        const ast *e = stmt->args.items[i];
        const ast *as = e->sub;
        if (!strcmp(e->show_what, "TABLE")) {
            const char *bdb = e->database ? e->database : q->database;
            buf key = {0};
            buf_puts(&key, "metadata/");
            catalog_escape_name(&key, bdb);
            buf_putc(&key, '/');
            catalog_escape_name(&key, e->table_name);
            buf_puts(&key, ".sql");
            const ch_meta_file *f = ch_meta_find(&o->meta, buf_cstr(&key));
            buf_free(&key);
            if (!f)
                return err_set(ERR_BACKUP_ENTRY_NOT_FOUND, "Table %s.%s not found in backup", bdb, e->table_name);
            const char *db = as ? (as->database ? as->database : q->database) : bdb;
            if (restore_table_metadata(o, f, bdb, e->table_name, db, as ? as->table_name : e->table_name))
                return -1;
        } else {
            buf key = {0};
            buf_puts(&key, "metadata/");
            catalog_escape_name(&key, e->database);
            buf_putc(&key, '/');
            int found = 0;
            for (size_t k = 0; k < o->meta.n; k++) {
                const ch_meta_file *f = &o->meta.files[k];
                size_t nl = strlen(f->name);
                if (strncmp(f->name, (const char *)key.p, key.len) || nl < key.len + 5 ||
                    strcmp(f->name + nl - 4, ".sql") || memchr(f->name + key.len, '/', nl - key.len))
                    continue;
                found++;
                char *tname = catalog_unescape_name(f->name + key.len, nl - key.len - 4);
                int rc = restore_table_metadata(o, f, e->database, tname, as ? as->database : e->database, tname);
                free(tname);
                if (rc) {
                    buf_free(&key);
                    return -1;
                }
            }
            /* metadata/<d>.sql: the database itself (an empty database has only that). */
            key.len--;
            buf_puts(&key, ".sql");
            bool has_db = ch_meta_find(&o->meta, buf_cstr(&key)) != NULL;
            buf_free(&key);
            if (!found && !has_db)
                return err_set(ERR_BACKUP_ENTRY_NOT_FOUND, "Database %s not found in backup", e->database);
            const char *db = as ? as->database : e->database;
            if (has_db && !catalog_has_database(q->catalog, db) && catalog_create_database(q->catalog, db, true))
                return -1;
        }
    }
    return 0;
}

/* ---- running ---- */

/* Marks the operation failed with the thread's error, as ClickHouse words it in
 * system.backups.error. */
static void op_failed(const op *o)
{
    const char *msg = err_msg();
    size_t n = strlen(msg);
    buf e = {0};
    buf_printf(&e, "Code: %d. DB::Exception: %s%s (%s)", err_code(), msg, n && msg[n - 1] == '.' ? "" : ".",
               err_name(err_code()));
    backup_list_finish(o->slot, o->restore ? BACKUP_RESTORE_FAILED : BACKUP_FAILED, buf_cstr(&e));
    buf_free(&e);
}

static int op_run(op *o)
{
    int rc = o->restore ? run_restore(o) : run_backup(o);
    backup_list_update(o->slot, &o->info);
    if (rc)
        op_failed(o);
    else
        backup_list_finish(o->slot, o->restore ? BACKUP_RESTORED : BACKUP_CREATED, NULL);
    return rc;
}

static void *op_thread(void *arg)
{
    op *o = arg;
    op_run(o);
    op_free(o);
    backup_list_end_async();
    return NULL;
}

/* ASYNC: the operation continues with a session and a query of its own, since the
 * statement's are freed when it returns. */
static int op_detach(op *o, query_ctx *q)
{
    session *s = session_new(((session *)q->session)->inst);
    query_ctx *aq = query_new(s);
    snprintf(aq->query_id, sizeof aq->query_id, "%s", q->query_id);
    o->own_session = s;
    o->q = aq;
    backup_list_begin_async();
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    int e = pthread_create(&th, &at, op_thread, o);
    pthread_attr_destroy(&at);
    if (e) {
        backup_list_end_async();
        return err_set(ERR_CANNOT_SCHEDULE_TASK, "Cannot start a thread for the ASYNC %s: %s",
                       o->restore ? "RESTORE" : "BACKUP", strerror(e));
    }
    return 0;
}

int backup_sql_run(const ast *stmt, query_ctx *q, schema **sch, block **out)
{
    *sch = NULL;
    *out = NULL;
    op *o = xcalloc(1, sizeof *o);
    o->restore = stmt->kind == AST_STMT_RESTORE;
    o->async = stmt->final;
    o->deduplicate = true;
    o->q = q;
    const ast *base = NULL;
    int rc = op_settings(o, stmt, &base);
    if (!rc && !o->id[0])
        rand_uuid_text(o->id);
    if (!rc)
        rc = dest_open(stmt->table_func, q, &o->d);
    if (!rc && base)
        rc = open_bases(o, base, NULL, NULL);
    snprintf(o->info.id, sizeof o->info.id, "%s", o->id);
    snprintf(o->info.query_id, sizeof o->info.query_id, "%s", q->query_id);
    o->info.name = o->d.name ? o->d.name : "";
    o->info.base_backup_name = o->nbases && !o->restore ? o->bases[0].name : "";
    o->info.status = o->restore ? BACKUP_RESTORING : BACKUP_CREATING;
    o->slot = -1;
    if (!rc)
        rc = backup_list_add(&o->info, &o->slot);
    if (!rc)
        rc = o->restore ? prepare_restore(o, stmt) : prepare_backup(o, stmt);
    if (rc) {
        if (o->slot >= 0)
            op_failed(o);
        op_free(o);
        return -1;
    }
    backup_status final_status;
    char id[64];
    snprintf(id, sizeof id, "%s", o->id);
    if (o->async) {
        if (op_detach(o, q)) {
            op_failed(o);
            op_free(o);
            return -1;
        }
        final_status = o->restore ? BACKUP_RESTORING : BACKUP_CREATING;
    } else {
        rc = op_run(o);
        final_status = o->restore ? BACKUP_RESTORED : BACKUP_CREATED;
        op_free(o);
        if (rc)
            return -1;
    }
    schema *s = schema_new(2);
    schema_set(s, 0, "id", type_simple(T_STRING));
    schema_set(s, 1, "status", type_parse_cstr(BACKUP_STATUS_TYPE));
    block *b = block_new_empty(s);
    col_push_str(b->cols[0], id, strlen(id));
    int8_t st = (int8_t)final_status;
    col_push_fixed(b->cols[1], &st);
    b->rows = 1;
    *sch = s;
    *out = b;
    return 0;
}
