#include "datagen_cli.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

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
    "  --from-pgn FILE...     read PGN games (score comments) instead of playing\n"
    "  --relabel SRC          copy the datagen folder SRC to DIR shard by shard, every teacher column\n"
    "                         replaced (or appended) by the teacher's score at --teacher-nodes; positions\n"
    "                         the teacher scores as a mate are dropped; --threads T teacher processes.\n"
    "                         E.g. self-play without --teacher first, then relabel at the budget chosen.\n"
    "  --quiet                no progress line on stderr\n"
    "See tools/datagen/README.md.\n";

template <typename T>
bool parse_number(const std::string& text, T* out) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
    return ec == std::errc() && ptr == text.data() + text.size() && !text.empty();
}

std::string g_bench_signature;

}  // namespace

void set_bench_signature(const char* signature) { g_bench_signature = signature ? signature : ""; }

int run_datagen_cli(int argc, char** argv) {
    SelfPlayConfig sp;
    PgnImportConfig pi;
    bool from_pgn = false;
    RelabelConfig rl;
    bool relabel = false;
    std::string command_line = "quince";
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        // (appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "\"" + a here)
        const bool quote = a.find_first_of(" \t\"'") != std::string::npos;
        command_line += quote ? " \"" : " ";
        command_line += a;
        if (quote) command_line += '"';
    }
    auto bad = [](const std::string& what) {
        std::cerr << "error: " << what << "\n" << USAGE;
        return 2;
    };
    for (int i = 2; i < argc; ++i) {
        const std::string opt = argv[i];
        if (opt == "--help" || opt == "-h") {
            std::cout << USAGE << OPTIONS;
            return 0;
        }
        auto value = [&](std::string* out) {
            if (i + 1 >= argc) return false;
            *out = argv[++i];
            return true;
        };
        std::string v;
        auto number = [&](auto* out, long long min, long long max) {
            using T = std::remove_pointer_t<decltype(out)>;
            T n{};
            if (!value(&v) || !parse_number(v, &n) || (long long)n < min || (unsigned long long)n > (unsigned long long)max)
                return false;
            *out = n;
            return true;
        };
        if (opt == "--from-pgn") {
            from_pgn = true;
            while (i + 1 < argc && argv[i + 1][0] != '-') pi.files.push_back(argv[++i]);
            if (pi.files.empty()) return bad("--from-pgn needs at least one PGN file");
        } else if (opt == "--relabel") {
            relabel = true;
            if (!value(&rl.source_dir) || rl.source_dir.empty()) return bad("--relabel needs a source folder");
        } else if (opt == "--out") {
            if (!value(&sp.out_dir)) return bad("--out needs a directory");
            pi.out_dir = sp.out_dir;
        } else if (opt == "--seed") {
            if (!value(&v) || !parse_number(v, &sp.seed)) return bad("--seed needs an unsigned 64-bit integer");
        } else if (opt == "--nodes") {
            if (!number(&sp.nodes, 1, 1000000000)) return bad("--nodes needs an integer 1..1000000000");
        } else if (opt == "--threads") {
            if (!number(&sp.threads, 1, 256)) return bad("--threads needs an integer 1..256");
        } else if (opt == "--games") {
            if (!number(&sp.games, 1, 1000000000000LL)) return bad("--games needs a positive integer");
        } else if (opt == "--positions") {
            if (!number(&sp.positions, 1, 1000000000000LL)) return bad("--positions needs a positive integer");
        } else if (opt == "--games-per-shard") {
            if (!number(&sp.games_per_shard, 1, 1000000)) return bad("--games-per-shard needs an integer 1..1000000");
            pi.games_per_shard = sp.games_per_shard;
        } else if (opt == "--hash") {
            if (!number(&sp.hash_mb, 1, 4096)) return bad("--hash needs an integer 1..4096 (MB)");
            pi.hash_mb = sp.hash_mb;
        } else if (opt == "--book") {
            if (!value(&sp.book)) return bad("--book needs a file");
        } else if (opt == "--sample") {
            if (!number(&sp.sample, 1, 10000)) return bad("--sample needs an integer 1..10000 (positions per game)");
        } else if (opt == "--eval") {
            if (!value(&sp.eval) || sp.eval.empty()) return bad("--eval needs a profile name or a file");
        } else if (opt == "--soft-nodes") {
            if (!number(&sp.soft_nodes, 1, 1000000000)) return bad("--soft-nodes needs an integer 1..1000000000");
        } else if (opt == "--random-plies") {
            const std::size_t dash = i + 1 < argc ? std::string(argv[i + 1]).find('-') : std::string::npos;
            int lo = 0, hi = 0;
            if (!value(&v) || !parse_number(dash == std::string::npos ? v : v.substr(0, dash), &lo) ||
                (dash != std::string::npos && !parse_number(v.substr(dash + 1), &hi)) || lo < 0 || lo > 200 ||
                hi > 200 || (dash != std::string::npos && hi <= lo))
                return bad("--random-plies needs an integer 0..200, or a range K-L with K < L <= 200");
            sp.opening.random_plies = lo;
            sp.opening.random_plies_max = dash == std::string::npos ? 0 : hi;
        } else if (opt == "--win-adjudication") {
            const std::size_t x = i + 1 < argc ? std::string(argv[i + 1]).find('x') : std::string::npos;
            if (!value(&v) || x == std::string::npos || !parse_number(v.substr(0, x), &sp.adjudication.win_score) ||
                !parse_number(v.substr(x + 1), &sp.adjudication.win_plies) || sp.adjudication.win_score < 1 ||
                sp.adjudication.win_plies < 1)
                return bad("--win-adjudication needs CPxPLIES, both positive (e.g. 2000x5)");
        } else if (opt == "--draw-adjudication") {
            const std::string text = i + 1 < argc ? argv[i + 1] : "";
            const std::size_t x = text.find('x'), at = text.find('@');
            if (!value(&v) || x == std::string::npos || at == std::string::npos || at < x ||
                !parse_number(v.substr(0, x), &sp.adjudication.draw_score) ||
                !parse_number(v.substr(x + 1, at - x - 1), &sp.adjudication.draw_plies) ||
                !parse_number(v.substr(at + 1), &sp.adjudication.draw_move_number) || sp.adjudication.draw_score < 0 ||
                sp.adjudication.draw_plies < 1 || sp.adjudication.draw_move_number < 1)
                return bad("--draw-adjudication needs CPxPLIES@MOVE (e.g. 10x12@40)");
        } else if (opt == "--syzygy") {
            if (!value(&sp.syzygy) || sp.syzygy.empty()) return bad("--syzygy needs a folder of Syzygy tables");
        } else if (opt == "--max-opening-score") {
            if (!number(&sp.opening.max_score, 0, 30000)) return bad("--max-opening-score needs an integer 0..30000");
        } else if (opt == "--opening-nodes") {
            if (!number(&sp.opening.verify_nodes, 0, 1000000000)) return bad("--opening-nodes needs an integer 0..1000000000");
        } else if (opt == "--teacher") {
            if (!value(&sp.teacher) || sp.teacher.empty()) return bad("--teacher needs a command");
        } else if (opt == "--teacher-nodes") {
            if (!number(&sp.teacher_nodes, 1, 1000000000)) return bad("--teacher-nodes needs an integer 1..1000000000");
        } else if (opt == "--teacher-timeout") {
            std::int64_t seconds = 0;
            if (!number(&seconds, 1, 86400)) return bad("--teacher-timeout needs seconds 1..86400");
            sp.teacher_timeout_ms = seconds * 1000;
        } else if (opt == "--dedup") {
            std::string d;
            if (!value(&d) || d.empty()) return bad("--dedup needs a folder");
            sp.dedup_dirs.push_back(d);
        } else if (opt == "--compress") {
            if (!value(&v) || (v != "xz" && v != "zstd")) return bad("--compress needs xz or zstd");
            sp.codec = v == "xz" ? training::Codec::Xz : training::Codec::Zstd;
        } else if (opt == "--quiet") {
            sp.progress = false;
        } else {
            return bad("unknown option '" + opt + "'");
        }
    }
    sp.command_line = pi.command_line = command_line;
    std::string error;
    if ((relabel || from_pgn) && !sp.eval.empty())
        return bad("--eval is for self-play (--from-pgn and --relabel play no games)");
    if (relabel) {
        if (from_pgn) return bad("--relabel and --from-pgn are two different modes");
        if (sp.out_dir.empty()) return bad("--out DIR is required");
        if (sp.teacher.empty() || sp.teacher_nodes == 0) return bad("--relabel needs --teacher \"CMD\" and --teacher-nodes N");
        rl.out_dir = sp.out_dir;
        rl.teacher = sp.teacher;
        rl.teacher_nodes = sp.teacher_nodes;
        rl.teacher_timeout_ms = sp.teacher_timeout_ms;
        rl.threads = sp.threads;
        rl.progress = sp.progress;
        rl.command_line = command_line;
        RelabelSummary s;
        if (!run_relabel(rl, &s, &error)) {
            std::cerr << "error: " << error << "\n";
            return 1;
        }
        std::printf("relabel: %lld shards (%lld already complete); this run: %lld positions read, %lld written, "
                    "%lld dropped as teacher mates in %.1f s (%.0f positions/s)\n",
                    (long long)s.shards, (long long)s.shards_skipped, (long long)s.positions_read,
                    (long long)s.positions_written, (long long)s.teacher_mates, s.seconds,
                    s.seconds > 0 ? double(s.positions_read) / s.seconds : 0.0);
        std::printf("sha256 %s  (cat %s/shard-*.txt | sha256sum)\n", shards_sha256(rl.out_dir).c_str(),
                    rl.out_dir.c_str());
        return 0;
    }
    if (from_pgn) {
        if (!sp.teacher.empty() && sp.teacher_nodes == 0) return bad("--teacher needs --teacher-nodes N");
        if (sp.teacher.empty() && sp.teacher_nodes != 0) return bad("--teacher-nodes needs --teacher");
        pi.teacher = sp.teacher;
        pi.teacher_nodes = sp.teacher_nodes;
        pi.teacher_timeout_ms = sp.teacher_timeout_ms;
        PgnImportSummary s;
        const bool ok = import_pgn(pi, &s, &error);
        for (const std::string& e : s.errors) std::cerr << "skipped: " << e << "\n";
        if (!ok) {
            std::cerr << "error: " << error << "\n";
            return 1;
        }
        std::printf("games %lld: used %lld, unfinished (*) %lld, malformed %lld; positions written %lld, duplicates %lld, "
                    "teacher mates %lld\n",
                    (long long)s.games, (long long)s.games_used, (long long)s.games_unfinished,
                    (long long)s.games_malformed, (long long)s.positions, (long long)s.duplicates,
                    (long long)s.teacher_mates);
        std::printf("sha256 %s  (cat %s/shard-*.txt | sha256sum)\n", shards_sha256(pi.out_dir).c_str(), pi.out_dir.c_str());
        return 0;
    }
    if (sp.out_dir.empty()) return bad("--out DIR is required");
    if (sp.games <= 0 && sp.positions <= 0) return bad("give a target: --games N or --positions N");
    if (!sp.teacher.empty() && sp.teacher_nodes == 0) return bad("--teacher needs --teacher-nodes N");
    if (sp.teacher.empty() && sp.teacher_nodes != 0) return bad("--teacher-nodes needs --teacher");
    sp.engine = std::string("Quince ") + QUINCE_VERSION + ", bench " +
                (g_bench_signature.empty() ? std::string("not computed") : g_bench_signature);
    RunSummary s;
    if (!run_selfplay(sp, &s, &error)) {
        std::cerr << "error: " << error << "\n";
        return 1;
    }
    const double games = double(std::max<std::int64_t>(1, s.games_this_run));
    std::printf("this run: %lld games (%.1f plies each), %lld positions written in %.1f s (%.0f positions/s, %.1f per "
                "game); duplicates %lld\n",
                (long long)s.games_this_run, double(s.plies_this_run) / games, (long long)s.positions_this_run,
                s.seconds, s.seconds > 0 ? double(s.positions_this_run) / s.seconds : 0.0,
                double(s.positions_this_run) / games, (long long)s.duplicates);
    std::printf("data: %lld games, %lld positions in %lld shards of %s (manifest.txt lists each shard's SHA-256)\n",
                (long long)s.games, (long long)s.positions, (long long)s.shards, sp.out_dir.c_str());
    return 0;
}

}  // namespace quince::datagen
