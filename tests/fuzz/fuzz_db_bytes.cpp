// libFuzzer harness: the database loader on raw bytes (FuzzTargets.h says how inputs are read).
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    return dspark::fuzz::dbBytes(data, size);
}
