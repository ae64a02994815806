/* Built-in scalar functions: regex family. */
#include "func/func.h"

void func_register_regex(void)
{
}
