// Search features that can be switched off at run time (UCI option SearchDisable), so that the worth of
// each one can be measured by a match of the engine against itself with that feature off. Everything is
// on by default; a switch costs one well-predicted branch.
//
// Trial rules are the opposite: rules not (yet) part of the search, off by default and switched on by the
// UCI option SearchEnable, so that a match of the engine with one on against the same binary decides whether
// it goes in, without a rebuild. (A "candidate" in this code is only ever a candidate passed pawn.)
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

namespace quince::search {

enum class Feature : unsigned {
    Aspiration,          // aspiration windows around the previous iteration's score
    Razoring,            // hopeless low-depth nodes go straight to quiescence
    ReverseFutility,     // static evaluation far above beta at low depth: fail high at once
    NullMove,            // null-move pruning (with verification at high depth)
    ProbCut,             // a capture beating beta by a margin in a reduced search
    IIR,                 // internal iterative reduction without a TT move
    LateMovePruning,     // skip late quiet moves at low depth
    Futility,            // skip captures/quiets whose static gain cannot reach alpha
    HistoryPruning,      // skip quiets with very bad continuation history at low depth
    SeePruning,          // skip captures/quiets losing material by SEE at low depth
    Singular,            // singular extension, multi-cut and negative extension of the TT move
    CheckExtension,      // extend safe checks
    LMR,                 // late move reductions
    QsearchFutility,     // delta pruning of captures in quiescence
    QsearchSee,          // skip losing captures in quiescence
    CorrectionHistory,   // static evaluation corrected by what searches found for its pawns and material
    LmrAdjust,           // reduction adjusted by a singular TT move, the parent's move count and stat score
    PriorMalus,          // continuation malus for the parent's refuted early move; update after LMR re-search
    Count
};

struct FeatureInfo {
    Feature feature;
    const char* name;  // the name used in SearchDisable
};

inline constexpr FeatureInfo FEATURES[] = {
    {Feature::Aspiration, "aspiration"},     {Feature::Razoring, "razoring"},
    {Feature::ReverseFutility, "rfp"},       {Feature::NullMove, "nmp"},
    {Feature::ProbCut, "probcut"},           {Feature::IIR, "iir"},
    {Feature::LateMovePruning, "lmp"},       {Feature::Futility, "futility"},
    {Feature::HistoryPruning, "histprune"},  {Feature::SeePruning, "seeprune"},
    {Feature::Singular, "singular"},         {Feature::CheckExtension, "checkext"},
    {Feature::LMR, "lmr"},                   {Feature::QsearchFutility, "qsfutility"},
    {Feature::QsearchSee, "qssee"},          {Feature::CorrectionHistory, "corrhist"},
    {Feature::LmrAdjust, "lmradjust"},       {Feature::PriorMalus, "priormalus"},
};
static_assert(std::size(FEATURES) == std::size_t(Feature::Count));

// None now: each measured one either went into FEATURES or was deleted (docs/results.md keeps the figures).
// A new one is an enumerator before Count and a row of TRIALS.
enum class Trial : unsigned {
    Count
};

struct TrialInfo {
    Trial trial;
    const char* name;  // the name used in SearchEnable
};

inline constexpr std::array<TrialInfo, std::size_t(Trial::Count)> TRIALS = {};

class SearchFeatures {
public:
    bool on(Feature f) const { return !(disabled_ & bit(f)); }
    void set(Feature f, bool enabled) { disabled_ = enabled ? disabled_ & ~bit(f) : disabled_ | bit(f); }
    bool on(Trial c) const { return enabled_ & bit(c); }
    void set(Trial c, bool enabled) { enabled_ = enabled ? enabled_ | bit(c) : enabled_ & ~bit(c); }

    // A comma- or space-separated list of feature names to switch off ("" or "none": all on).
    // Returns false with a message naming the first unknown name; *this is then unchanged.
    // The trial rules are left as they are.
    bool parse_disabled(std::string_view list, std::string* error);
    // The same for the trial rules to switch on ("" or "none": all off); the features are left as they are.
    bool parse_enabled(std::string_view list, std::string* error);
    // The switched-off features as a comma-separated list ("none" if all are on).
    std::string disabled_list() const;
    // The switched-on trial rules as a comma-separated list ("none" if all are off).
    std::string enabled_list() const;
    static std::string all_names();        // the features, for help texts and error messages
    static std::string trial_names();  // the trial rules, likewise

private:
    static std::uint32_t bit(Feature f) { return std::uint32_t(1) << unsigned(f); }
    static std::uint32_t bit(Trial c) { return std::uint32_t(1) << unsigned(c); }
    std::uint32_t disabled_ = 0;
    std::uint32_t enabled_ = 0;
};

}  // namespace quince::search
