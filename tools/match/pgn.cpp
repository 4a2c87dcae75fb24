#include "pgn.h"

#include <cstdio>

#include "board/notation.h"
#include "game/pgn.h"

namespace quince::match {

namespace {

std::string move_comment(const MoveRecord& m) {
    if (m.book) return "book";
    char time_text[32];
    std::snprintf(time_text, sizeof time_text, "%.3fs", double(m.elapsed_ms) / 1000.0);
    if (!m.score) return time_text;
    return m.score->text() + "/" + std::to_string(m.depth) + " " + time_text;
}

}  // namespace

std::string format_pgn(const GameRecord& game, const std::string& event, int round_number) {
    game::Game g;
    g.result = result_text(game.outcome.result);
    g.tags = {{"Event", event}, {"Site", "quince-match"}, {"Date", game.date}, {"Round", std::to_string(round_number)},
              {"White", game.white}, {"Black", game.black}};
    if (game.chess960) g.set_tag("Variant", "fischerandom");
    if (!game.start_fen.empty()) {
        g.set_tag("FEN", game.start_fen);
        g.set_tag("SetUp", "1");
    }
    if (game.white_tc == game.black_tc) {
        g.set_tag("TimeControl", game.white_tc);
    } else {
        g.set_tag("WhiteTimeControl", game.white_tc);
        g.set_tag("BlackTimeControl", game.black_tc);
    }
    g.set_tag("Termination", game.outcome.termination.empty() ? "unterminated" : game.outcome.termination);
    g.set_tag("PlyCount", std::to_string(game.moves.size()));
    // Move numbers follow the start position's side to move and full move counter.
    Position pos = g.start();
    for (const MoveRecord& m : game.moves) {
        game::PgnMove pm;
        pm.move = uci_to_move(pos, m.uci);
        if (!pm.move) break;  // cannot happen: the referee played every recorded move
        pm.san = m.san;
        pm.comments.push_back(move_comment(m));
        pos.do_move(pm.move);
        g.moves.push_back(std::move(pm));
    }
    if (!game.outcome.reason.empty()) g.final_comments.push_back(game.outcome.reason);
    game::WriteOptions options;
    options.cutechess = true;
    return game::write_pgn(g, options);
}

}  // namespace quince::match
