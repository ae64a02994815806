/* libFuzzer target: infer a TSV schema from the bytes, then read every block with it. */
#include "reader_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return fuzz_reader("TSV", d, n); }
