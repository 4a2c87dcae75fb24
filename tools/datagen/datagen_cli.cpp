#include "datagen_cli.h"

#include <algorithm>
#include <charconv>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/cli.h"
#include "core/text.h"
#include "datagen.h"
#include "quince_version.h"

namespace quince::datagen {

namespace {

const char* USAGE =
    "usage: quince datagen --out DIR (--games N | --positions N) [--seed S] [--nodes N] [--soft-nodes N]\n"
    "                      [--threads T] [--book FILE.epd[.xz]] [--random-plies K[-L]] [--max-opening-score CP]\n"
    "                      [--win-adjudication CPxPLIES] [--draw-adjudication CPxPLIES@MOVE] [--syzygy PATH]\n"
    "                      [--opening-nodes N] [--games-per-shard G] [--sample K] [--hash MB]\n"
    "                      [--eval NAME|FILE]\n"
    "                      [--teacher \"CMD [ARGS]\" --teacher-nodes N [--teacher-timeout S]]\n"
    "                      [--dedup SETDIR] [--compress xz|zstd] [--quiet]\n"
    "       quince datagen --from-pgn FILE... --out DIR [--games-per-shard G]\n"
    "                      [--teacher \"CMD [ARGS]\" --teacher-nodes N [--teacher-timeout S]]\n"
    "       quince datagen --relabel SRC --out DIR --teacher \"CMD [ARGS]\" --teacher-nodes N\n"
    "                      [--teacher-timeout S] [--threads T] [--quiet]\n";

// `quince datagen --help`: the usage and what each option does.
const char* OPTIONS =
    "\nSelf-play at a fixed node budget, written as whole games in the compact QTD format (shard-*.qtd.xz,\n"
    "data/training/README.md), or the positions of PGNs with score comments, written as training samples\n"
    "(FEN | score | result [| teacher]); a rerun with the same options continues after the last complete shard.\n"
    "  --out DIR              output directory (shards and a manifest)\n"
    "  --games N | --positions N   how much self-play (games rounded up to whole shards)\n"
    "  --seed S (1)           everything random in game i comes from (S, i)\n"
    "  --nodes N (5000)       nodes per move, one search thread per game (the hard limit with --soft-nodes)\n"
    "  --soft-nodes N         no new iteration once N nodes are searched: every score a completed iteration's\n"
    "  --threads T (1)        games played in parallel\n"
    "  --book FILE.epd[.xz]   opening positions (default: the start position)\n"
    "  --random-plies K[-L] (8)  random legal plies after the book position (K-L: a number drawn in K..L)\n"
    "  --max-opening-score CP (200)  openings scored beyond +-CP are rejected\n"
    "  --opening-nodes N (2000)      nodes of that verification search (0 = none)\n"
    "  --games-per-shard G (200)     games per shard file\n"
    "  --win-adjudication CPxPLIES (800x4)  a win after PLIES consecutive plies at >= CP (or a mate score)\n"
    "  --draw-adjudication CPxPLIES@MOVE (15x8@32)  a draw after PLIES consecutive plies within +-CP from MOVE on\n"
    "  --syzygy PATH          Syzygy tables that end a game with their result as it enters them (never probed\n"
    "                         by the searches, so every score stays the evaluation's own)\n"
    "  --sample K             label at most K quiet positions per game, drawn at random (default: all)\n"
    "  --eval NAME|FILE       what the games are played with: a built-in profile, or a weights or network\n"
    "                         (.nnue) file; recorded in the manifest's settings (a file with its SHA-256)\n"
    "                         and in every shard's header (default: the default profile, not recorded)\n"
    "  --dedup SETDIR         never label a position already labelled in a shard under SETDIR (repeatable)\n"
    "  --compress xz|zstd (xz)  the shards' compressor\n"
    "  --hash MB (8)          hash per game thread\n"
    "  --teacher \"CMD [ARGS]\" --teacher-nodes N   label every position with a UCI engine's score\n"
    "  --teacher-timeout S (120)     seconds the teacher may stay silent (starting, isready, a search)\n"
    "                         before it counts as hung\n"
    "  --from-pgn FILE...     read PGN games (engine score comments, or [%eval] as lichess writes it)\n"
    "                         instead of playing\n"
    "  --relabel SRC          copy the datagen folder SRC to DIR shard by shard, every teacher column\n"
    "                         replaced (or appended) by the teacher's score at --teacher-nodes; positions\n"
    "                         the teacher scores as a mate are dropped; --threads T teacher processes.\n"
    "                         E.g. self-play without --teacher first, then relabel at the budget chosen.\n"
    "  --quiet                no progress line on stderr\n"
    "See tools/datagen/README.md.\n";

std::string g_bench_signature;

// "K" or "K-L" of --random-plies: 0..200, L > K.
bool parse_plies_range(const std::string& v, int* lo, int* hi) {
    const std::size_t dash = v.find('-');
    long long a = 0, b = 0;
    if (!parse_integer(v.substr(0, dash), 0, 200, &a)) return false;
    if (dash != std::string::npos && (!parse_integer(v.substr(dash + 1), a + 1, 200, &b))) return false;
    *lo = int(a), *hi = int(b);
    return true;
}

// "CPxPLIES" of --win-adjudication, both positive.
bool parse_win_adjudication(const std::string& v, Adjudication* adj) {
    const std::size_t x = v.find('x');
    return x != std::string::npos && parse_integer(v.substr(0, x), &adj->win_score, 1) &&
           parse_integer(v.substr(x + 1), &adj->win_plies, 1);
}

// "CPxPLIES@MOVE" of --draw-adjudication: CP 0 or more, PLIES and MOVE positive.
bool parse_draw_adjudication(const std::string& v, Adjudication* adj) {
    const std::size_t x = v.find('x'), at = v.find('@');
    return x != std::string::npos && at != std::string::npos && at > x &&
           parse_integer(v.substr(0, x), &adj->draw_score, 0) &&
           parse_integer(v.substr(x + 1, at - x - 1), &adj->draw_plies, 1) &&
           parse_integer(v.substr(at + 1), &adj->draw_move_number, 1);
}

// The whole command line as the manifest records it: words with a blank or a quote in quotes.
std::string recorded_command(const cli::Args& args) {
    std::string line = "quince datagen";
    for (const std::string& a : args) {
        // (appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "\"" + a here)
        const bool quote = a.find_first_of(" \t\"'") != std::string::npos;
        line += quote ? " \"" : " ";
        line += a;
        if (quote) line += '"';
    }
    return line;
}

const std::vector<cli::OptionSpec> OPTION_SPECS = {
    {"from-pgn", false, true, true}, {"relabel", true}, {"out", true}, {"seed", true}, {"nodes", true},
    {"threads", true}, {"games", true}, {"positions", true}, {"games-per-shard", true}, {"hash", true},
    {"book", true}, {"sample", true}, {"eval", true}, {"soft-nodes", true}, {"random-plies", true},
    {"win-adjudication", true}, {"draw-adjudication", true}, {"syzygy", true}, {"max-opening-score", true},
    {"opening-nodes", true}, {"teacher", true}, {"teacher-nodes", true}, {"teacher-timeout", true},
    {"dedup", true, true}, {"compress", true}, {"quiet", false}};

// What --relabel and --from-pgn take from the command line as self-play does: the output folder, the
// teacher, the command recorded in the manifest.
template <typename Config>
Config settings_of(const SelfPlayConfig& sp) {
    Config c;
    c.out_dir = sp.out_dir;
    c.teacher = sp.teacher;
    c.teacher_nodes = sp.teacher_nodes;
    c.teacher_timeout_ms = sp.teacher_timeout_ms;
    c.command_line = sp.command_line;
    return c;
}

// A job that failed: its error on err, exit status 1.
int failed(std::ostream& err, const std::string& error) {
    err << "error: " << error << "\n";
    return cli::EXIT_FAILED;
}

// The last line of --relabel and --from-pgn: the text shards' checksum and how to compute it again.
std::string checksum_line(const std::string& dir) {
    return cli::formatted("sha256 %s  (cat %s/shard-*.txt | sha256sum)\n", shards_sha256(dir).c_str(), dir.c_str());
}

int relabel(const SelfPlayConfig& sp, const std::string& source, std::ostream& out, std::ostream& err) {
    RelabelConfig rl = settings_of<RelabelConfig>(sp);
    rl.source_dir = source;
    rl.threads = sp.threads;
    rl.progress = sp.progress;
    RelabelSummary s;
    std::string error;
    if (!run_relabel(rl, &s, &error)) return failed(err, error);
    out << cli::formatted("relabel: %lld shards (%lld already complete); this run: %lld positions read, %lld written, "
                          "%lld dropped as teacher mates in %.1f s (%.0f positions/s)\n",
                          (long long)s.shards, (long long)s.shards_skipped, (long long)s.positions_read,
                          (long long)s.positions_written, (long long)s.teacher_mates, s.seconds,
                          s.seconds > 0 ? double(s.positions_read) / s.seconds : 0.0)
        << checksum_line(rl.out_dir);
    return cli::EXIT_OK;
}

int from_pgn(const SelfPlayConfig& sp, const std::vector<std::string>& files, std::ostream& out, std::ostream& err) {
    PgnImportConfig pi = settings_of<PgnImportConfig>(sp);
    pi.files = files;
    pi.games_per_shard = sp.games_per_shard;
    pi.hash_mb = sp.hash_mb;
    PgnImportSummary s;
    std::string error;
    const bool ok = import_pgn(pi, &s, &error);
    for (const std::string& e : s.errors) err << "skipped: " << e << "\n";
    if (!ok) return failed(err, error);
    out << cli::formatted("games %lld: used %lld, unfinished (*) %lld, malformed %lld; positions written %lld, "
                          "duplicates %lld, teacher mates %lld\n",
                          (long long)s.games, (long long)s.games_used, (long long)s.games_unfinished,
                          (long long)s.games_malformed, (long long)s.positions, (long long)s.duplicates,
                          (long long)s.teacher_mates)
        << checksum_line(pi.out_dir);
    return cli::EXIT_OK;
}

int selfplay(SelfPlayConfig sp, std::ostream& out, std::ostream& err) {
    sp.engine = std::string("Quince ") + QUINCE_VERSION + ", bench " +
                (g_bench_signature.empty() ? std::string("not computed") : g_bench_signature);
    RunSummary s;
    std::string error;
    if (!run_selfplay(sp, &s, &error)) return failed(err, error);
    const double games = double(std::max<std::int64_t>(1, s.games_this_run));
    out << cli::formatted("this run: %lld games (%.1f plies each), %lld positions written in %.1f s (%.0f positions/s, "
                          "%.1f per game); duplicates %lld\n",
                          (long long)s.games_this_run, double(s.plies_this_run) / games, (long long)s.positions_this_run,
                          s.seconds, s.seconds > 0 ? double(s.positions_this_run) / s.seconds : 0.0,
                          double(s.positions_this_run) / games, (long long)s.duplicates)
        << cli::formatted("data: %lld games, %lld positions in %lld shards of %s (manifest.txt lists each shard's "
                          "SHA-256)\n",
                          (long long)s.games, (long long)s.positions, (long long)s.shards, sp.out_dir.c_str());
    return cli::EXIT_OK;
}

}  // namespace

void set_bench_signature(const char* signature) { g_bench_signature = signature ? signature : ""; }

int run_datagen_cli(const cli::Args& args, std::ostream& out, std::ostream& err) {
    if (cli::asks_for_help(args)) {
        out << USAGE << OPTIONS;
        return cli::EXIT_OK;
    }
    auto bad = [&err](const std::string& what) { return cli::usage_error(err, "datagen", what); };
    cli::ParsedArgs a;
    std::string error;
    if (!cli::parse_args(args, OPTION_SPECS, &a, &error)) return bad(error);
    // Words outside the options: only the PGN files right after --from-pgn are (its values).
    if (!a.positional.empty()) {
        const std::string& word = a.positional[0];
        return bad(word.size() > 1 && word[0] == '-' ? "unknown option '" + printable(word) + "'"
                                                     : "unexpected argument '" + printable(word) + "'");
    }
    SelfPlayConfig sp;
    bool ok = true;
    auto number = [&](const char* name, long long lo, long long hi, auto* field) {
        long long n = 0;
        if (!ok || !a.has(name)) return;
        ok = cli::parse_number(a.options.at(name), lo, hi, std::string("--") + name, &n, &error);
        if (ok) *field = static_cast<std::remove_pointer_t<decltype(field)>>(n);
    };
    number("nodes", 1, 1000000000, &sp.nodes);
    number("threads", 1, 256, &sp.threads);
    number("games", 1, 1000000000000LL, &sp.games);
    number("positions", 1, 1000000000000LL, &sp.positions);
    number("games-per-shard", 1, 1000000, &sp.games_per_shard);
    number("hash", 1, 4096, &sp.hash_mb);
    number("sample", 1, 10000, &sp.sample);
    number("soft-nodes", 1, 1000000000, &sp.soft_nodes);
    number("max-opening-score", 0, 30000, &sp.opening.max_score);
    number("opening-nodes", 0, 1000000000, &sp.opening.verify_nodes);
    number("teacher-nodes", 1, 1000000000, &sp.teacher_nodes);
    std::int64_t timeout_seconds = 0;
    number("teacher-timeout", 1, 86400, &timeout_seconds);
    if (!ok) return bad(error);
    if (timeout_seconds) sp.teacher_timeout_ms = timeout_seconds * 1000;
    if (a.has("seed")) {  // the whole unsigned 64-bit range
        const std::string& v = a.options.at("seed");
        auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), sp.seed);
        if (ec != std::errc() || end != v.data() + v.size())
            return bad("--seed must be an unsigned 64-bit integer, got '" + printable(v) + "'");
    }
    if (a.has("random-plies") &&
        !parse_plies_range(a.options.at("random-plies"), &sp.opening.random_plies, &sp.opening.random_plies_max))
        return bad("--random-plies needs an integer 0..200, or a range K-L with K < L <= 200");
    if (a.has("win-adjudication") && !parse_win_adjudication(a.options.at("win-adjudication"), &sp.adjudication))
        return bad("--win-adjudication needs CPxPLIES, both positive (e.g. 2000x5)");
    if (a.has("draw-adjudication") && !parse_draw_adjudication(a.options.at("draw-adjudication"), &sp.adjudication))
        return bad("--draw-adjudication needs CPxPLIES@MOVE (e.g. 10x12@40)");
    if (a.has("compress")) {
        const std::string& v = a.options.at("compress");
        if (v != "xz" && v != "zstd") return bad("--compress needs xz or zstd");
        sp.codec = v == "xz" ? training::Codec::Xz : training::Codec::Zstd;
    }
    if (a.has("out")) sp.out_dir = a.options.at("out");
    if (a.has("book")) sp.book = a.options.at("book");
    if (a.has("eval")) sp.eval = a.options.at("eval");
    if (a.has("syzygy")) sp.syzygy = a.options.at("syzygy");
    if (a.has("teacher")) sp.teacher = a.options.at("teacher");
    if (a.has("dedup")) sp.dedup_dirs = a.values.at("dedup");
    sp.progress = !a.has("quiet");
    sp.command_line = recorded_command(args);

    const bool relabelling = a.has("relabel"), importing = a.has("from-pgn");
    if ((relabelling || importing) && !sp.eval.empty())
        return bad("--eval is for self-play (--from-pgn and --relabel play no games)");
    if (relabelling) {
        if (importing) return bad("--relabel and --from-pgn are two different modes");
        if (sp.out_dir.empty()) return bad("--out DIR is required");
        if (sp.teacher.empty() || sp.teacher_nodes == 0) return bad("--relabel needs --teacher \"CMD\" and --teacher-nodes N");
        return relabel(sp, a.options.at("relabel"), out, err);
    }
    auto teacher_is_whole = [&] {
        if (!sp.teacher.empty() && sp.teacher_nodes == 0) return error = "--teacher needs --teacher-nodes N", false;
        if (sp.teacher.empty() && sp.teacher_nodes != 0) return error = "--teacher-nodes needs --teacher", false;
        return true;
    };
    if (importing) {
        if (!teacher_is_whole()) return bad(error);
        return from_pgn(sp, a.values.at("from-pgn"), out, err);
    }
    if (sp.out_dir.empty()) return bad("--out DIR is required");
    if (sp.games <= 0 && sp.positions <= 0) return bad("give a target: --games N or --positions N");
    if (!teacher_is_whole()) return bad(error);
    return selfplay(sp, out, err);
}

}  // namespace quince::datagen
