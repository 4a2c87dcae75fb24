// Starting values of the threats2 terms (eval/threats.h) for the tests that switch them on: every
// profile has the switch off, so the tests set values of Ethereal 12's order of magnitude.
#pragma once

#include "eval/profile.h"

namespace quince::test {

inline void set_threats2_start(eval::Weights& w) {
    w.threats2 = true;
    w.threat_weak_pawn_op = 352, w.threat_weak_pawn_eg = 1216;
    w.threat_minor_by_minor_op = 800, w.threat_minor_by_minor_eg = 1440;
    w.threat_minor_by_major_op = 960, w.threat_minor_by_major_eg = 1760;
    w.threat_minor_by_king_op = 1376, w.threat_minor_by_king_eg = 672;
    w.threat_rook_by_king_op = 1056, w.threat_rook_by_king_eg = 576;
    w.threat_queen_by_any_op = 1600, w.threat_queen_by_any_eg = 224;
    w.threat_overloaded_op = 224, w.threat_overloaded_eg = 512;
    w.threat_pawn_push_op = 480, w.threat_pawn_push_eg = 1024;
    w.threat_restricted_op = 224, w.threat_restricted_eg = 224;
}

}  // namespace quince::test
