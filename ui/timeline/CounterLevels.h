#pragma once

#include "model/Lane.h"

#include <vector>

namespace dspark::ui {

// Level of detail for a counter lane: minima and maxima over blocks of samples, so that the range of
// values inside any pixel column costs a few lookups however many samples it holds.
class CounterLevels {
public:
    explicit CounterLevels(const Lane& lane);

    // Min and max of lane.value over sample indices [first, last) (last > first).
    std::pair<double, double> range(size_t first, size_t last) const;
    double minValue() const { return m_min; }
    double maxValue() const { return m_max; }

private:
    static constexpr size_t kBlock = 64;
    const LargeVector<double>& m_values;
    std::vector<double> m_blockMin, m_blockMax; // per kBlock samples
    std::vector<double> m_superMin, m_superMax; // per kBlock*kBlock samples
    double m_min = 0, m_max = 0;
};

} // namespace dspark::ui
