#pragma once

#include <string_view>

namespace dspark {

// A device task name that is only its task type (EVENT_RECORD, KERNEL_AICORE, "Notify Wait", ...), as the
// loaders name tasks that have no kernel name (formats.md §2): not a kernel name.
bool isTaskTypeName(std::string_view name);

} // namespace dspark
