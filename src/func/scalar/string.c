/* Built-in scalar functions: string family. */
#include "func/func.h"

void func_register_string(void)
{
}
