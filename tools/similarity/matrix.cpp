#include "matrix.h"

#include <cmath>
#include <functional>
#include <limits>

namespace quince::similarity {

Share wilson(int same, int n, double z) {
    Share s;
    s.same = same;
    s.n = n;
    if (n == 0) return s;
    const double p = double(same) / n, z2 = z * z;
    const double centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    const double half = z / (1.0 + z2 / n) * std::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n));
    s.low = std::max(0.0, centre - half);
    s.high = std::min(1.0, centre + half);
    // The bounds are exact there; rounding must not move them.
    if (same == 0) s.low = 0;
    if (same == n) s.high = 1;
    return s;
}

namespace {

Share agreement(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    int same = 0, n = 0;
    for (std::size_t p = 0; p < a.size() && p < b.size(); ++p) {
        if (a[p].empty() || b[p].empty()) continue;
        ++n;
        same += a[p] == b[p];
    }
    return wilson(same, n);
}

}  // namespace

Similarity compute_similarity(const std::vector<EngineMoves>& engines) {
    Similarity s;
    const std::size_t n = engines.size();
    for (const EngineMoves& e : engines) s.positions = std::max(s.positions, int(e[0].size()));
    s.same_move.assign(n, std::vector<Share>(n));
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) s.same_move[i][j] = agreement(engines[i][0], engines[j][0]);
        s.self_same.push_back(agreement(engines[i][0], engines[i][1]));
        s.self_double.push_back(agreement(engines[i][0], engines[i][2]));
    }
    for (std::size_t i = 0; i < n; ++i) {
        int best = -1;
        for (std::size_t j = 0; j < n; ++j)
            if (j != i && (best < 0 || s.same_move[i][j].value() > s.same_move[i][std::size_t(best)].value()))
                best = int(j);
        s.nearest.push_back(best);
    }
    return s;
}

std::vector<Merge> average_linkage(const std::vector<std::vector<double>>& distance) {
    const int n = int(distance.size());
    std::vector<Merge> merges;
    if (n < 2) return merges;
    // Active clusters: id, members; cluster distances are the mean over member pairs (UPGMA).
    std::vector<int> ids, sizes;
    std::vector<std::vector<double>> d = distance;
    for (int i = 0; i < n; ++i) ids.push_back(i), sizes.push_back(1);
    while (ids.size() > 1) {
        std::size_t bi = 0, bj = 1;
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < ids.size(); ++i)
            for (std::size_t j = i + 1; j < ids.size(); ++j)
                if (d[i][j] < best - 1e-12) best = d[i][j], bi = i, bj = j;
        const int size = sizes[bi] + sizes[bj];
        merges.push_back({ids[bi], ids[bj], best, size});
        // The merged cluster takes slot bi; slot bj goes.
        for (std::size_t k = 0; k < ids.size(); ++k) {
            if (k == bi || k == bj) continue;
            const double v = (d[bi][k] * sizes[bi] + d[bj][k] * sizes[bj]) / size;
            d[bi][k] = d[k][bi] = v;
        }
        ids[bi] = n + int(merges.size()) - 1;
        sizes[bi] = size;
        ids.erase(ids.begin() + std::ptrdiff_t(bj));
        sizes.erase(sizes.begin() + std::ptrdiff_t(bj));
        d.erase(d.begin() + std::ptrdiff_t(bj));
        for (auto& row : d) row.erase(row.begin() + std::ptrdiff_t(bj));
    }
    return merges;
}

std::vector<int> leaf_order(const std::vector<Merge>& merges, int leaves) {
    std::vector<int> order;
    if (merges.empty()) {
        for (int i = 0; i < leaves; ++i) order.push_back(i);
        return order;
    }
    std::function<void(int)> walk = [&](int id) {
        if (id < leaves) {
            order.push_back(id);
            return;
        }
        const Merge& m = merges[std::size_t(id - leaves)];
        walk(m.a);
        walk(m.b);
    };
    walk(leaves + int(merges.size()) - 1);
    return order;
}

}  // namespace quince::similarity
