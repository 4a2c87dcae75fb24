// The popcnt and BMI2 builds refuse to start on a CPU without those instructions, with a message naming
// the build to use instead, rather than dying of an illegal instruction somewhere later. This file is
// compiled without the variant's instruction flags and runs before every other constructor of the
// program (static tables included), so nothing of the engine has run yet when it checks.
// QUINCE_CPU_CHECK_FAIL=1 in the environment makes the check fail on any CPU (to test the refusal).
#include <cstdio>
#include <cstdlib>

#include "quince_version.h"

namespace {

#if defined(QUINCE_NEEDS_POPCNT) || defined(QUINCE_NEEDS_BMI2)
bool cpu_has_what_the_build_needs() {
    const char* forced = std::getenv("QUINCE_CPU_CHECK_FAIL");
    if (forced && forced[0] && forced[0] != '0') return false;
    __builtin_cpu_init();  // needed before __builtin_cpu_supports in a constructor
#if defined(QUINCE_NEEDS_BMI2)
    if (!__builtin_cpu_supports("bmi2")) return false;
#endif
#if defined(QUINCE_NEEDS_AVX2)
    if (!__builtin_cpu_supports("avx2")) return false;
#endif
#if defined(QUINCE_NEEDS_SSE41)
    if (!__builtin_cpu_supports("sse4.1")) return false;
#endif
    return __builtin_cpu_supports("popcnt");
}

#if defined(__APPLE__)
__attribute__((constructor)) void check_cpu() {  // Mach-O has no constructor priorities
#else
__attribute__((constructor(101))) void check_cpu() {
#endif
    if (cpu_has_what_the_build_needs()) return;
    std::fputs("Quince " QUINCE_VERSION " (" QUINCE_VARIANT "): this CPU lacks the instructions this build needs ("
#if defined(QUINCE_NEEDS_BMI2)
               "BMI2, AVX2, SSE4.1 and popcnt"
#else
               "popcnt and SSE4.1"
#endif
               "). Use the x86-64 build (runs on every 64-bit x86 CPU)"
#if defined(QUINCE_NEEDS_BMI2)
               " or the x86-64-popcnt build"
#endif
               ".\n",
               stderr);
    std::exit(1);
}
#endif

}  // namespace
