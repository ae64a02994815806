/* Built-in scalar functions: math family. */
#include "func/func.h"

void func_register_math(void)
{
}
