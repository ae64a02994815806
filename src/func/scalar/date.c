/* Built-in scalar functions: date family. */
#include "func/func.h"

void func_register_date(void)
{
}
