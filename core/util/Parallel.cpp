#include "util/Parallel.h"

namespace dspark {

int defaultLoaderThreads()
{
    static const int threads = std::thread::hardware_concurrency() >= 2 ? 2 : 1;
    return threads;
}

} // namespace dspark
