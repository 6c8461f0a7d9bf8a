#pragma once

#include <cmath>
#include <cstdint>

namespace dspark::demo {

// Deterministic pseudo-random numbers for the demo: xoshiro256** seeded through splitmix64.
// Only integer arithmetic and IEEE double operations, so the same seed gives the same numbers with
// every compiler and standard library (std::*_distribution does not guarantee that).
class DemoRandom {
public:
    explicit DemoRandom(uint64_t seed)
    {
        uint64_t x = seed;
        for (uint64_t& s : m_state)
            s = splitmix64(x);
    }

    static uint64_t splitmix64(uint64_t& x)
    {
        uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    uint64_t next()
    {
        const uint64_t result = rotl(m_state[1] * 5, 7) * 9;
        const uint64_t t = m_state[1] << 17;
        m_state[2] ^= m_state[0];
        m_state[3] ^= m_state[1];
        m_state[1] ^= m_state[2];
        m_state[0] ^= m_state[3];
        m_state[2] ^= t;
        m_state[3] = rotl(m_state[3], 45);
        return result;
    }

    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    // Uniform integer in [lo, hi] (inclusive); the tiny modulo bias does not matter here.
    int64_t range(int64_t lo, int64_t hi)
    {
        return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
    }
    bool chance(double p) { return uniform() < p; }
    // Approximately standard normal (Irwin-Hall of 4 uniforms), bounded to ±3.46.
    double normal()
    {
        const double s = uniform() + uniform() + uniform() + uniform();
        return (s - 2.0) * 1.7320508075688772; // variance of the sum is 4/12
    }
    // A multiplicative jitter 1 + sigma * N(0,1), never below 0.2.
    double jitter(double sigma)
    {
        const double j = 1.0 + sigma * normal();
        return j < 0.2 ? 0.2 : j;
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t m_state[4];
};

} // namespace dspark::demo
