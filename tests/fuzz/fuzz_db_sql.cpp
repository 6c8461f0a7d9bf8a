// libFuzzer harness: the database loader on SQL-edited real databases (FuzzTargets.h says how inputs are read).
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    return dspark::fuzz::dbSql(data, size);
}
