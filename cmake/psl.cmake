# Turns the Public Suffix List (Debian package publicsuffix) into a C source defining
# `const char *const url_psl_names[]` and `const size_t url_psl_count`: the list's rules of
# exactly two labels, as written (e.g. "co.uk", "*.ck", "!www.ck"), which is the set
# ClickHouse's firstSignificantSubdomain looks the last two labels of a host up in.
#   cmake -DIN=public_suffix_list.dat -DOUT=file.c -P psl.cmake
file(STRINGS "${IN}" lines)
set(body "")
set(n 0)
foreach(l IN LISTS lines)
  if(l STREQUAL "" OR l MATCHES "//" OR NOT l MATCHES "\\." OR l MATCHES "\\..*\\." OR l MATCHES "[\"\\\\]")
    continue()
  endif()
  string(APPEND body "    \"${l}\",\n")
  math(EXPR n "${n} + 1")
endforeach()
file(WRITE "${OUT}" "/* Generated from the Public Suffix List by cmake/psl.cmake: do not edit. */\n#include <stddef.h>\nconst char *const url_psl_names[] = {\n${body}};\nconst size_t url_psl_count = ${n};\n")
