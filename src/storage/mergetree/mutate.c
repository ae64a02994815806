/* Mutations: ALTER TABLE … DELETE / UPDATE, lightweight DELETE, and the part rewrites
 * of DROP / RENAME / MODIFY COLUMN, as ClickHouse runs them on a non-replicated
 * MergeTree.
 *
 * A mutation takes a block number N from the table's sequence (so parts inserted later,
 * numbered above N, are not touched) and is recorded in <table>/mutation_N.txt in
 * ClickHouse's format before anything else happens:
 *   format version: 1
 *   create time: 2026-12-02 01:47:27
 *   commands: (DELETE WHERE a = 1), (UPDATE b = \'q\' WHERE 1)
 * A part whose data version (its name's fifth field, else its first block) is below N
 * still needs the mutation; it is rewritten — read through the reader, which already
 * gives every column in the table's current layout (part_read.c), the commands applied
 * block by block — into a tmp_mut_ directory that becomes <partition>_<min>_<max>_<level>_N
 * by rename, replacing the old part in one step under the table lock. A crash leaves the
 * old part (the tmp_ directory is removed at start) or both, and the load removes the
 * covered one; the mutation file is read again at start and the work resumes.
 *
 * Lifecycle of a part under a mutation: active (version < N) → chosen (merging = true,
 * by mt_mutate_step, one part at a time under mutate_lock) → replaced by its rewrite →
 * outdated → removed. Merges skip parts that still need a mutation, so a merged part
 * never mixes versions.
 *
 * The expressions (DELETE condition, UPDATE values) are compiled when the mutation is
 * created or loaded (that needs the query's compiler); background threads only evaluate
 * them. Thread-safety: the mutation list is guarded by the table lock. */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"
#include "storage/catalog.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MUT_DELETE, MUT_UPDATE, MUT_RENAME, MUT_REWRITE };

typedef struct mut_cmd {
    int kind;
    char *text;          /* as system.mutations shows it, without the parentheses */
    expr *cond;          /* DELETE: rows to remove */
    int nset;            /* UPDATE: columns and their new values if(cond, CAST(e), c) */
    int *set_col;
    expr **set_val;
    char *from, *to;     /* RENAME */
} mut_cmd;

typedef struct mt_mutation {
    int64_t version;
    int64_t create_time;
    int ncmds;
    mut_cmd *cmds;
    char *fail_part, *fail_reason, *fail_code;
    int64_t fail_time;
    bool killed;
} mt_mutation;

static void free_mutation(mt_mutation *mu)
{
    for (int i = 0; i < mu->ncmds; i++) {
        mut_cmd *c = &mu->cmds[i];
        free(c->text);
        expr_free(c->cond);
        for (int k = 0; k < c->nset; k++)
            expr_free(c->set_val[k]);
        free(c->set_col);
        free(c->set_val);
        free(c->from);
        free(c->to);
    }
    free(mu->cmds);
    free(mu->fail_part);
    free(mu->fail_reason);
    free(mu->fail_code);
}

void mt_mutations_free(mt_table *m)
{
    for (int i = 0; i < m->nmutations; i++)
        free_mutation(&m->mutations[i]);
    free(m->mutations);
    m->mutations = NULL;
    m->nmutations = 0;
    for (int c = 0; m->defaults && c < m->t->sch->n; c++)
        expr_free(m->defaults[c]);
    free(m->defaults);
    free(m->default_ok);
    m->defaults = NULL;
    m->default_ok = NULL;
    free(m->cq);
    m->cq = NULL;
    for (int i = 0; i < 3; i++) {
        free(m->cq_strs[i]);
        m->cq_strs[i] = NULL;
    }
}

/* ---- defaults of columns a part predates ---- */

static ast *mk_ident(arena *a, const char *name)
{
    ast *id = ast_new(a, AST_IDENT, 0);
    id->nparts = 1;
    id->parts = arena_alloc(a, sizeof(char *), 8);
    id->parts[0] = name;
    return id;
}

