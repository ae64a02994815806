/* shale's version: the one place it is written (version(), --version, HTTP errors, status file). */
#ifndef SHALE_BASE_VERSION_H
#define SHALE_BASE_VERSION_H

#define SHALE_VERSION "0.1.0"

#endif
