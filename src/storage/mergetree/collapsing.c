/* The row rules of CollapsingMergeTree, VersionedCollapsingMergeTree and
 * CoalescingMergeTree over one group of rows with equal sorting keys, in merge order (the
 * order mt_collapse_sorted hands them: older parts first, then the rows' order in their
 * part). The rules are ClickHouse's, so that merges, OPTIMIZE, FINAL and inserts with
 * optimize_on_insert keep the rows ClickHouse keeps. */
#include "storage/mergetree/mt.h"

#include "base/err.h"

static int8_t sign_at(const column *sign, uint32_t row)
{
    return ((const int8_t *)(const void *)sign->data.p)[col_idx(sign, row)];
}

/* CollapsingSortedAlgorithm: a group keeps its first "cancel" row (sign -1) when negatives
 * are at least as many as positives, and its last "state" row (sign +1) when positives are
 * at least as many as negatives — unless the counts are equal and the last row cancels,
 * when nothing is left. FINAL (only_positive) never shows the cancel row. */
long mt_collapsing_group(const column *sign, const uint32_t *rows, size_t n, bool only_positive, uint32_t *keep)
{
    size_t positive = 0, negative = 0;
    uint32_t first_negative = 0, last_positive = 0;
    bool last_is_positive = false;
    for (size_t i = 0; i < n; i++) {
        int8_t s = sign_at(sign, rows[i]);
        if (s == 1) {
            positive++;
            last_positive = rows[i];
            last_is_positive = true;
        } else if (s == -1) {
            if (!negative)
                first_negative = rows[i];
            negative++;
            last_is_positive = false;
        } else {
            return err_set(ERR_INCORRECT_DATA, "Incorrect data: Sign = %d (must be 1 or -1).", s);
        }
    }
    long kept = 0;
    if (!last_is_positive && positive == negative)
        return 0;
    if (positive <= negative && !only_positive)
        keep[kept++] = first_negative;
    if (positive >= negative)
        keep[kept++] = last_positive;
    return kept;
}

/* VersionedCollapsingAlgorithm: the sorting key includes the version, so a group is one
 * (key, version). A row whose sign differs from the rows waiting cancels the last of them;
 * one with the same sign waits too. What waits at the end is kept, in order. */
size_t mt_versioned_group(const column *sign, const uint32_t *rows, size_t n, uint32_t *keep)
{
    size_t waiting = 0;
    int8_t waiting_sign = 0;
    for (size_t i = 0; i < n; i++) {
        int8_t s = sign_at(sign, rows[i]);
        if (!waiting || s == waiting_sign) {
            waiting_sign = s;
            keep[waiting++] = rows[i];
        } else {
            waiting--;
        }
    }
    return waiting;
}

/* CoalescingMergeTree: each coalesced column takes the group's last non-NULL value
 * (the last value for a type that cannot be NULL); NULL when every value is. */
uint32_t mt_coalesce_pick(const column *c, const uint32_t *rows, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (!col_is_null(c, rows[i]))
            return rows[i];
    return rows[n - 1];
}