static ast *mk_func2(arena *a, const char *name, ast *x, ast *y)
{
    ast *f = ast_new(a, AST_FUNC, x->pos);
    f->name = name;
    ast_list_push(a, &f->args, x);
    ast_list_push(a, &f->args, y);
    return f;
}

static ast *mk_cast(arena *a, ast *e, const type *t)
{
    ast *lit = ast_new(a, AST_LITERAL, e->pos);
    lit->lit = LIT_STRING;
    lit->str = t->name;
    lit->str_len = strlen(t->name);
    return mk_func2(a, "CAST", e, lit);
}

/* m->cq refreshed from q (see mt.h). */
static query_ctx *compile_ctx(mt_table *m, query_ctx *q)
{
    if (!m->cq)
        m->cq = xcalloc(1, sizeof *m->cq);
    memcpy((void *)m->cq, q, sizeof *q);
    const char *src[3] = {q->env.timezone, q->env.database, q->env.user};
    for (int i = 0; i < 3; i++) {
        char *old = m->cq_strs[i];
        if ((!old && !src[i]) || (old && src[i] && !strcmp(old, src[i])))
            continue; /* unchanged (the usual case): nothing moves under a running reader */
        m->cq_strs[i] = src[i] ? xstrdup(src[i]) : NULL;
        free(old); /* expressions compiled before read the new copy */
    }
    m->cq->env.timezone = m->cq_strs[0];
    m->cq->env.database = m->cq_strs[1];
    m->cq->env.user = m->cq_strs[2];
    return m->cq;
}

static int compile_on_table(mt_table *m, const ast *e, query_ctx *q, expr **out)
{
    source fake = {.sch = m->t->sch, .nvisible = m->t->sch->n};
    return query_compile_expr(q, e, &fake, out);
}

void mt_compile_defaults(mt_table *m, query_ctx *q)
{
    table *t = m->t;
    int n = t->sch->n;
    q = compile_ctx(m, q);
    m->defaults = xcalloc((size_t)n + 1, sizeof *m->defaults);
    m->default_ok = xcalloc((size_t)n + 1, sizeof *m->default_ok);
    arena a;
    arena_init(&a);
    for (int c = 0; c < n; c++) {
        m->default_ok[c] = true;
        const table_column *tc = NULL;
        for (int k = 0; k < t->ncols; k++)
            if (!strcmp(t->cols[k].name, t->sch->names[c]))
                tc = &t->cols[k];
        if (!tc || !tc->default_expr)
            continue;
        if (compile_on_table(m, mk_cast(&a, (ast *)tc->default_expr, tc->type), q, &m->defaults[c])) {
            /* e.g. a default over an ALIAS column: reading a part without the column then
             * fails with a clear error rather than giving the type's default */
            err_clear();
            m->defaults[c] = NULL;
            m->default_ok[c] = false;
        }
    }
    arena_free(&a);
}

/* ---- mutation files ---- */

/* ClickHouse's escapeString for the commands line (quotes and backslashes). */
static void put_escaped(buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\' || *s == '\'')
            buf_putc(b, '\\');
        if (*s == '\n')
            buf_puts(b, "\\n");
        else
            buf_putc(b, *s);
    }
}

static char *unescape(const char *s, size_t n)
{
    buf b = {0};
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n) {
            i++;
            buf_putc(&b, s[i] == 'n' ? '\n' : s[i]);
        } else {
            buf_putc(&b, s[i]);
        }
    }
    char *r = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return r;
}

static bool key_column(mt_table *m, int c)
{
    for (int i = 0; i < m->sort.n; i++)
        if (m->sort.src_col[i] == c || m->sort.mono_col[i] == c)
            return true;
    for (int i = 0; i < m->nminmax; i++)
        if (m->minmax_cols[i] == c)
            return true;
    return false;
}

