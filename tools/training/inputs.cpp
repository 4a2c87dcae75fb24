#include "training/inputs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/text.h"
#include "training/game_format.h"

namespace quince::training {

namespace fs = std::filesystem;

bool expand_data_args(const std::vector<std::string>& args, std::vector<std::string>& files, std::string* error) {
    auto fail = [&](const std::string& e) {
        if (error) *error = e;
        return false;
    };
    for (const std::string& a : args) {
        std::error_code ec;
        if (fs::is_directory(a, ec)) {
            std::vector<std::string> shards;
            for (const auto& entry : fs::directory_iterator(a, ec)) {
                const std::string n = entry.path().filename().string();
                if (entry.is_regular_file() && n.rfind("shard-", 0) == 0 && n.size() > 4 && n.substr(n.size() - 4) == ".txt")
                    shards.push_back(entry.path().string());
            }
            if (ec) return fail("cannot read the folder '" + a + "': " + ec.message());
            if (shards.empty()) {
                // A training set of QTD shards (data/training): every shard under the folder, in path order.
                std::vector<ShardFile> qtd;
                if (!find_shards({a}, &qtd, error)) return false;
                for (const ShardFile& f : qtd) shards.push_back(f.path);
            }
            if (shards.empty()) return fail("the folder '" + a + "' holds no shard-*.txt files and no QTD shards");
            std::sort(shards.begin(), shards.end());
            files.insert(files.end(), shards.begin(), shards.end());
        } else if (a.size() > 5 && a.substr(a.size() - 5) == ".list") {
            std::ifstream in(a);
            if (!in) return fail("cannot open the list '" + a + "'");
            const fs::path dir = fs::path(a).parent_path();
            int line_no = 0, listed = 0;
            for (std::string line; std::getline(in, line);) {
                ++line_no;
                const std::string t = trim(line);
                if (t.empty() || t[0] == '#') continue;
                const fs::path f = fs::path(t).is_absolute() || dir.empty() ? fs::path(t) : dir / t;
                if (!fs::is_regular_file(f, ec))
                    return fail(a + ":" + std::to_string(line_no) + ": no such training file '" + f.string() + "'");
                files.push_back(f.string());
                ++listed;
            }
            if (listed == 0) return fail("the list '" + a + "' names no training file");
        } else {
            if (!fs::is_regular_file(a, ec)) return fail("cannot open training file '" + a + "'");
            files.push_back(a);
        }
    }
    return true;
}

}  // namespace quince::training
