/* Type checks before columns are created (sql/type_check.h). */
#include "sql/type_check.h"

#include "base/err.h"

static int check(const type *t, bool lc_ok, bool fs_ok)
{
    switch (t->id) {
    case T_LOWCARDINALITY: {
        const type *d = t->inner->id == T_NULLABLE ? t->inner->inner : t->inner;
        if (!lc_ok && d->id != T_STRING && d->id != T_FIXEDSTRING)
            return err_set(ERR_SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY,
                           "Creating columns of type %s is prohibited by default due to expected negative impact on "
                           "performance. It can be enabled with the \"allow_suspicious_low_cardinality_types\" setting.",
                           t->name);
        return check(t->inner, lc_ok, fs_ok);
    }
    case T_FIXEDSTRING:
        if (!fs_ok && t->width > 256)
            return err_set(ERR_ILLEGAL_COLUMN,
                           "Cannot create column with type '%s' because fixed string with size > 256 is suspicious. "
                           "Set setting allow_suspicious_fixed_string_types = 1 in order to allow it",
                           t->name);
        return 0;
    case T_NULLABLE:
    case T_ARRAY:
    case T_MAP:
        return check(t->inner, lc_ok, fs_ok);
    case T_TUPLE:
        for (int i = 0; i < t->nfields; i++)
            if (check(t->fields[i], lc_ok, fs_ok))
                return -1;
        return 0;
    default:
        return 0;
    }
}

int type_check_suspicious(const type *t, const settings *st)
{
    bool lc_ok = st && settings_bool(st, "allow_suspicious_low_cardinality_types");
    bool fs_ok = st && settings_bool(st, "allow_suspicious_fixed_string_types");
    if (lc_ok && fs_ok)
        return 0;
    return check(t, lc_ok, fs_ok);
}
