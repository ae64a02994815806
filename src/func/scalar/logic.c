/* Built-in scalar functions: logic family. */
#include "func/func.h"

void func_register_logic(void)
{
}
