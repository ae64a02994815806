/* The data directory's status file (see status_file.h). */
#include "interp/status_file.h"

#include "base/err.h"
#include "base/version.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

int status_file_lock(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/status", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open file %s: %s", path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e == EWOULDBLOCK)
            return err_set(ERR_CANNOT_OPEN_FILE,
                           "Cannot lock file %s. Another server instance in same directory is already running.", path);
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot lock file %s: %s", path, strerror(e));
    }
    /* Who holds it, as ClickHouse writes it; a failure here is not worth refusing to start. */
    char buf[256];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    int n = snprintf(buf, sizeof buf, "PID: %ld\nStarted at: %s\nRevision: 0\nVersion: %s\n", (long)getpid(), when,
                     SHALE_VERSION);
    if (ftruncate(fd, 0) == 0 && n > 0)
        (void)!pwrite(fd, buf, (size_t)n, 0);
    return fd;
}

void status_file_release(const char *dir, int fd)
{
    if (fd < 0)
        return;
    char path[4200];
    snprintf(path, sizeof path, "%s/status", dir);
    /* unlink first, while the lock is still held: nobody can take a file that is going away */
    unlink(path);
    close(fd);
}
