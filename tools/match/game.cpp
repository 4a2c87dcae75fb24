#include "game.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>

#include "board/movegen.h"
#include "board/notation.h"
#include "core/text.h"

namespace quince::match {

std::string result_text(GameResult r) {
    switch (r) {
        case GameResult::WhiteWins: return "1-0";
        case GameResult::BlackWins: return "0-1";
        case GameResult::Draw: return "1/2-1/2";
        default: return "*";
    }
}

namespace {
const char* color_name(Color c) { return c == WHITE ? "White" : "Black"; }
GameResult win_for(Color c) { return c == WHITE ? GameResult::WhiteWins : GameResult::BlackWins; }
int full_move_number(const Position& pos) { return pos.game_ply() / 2 + 1; }

// A loss on time is a draw when the opponent has nothing but the king: no sequence of moves lets it mate
// (FIDE 6.9). Other material-based exceptions (e.g. a lone knight) are not applied.
Outcome time_forfeit(const Position& pos, Color loser, const std::string& reason) {
    if (pos.pieces(~loser) == pos.pieces(~loser, KING))
        return {GameResult::Draw, Incident::TimeForfeit, "time forfeit",
                reason + "; draw, " + color_name(~loser) + " has no mating material", loser};
    return {win_for(~loser), Incident::TimeForfeit, "time forfeit", reason, loser};
}
}  // namespace

bool Referee::reset(const std::string& fen, bool chess960, std::string* error) {
    Position fresh;
    if (!fen.empty() && !fresh.set_fen(fen, chess960, error)) return false;
    fresh.set_chess960(chess960);
    pos_ = fresh;
    chess960_ = chess960;
    keys_.assign(1, pos_.key());
    return true;
}

bool Referee::play(const std::string& uci, std::string* san, std::string* normalized) {
    Move m = uci_to_move(pos_, uci);
    if (m == Move::none()) return false;
    if (san) *san = move_to_san(pos_, m);
    if (normalized) *normalized = move_to_uci(m, chess960_);
    pos_.do_move(m);
    keys_.push_back(pos_.key());
    return true;
}

int Referee::repetitions_of_current() const {
    // Positions before the last irreversible move cannot repeat; rule50 bounds the scan.
    int window = std::min<int>(pos_.rule50(), int(keys_.size()) - 1);
    int count = 0;
    for (int i = int(keys_.size()) - 1; i >= int(keys_.size()) - 1 - window; --i)
        if (keys_[std::size_t(i)] == keys_.back()) ++count;
    return count;
}

Outcome Referee::rules_outcome() const {
    Color us = pos_.side_to_move();
    if (!pos_.has_legal_move()) {
        if (pos_.in_check()) return {win_for(~us), Incident::None, "normal", std::string(color_name(~us)) + " mates"};
        return {GameResult::Draw, Incident::None, "normal", "Draw by stalemate"};
    }
    if (repetitions_of_current() >= 3) return {GameResult::Draw, Incident::None, "normal", "Draw by 3-fold repetition"};
    if (pos_.rule50() >= 100) return {GameResult::Draw, Incident::None, "normal", "Draw by fifty moves rule"};
    if (pos_.has_insufficient_material()) return {GameResult::Draw, Incident::None, "normal", "Draw by insufficient mating material"};
    return {};
}

Outcome Adjudicator::after_move(Color mover, const std::optional<EngineScore>& score, int full_move_number) {
    if (!score) {
        draw_plies_ = 0;
        losing_moves_[mover] = winning_moves_[mover] = 0;
    } else {
        int cp = score->adjudication_cp();
        draw_plies_ = std::abs(cp) <= rules_.draw_score ? draw_plies_ + 1 : 0;
        losing_moves_[mover] = cp <= -rules_.resign_score ? losing_moves_[mover] + 1 : 0;
        winning_moves_[mover] = cp >= rules_.resign_score ? winning_moves_[mover] + 1 : 0;
    }
    if (rules_.resign_enabled && losing_moves_[mover] >= rules_.resign_move_count &&
        (!rules_.resign_two_sided || winning_moves_[~mover] >= rules_.resign_move_count))
        return {win_for(~mover), Incident::None, "adjudication", std::string(color_name(mover)) + " resigns (adjudication)"};
    if (rules_.draw_enabled && full_move_number >= rules_.draw_move_number &&
        draw_plies_ >= 2 * rules_.draw_move_count)
        return {GameResult::Draw, Incident::None, "adjudication", "Draw by adjudication"};
    if (rules_.max_moves > 0 && full_move_number > rules_.max_moves)
        return {GameResult::Draw, Incident::None, "adjudication", "Draw by adjudication: maximum number of moves"};
    return {};
}

std::string go_command(const TimeControl& white_tc, const GameClock& white_clock, const TimeControl& black_tc,
                       const GameClock& black_clock, Color side_to_move) {
    const TimeControl& own_tc = side_to_move == WHITE ? white_tc : black_tc;
    const GameClock& own_clock = side_to_move == WHITE ? white_clock : black_clock;
    std::string cmd = "go";
    if (own_tc.has_clock()) {
        // An opponent without a clock gets ours mirrored, so that the fields are always there.
        auto time_of = [&](const TimeControl& tc, const GameClock& clock) { return tc.has_clock() ? clock.remaining_ms() : own_clock.remaining_ms(); };
        auto inc_of = [&](const TimeControl& tc) { return tc.has_clock() ? tc.increment_ms : own_tc.increment_ms; };
        cmd += " wtime " + std::to_string(std::max<std::int64_t>(time_of(white_tc, white_clock), 1));
        cmd += " btime " + std::to_string(std::max<std::int64_t>(time_of(black_tc, black_clock), 1));
        if (inc_of(white_tc) > 0) cmd += " winc " + std::to_string(inc_of(white_tc));
        if (inc_of(black_tc) > 0) cmd += " binc " + std::to_string(inc_of(black_tc));
        if (own_clock.moves_to_go() > 0) cmd += " movestogo " + std::to_string(own_clock.moves_to_go());
    }
    if (own_tc.movetime_ms > 0) cmd += " movetime " + std::to_string(own_tc.movetime_ms);
    if (own_tc.nodes > 0) cmd += " nodes " + std::to_string(own_tc.nodes);
    if (own_tc.depth > 0) cmd += " depth " + std::to_string(own_tc.depth);
    if (cmd == "go") cmd += " infinite";  // configuration forbids this; kept total for safety
    return cmd;
}

namespace {

std::string today() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
#if defined(_WIN32)
    gmtime_s(&tm, &t);  // the Windows build (datagen's games); same meaning, arguments swapped
#else
    gmtime_r(&t, &tm);
#endif
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
    return buf;
}

std::string position_command(const std::string& start_fen, const std::vector<MoveRecord>& moves) {
    std::string cmd = start_fen.empty() ? "position startpos" : "position fen " + start_fen;
    if (!moves.empty()) {
        cmd += " moves";
        for (const MoveRecord& m : moves) cmd += " " + m.uci;
    }
    return cmd;
}

}  // namespace