/* Builds the commands of a mutation from ALTER command nodes (parse/ast.h AST_ALTER_CMD),
 * compiling their expressions against the table's current columns. */
static int build_cmds(mt_table *m, const ast_list *cmds, query_ctx *q, mt_mutation *mu)
{
    table *t = m->t;
    q = compile_ctx(m, q);
    mu->cmds = xcalloc((size_t)cmds->n + 1, sizeof *mu->cmds);
    arena a;
    arena_init(&a);
    int rc = 0;
    for (int i = 0; i < cmds->n && !rc; i++) {
        const ast *cmd = cmds->items[i];
        mut_cmd *c = &mu->cmds[mu->ncmds++];
        buf txt = {0};
        ast_format_alter_cmd(&txt, cmd);
        c->text = xstrdup(buf_cstr(&txt));
        buf_free(&txt);
        const char *k = cmd->name;
        bool lw = !strcmp(k, "UPDATE") && cmd->args.n == 1 && !strcmp(cmd->args.items[0]->name, "_row_exists");
        if (!strcmp(k, "DELETE") || !strcmp(k, "LIGHTWEIGHT DELETE") || lw) {
            c->kind = MUT_DELETE;
            rc = compile_on_table(m, cmd->where, q, &c->cond);
        } else if (!strcmp(k, "UPDATE")) {
            c->kind = MUT_UPDATE;
            c->set_col = xcalloc((size_t)cmd->args.n + 1, sizeof *c->set_col);
            c->set_val = xcalloc((size_t)cmd->args.n + 1, sizeof *c->set_val);
            for (int j = 0; j < cmd->args.n && !rc; j++) {
                const ast *as = cmd->args.items[j];
                int col = schema_find(t->sch, as->name);
                if (col < 0) {
                    rc = err_set(ERR_NO_SUCH_COLUMN_IN_TABLE, "There is no column %s in table", as->name);
                    break;
                }
                if (key_column(m, col)) {
                    rc = err_set(ERR_CANNOT_UPDATE_COLUMN, "Cannot UPDATE key column `%s`", as->name);
                    break;
                }
                ast *v = ast_new(&a, AST_FUNC, as->pos);
                v->name = "if";
                ast_list_push(&a, &v->args, cmd->where);
                ast_list_push(&a, &v->args, mk_cast(&a, as->sub, t->sch->types[col]));
                ast_list_push(&a, &v->args, mk_ident(&a, as->name));
                c->set_col[c->nset] = col;
                rc = compile_on_table(m, v, q, &c->set_val[c->nset]);
                if (!rc)
                    c->nset++;
            }
        } else if (!strcmp(k, "RENAME COLUMN")) {
            c->kind = MUT_RENAME;
            c->from = xstrdup(cmd->alter_col);
            c->to = xstrdup(cmd->alter_to);
        } else {
            c->kind = MUT_REWRITE; /* DROP / MODIFY COLUMN: the rewrite converts the part */
        }
    }
    arena_free(&a);
    return rc;
}

/* Parses the commands line of a mutation file (or of a new mutation). */
static int parse_cmds(const char *text, arena *a, ast **st)
{
    buf b = {0};
    buf_puts(&b, "ALTER TABLE _ ");
    buf_puts(&b, text);
    char *s = arena_strdup(a, buf_cstr(&b));
    buf_free(&b);
    size_t pos = 0;
    if (sql_parse_statement(a, s, strlen(s), &pos, 1000, st))
        return -1;
    if (!*st || (*st)->kind != AST_STMT_ALTER || !(*st)->args.n)
        return err_set(ERR_CORRUPTED_DATA, "Bad mutation commands: %s", text);
    return 0;
}

