/* The list of callable non-aggregate names for system.functions (see func.h, func_listing).
 *
 * Three sources: the registry (each own name, then each alias with alias_to), the
 * higher-order functions of func/hof.h that have no plain registry entry (arrayMap,
 * arrayFilter, …; arraySort and arraySum have one), and the names the analyzer handles
 * before the registry is consulted. Those live in sql/, above this layer, so they are
 * repeated here; tests/queries/03507_system_functions_listing checks that each one runs. */
#include "func/func.h"
#include "func/hof.h"

#include "base/mem.h"

#include <pthread.h>
#include <string.h>

static const struct {
    const char *name;
    bool is_aggregate;
    const char *description;
} analyzer_names[] = {
    {"arrayJoin", false, "one row per element of an array"},
    {"joinGet", false, "a column of the row of a Join(ANY, LEFT, …) table with the given keys"},
    {"joinGetOrNull", false, "joinGet, NULL where the table has no row with the keys"},
    {"mapFilter", false, "the entries of a map for which a lambda is true"},
    {"mapApply", false, "a map with a lambda applied to each entry"},
    {"mapExists", false, "1 if a lambda is true for some entry of a map"},
    {"mapAll", false, "1 if a lambda is true for every entry of a map"},
    {"mapSort", false, "a map sorted by key (or by a lambda)"},
    {"mapReverseSort", false, "a map sorted by key (or by a lambda), descending"},
    {"row_number", true, "window function: the row's number in its partition"},
    {"rank", true, "window function: rank with gaps"},
    {"dense_rank", true, "window function: rank without gaps"},
    {"percent_rank", true, "window function: relative rank"},
    {"cume_dist", true, "window function: cumulative distribution"},
    {"ntile", true, "window function: bucket number"},
    {"lag", true, "window function: a value of a previous row"},
    {"lead", true, "window function: a value of a following row"},
    {"lagInFrame", true, "window function: a value of a previous row in the frame"},
    {"leadInFrame", true, "window function: a value of a following row in the frame"},
    {"nth_value", true, "window function: the n-th value of the frame"},
};

static func_listing *items;
static int nitems;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static bool listed(const char *name)
{
    for (int i = 0; i < nitems; i++)
        if (strcmp(items[i].name, name) == 0)
            return true;
    return false;
}

static void add(const char *name, const char *alias_to, const char *description, bool agg, bool ci)
{
    if (listed(name))
        return;
    items[nitems++] = (func_listing){name, alias_to, description ? description : "", agg, ci};
}

static void build(void)
{
    int n = func_entry_count();
    size_t cap = (size_t)n + (size_t)hof_count() + sizeof analyzer_names / sizeof analyzer_names[0];
    items = xmalloc(cap * sizeof *items); /* lives as long as the process */
    for (int i = 0; i < n; i++) {
        const func_def *d;
        const char *name = func_entry_at(i, &d);
        bool alias = strcmp(name, d->name) != 0;
        if (!strncmp(name, "__", 2)) /* the analyzer's internal helpers (__joinGetLookup) */
            continue;
        add(name, alias ? d->name : "", d->description, false, (d->flags & FN_CASE_INSENSITIVE) != 0);
    }
    for (int i = 0; i < hof_count(); i++)
        add(hof_at(i)->name, "", "higher-order array function (takes a lambda)", false, false);
    for (size_t i = 0; i < sizeof analyzer_names / sizeof analyzer_names[0]; i++)
        add(analyzer_names[i].name, "", analyzer_names[i].description, analyzer_names[i].is_aggregate, false);
}

int func_listing_count(void)
{
    pthread_once(&once, build);
    return nitems;
}

const func_listing *func_listing_at(int i) { return &items[i]; }
