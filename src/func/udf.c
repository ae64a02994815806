/* SQL user-defined functions: the registry; see udf.h. A small array under a mutex: there
 * are few definitions and lookups happen once per call site per query. */
#include "func/udf.h"

#include "base/err.h"
#include "base/mem.h"
#include "func/agg.h"
#include "func/func.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct udf_def {
    char *name;
    char *lambda_sql;
    char *create_query;
} udf_def;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static udf_def *defs;
static int ndefs, capdefs;

static int find(const char *name)
{
    for (int i = 0; i < ndefs; i++)
        if (strcmp(defs[i].name, name) == 0)
            return i;
    return -1;
}

bool udf_is_builtin(const char *name)
{
    func_registry_init();
    return func_lookup(name) != NULL || agg_exists(name);
}

int udf_add(const char *name, const char *lambda_sql, const char *create_query, bool or_replace, bool if_not_exists,
            bool *added)
{
    *added = false;
    func_registry_init();
    if (func_lookup(name))
        return err_set(ERR_FUNCTION_ALREADY_EXISTS, "The function '%s' already exists", name);
    if (agg_exists(name))
        return err_set(ERR_FUNCTION_ALREADY_EXISTS, "The aggregate function '%s' already exists", name);
    pthread_mutex_lock(&lock);
    int rc = 0;
    int i = find(name);
    if (i >= 0 && !or_replace) {
        if (!if_not_exists)
            rc = err_set(ERR_FUNCTION_ALREADY_EXISTS,
                         "User-defined object '%s' already exists: while adding user defined function `%s`", name, name);
        goto out;
    }
    if (i < 0) {
        if (ndefs == capdefs) {
            capdefs = capdefs ? capdefs * 2 : 8;
            defs = xrealloc(defs, sizeof *defs * (size_t)capdefs);
        }
        i = ndefs++;
        defs[i].name = xstrdup(name);
    } else {
        free(defs[i].lambda_sql);
        free(defs[i].create_query);
    }
    defs[i].lambda_sql = xstrdup(lambda_sql);
    defs[i].create_query = xstrdup(create_query);
    *added = true;
out:
    pthread_mutex_unlock(&lock);
    return rc;
}

int udf_remove(const char *name, bool if_exists, bool *removed)
{
    *removed = false;
    if (udf_is_builtin(name))
        return err_set(ERR_CANNOT_DROP_FUNCTION, "Cannot drop system function '%s'", name);
    pthread_mutex_lock(&lock);
    int rc = 0;
    int i = find(name);
    if (i < 0) {
        if (!if_exists)
            rc = err_set(ERR_UNKNOWN_FUNCTION,
                         "User-defined object '%s' doesn't exist: while removing user defined function `%s`", name, name);
    } else {
        free(defs[i].name);
        free(defs[i].lambda_sql);
        free(defs[i].create_query);
        defs[i] = defs[--ndefs];
        *removed = true;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int udf_count(void)
{
    pthread_mutex_lock(&lock);
    int n = ndefs;
    pthread_mutex_unlock(&lock);
    return n;
}

char *udf_lambda(const char *name)
{
    pthread_mutex_lock(&lock);
    int i = find(name);
    char *r = i >= 0 ? xstrdup(defs[i].lambda_sql) : NULL;
    pthread_mutex_unlock(&lock);
    return r;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int udf_list(char ***names, char ***create_queries, int *n)
{
    pthread_mutex_lock(&lock);
    *n = ndefs;
    *names = xmalloc(sizeof(char *) * (size_t)(ndefs + 1));
    *create_queries = xmalloc(sizeof(char *) * (size_t)(ndefs + 1));
    /* sorted by name: the pairs travel together through one array of indexes */
    int *order = xmalloc(sizeof(int) * (size_t)(ndefs + 1));
    char **tmp = xmalloc(sizeof(char *) * (size_t)(ndefs + 1));
    for (int i = 0; i < ndefs; i++)
        tmp[i] = defs[i].name;
    qsort(tmp, (size_t)ndefs, sizeof *tmp, by_name);
    for (int i = 0; i < ndefs; i++)
        order[i] = find(tmp[i]);
    for (int i = 0; i < ndefs; i++) {
        (*names)[i] = xstrdup(defs[order[i]].name);
        (*create_queries)[i] = xstrdup(defs[order[i]].create_query);
    }
    free(tmp);
    free(order);
    pthread_mutex_unlock(&lock);
    return 0;
}