static void insert_sorted(mt_table *m, mt_mutation *mu)
{
    m->mutations = xrealloc(m->mutations, sizeof *m->mutations * (size_t)(m->nmutations + 1));
    int i = m->nmutations;
    while (i > 0 && m->mutations[i - 1].version > mu->version) {
        m->mutations[i] = m->mutations[i - 1];
        i--;
    }
    m->mutations[i] = *mu;
    m->nmutations++;
}

static int load_one(mt_table *m, const char *fname, int64_t version, query_ctx *q)
{
    buf b = {0};
    if (mt_read_small_file(m->t->data_dir, fname, &b))
        return -1;
    buf_putc(&b, 0);
    const char *s = (const char *)b.p;
    mt_mutation mu = {.version = version};
    const char *ct = strstr(s, "create time: ");
    if (ct) {
        struct tm tm = {0};
        if (sscanf(ct + 13, "%d-%d-%d %d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                   &tm.tm_sec) == 6) {
            tm.tm_year -= 1900;
            tm.tm_mon -= 1;
            tm.tm_isdst = -1;
            mu.create_time = (int64_t)mktime(&tm);
        }
    }
    const char *cl = strstr(s, "commands: ");
    int rc = 0;
    if (!cl) {
        rc = err_set(ERR_CORRUPTED_DATA, "Mutation file %s%s has no commands", m->t->data_dir, fname);
    } else {
        const char *e = strchr(cl, '\n');
        char *cmds = unescape(cl + 10, e ? (size_t)(e - cl - 10) : strlen(cl + 10));
        arena a;
        arena_init(&a);
        ast *st;
        rc = parse_cmds(cmds, &a, &st);
        if (!rc && build_cmds(m, &st->args, q, &mu)) {
            /* a command over a column dropped since: it can no longer run; parts are
             * only rewritten into the current layout */
            err_clear();
            for (int i = 0; i < mu.ncmds; i++)
                if (mu.cmds[i].kind == MUT_DELETE || mu.cmds[i].kind == MUT_UPDATE)
                    mu.cmds[i].kind = MUT_REWRITE;
        }
        arena_free(&a);
        free(cmds);
        if (rc)
            err_prefix("Mutation file %s%s: ", m->t->data_dir, fname);
    }
    buf_free(&b);
    if (rc) {
        free_mutation(&mu);
        return -1;
    }
    insert_sorted(m, &mu);
    if (version >= m->next_block)
        m->next_block = version + 1;
    return 0;
}

int mt_mutations_load(mt_table *m, query_ctx *q)
{
    DIR *d = opendir(m->t->data_dir);
    if (!d)
        return 0;
    struct dirent *e;
    int rc = 0;
    while (!rc && (e = readdir(d))) {
        int64_t v;
        char tail[8];
        if (sscanf(e->d_name, "mutation_%" SCNd64 ".%7s", &v, tail) == 2 && !strcmp(tail, "txt") && v > 0)
            rc = load_one(m, e->d_name, v, q);
        else if (!strncmp(e->d_name, "tmp_mutation_", 13)) {
            char *p = mt_sprintf("%s%s", m->t->data_dir, e->d_name);
            unlink(p);
            free(p);
        }
    }
    closedir(d);
    return rc;
}

void mt_mutations_rename(mt_table *m, int64_t v, schema *psch)
{
    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < m->nmutations; i++) {
        const mt_mutation *mu = &m->mutations[i];
        if (mu->version <= v)
            continue;
        for (int k = 0; k < mu->ncmds; k++) {
            const mut_cmd *c = &mu->cmds[k];
            /* Only when the table's columns say the rename happened (a crash between
             * writing the mutation and the table's metadata leaves the old name). */
            if (c->kind != MUT_RENAME || schema_find(m->t->sch, c->from) >= 0)
                continue;
            int pc = schema_find(psch, c->from);
            if (pc >= 0 && schema_find(psch, c->to) < 0)
                schema_set(psch, pc, c->to, psch->types[pc]);
        }
    }
    pthread_mutex_unlock(&m->lock);
}

