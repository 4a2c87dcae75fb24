#include "wdlfit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>

#include "board/position.h"
#include "cli/cli.h"
#include "training/inputs.h"
#include "training/reader.h"
#include "training/sample.h"

namespace quince::wdlfit {

namespace {

constexpr int NP = 8;  // a[0..3], b[0..3] in WdlModel's order (x^3 first)
using Vec = std::array<double, NP>;

eval::WdlModel to_model(const Vec& t) {
    eval::WdlModel m;
    for (int i = 0; i < 4; ++i) m.a[std::size_t(i)] = t[std::size_t(i)], m.b[std::size_t(i)] = t[std::size_t(4 + i)];
    return m;
}

// a > 0 keeps W + L below 1 (a draw rate of at least 0), b > 0 keeps the win rate rising with the score.
bool valid(const eval::WdlModel& m) {
    for (int mat = eval::WDL_MATERIAL_MIN; mat <= eval::WDL_MATERIAL_MAX; ++mat)
        if (!(eval::wdl_a(m, mat) > 0) || !(eval::wdl_b(m, mat) > 0)) return false;
    return true;
}

double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

// Mean negative log-likelihood and (when grad) its gradient.
double loss_and_gradient(const eval::WdlModel& m, const std::vector<Point>& points, Vec* grad) {
    if (!valid(m)) return std::numeric_limits<double>::infinity();
    double loss = 0;
    Vec g{};
    for (const Point& p : points) {
        const double x = double(std::clamp(p.material, eval::WDL_MATERIAL_MIN, eval::WDL_MATERIAL_MAX)) /
                         eval::WDL_MATERIAL_SCALE;
        const double xp[4] = {x * x * x, x * x, x, 1.0};
        const double a = eval::wdl_a(m, p.material), b = eval::wdl_b(m, p.material);
        const double u = (p.score - a) / b, w = (-p.score - a) / b;
        const double pw = sigmoid(u), pl = sigmoid(w);
        const double su = pw * (1 - pw), sw = pl * (1 - pl);  // the sigmoid's derivatives
        double prob, dpa, dpb;
        if (p.result > 0.75) prob = pw, dpa = -su / b, dpb = -su * u / b;
        else if (p.result < 0.25) prob = pl, dpa = -sw / b, dpb = -sw * w / b;
        else prob = 1 - pw - pl, dpa = (su + sw) / b, dpb = (su * u + sw * w) / b;
        prob = std::max(prob, 1e-300);
        loss -= std::log(prob);
        if (grad) {
            for (int i = 0; i < 4; ++i) {
                g[std::size_t(i)] -= dpa / prob * xp[i];
                g[std::size_t(4 + i)] -= dpb / prob * xp[i];
            }
        }
    }
    const double n = double(std::max<std::size_t>(points.size(), 1));
    if (grad)
        for (int i = 0; i < NP; ++i) (*grad)[std::size_t(i)] = g[std::size_t(i)] / n;
    return loss / n;
}

// Solves A d = r for the active coordinates (Gaussian elimination, partial pivoting). False if singular.
bool solve(std::vector<std::vector<double>> A, std::vector<double> r, std::vector<double>& d) {
    const std::size_t n = r.size();
    for (std::size_t c = 0; c < n; ++c) {
        std::size_t piv = c;
        for (std::size_t k = c + 1; k < n; ++k)
            if (std::abs(A[k][c]) > std::abs(A[piv][c])) piv = k;
        if (std::abs(A[piv][c]) < 1e-300) return false;
        std::swap(A[c], A[piv]);
        std::swap(r[c], r[piv]);
        for (std::size_t k = c + 1; k < n; ++k) {
            const double f = A[k][c] / A[c][c];
            for (std::size_t j = c; j < n; ++j) A[k][j] -= f * A[c][j];
            r[k] -= f * r[c];
        }
    }
    d.assign(n, 0);
    for (std::size_t c = n; c-- > 0;) {
        double s = r[c];
        for (std::size_t j = c + 1; j < n; ++j) s -= A[c][j] * d[j];
        d[c] = s / A[c][c];
    }
    return true;
}

FitResult newton(const std::vector<Point>& points, Vec theta, int degree) {
    std::vector<int> active;  // the constant term is index 3 (a) and 7 (b); degree d adds 3-d..2
    for (int i = 3 - degree; i <= 3; ++i) active.push_back(i);
    for (int i = 3 - degree; i <= 3; ++i) active.push_back(4 + i);
    const std::size_t n = active.size();
    FitResult r;
    Vec g{};
    double loss = loss_and_gradient(to_model(theta), points, &g);
    double lambda = 1e-3;
    for (r.iterations = 0; r.iterations < 200; ++r.iterations) {
        // Hessian: central differences of the exact gradient.
        std::vector<std::vector<double>> H(n, std::vector<double>(n));
        for (std::size_t j = 0; j < n; ++j) {
            const std::size_t k = std::size_t(active[j]);
            const double h = 1e-5 * std::max(1.0, std::abs(theta[k]));
            Vec tp = theta, tm = theta, gp{}, gm{};
            tp[k] += h, tm[k] -= h;
            const double lp = loss_and_gradient(to_model(tp), points, &gp);
            const double lm = loss_and_gradient(to_model(tm), points, &gm);
            if (!std::isfinite(lp) || !std::isfinite(lm)) {  // at the border of the valid region: curvature 1
                for (std::size_t i = 0; i < n; ++i) H[i][j] = i == j;
                continue;
            }
            for (std::size_t i = 0; i < n; ++i) H[i][j] = (gp[std::size_t(active[i])] - gm[std::size_t(active[i])]) / (2 * h);
        }
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < i; ++j) H[i][j] = H[j][i] = (H[i][j] + H[j][i]) / 2;
        std::vector<double> rhs(n);
        for (std::size_t i = 0; i < n; ++i) rhs[i] = -g[std::size_t(active[i])];
        bool improved = false;
        double step = 0;
        while (lambda < 1e12) {
            auto A = H;
            for (std::size_t i = 0; i < n; ++i) A[i][i] += lambda * std::max(std::abs(H[i][i]), 1e-12);
            std::vector<double> d;
            if (solve(A, rhs, d)) {
                Vec t = theta;
                step = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    const std::size_t k = std::size_t(active[i]);
                    t[k] += d[i];
                    step = std::max(step, std::abs(d[i]) / std::max(1.0, std::abs(theta[k])));
                }
                Vec gt{};
                const double lt = loss_and_gradient(to_model(t), points, &gt);
                if (std::isfinite(lt) && lt <= loss) {
                    const double gain = loss - lt;
                    theta = t, g = gt, loss = lt, improved = true;
                    lambda = std::max(lambda / 10, 1e-9);
                    if (gain < 1e-13 || step < 1e-10) r.converged = true;
                    break;
                }
            }
            lambda *= 10;
        }
        if (!improved || r.converged) {
            r.converged = true;
            break;
        }
    }
    r.model = to_model(theta);
    r.loss = loss;
    return r;
}

}  // namespace

