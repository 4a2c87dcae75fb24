// The QTD training-game format: round trips, the move order the format defines, and bad input (bad magic,
// another version, truncation at every length, a move index beyond the legal moves, a corrupt file).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "board/notation.h"
#include "board/position.h"
#include "training/game_format.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using namespace quince;
using namespace quince::training;

namespace {

TrainingGame game_from(const std::string& fen, const std::vector<std::string>& uci, int opening,
                       GameResult result) {
    TrainingGame g;
    g.start_fen = fen;
    Position pos;
    if (!fen.empty()) {
        EXPECT_TRUE(pos.set_fen(fen));
    }
    for (const std::string& m : uci) {
        const Move mv = uci_to_move(pos, m);
        EXPECT_TRUE(mv) << m;
        g.moves.push_back(mv);
        pos.do_move(mv);
    }
    g.opening_plies = opening;
    for (std::size_t i = std::size_t(opening); i < uci.size(); ++i) g.scores.push_back(int(i) * 7 - 20);
    g.result = result;
    return g;
}

std::vector<TrainingGame> sample_games() {
    std::vector<TrainingGame> games;
    TrainingGame a = game_from("", {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f6e4"}, 2,
                               GameResult::WhiteWins);
    a.scores[3] = 31990;  // a mate score is stored as it is
    a.labels = {{2, 35}, {4, -1200}, {6, 0}};
    games.push_back(a);
    // A FEN start with a promotion and an en passant capture, no opening plies, no labels.
    TrainingGame b = game_from("4k3/1P6/8/8/3p4/8/4P3/4K3 w - - 0 1", {"e2e4", "d4e3", "b7b8n", "e3e2"}, 0,
                               GameResult::Draw);
    games.push_back(b);
    TrainingGame c = game_from("", {"d2d4"}, 0, GameResult::BlackWins);
    c.labels = {{0, -32000}};
    games.push_back(c);
    return games;
}

std::string encoded(const std::vector<TrainingGame>& games, bool teacher) {
    ShardHeader h;
    h.has_teacher = teacher;
    h.set("command", "quince datagen --out x");
    h.set("teacher", "Stockfish 15.1");
    std::string bytes, error;
    EXPECT_TRUE(encode_shard(h, games, &bytes, &error)) << error;
    return bytes;
}

}  // namespace

TEST(TrainingFormat, RoundTripWithAndWithoutTeacher) {
    const std::vector<TrainingGame> games = sample_games();
    ShardHeader h;
    std::vector<TrainingGame> back;
    std::string error;
    ASSERT_TRUE(decode_shard(encoded(games, true), &h, &back, &error)) << error;
    EXPECT_EQ(back, games);
    EXPECT_TRUE(h.has_teacher);
    EXPECT_EQ(h.get("teacher"), "Stockfish 15.1");
    EXPECT_EQ(h.get("command"), "quince datagen --out x");
    // Without a teacher the labels keep their plies, and no teacher score.
    std::vector<TrainingGame> no_teacher = games;
    for (auto& g : no_teacher)
        for (auto& l : g.labels) l.teacher = 0;
    ASSERT_TRUE(decode_shard(encoded(games, false), &h, &back, &error)) << error;
    EXPECT_FALSE(h.has_teacher);
    EXPECT_EQ(back, no_teacher);
}

TEST(TrainingFormat, MovesAreIndicesInTheFormatsOrder) {
    // The start position's legal moves sorted by from-square, to-square: b1a3 (b1 = 1) comes first, and
    // g1h3 is the last of the knight moves before the pawn moves from a2 (square 8).
    Position pos;
    EXPECT_EQ(move_index(pos, uci_to_move(pos, "b1a3")), 0);
    EXPECT_EQ(move_index(pos, uci_to_move(pos, "b1c3")), 1);
    EXPECT_EQ(move_index(pos, uci_to_move(pos, "g1f3")), 2);
    EXPECT_EQ(move_index(pos, uci_to_move(pos, "g1h3")), 3);
    EXPECT_EQ(move_index(pos, uci_to_move(pos, "a2a3")), 4);
    EXPECT_EQ(move_index(pos, uci_to_move(pos, "h2h4")), 19);
    EXPECT_EQ(move_at_index(pos, 20), Move::none());
    // Castling sorts as the king's two-square move; promotions knight, bishop, rook, queen.
    Position p2;
    ASSERT_TRUE(p2.set_fen("4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1"));
    const int b8n = move_index(p2, uci_to_move(p2, "b7b8n"));
    EXPECT_EQ(move_index(p2, uci_to_move(p2, "b7b8q")), b8n + 3);
    const int e1c1 = move_index(p2, uci_to_move(p2, "e1c1")), e1d1 = move_index(p2, uci_to_move(p2, "e1d1"));
    EXPECT_EQ(e1c1 + 1, e1d1);
    for (int i = 0; i < 60; ++i) {
        const Move m = move_at_index(p2, i);
        if (!m) break;
        EXPECT_EQ(move_index(p2, m), i);
    }
}

TEST(TrainingFormat, BadBytesAreRefusedWithTheirReason) {
    const std::string good = encoded(sample_games(), true);
    std::string error;
    std::string bad = good;
    bad[0] = 'X';
    EXPECT_FALSE(decode_shard(bad, nullptr, nullptr, &error));
    EXPECT_NE(error.find("magic"), std::string::npos) << error;
    bad = good;
    bad[3] = 2;
    EXPECT_FALSE(decode_shard(bad, nullptr, nullptr, &error));
    EXPECT_NE(error.find("version 2"), std::string::npos) << error;
    // Every truncation is refused (never a crash), and so are trailing bytes.
    for (std::size_t n = 0; n < good.size(); ++n)
        EXPECT_FALSE(decode_shard(std::string_view(good).substr(0, n), nullptr, nullptr, &error)) << n;
    EXPECT_FALSE(decode_shard(good + "x", nullptr, nullptr, &error));
    EXPECT_NE(error.find("trailing"), std::string::npos) << error;
    // A move index beyond the legal moves names its game and ply. With an empty header the bytes are: magic and
    // version (4), header length 0, game count 1, teacher flag, the game table (flags, plies 8, opening 2,
    // labels 3), then the moves column.
    ShardHeader empty;
    empty.has_teacher = true;
    std::string single;
    ASSERT_TRUE(encode_shard(empty, {sample_games()[0]}, &single, &error)) << error;
    const std::size_t moves_at = 4 + 1 + 1 + 1 + 4;
    ASSERT_EQ(single.substr(7, 4), std::string("\x02\x08\x02\x03", 4));
    Position start;
    ASSERT_EQ(int(single[moves_at]), move_index(start, uci_to_move(start, "e2e4")));
    single[moves_at + 1] = char(200);
    EXPECT_FALSE(decode_shard(single, nullptr, nullptr, &error));
    EXPECT_NE(error.find("game 1, ply 2"), std::string::npos) << error;
    // The writer refuses an illegal game.
    std::vector<TrainingGame> illegal = {sample_games()[0]};
    illegal[0].moves[1] = illegal[0].moves[0];
    ShardHeader h;
    EXPECT_FALSE(encode_shard(h, illegal, &bad, &error));
    EXPECT_NE(error.find("game 1: move 2"), std::string::npos) << error;
}

TEST(TrainingFormat, FilesAndSetsNameTheBadFile) {
    const fs::path dir = fs::temp_directory_path() / ("quince_qtd_test_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "run");
    std::string error;
    const std::string good = encoded(sample_games(), true);
    const std::string p0 = (dir / "run" / "shard-00000.qtd.xz").string(), p19 = (dir / "run" / "shard-00019.qtd.xz").string();
    ASSERT_TRUE(write_shard_file(p0, good, Codec::Xz, &error)) << error;
    ASSERT_TRUE(write_shard_file(p19, good, Codec::Xz, &error)) << error;
    std::string back;
    ASSERT_TRUE(read_shard_file(p0, &back, &error)) << error;
    EXPECT_EQ(back, good);
    std::vector<ShardFile> shards;
    ASSERT_TRUE(find_shards({dir.string()}, &shards, &error)) << error;
    ASSERT_EQ(shards.size(), 2u);
    EXPECT_FALSE(shards[0].validation);
    EXPECT_TRUE(shards[1].validation);  // every twentieth shard is held out
    int n = 0;
    std::int64_t last_game = 0;
    ASSERT_TRUE(for_each_position(
        shards,
        [&](const LabeledPosition& lp) {
            ++n;
            EXPECT_TRUE(lp.has_teacher);
            EXPECT_GE(lp.game, last_game);
            last_game = lp.game;
            return true;
        },
        &error))
        << error;
    EXPECT_EQ(n, 8);  // 4 labels a copy
    EXPECT_EQ(last_game, 6);
    // Every quiet scored ply: the labelled ones (with their teacher) and the others with Quince's score. Game 1
    // (opening 2 plies): plies 2, 3, 4 and 6 (ply 5 has a mate score, Nxe4 is a capture); game 2: plies 0 and
    // 3 (dxe3 e.p. and b8=N are not quiet); game 3: ply 0.
    std::vector<int> quiet_scores;
    int labelled = 0;
    ASSERT_TRUE(for_each_position(
        {shards[0]},
        [&](const LabeledPosition& lp) {
            quiet_scores.push_back(lp.score);
            labelled += lp.has_teacher;
            if (!lp.has_teacher) {
                EXPECT_EQ(lp.teacher, lp.score);
            }
            return true;
        },
        &error, Plies::Quiet))
        << error;
    EXPECT_EQ(labelled, 4);
    EXPECT_EQ(quiet_scores.size(), 7u);
    // The labelled positions are the ones the plies say: game 1's first label is the position after 1. e4 e5.
    std::string fen;
    ASSERT_TRUE(for_each_position({shards[0]}, [&](const LabeledPosition& lp) { fen = lp.pos->fen(); return false; }, &error));
    EXPECT_EQ(fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");

    // A truncated file: the decompressor's checksum fails, the error names the file.
    const std::string whole = [&] { std::ifstream in(p19, std::ios::binary); return std::string(std::istreambuf_iterator<char>(in), {}); }();
    std::ofstream(p19, std::ios::binary | std::ios::trunc) << whole.substr(0, whole.size() / 2);
    EXPECT_FALSE(for_each_position(shards, [](const LabeledPosition&) { return true; }, &error));
    EXPECT_NE(error.find("shard-00019.qtd.xz"), std::string::npos) << error;
    // A file that is no shard: named too.
    EXPECT_FALSE(find_shards({(dir / "nothing.txt").string()}, &shards, &error));
    EXPECT_NE(error.find("nothing.txt"), std::string::npos) << error;
    fs::remove_all(dir);
}

TEST(TrainingFormat, HugeDeltasAreRefusedNotOverflowed) {
    // A score delta of 2^62 (zigzag varint of 2^63: nine 0xFF bytes and a 0x01) after a legal one-ply game.
    ShardHeader empty;
    std::string bytes, error;
    TrainingGame g = game_from("", {"e2e4"}, 0, GameResult::Draw);
    ASSERT_TRUE(encode_shard(empty, {g}, &bytes, &error)) << error;
    // The score column is the last byte (one small delta); replace it by a huge one.
    bytes.pop_back();
    bytes += std::string(9, '\xFF') + '\x01';
    EXPECT_FALSE(decode_shard(bytes, nullptr, nullptr, &error));
    EXPECT_NE(error.find("scores"), std::string::npos) << error;
}

// A label step near 2^64 (the varint of 2^64 - 1: nine 0xFF bytes and a 0x01) wrapped around to the ply before
// it: the reader took a shard the writer refuses (found by fuzz_shard).
TEST(TrainingFormat, AHugeLabelStepIsRefusedNotWrappedAround) {
    ShardHeader plain;
    std::string bytes, error;
    TrainingGame g = game_from("", {"e2e4", "e7e5", "g1f3"}, 0, GameResult::Draw);
    g.labels = {{0, 0}, {1, 0}};
    ASSERT_TRUE(encode_shard(plain, {g}, &bytes, &error)) << error;
    ASSERT_TRUE(decode_shard(bytes, nullptr, nullptr, &error)) << error;
    // The label column is last: the steps 0 and 0 (plies 0 and 1). The second becomes 2^64 - 1.
    ASSERT_EQ(bytes.substr(bytes.size() - 2), std::string("\x00\x00", 2));
    bytes.pop_back();
    bytes += std::string(9, '\xFF') + '\x01';
    EXPECT_FALSE(decode_shard(bytes, nullptr, nullptr, &error));
    EXPECT_NE(error.find("label"), std::string::npos) << error;
}

// A shard's number comes from its file name alone (the validation rule and the nets' descriptions use it).
TEST(TrainingFormat, ShardIndexReadsTheNumberOfTheName) {
    std::size_t end = 0;
    EXPECT_EQ(shard_index("data/training/run/shard-00012.qtd.xz", &end), 12);
    EXPECT_EQ(end, std::string("data/training/run/shard-00012").size());
    EXPECT_EQ(shard_index("shard-7.qtd.zst"), 7);
    EXPECT_EQ(shard_index("shard-123456789.qtd.xz"), 123456789);
    EXPECT_EQ(shard_index("shard-1234567890.qtd.xz"), -1);  // more than nine digits
    EXPECT_EQ(shard_index("run/shard-.qtd.xz"), -1);
    EXPECT_EQ(shard_index("run/myshard-00001.qtd.xz"), -1);
    EXPECT_EQ(shard_index("shard-00001/notes.txt"), -1);  // the folder's name is not the file's
}


// ---------------------------------------------------------------------------------------------
// The shard files' codecs and checksum: libraries in the process, in the formats the xz and zstd commands
// read and write.

namespace {

std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void put_file(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// A scratch folder of its own per test, removed at the end.
struct Scratch {
    fs::path dir;
    explicit Scratch(const std::string& name)
        : dir(fs::temp_directory_path() / ("quince_codec_" + name + "_" + std::to_string(::getpid()))) {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Scratch() { fs::remove_all(dir); }
    std::string operator/(const std::string& file) const { return (dir / file).string(); }
};

// PATH emptied for the scope: no program can be started by name, so what works ran in the process.
struct NoPrograms {
    std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
    NoPrograms() { ::setenv("PATH", "/nonexistent", 1); }
    ~NoPrograms() { ::setenv("PATH", saved.c_str(), 1); }
};

bool have_program(const std::string& name) {
    return std::system(("command -v " + shell_quote(name) + " >/dev/null 2>&1").c_str()) == 0;
}

const std::string TEST_SET = std::string(QUINCE_TEST_DATA_DIR) + "/training/sf3000-n1000-s1/";

}  // namespace

// Both codecs round-trip a shard and the SHA-256 is computed without starting a program (the xz, zstd and
// sha256sum commands are out of reach).
TEST(TrainingFormat, ShardFilesNeedNoProgram) {
    Scratch s("noprog");
    const std::string raw = encoded(sample_games(), true);
    std::string back, error;
    NoPrograms none;
    for (const char* name : {"shard-00000.qtd.xz", "shard-00001.qtd.zst"}) {
        const Codec codec = std::string(name).ends_with(".zst") ? Codec::Zstd : Codec::Xz;
        ASSERT_TRUE(write_shard_file(s / name, raw, codec, &error)) << name << ": " << error;
        ASSERT_TRUE(read_shard_file(s / name, &back, &error)) << name << ": " << error;
        EXPECT_EQ(back, raw) << name;
        EXPECT_FALSE(fs::exists(s / (std::string(name) + ".tmp"))) << "the temporary file is renamed";
    }
    put_file(s / "abc", "abc");
    EXPECT_EQ(file_sha256(s / "abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(file_sha256(s / "missing"), "");
    EXPECT_EQ(file_sha256(s.dir.string()), "");
    EXPECT_EQ(files_sha256({s / "abc", s / "abc"}), "bbb59da3af939f7af5f360f2ceb80a496e3bae1cd87dde426db0ae40677e1c2c");
}

// The committed shards (written by the xz command) are read, hashed as their manifest says, and written
// again byte for byte: the library writes what `xz -9e -T1` wrote.
TEST(TrainingFormat, CommittedShardsReadAndRewriteByteForByte) {
    Scratch s("committed");
    const std::vector<std::pair<std::string, std::string>> shards = {
        {"shard-00000.qtd.xz", "57220f9b795d50e320c2c34ef2d8f17a1aebf544187849e7e299619e895bd0bb"},
        {"shard-00001.qtd.xz", "9a3c78ef1eb8e7fcad65e604fa87e880c3bf7135c81c7c99f73a54721d731104"},
        {"shard-00019.qtd.xz", "4a5b9234a1f2671506595f786024d70e57ca157e4be6eb760c70d2429dc78a8e"}};
    for (const auto& [name, sha] : shards) {
        const std::string path = TEST_SET + name;
        EXPECT_EQ(file_sha256(path), sha) << name << ": the manifest's sha256";
        std::string raw, error;
        ASSERT_TRUE(read_shard_file(path, &raw, &error)) << error;
        std::vector<TrainingGame> games;
        ASSERT_TRUE(decode_shard(raw, nullptr, &games, &error)) << error;
        EXPECT_EQ(games.size(), 200u) << name;
        ASSERT_TRUE(write_shard_file(s / name, raw, Codec::Xz, &error)) << error;
        EXPECT_TRUE(file_bytes(s / name) == file_bytes(path)) << name << " was not written again byte for byte";
    }
}

// What the library writes the commands read, and the other way round, and the bytes are the ones the commands
// write (checked where they are installed: xz-utils and zstd).
TEST(TrainingFormat, ShardFilesAreWhatTheCommandsReadAndWrite) {
    Scratch s("commands");
    const std::string raw = encoded(sample_games(), false);
    put_file(s / "raw", raw);
    std::string back, error;
    int checked = 0;
    if (have_program("xz")) {
        ASSERT_TRUE(write_shard_file(s / "ours.qtd.xz", raw, Codec::Xz, &error)) << error;
        ASSERT_EQ(std::system(("xz -dc -- " + shell_quote(s / "ours.qtd.xz") + " > " + shell_quote(s / "xz.out")).c_str()), 0);
        EXPECT_EQ(file_bytes(s / "xz.out"), raw);
        ASSERT_EQ(std::system(("xz -9e -T1 -c -- " + shell_quote(s / "raw") + " > " + shell_quote(s / "theirs.qtd.xz")).c_str()), 0);
        EXPECT_TRUE(file_bytes(s / "theirs.qtd.xz") == file_bytes(s / "ours.qtd.xz")) << "xz -9e -T1 writes other bytes";
        ASSERT_TRUE(read_shard_file(s / "theirs.qtd.xz", &back, &error)) << error;
        EXPECT_EQ(back, raw);
        // Two streams one after the other (`cat a.xz b.xz`): xz -dc reads both, and so do we.
        put_file(s / "two.qtd.xz", file_bytes(s / "ours.qtd.xz") + file_bytes(s / "theirs.qtd.xz"));
        ASSERT_TRUE(read_shard_file(s / "two.qtd.xz", &back, &error)) << error;
        EXPECT_EQ(back, raw + raw);
        ++checked;
    }
    if (have_program("zstd")) {
        ASSERT_TRUE(write_shard_file(s / "ours.qtd.zst", raw, Codec::Zstd, &error)) << error;
        ASSERT_EQ(std::system(("zstd -q -dc -- " + shell_quote(s / "ours.qtd.zst") + " > " + shell_quote(s / "zstd.out")).c_str()), 0);
        EXPECT_EQ(file_bytes(s / "zstd.out"), raw);
        ASSERT_EQ(std::system(("zstd -q -19 -f -o " + shell_quote(s / "theirs.qtd.zst") + " -- " + shell_quote(s / "raw")).c_str()), 0);
        EXPECT_TRUE(file_bytes(s / "theirs.qtd.zst") == file_bytes(s / "ours.qtd.zst")) << "zstd -19 writes other bytes";
        ASSERT_TRUE(read_shard_file(s / "theirs.qtd.zst", &back, &error)) << error;
        EXPECT_EQ(back, raw);
        put_file(s / "two.qtd.zst", file_bytes(s / "ours.qtd.zst") + file_bytes(s / "theirs.qtd.zst"));
        ASSERT_TRUE(read_shard_file(s / "two.qtd.zst", &back, &error)) << error;
        EXPECT_EQ(back, raw + raw);
        ++checked;
    }
    if (checked == 0) GTEST_SKIP() << "neither xz nor zstd is installed (Debian's xz-utils, zstd)";
}

// A damaged shard of either codec is refused with an error naming the file, never read as something else.
TEST(TrainingFormat, ACorruptShardIsRefusedNamingTheFile) {
    Scratch s("corrupt");
    const std::string raw = encoded(sample_games(), true);
    std::string error, back;
    for (const char* name : {"shard-00000.qtd.xz", "shard-00000.qtd.zst"}) {
        const Codec codec = std::string(name).ends_with(".zst") ? Codec::Zstd : Codec::Xz;
        ASSERT_TRUE(write_shard_file(s / name, raw, codec, &error)) << error;
        const std::string good = file_bytes(s / name);
        const std::vector<std::pair<std::string, std::string>> damaged = {
            {"a flipped byte", [&] { std::string b = good; b[b.size() / 2] ^= 0x20; return b; }()},
            {"a truncated file", good.substr(0, good.size() - 5)},
            {"an empty file", ""},
            {"no compressed file", "QTD1 this is not compressed\n"},
            {"trailing garbage", good + "garbage"}};
        for (const auto& [what, bytes] : damaged) {
            put_file(s / name, bytes);
            error.clear();
            EXPECT_FALSE(read_shard_file(s / name, &back, &error)) << name << ", " << what;
            EXPECT_EQ(error.rfind(s / name + ": cannot decompress: the file is truncated or corrupt (", 0), 0u)
                << name << ", " << what << ": " << error;
        }
    }
    EXPECT_FALSE(read_shard_file(s / "shard-00001.qtd.xz", &back, &error));
    EXPECT_EQ(error, s / "shard-00001.qtd.xz" + ": no such shard file");
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