GameRecord play_game(UciEngine& white, UciEngine& black, const Opening& opening, const AdjudicationRules& rules) {
    GameRecord game;
    game.white = white.name();
    game.black = black.name();
    game.start_fen = opening.fen;
    game.chess960 = opening.chess960;
    game.white_tc = white.config().tc.pgn_tag();
    game.black_tc = black.config().tc.pgn_tag();
    game.date = today();

    Referee referee;
    std::string error;
    if (!referee.reset(opening.fen, opening.chess960, &error)) {
        game.outcome = {GameResult::None, Incident::None, "unterminated", "Invalid opening FEN: " + error};
        game.error = game.outcome.reason;
        return game;
    }
    for (const std::string& uci : opening.moves) {
        MoveRecord rec;
        rec.uci = uci;
        rec.book = true;
        if (!referee.play(uci, &rec.san, &rec.uci)) {
            game.outcome = {GameResult::None, Incident::None, "unterminated", "Illegal opening move " + uci};
            game.error = game.outcome.reason;
            return game;
        }
        game.moves.push_back(rec);
    }

    UciEngine* engines[COLOR_NB] = {&white, &black};
    for (Color c : {WHITE, BLACK}) {
        if (!engines[c]->prepare_new_game(&error)) {
            game.outcome = {win_for(~c), Incident::Crash, "abandoned", std::string(color_name(c)) + "'s engine failed to start: " + error, c};
            game.error = error;
            return game;
        }
    }

    game.outcome = referee.rules_outcome();
    GameClock clocks[COLOR_NB] = {GameClock(white.config().tc), GameClock(black.config().tc)};
    Adjudicator adjudicator(rules);

    while (game.outcome.result == GameResult::None) {
        const Color us = referee.position().side_to_move();
        UciEngine& engine = *engines[us];
        const TimeControl& tc = engine.config().tc;
        const std::int64_t margin = engine.config().time_margin_ms;

        // Waiting past clock + margin is pointless: the move would lose on time anyway. The small slack
        // lets a reply that is a hair late be timed and reported exactly.
        std::int64_t timeout = engine.config().search_timeout_ms;
        bool timed = false;
        if (tc.has_clock()) timeout = clocks[us].remaining_ms() + margin + 50, timed = true;
        if (tc.movetime_ms > 0) timeout = std::min(timed ? timeout : INT64_MAX, tc.movetime_ms + margin + 50), timed = true;

        std::string go = go_command(white.config().tc, clocks[WHITE], black.config().tc, clocks[BLACK], us);
        SearchResult r = engine.search(position_command(game.start_fen, game.moves), go, timeout);
        const std::string who = color_name(us);

        if (r.status == SearchResult::Status::Crash) {
            game.outcome = {win_for(~us), Incident::Crash, "abandoned", who + "'s engine crashed", us};
            game.error = r.error;
            break;
        }
        if (r.status == SearchResult::Status::Timeout) {
            if (timed)
                game.outcome = time_forfeit(referee.position(), us,
                                            who + " loses on time (no bestmove after " + std::to_string(r.elapsed_ms) + " ms)");
            else
                game.outcome = {win_for(~us), Incident::NoBestmove, "abandoned", who + "'s engine sent no bestmove within " +
                                                               std::to_string(timeout) + " ms", us};
            game.error = r.error;
            break;
        }
        if (r.status == SearchResult::Status::ProtocolError) {
            game.outcome = {win_for(~us), Incident::IllegalMove, "rules infraction", who + " makes an illegal move: (empty bestmove)", us};
            game.error = r.error;
            break;
        }
        // The clock is checked before legality: an engine that is late loses on time whatever it played.
        const std::int64_t had_ms = clocks[us].remaining_ms();
        if (!clocks[us].charge(r.elapsed_ms, margin)) {
            std::string detail = tc.has_clock() ? "used " + std::to_string(r.elapsed_ms) + " ms of " + std::to_string(had_ms) + " ms"
                                                : "used " + std::to_string(r.elapsed_ms) + " ms, movetime " + std::to_string(tc.movetime_ms) + " ms";
            game.outcome = time_forfeit(referee.position(), us,
                                        who + " loses on time (" + detail + ", margin " + std::to_string(margin) + " ms)");
            break;
        }
        if ((tc.has_clock() && r.elapsed_ms > had_ms) || (tc.movetime_ms > 0 && r.elapsed_ms > tc.movetime_ms))
            ++game.late_moves[us];
        MoveRecord rec;
        rec.uci = r.bestmove;
        rec.score = r.score;
        rec.depth = r.depth;
        rec.elapsed_ms = r.elapsed_ms;
        if (!referee.play(r.bestmove, &rec.san, &rec.uci)) {
            game.outcome = {win_for(~us), Incident::IllegalMove, "rules infraction", who + " makes an illegal move: " + printable(r.bestmove), us};
            game.error = engine.name() + " played illegal move " + printable(r.bestmove) + " in " + referee.position().fen();
            break;
        }
        game.moves.push_back(rec);
        game.outcome = referee.rules_outcome();
        if (game.outcome.result == GameResult::None)
            game.outcome = adjudicator.after_move(us, r.score, full_move_number(referee.position()));
    }
    return game;
}

}  // namespace quince::match
