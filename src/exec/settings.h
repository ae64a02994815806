/* Settings: one registry with ClickHouse's names, types, defaults and descriptions.
 *
 * Every setting of ClickHouse 26.7 is known (settings_ch.inc, generated from ClickHouse's
 * system.settings by scripts/gen-settings.js), plus shale's own. Each is implemented (any
 * valid value takes effect), accepted without effect (SETF_NO_EFFECT: speed, resources,
 * logging, caches, replication and remote storage; docs/differences.md) or known at its
 * default only (SETF_DEFAULT_ONLY: another value is NOT_IMPLEMENTED). Values are checked as
 * ClickHouse checks the setting's type (CANNOT_PARSE_*, CANNOT_CONVERT_TYPE, BAD_ARGUMENTS,
 * the enumeration's own code). An alias (enable_analyzer) reads and writes the setting it
 * names.
 *
 * A `settings` value holds the current value of every registered setting (a session's,
 * or a query's after its SETTINGS clause). Values are stored as text and as a parsed
 * number, so each setting reads cheaply with settings_int/settings_str.
 * Errors: settings_set returns -1 with ERR_UNKNOWN_SETTING (suggesting close names) or
 * ERR_CANNOT_PARSE_NUMBER / ERR_BAD_ARGUMENTS for a value of the wrong type.
 * Thread-safety: a settings value is read-only while a query runs; copy to modify. */
#ifndef SHALE_EXEC_SETTINGS_H
#define SHALE_EXEC_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum setting_kind { SET_UINT, SET_INT, SET_BOOL, SET_FLOAT, SET_STRING, SET_MAXTHREADS } setting_kind;

/* setting_def.flags */
enum {
    SETF_DEFAULT_ONLY = 1, /* known but not implemented: a value other than the default is
                            * NOT_IMPLEMENTED (never accepted and ignored) */
    SETF_NO_EFFECT = 2,    /* any valid value is accepted; it cannot change a result */
};

/* An entry of shale's own table (settings.c). */
typedef struct own_def {
    const char *name;
    setting_kind kind;
    const char *def;
    const char *description;
    int flags;
} own_def;

typedef struct setting_def {
    const char *name;
    setting_kind kind;       /* how shale stores the value */
    const char *def;         /* shale's default as text */
    const char *description;
    int flags;
    const char *type;        /* ClickHouse's type name (Bool, UInt64, LoadBalancing, …) */
    const char *ch_default;  /* ClickHouse's default */
    const char *alias_for;   /* "" unless an alias */
    int alias;               /* index of the setting an alias names, else -1 */
    bool obsolete;
    int tier;                /* 0 production, 4 obsolete, 8 experimental, 12 beta */
} setting_def;

/* Builds the registry (once; also done by every other call). Thread-safe. */
void settings_init(void);
int settings_count(void);
const setting_def *settings_def_at(int i);
int settings_index(const char *name); /* -1 if unknown; an alias gives the index of its setting */

/* A settings value is an overlay on the shared, immutable defaults: only the settings that
 * were set are stored (a handful in practice), so the copies every query makes (session →
 * query) and an idle session cost a few bytes instead of 1,721 values. Read values with
 * the accessors below. */
typedef struct setting_value {
    int index;  /* into the registry (settings_def_at) */
    char *text; /* owned, canonical */
    double num; /* parsed numeric value (0 for strings) */
} setting_value;

typedef struct settings {
    int nset, cap;
    setting_value *set; /* unordered; at most one entry per index */
} settings;

settings *settings_new(void);          /* all defaults */
settings *settings_clone(const settings *s);
/* The name of the first setting whose value differs between a and b, or NULL. */
const char *settings_first_difference(const settings *a, const settings *b);
void settings_free(settings *s);
int settings_set(settings *s, const char *name, const char *value);
/* name = DEFAULT: back to the default, not changed. -1 with UNKNOWN_SETTING. */
int settings_reset(settings *s, const char *name);
int64_t settings_int(const settings *s, const char *name);
double settings_float(const settings *s, const char *name);
const char *settings_str(const settings *s, const char *name);
bool settings_bool(const settings *s, const char *name);
/* By registry index (settings_index / settings_def_at; not an alias's own index). */
const char *settings_text_at(const settings *s, int i);
double settings_num_at(const settings *s, int i);
bool settings_changed_at(const settings *s, int i);

#endif
