// PGN games as they come from chess sites, GUIs and databases, read into moves that are legal on the board
// (tags, comments, nested variations, NAGs, Chess960 from the tags), and written back in the standard's
// export format. Shared by `quince analyse` and anything else that reads or writes games.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "board/position.h"

namespace quince::game {

struct PgnMove;
using Line = std::vector<PgnMove>;  // moves in order from some position

// One move of a line, with what the file said around it.
struct PgnMove {
    Move move = Move::none();         // Move::null() for a null move ("--": the side to move passes)
    std::string san;                  // as Quince writes it (check marks included), not as the file spelled it
    std::vector<int> nags;            // $1..$255; "!", "?", "!!", "??", "!?", "?!" are read as $1..$6
    std::vector<std::string> comments_before;  // comments between the previous move (or variation) and this one
    std::vector<std::string> comments;         // comments after the move
    std::vector<Line> variations;     // alternatives to this move, each from the position before it

    bool is_null() const { return move == Move::null(); }
};

struct Game {
    std::vector<std::pair<std::string, std::string>> tags;  // in file order
    Line moves;                                             // the main line
    std::vector<std::string> final_comments;                // comments after the last move (or in an empty game)
    std::string result = "*";                               // termination marker: 1-0, 0-1, 1/2-1/2 or *
    int first_line = 0;                                     // line of the file where the game starts (1-based)
    int number = 0;                                         // its place in the file (1-based; bad games count)

    std::string tag(const std::string& name) const;  // "" if absent
    void set_tag(const std::string& name, const std::string& value);  // replaces, or appends a new tag
    // The start position: the FEN tag (SetUp "1") or the standard one; Chess960 when the Variant tag says so
    // (or the FEN's castling rights only make sense there).
    Position start() const;
    bool chess960() const;
    // How many moves of the main line come before its first null move (all of them when it has none):
    // the moves that make a game, which a caller may play on the board.
    std::size_t moves_before_null() const;
};

// Where and why reading stopped.
struct PgnError {
    int game = 0;          // 1-based: the game being read
    int line = 0;          // 1-based line of the file
    std::string move;      // the move as numbered in the game ("12... Nf6"), "" when not at a move
    std::string message;   // what was wrong
    // read_pgn_games: where the bad game lies in the text read, [begin, end) in bytes (up to the next
    // game, blank lines after it included), so that a caller can pass it on as it was.
    std::size_t begin = 0, end = 0;
    // "game 3, line 41: illegal move '12... Nf6' (no such move in r1bq...)", the form every caller shows.
    std::string text() const;
};

struct ReadOptions {
    // A null move ("--", "Z0" or "0000") in the main line is read as a move (Move::null()) and the game
    // goes on after it; else it is an error. A game is made of the moves before it (moves_before_null()):
    // only a caller that stops there (quince analyse) asks for this. Null moves in variations, where
    // annotators show what a side threatens, are always read.
    bool null_moves_in_main_line = false;
};

// Reads every game of `text` (a whole PGN file: BOM, CRLF, `%` escape lines and `;` comments allowed).
// Moves are checked on the board: SAN with or without check marks and annotation suffixes, castling as
// O-O or 0-0, over- or under-specified pieces tolerated when only one legal move fits, long algebraic
// (`e2-e4`, `Ng1xf3`) too. A game without a result (a pasted move list) ends at the file's end or the next
// tags. On the first error returns false with *error filled; *games then holds the games read before it.
bool read_pgn(std::string_view text, std::vector<Game>* games, PgnError* error, const ReadOptions& options = {});

// The same, but a bad game does not end the reading: it is skipped up to the next game's tags and its
// error returned (in file order); *games gets every good game, `Game::number` its place in the file.
std::vector<PgnError> read_pgn_games(std::string_view text, std::vector<Game>* games, const ReadOptions& options = {});

struct WriteOptions {
    // NAGs 1..6 as suffixes ("Qxb7??", as lichess and most GUIs show them) instead of "$4" (export format).
    bool symbolic_nags = false;
    int max_line = 79;  // movetext lines are at most this long (the export format's 80 columns)
    // Movetext as cutechess-cli writes it (quince-match's games, which scripts read by its patterns):
    // comments as `{text}`, a Black move after a comment without its number (`1. e4 {+0.35/9 0.004s} e5`),
    // and a line may end between a move's number and the move or inside a comment.
    bool cutechess = false;
};

// One game in export format: the seven-tag roster first (Event, Site, Date, Round, White, Black, Result;
// "?" / "????.??.??" / the result where missing), the other tags in their order, a blank line, movetext
// with comments, NAGs and variations wrapped at max_line, the result, a blank line.
std::string write_pgn(const Game& game, const WriteOptions& options = {});

// "Qxb7" with a NAG as "??" (1..6) or " $n".
std::string nag_text(int nag, bool symbolic);

}  // namespace quince::game
