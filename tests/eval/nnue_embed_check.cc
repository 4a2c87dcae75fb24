// The embedding of a default net (cmake/embed_net.cmake), checked on a net the trainer makes at build time
// from tests/data/nnue_sample.txt (tests/CMakeLists.txt): this program is linked with that net embedded in
// place of the build's own. It exits 0 when the embedded net is the file byte for byte (same checksum and
// description), profile nnue is listed and is a network, and it evaluates as the file loaded through EvalFile.
#include <cstdio>
#include <string>

#include "board/position.h"
#include "eval/evaluate.h"
#include "eval/evaluation.h"
#include "eval/nnue/network.h"
#include "eval/profile.h"

using namespace quince;

namespace {

int fail(const std::string& what) {
    std::fprintf(stderr, "nnue_embed_check: %s\n", what.c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) return fail("usage: nnue_embed_check NET.nnue (the embedded net's file)");
    std::string error;
    const auto file = eval::nnue::load_network_file(argv[1], &error);
    if (!file) return fail(error);
    const auto embedded = eval::nnue::embedded_network();
    if (!embedded) return fail("no embedded net");
    if (embedded->checksum != file->checksum || embedded->description != file->description)
        return fail("the embedded net is not the file's");
    if (embedded->description.find("train-nnue") == std::string::npos)
        return fail("description does not name the trainer: " + embedded->description);
    bool listed = false;
    for (const std::string& n : eval::profile_names()) listed = listed || n == "nnue";
    if (!listed) return fail("profile nnue not listed");
    const eval::EvalPtr builtin = eval::builtin_evaluation("nnue", &error);
    if (!builtin || !builtin->network) return fail("profile nnue is not a network: " + error);
    auto from_file = eval::load_evaluation(argv[1], &error);
    if (!from_file) return fail(error);
    eval::Evaluator a("nnue"), b;
    b.set_eval(from_file);
    if (a.profile() != "nnue") return fail("Evaluator(\"nnue\") is " + a.profile());
    const char* fens[] = {Position::START_FEN, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                          "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"};
    int distinct = 0;
    Value first = 0;
    for (const char* fen : fens) {
        Position pos;
        if (!pos.set_fen(fen, false, &error)) return fail(error);
        const int va = a.evaluate(pos), vb = b.evaluate(pos);
        if (va != vb) return fail(std::string("embedded and file nets differ on ") + fen);
        if (fen == fens[0]) first = va;
        else distinct += va != first;
    }
    if (!distinct) return fail("the net scores every position alike");
    std::printf("nnue_embed_check: embedded net %016llx (%zu-byte description) ok\n",
                static_cast<unsigned long long>(embedded->checksum), embedded->description.size());
    return 0;
}