bool read_points(const std::string& path, int max_score, std::vector<Point>& out, ReadStats& stats,
                 std::string* error) {
    // Quince's own search score of every position (a QTD shard's labelled ones), not the teacher's.
    return training::for_each_sample(
        {path},
        [&](const training::TrainingSample& ts) {
            ++stats.lines;
            if (std::abs(ts.score) > max_score) {
                ++stats.beyond_max_score;
                return true;
            }
            out.push_back({double(ts.score), eval::wdl_material(*ts.pos), ts.result});
            ++stats.used;
            return true;
        },
        error);
}

double mean_loss(const eval::WdlModel& model, const std::vector<Point>& points) {
    return loss_and_gradient(model, points, nullptr);
}

FitResult fit(const std::vector<Point>& points, int degree) {
    degree = std::clamp(degree, 0, 3);
    // Start: an even chance at 1.5 pawns, spread 1 pawn; then the constant model, then the polynomials.
    Vec start{};
    start[3] = 150, start[7] = 100;
    const FitResult constant = newton(points, start, 0);
    FitResult r = degree == 0 ? constant : newton(points, [&] {
        Vec t{};
        for (int i = 0; i < 4; ++i) t[std::size_t(i)] = constant.model.a[std::size_t(i)], t[std::size_t(4 + i)] = constant.model.b[std::size_t(i)];
        return t;
    }(), degree);
    r.constant_loss = constant.loss;
    return r;
}

namespace {

std::string number(double v) {
    std::ostringstream s;
    s << std::setprecision(6) << v;
    return s.str();
}

}  // namespace

