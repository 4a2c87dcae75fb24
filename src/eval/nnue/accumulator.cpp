// The integer code of every architecture (accumulator.h), compiled here once with the library's flags.
#include "eval/nnue/accumulator.h"

namespace quince::eval::nnue {

#define QUINCE_NNUE_DEFINE_INSTANCES(A) QUINCE_NNUE_INSTANCES(, A)
QUINCE_NNUE_ARCHITECTURES(QUINCE_NNUE_DEFINE_INSTANCES)

}  // namespace quince::eval::nnue