int64_t mt_mutation_needed(mt_table *m, const mt_part *p)
{
    int64_t v = mt_part_version(p);
    for (int i = 0; i < m->nmutations; i++)
        if (m->mutations[i].version > v && !m->mutations[i].killed)
            return m->mutations[i].version;
    return INT64_MAX;
}

/* ---- rewriting a part ---- */

static int apply_cmds(mt_table *m, const mt_mutation *const *mus, int nmus, block **io)
{
    block *b = *io;
    for (int i = 0; i < nmus; i++) {
        for (int k = 0; k < mus[i]->ncmds; k++) {
            const mut_cmd *c = &mus[i]->cmds[k];
            if (c->kind == MUT_DELETE) {
                column *mask;
                if (expr_eval(c->cond, b, &mask))
                    return -1;
                if (mask->is_const) /* WHERE 1: one value for every row */
                    mask = col_materialize(mask);
                uint8_t *keep = xmalloc(b->rows + 1);
                size_t del = expr_truth_mask(mask, keep);
                col_free(mask);
                if (del) {
                    size_t kept = b->rows - del;
                    for (size_t r = 0; r < b->rows; r++)
                        keep[r] = !keep[r];
                    block *o = block_new(b->ncols, kept);
                    for (int j = 0; j < b->ncols; j++)
                        o->cols[j] = col_filter(b->cols[j], keep, kept);
                    block_free(b);
                    b = *io = o;
                }
                free(keep);
            } else if (c->kind == MUT_UPDATE) {
                column **nv = xcalloc((size_t)c->nset + 1, sizeof *nv);
                int rc = 0;
                for (int j = 0; j < c->nset && !rc; j++)
                    rc = expr_eval(c->set_val[j], b, &nv[j]);
                for (int j = 0; j < c->nset; j++) {
                    if (!nv[j])
                        continue;
                    if (rc) {
                        col_free(nv[j]);
                        continue;
                    }
                    col_free(b->cols[c->set_col[j]]);
                    b->cols[c->set_col[j]] = nv[j]->is_const ? col_materialize(nv[j]) : nv[j];
                }
                free(nv);
                if (rc)
                    return -1;
            }
        }
    }
    (void)m;
    return 0;
}

static int mutate_part(mt_table *m, mt_part *p, const mt_mutation *const *mus, int nmus, int64_t version)
{
    table *t = m->t;
    int n = t->sch->n;
    int *all = xcalloc((size_t)n + 1, sizeof *all);
    for (int c = 0; c < n; c++)
        all[c] = c;
    pthread_mutex_lock(&m->lock);
    uint64_t seq = ++m->tmp_seq;
    pthread_mutex_unlock(&m->lock);
    char *tmp = mt_sprintf("tmp_mut_%s_%" PRIu64, p->name, seq);
    mt_part_reader *r = NULL;
    mt_part_writer *w = NULL;
    int rc = mt_part_reader_open(m, p, all, n, 0, p->ngranules, &r);
    if (!rc)
        rc = mt_part_writer_open(m, tmp, &w);
    while (!rc) {
        block *b;
        if ((rc = mt_part_reader_next(r, (size_t)m->set.merge_max_block_size, &b)) || !b)
            break;
        rc = apply_cmds(m, mus, nmus, &b);
        if (!rc && b->rows)
            rc = mt_part_writer_write(w, b);
        block_free(b);
    }
    mt_part_reader_close(r);
    if (!rc)
        rc = mt_part_writer_finish(w, p->partition);
    if (rc) {
        err_prefix("While mutating part %s: ", p->name);
        if (w)
            mt_part_writer_abort(w); /* frees it */
        free(tmp);
        free(all);
        return -1;
    }
    char *dir = xstrdup(mt_part_writer_dir(w));
    mt_part_writer_free(w);
    mt_part *done = NULL;
    char *prefix = mt_part_prefix(m, p);
    rc = mt_commit_part_ex(m, dir, prefix, p->min_block, p->max_block, p->level, version, &p, 1, &done);
    free(prefix);
    if (rc)
        mt_remove_tree(dir);
    if (done) {
        mt_log_event(m, PART_LOG_NEW, done->name, done->partition_id, done->rows, done->bytes_on_disk, 0, &p, 1,
                     p->rows, 0, "", MERGE_UNDECIDED);
        mt_part_unref(done);
    }
    free(dir);
    free(tmp);
    free(all);
    return rc;
}

