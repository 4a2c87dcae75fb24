// The numbers of a similarity test: how often two engines chose the same move, with a Wilson interval; the
// controls (each engine against itself); the nearest neighbour of each engine; and the tree of average-
// linkage clustering on 1 − similarity.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace quince::similarity {

// k same moves in n positions and the 95 % Wilson score interval of the share.
struct Share {
    int same = 0, n = 0;
    double value() const { return n ? double(same) / n : 0.0; }
    double low = 0, high = 0;
};
Share wilson(int same, int n, double z = 1.959963984540054);

// Moves of one engine: [run][position], "" = missing (a position counts for a pair only when both have it).
using EngineMoves = std::array<std::vector<std::string>, 3>;

struct Similarity {
    int positions = 0;
    std::vector<std::vector<Share>> same_move;  // [i][j] over the test runs; 1 (n/n) on the diagonal
    std::vector<Share> self_same;    // the test run against the repeat at the same limit
    std::vector<Share> self_double;  // the test run against the search at twice the limit
    std::vector<int> nearest;        // the other engine of largest share (-1 when there is none)
};
Similarity compute_similarity(const std::vector<EngineMoves>& engines);

// One merge of average-linkage (UPGMA) clustering: clusters a and b (ids: leaves 0..n-1, the k-th merge
// n + k) joined at distance `height`, the average distance between their members.
struct Merge {
    int a, b;
    double height;
    int size;
};
// distance: symmetric, n × n. Ties are broken by the lowest ids, so the tree is the same on every run.
std::vector<Merge> average_linkage(const std::vector<std::vector<double>>& distance);
// The leaves in the order a drawing of the tree puts them (no crossing branches).
std::vector<int> leaf_order(const std::vector<Merge>& merges, int leaves);

}  // namespace quince::similarity
