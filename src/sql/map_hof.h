/* The lambda forms of the Map functions — mapFilter, mapApply, mapExists, mapAll,
 * mapSort, mapReverseSort — rewritten into the array higher-order functions over the
 * map's keys and values (as ClickHouse runs them over the map's array of pairs):
 *
 *   mapFilter(f, m)  → mapFromArrays(arrayFilter(f, K, V), arrayFilter((v, k) -> f, V, K))
 *   mapApply(f, m)   → mapFromArrays(arrayMap((k, v) -> f.1, K, V), arrayMap((k, v) -> f.2, K, V))
 *   mapExists(f, m)  → arrayExists(f, K, V)          (mapAll likewise)
 *   mapSort([f, ]m)  → mapFromArrays(arraySort(f, K, V), arraySort((v, k) -> f, V, K)),
 *                      f = (k, v) -> k without a lambda (mapReverseSort likewise)
 *
 * with K = mapKeys(m), V = mapValues(m). The array functions then check the lambda and
 * raise ClickHouse's errors. New nodes go in the arena; the call's own nodes are shared,
 * not copied. Thread-safe (no state). */
#ifndef SHALE_SQL_MAP_HOF_H
#define SHALE_SQL_MAP_HOF_H

#include "base/arena.h"
#include "parse/ast.h"

/* If e calls one of the functions above, *out is its rewrite and 1 is returned; 0 when e
 * is something else; -1 with an error when its arguments cannot be rewritten. */
int map_hof_rewrite(arena *a, const ast *e, const ast **out);

#endif