int mt_mutate_step(mt_table *m, query_ctx *q)
{
    (void)q;
    pthread_mutex_lock(&m->mutate_lock);
    pthread_mutex_lock(&m->lock);
    mt_part *p = NULL;
    int64_t need = INT64_MAX;
    for (int i = 0; i < m->nparts && !p; i++) {
        mt_part *c = m->parts[i];
        if (c->state != PART_ACTIVE || c->merging || (need = mt_mutation_needed(m, c)) == INT64_MAX)
            continue;
        /* a mutation that failed waits for KILL MUTATION or a foreground retry */
        bool failed = false;
        for (int k = 0; k < m->nmutations; k++)
            failed |= m->mutations[k].version == need && m->mutations[k].fail_reason && !q;
        if (failed)
            continue;
        p = mt_part_ref(c);
        p->merging = true;
    }
    if (!p) {
        pthread_mutex_unlock(&m->lock);
        pthread_mutex_unlock(&m->mutate_lock);
        return 0;
    }
    /* every mutation newer than the part, applied in one rewrite */
    int64_t v = mt_part_version(p), last = 0;
    const mt_mutation **mus = xcalloc((size_t)m->nmutations + 1, sizeof *mus);
    int nmus = 0;
    for (int k = 0; k < m->nmutations; k++)
        if (m->mutations[k].version > v && !m->mutations[k].killed) {
            mus[nmus++] = &m->mutations[k];
            last = m->mutations[k].version;
        }
    pthread_mutex_unlock(&m->lock);
    int rc = mutate_part(m, p, mus, nmus, last);
    pthread_mutex_lock(&m->lock);
    p->merging = false;
    for (int k = 0; k < m->nmutations; k++) {
        mt_mutation *mu = &m->mutations[k];
        if (mu->version != need)
            continue;
        if (rc) {
            free(mu->fail_part);
            free(mu->fail_reason);
            free(mu->fail_code);
            mu->fail_part = xstrdup(p->name);
            mu->fail_reason = xstrdup(err_msg());
            mu->fail_code = xstrdup(err_name(err_code()));
            mu->fail_time = (int64_t)time(NULL);
        } else if (mu->fail_reason) {
            free(mu->fail_part);
            free(mu->fail_reason);
            free(mu->fail_code);
            mu->fail_part = mu->fail_reason = mu->fail_code = NULL;
            mu->fail_time = 0;
        }
    }
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    free(mus);
    mt_part_unref(p);
    pthread_mutex_unlock(&m->mutate_lock);
    return rc ? -1 : 1;
}

/* ---- the interface to the statement layer (storage/table.h) ---- */

