/* Built-in scalar functions: misc family. */
#include "func/func.h"

void func_register_misc(void)
{
}
