#pragma once

#include "model/Profile.h"

#include <string>

namespace dspark {

// A digest of a model: a line per lane (its info, every column, a sample of args), the strings, the
// links, the warnings. Two loads give the same text exactly when they built the same model;
// bench_json_digest prints it, tests compare it. `argsText`: names and args compared by their text, args
// of every event, not by their ids and references (which depend on the order strings and args were
// stored in).
std::string modelDigest(const Profile& profile, bool argsText = false);

} // namespace dspark
