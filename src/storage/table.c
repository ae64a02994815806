/* Table lifetime (references), names for messages, and the registry of engines. */
#include "storage/table.h"
#include "storage/distributed.h"
#include "storage/joinset.h"
#include "storage/merge.h"

#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every engine CREATE TABLE … ENGINE = <name> accepts. One array, so that adding an
 * engine is one line. */
static const table_engine *const engines[] = {
    &engine_memory,
    &engine_null,
    &engine_mergetree,
    &engine_replacing_mergetree,
    &engine_summing_mergetree,
    &engine_aggregating_mergetree,
    &engine_collapsing_mergetree,
    &engine_versioned_collapsing_mergetree,
    &engine_coalescing_mergetree,
    &engine_log,
    &engine_tinylog,
    &engine_stripelog,
    &engine_distributed,
    &engine_merge,
    &engine_file,
    &engine_join,
    &engine_set,
};

const table_engine *table_engine_find(const char *name)
{
    for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
        if (strcmp(engines[i]->name, name) == 0)
            return engines[i];
    return NULL;
}

void table_unref(table *t)
{
    if (!t || atomic_fetch_sub(&t->refs, 1) != 1)
        return;
    if (t->engine && t->engine->close && t->impl)
        t->engine->close(t);
    schema_free(t->sch);
    while (t->retired) {
        table_retired *r = t->retired;
        t->retired = r->next;
        schema_free(r->sch);
        free(r->create_sql);
        arena_free(&r->a);
        free(r);
    }
    free(t->database);
    free(t->name);
    free(t->create_sql);
    free(t->data_dir);
    arena_free(&t->a);
    free(t);
}

const char *table_full_name(const table *t)
{
    static _Thread_local char name[1024];
    snprintf(name, sizeof name, "%s.%s", t->database, t->name);
    return name;
}
