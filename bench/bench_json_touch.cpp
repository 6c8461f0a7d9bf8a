// Helper of bench_json_load: one simdjson On-Demand baseline on one file, printed as "seconds detail".
// CMake builds it three times from this source: bench_json_touch (the project's flags: the builtin
// On-Demand kernel is the one dspark_core's loader uses), bench_json_touch_haswell (-mavx2 ...) and
// bench_json_touch_icelake (-march=icelake-server), so the baseline can be measured with a SIMD stage 2
// as well. bench_json_load runs the SIMD ones when the CPU has the instructions.
//
//   bench_json_touch {whole|raw|chunked|impl} FILE
#include "SimdjsonTouch.h"

#include <cstdio>
#include <string>

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "impl") {
        std::printf("%s\n", dspark::bench::touchImplementations().c_str());
        return 0;
    }
    if (argc != 3 || (mode != "whole" && mode != "raw" && mode != "chunked")) {
        std::fprintf(stderr, "usage: %s {whole|raw|chunked|impl} FILE\n", argv[0]);
        return 2;
    }
    const std::string line = mode == "chunked" ? dspark::bench::simdjsonChunkedTouch(argv[2])
                                               : dspark::bench::simdjsonTouch(argv[2], mode == "raw");
    std::printf("%s impl: %s\n", line.c_str(), dspark::bench::touchImplementations().c_str());
    return line.rfind("-1", 0) == 0 ? 1 : 0;
}