int mergetree_mutation_add(table *t, const char *commands, bool for_reopen, query_ctx *q, int64_t *version)
{
    if (!mt_is_mergetree(t))
        return err_set(ERR_NOT_IMPLEMENTED, "Table engine %s doesn't support mutations", t->engine->name);
    mt_table *m = t->impl;
    arena a;
    arena_init(&a);
    ast *st;
    mt_mutation mu = {0};
    int rc = parse_cmds(commands, &a, &st);
    if (!rc)
        rc = build_cmds(m, &st->args, q, &mu);
    if (rc) {
        arena_free(&a);
        free_mutation(&mu);
        return -1;
    }
    buf line = {0};
    for (int i = 0; i < mu.ncmds; i++) {
        buf_puts(&line, i ? ", (" : "(");
        put_escaped(&line, mu.cmds[i].text);
        buf_putc(&line, ')');
    }
    arena_free(&a);
    pthread_mutex_lock(&m->lock);
    mu.version = m->next_block++;
    pthread_mutex_unlock(&m->lock);
    mu.create_time = (int64_t)time(NULL);
    time_t ct = (time_t)mu.create_time;
    struct tm tm;
    localtime_r(&ct, &tm);
    char when[32];
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    buf file = {0};
    buf_printf(&file, "format version: 1\ncreate time: %s\ncommands: %s\n", when, buf_cstr(&line));
    buf_free(&line);
    /* tmp_mutation_… then rename: a crash never leaves half a mutation file */
    char *tmpn = mt_sprintf("tmp_mutation_%" PRId64 ".txt", mu.version);
    char *name = mt_sprintf("mutation_%" PRId64 ".txt", mu.version);
    rc = mt_write_small_file(t->data_dir, tmpn, file.p, file.len, NULL);
    char *from = mt_sprintf("%s%s", t->data_dir, tmpn), *to = mt_sprintf("%s%s", t->data_dir, name);
    if (!rc && rename(from, to))
        rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot rename %s to %s: %s", from, to, strerror(errno));
    if (!rc)
        rc = mt_fsync_dir(t->data_dir);
    free(from);
    free(to);
    free(tmpn);
    free(name);
    buf_free(&file);
    if (rc) {
        free_mutation(&mu);
        return -1;
    }
    *version = mu.version;
    /* mutate_lock: a running rewrite holds pointers into m->mutations */
    if (for_reopen) {
        /* the table is about to be reopened with its new columns, which loads the file:
         * this (old) definition must not rewrite parts into its own layout */
        free_mutation(&mu);
        return 0;
    }
    pthread_mutex_lock(&m->mutate_lock);
    pthread_mutex_lock(&m->lock);
    insert_sorted(m, &mu);
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    pthread_mutex_unlock(&m->mutate_lock);
    return 0;
}

int mergetree_mutation_kill(table *t, int64_t version)
{
    if (!mt_is_mergetree(t))
        return 0;
    mt_table *m = t->impl;
    pthread_mutex_lock(&m->mutate_lock);
    pthread_mutex_lock(&m->lock);
    int found = 0;
    for (int i = 0; i < m->nmutations; i++) {
        if (m->mutations[i].version != version)
            continue;
        free_mutation(&m->mutations[i]);
        memmove(&m->mutations[i], &m->mutations[i + 1], sizeof *m->mutations * (size_t)(m->nmutations - i - 1));
        m->nmutations--;
        found = 1;
        break;
    }
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    int rc = 0;
    if (found) {
        char *path = mt_sprintf("%smutation_%" PRId64 ".txt", t->data_dir, version);
        if (unlink(path) && errno != ENOENT)
            rc = err_set(ERR_CANNOT_UNLINK, "Cannot remove %s: %s", path, strerror(errno));
        free(path);
        if (!rc)
            rc = mt_fsync_dir(t->data_dir);
    }
    pthread_mutex_unlock(&m->mutate_lock);
    return rc ? -1 : found;
}

int mergetree_mutation_wait(table *t, int64_t version, query_ctx *q)
{
    mt_table *m = t->impl;
    for (;;) {
        int r = mt_mutate_step(m, q);
        if (r < 0) {
            /* as ClickHouse: the mutation stays, unfinished, with its error in system.mutations */
            char *msg = xstrdup(err_msg());
            err_set(ERR_UNFINISHED, "Exception happened during execution of mutation 'mutation_%" PRId64
                    ".txt': %s. This error maybe retryable or not. In case of unretryable error, mutation can be "
                    "killed with KILL MUTATION query", version, msg);
            free(msg);
            return -1;
        }
        if (r > 0)
            continue;
        /* nothing to take: done, or a part is busy in a merge or a background rewrite */
        pthread_mutex_lock(&m->lock);
        bool pending = false;
        for (int i = 0; i < m->nparts && !pending; i++)
            pending = m->parts[i]->state == PART_ACTIVE && mt_part_version(m->parts[i]) < version &&
                      mt_mutation_needed(m, m->parts[i]) <= version;
        if (pending) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 50 * 1000 * 1000;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&m->cond, &m->lock, &ts);
        }
        pthread_mutex_unlock(&m->lock);
        if (!pending)
            return 0;
        if (q && atomic_load(&q->cancelled))
            return err_set(ERR_QUERY_WAS_CANCELLED, "Query was cancelled while waiting for mutation %" PRId64,
                           version);
    }
}

