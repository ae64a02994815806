/* The web console served at /play: src/server/play.html, compiled into the binary by
 * cmake/embed.cmake (the bytes are NUL-terminated; play_html_len excludes the NUL). */
#ifndef SHALE_SERVER_PLAY_H
#define SHALE_SERVER_PLAY_H

#include <stddef.h>

extern const char play_html[];
extern const size_t play_html_len;

#endif
