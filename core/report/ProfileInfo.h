#pragma once

#include "model/Profile.h"

#include <nlohmann/json.hpp>

namespace dspark {

// The `info --json` document (a contract scripts rely on): files, ranks, lanes, totals, warnings.
nlohmann::json profileInfoJson(const Profile& profile);

} // namespace dspark