/* ---- system.mutations ---- */

static void push_s(column *c, const char *s) { col_push_str(c, s ? s : "", s ? strlen(s) : 0); }

static void mutation_rows(const table *t, mt_table *m, block *b)
{
    const type *str = type_simple(T_STRING);
    for (int i = 0; i < m->nmutations; i++) {
        const mt_mutation *mu = &m->mutations[i];
        int64_t todo = 0;
        column *todo_names = col_new(str);
        for (int k = 0; k < m->nparts; k++) {
            const mt_part *p = m->parts[k];
            if (p->state == PART_ACTIVE && mt_part_version(p) < mu->version) {
                todo++;
                push_s(todo_names, p->name);
            }
        }
        char id[48];
        snprintf(id, sizeof id, "mutation_%" PRId64 ".txt", mu->version);
        for (int k = 0; k < mu->ncmds; k++) {
            push_s(b->cols[0], t->database);
            push_s(b->cols[1], t->name);
            push_s(b->cols[2], id);
            buf c = {0};
            buf_printf(&c, "(%s)", mu->cmds[k].text);
            push_s(b->cols[3], buf_cstr(&c));
            buf_free(&c);
            uint32_t ct = (uint32_t)mu->create_time;
            col_push_fixed(b->cols[4], &ct);
            push_s(b->cols[5]->inner, "");
            col_array_commit(b->cols[5]);
            int64_t v = mu->version;
            col_push_fixed(b->cols[6]->inner, &v);
            col_array_commit(b->cols[6]);
            col_array_commit(b->cols[7]);
            col_push_range(b->cols[8]->inner, todo_names, 0, todo_names->len);
            col_array_commit(b->cols[8]);
            col_push_fixed(b->cols[9], &todo);
            uint8_t done = todo == 0 && !mu->killed, killed = mu->killed;
            col_push_fixed(b->cols[10], &done);
            col_push_fixed(b->cols[11], &killed);
            push_s(b->cols[12], mu->fail_part);
            uint32_t ft = (uint32_t)mu->fail_time;
            col_push_fixed(b->cols[13], &ft);
            push_s(b->cols[14], mu->fail_reason);
            push_s(b->cols[15], mu->fail_code);
            b->rows++;
        }
        col_free(todo_names);
    }
}

int mergetree_system_mutations(query_ctx *q, source **out)
{
    static const char *const names[] = {"database", "table", "mutation_id", "command", "create_time",
                                        "block_numbers.partition_id", "block_numbers.number",
                                        "parts_in_progress_names", "parts_to_do_names", "parts_to_do", "is_done",
                                        "is_killed", "latest_failed_part", "latest_fail_time", "latest_fail_reason",
                                        "latest_fail_error_code_name"};
    const type *str = type_simple(T_STRING), *dt = type_simple(T_DATETIME);
    const type *types[] = {str, str, str, str, dt, type_array(str), type_array(type_simple(T_INT64)),
                           type_array(str), type_array(str), type_simple(T_INT64), type_simple(T_UINT8),
                           type_simple(T_UINT8), str, dt, str, str};
    return mt_system_table(q, names, types, (int)(sizeof names / sizeof *names), mutation_rows, out);
}