int run_wdlfit_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    cli::ParsedArgs a;
    std::string error;
    if (!cli::parse_args(args, {{"degree", true}, {"max-score", true}, {"test", true}}, &a, &error))
        return cli::usage_error(err, "wdlfit", error);
    long long degree = 3, max_score = 3000;
    if (a.has("degree") && !cli::parse_number(a.options["degree"], 0, 3, "--degree", &degree, &error))
        return cli::usage_error(err, "wdlfit", error);
    if (a.has("max-score") &&
        !cli::parse_number(a.options["max-score"], 1, training::MAX_SAMPLE_SCORE, "--max-score", &max_score, &error))
        return cli::usage_error(err, "wdlfit", error);
    if (a.positional.empty()) return cli::usage_error(err, "wdlfit", "expected at least one FILE");
    // Positions from training files, datagen folders or .list files (as `quince tune --data` reads them).
    auto read_all = [&](const std::vector<std::string>& paths, std::vector<Point>& points, ReadStats& stats,
                        std::size_t* files) {
        std::vector<std::string> expanded;
        if (!training::expand_data_args(paths, expanded, &error)) return false;
        for (const std::string& f : expanded)
            if (!read_points(f, int(max_score), points, stats, &error)) return false;
        *files = expanded.size();
        return true;
    };
    std::vector<Point> points, test_points;
    ReadStats stats, test_stats;
    std::size_t files = 0, test_files = 0;
    if (!read_all(a.positional, points, stats, &files) ||
        (a.has("test") && !read_all({a.options["test"]}, test_points, test_stats, &test_files))) {
        err << "quince wdlfit: " << error << "\n";
        return cli::EXIT_FAILED;
    }
    if (points.size() < 100) {
        err << "quince wdlfit: " << points.size() << " usable positions; at least 100 are needed\n";
        return cli::EXIT_FAILED;
    }
    if (a.has("test") && test_points.empty()) {
        err << "quince wdlfit: --test " << a.options["test"] << ": no usable positions\n";
        return cli::EXIT_FAILED;
    }
    std::size_t wins = 0, draws = 0, losses = 0;
    for (const Point& p : points) (p.result > 0.75 ? wins : p.result < 0.25 ? losses : draws) += 1;
    const FitResult r = fit(points, int(degree));
    out << "positions: " << stats.used << " of " << stats.lines << " lines in " << files
        << " file(s) (" << stats.beyond_max_score << " with |score| > " << max_score << " left out); results "
        << wins << " white wins, " << draws << " draws, " << losses << " black wins\n";
    out << "fit: degree " << degree << ", " << r.iterations << " Newton steps, " << (r.converged ? "converged" : "NOT converged")
        << "; mean log-loss " << number(r.loss) << " (constant a, b: " << number(r.constant_loss)
        << "; the model in use: " << number(mean_loss(eval::fitted_wdl_model(), points))
        << "; the network's: " << number(mean_loss(eval::network_wdl_model(), points)) << ")\n";
    if (a.has("test"))
        out << "test: " << test_stats.used << " positions in " << test_files << " file(s); mean log-loss of the fit "
            << number(mean_loss(r.model, test_points)) << ", of the model in use "
            << number(mean_loss(eval::fitted_wdl_model(), test_points)) << ", of the network's "
            << number(mean_loss(eval::network_wdl_model(), test_points)) << "\n";
    out << "material     a      b    W/D/L at +100 cp\n";
    for (int mat : {20, 30, 40, 50, 58, 70, 78}) {
        const eval::Wdl w = eval::score_to_wdl(100, mat, r.model);
        out << std::setw(8) << mat << std::setw(7) << std::lround(eval::wdl_a(r.model, mat)) << std::setw(7)
            << std::lround(eval::wdl_b(r.model, mat)) << "    " << w.win << "/" << w.draw << "/" << w.loss << "\n";
    }
    out << "coefficients (eval/wdl.cpp):\n    {{" << number(r.model.a[0]) << ", " << number(r.model.a[1]) << ", "
        << number(r.model.a[2]) << ", " << number(r.model.a[3]) << "}, {" << number(r.model.b[0]) << ", "
        << number(r.model.b[1]) << ", " << number(r.model.b[2]) << ", " << number(r.model.b[3]) << "}}\n";
    return r.converged ? cli::EXIT_OK : cli::EXIT_FAILED;
}

}  // namespace quince::wdlfit
