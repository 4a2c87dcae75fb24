// Build step (not installed): runs `bench` at its default depth and writes the node count into a
// header, so that `quince --version` names the bench signature of the very build it belongs to.
// usage: quince_bench_signature OUTPUT.h
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "uci/uci.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: quince_bench_signature OUTPUT.h\n";
        return 2;
    }
    const std::uint64_t nodes = quince::uci::run_bench(13, [](const std::string&) {});
    const std::string tmp = std::string(argv[1]) + ".tmp";
    {
        std::ofstream out(tmp);
        out << "// Generated at build time by cmake/bench_signature.cpp: `quince bench` of this build.\n"
            << "#pragma once\n#define QUINCE_BENCH_SIGNATURE \"" << nodes << "\"\n"
            << "#define QUINCE_BENCH_SIGNATURE_REASON \"\"\n";
        if (!out) {
            std::cerr << "cannot write " << tmp << "\n";
            return 1;
        }
    }
    if (std::rename(tmp.c_str(), argv[1]) != 0) {
        std::cerr << "cannot write " << argv[1] << "\n";
        return 1;
    }
    std::cout << "bench signature: " << nodes << "\n";
    return 0;
}
