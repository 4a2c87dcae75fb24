// Training speed of `quince train-nnue` (tools/nnue/trainer.h): positions per second of train() on real
// positions, epoch by epoch, and their median.
//   build/trainer_speed [--epochs N] [--threads N] [--batch N] [--arch NAME] [--validation X] [DATA...]
// DATA as train-nnue takes it (QTD shards or folders, training files); by default the two committed QTD
// training shards of tests/data/training (about 48,000 positions with their mirror images: three batches of
// 16,384), every quiet ply, mirrored, no validation, so that only the training itself is timed. With
// --validation or a set's validation shards among DATA, an epoch's time includes its validation pass, as
// the trainer's own log line does.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "nnue/trainer.h"
#include "training/game_format.h"
#include "training/inputs.h"

using namespace quince;
using namespace quince::nnue_train;

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    cli::ParsedArgs a;
    std::string error;
    if (!cli::parse_args(args, {{"epochs", true}, {"threads", true}, {"batch", true}, {"arch", true}, {"validation", true}},
                         &a, &error)) {
        std::fprintf(stderr, "trainer_speed: %s\n", error.c_str());
        return 2;
    }
    Options o;
    o.validation = 0;
    long long epochs = 5, threads = 2, batch = o.batch;
    double validation = 0;
    const bool ok =
        (!a.has("epochs") || cli::parse_number(a.options["epochs"], 1, 1000, "--epochs", &epochs, &error)) &&
        (!a.has("threads") || cli::parse_number(a.options["threads"], 1, 256, "--threads", &threads, &error)) &&
        (!a.has("batch") || cli::parse_number(a.options["batch"], 1, 1 << 24, "--batch", &batch, &error)) &&
        (!a.has("validation") || cli::parse_real(a.options["validation"], 0, 0.9, "--validation", &validation, &error));
    if (!ok) {
        std::fprintf(stderr, "trainer_speed: %s\n", error.c_str());
        return 2;
    }
    if (a.has("arch") && (o.arch = eval::nnue::find_architecture(a.options["arch"])) < 0) {
        std::fprintf(stderr, "trainer_speed: --arch: '%s' is not an architecture (%s)\n", a.options["arch"].c_str(),
                     eval::nnue::architecture_names().c_str());
        return 2;
    }
    o.epochs = int(epochs), o.threads = int(threads), o.batch = int(batch), o.validation = validation;

    std::vector<std::string> data_args = a.positional;
    if (data_args.empty()) {
        const std::string dir = std::string(QUINCE_TEST_DATA_DIR) + "/training/sf3000-n1000-s1/";
        data_args = {dir + "shard-00000.qtd.xz", dir + "shard-00001.qtd.xz"};
    }
    std::vector<std::string> files, shards;
    if (!training::expand_data_args(data_args, files, &error)) {
        std::fprintf(stderr, "trainer_speed: %s\n", error.c_str());
        return 1;
    }
    Dataset data;
    QtdRead how;
    how.plies = training::Plies::Quiet;
    for (const std::string& f : files)
        if (training::is_shard_file(f)) shards.push_back(f);
    bool read = shards.empty() || read_qtd_positions(shards, data, &error, how);
    for (const std::string& f : files)
        if (read && !training::is_shard_file(f))
            read = read_text_positions(
                f, [&](const Position& pos, int target, double result, std::uint64_t game, bool) { data.add(pos, target, result, game); },
                &error);
    if (!read) {
        std::fprintf(stderr, "trainer_speed: %s\n", error.c_str());
        return 1;
    }
    data.add_mirrored();
    double pieces = 0;
    for (const Sample& s : data.samples()) pieces += s.count;
    std::printf("%zu positions (%.1f pieces on average), architecture %s, batch %d, %d thread(s), %d epoch(s)\n",
                data.samples().size(), pieces / double(std::max<std::size_t>(1, data.samples().size())),
                std::string(eval::nnue::architecture_name(o.arch)).c_str(), o.batch, o.threads, o.epochs);
    Result r;
    if (!train(data, o, r, nullptr, &error)) {
        std::fprintf(stderr, "trainer_speed: %s\n", error.c_str());
        return 1;
    }
    std::vector<double> rates;
    for (const EpochReport& e : r.epochs) {
        std::printf("epoch %d: %.3f s, %.0f positions/s\n", e.epoch, e.seconds, e.positions_per_second);
        rates.push_back(e.positions_per_second);
    }
    std::sort(rates.begin(), rates.end());
    std::printf("median %.0f positions/s, best %.0f (%zu training positions an epoch)\n", rates[rates.size() / 2],
                rates.back(), r.train_positions);
    return 0;
}
