/* Named HTTP sessions (session_id=…): created on first use, kept while used within their
 * timeout, one request at a time (see server_int.h). */
#include "server/server_int.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sessions_acquire(server *s, const char *id, const char *user, int timeout_s, bool check, http_session **out)
{
    if (strlen(id) >= sizeof((http_session *)0)->id)
        return err_set(ERR_BAD_ARGUMENTS, "Session id is too long");
    pthread_mutex_lock(&s->mu);
    http_session *hs = s->sessions;
    while (hs && !(strcmp(hs->id, id) == 0 && strcmp(hs->user, user) == 0))
        hs = hs->next;
    int rc = 0;
    if (!hs) {
        if (check) {
            rc = err_set(ERR_SESSION_NOT_FOUND, "Session %s not found", id);
        } else {
            hs = xcalloc(1, sizeof *hs);
            snprintf(hs->id, sizeof hs->id, "%s", id);
            snprintf(hs->user, sizeof hs->user, "%s", user);
            hs->sess = session_new(s->inst);
            hs->sess->remote = true;
            hs->next = s->sessions;
            s->sessions = hs;
        }
    } else if (hs->busy) {
        rc = err_set(ERR_SESSION_IS_LOCKED, "Session %s is locked by a concurrent client", id);
    }
    if (!rc) {
        hs->busy = true;
        hs->timeout_s = timeout_s;
        hs->last_used = clock_monotonic();
        *out = hs;
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

void sessions_release(server *s, http_session *hs)
{
    pthread_mutex_lock(&s->mu);
    hs->busy = false;
    hs->last_used = clock_monotonic();
    pthread_mutex_unlock(&s->mu);
}

void sessions_expire(server *s)
{
    double now = clock_monotonic();
    pthread_mutex_lock(&s->mu);
    http_session **pp = &s->sessions;
    while (*pp) {
        http_session *hs = *pp;
        if (!hs->busy && now - hs->last_used > hs->timeout_s) {
            *pp = hs->next;
            session_free(hs->sess);
            free(hs);
        } else {
            pp = &hs->next;
        }
    }
    pthread_mutex_unlock(&s->mu);
}

void sessions_free_all(server *s)
{
    pthread_mutex_lock(&s->mu);
    while (s->sessions) {
        http_session *hs = s->sessions;
        s->sessions = hs->next;
        session_free(hs->sess);
        free(hs);
    }
    pthread_mutex_unlock(&s->mu);
}
