// The trainer (trainer.h). The float forward and backward passes mirror the engine's quantised ones
// (eval/nnue/accumulator.cpp): same inputs, same perspective order, SCReLU = clamp(x, 0, 1)^2.
#include "nnue/trainer.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <thread>

#include "core/random.h"
#include "eval/nnue/accumulator.h"
#include "training/game_format.h"
#include "training/sample.h"

namespace quince::nnue_train {

using namespace eval::nnue;

namespace {

constexpr int H = HIDDEN;
// A batch is cut into this many slices, each with its own gradient, summed in order: the result does not
// depend on how many threads share the slices.
constexpr int SLICES = 16;

// The other perspective's index of a White-perspective input: colours swapped, board flipped.
inline int flip(int f) {
    const int piece = f >> 6, sq = f & 63;
    return ((piece < 6 ? piece + 6 : piece - 6) << 6) | (sq ^ 56);
}

inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// The inputs of the side to move (us) and of the other side (them).
inline void perspectives(const Sample& s, int* us, int* them) {
    for (int k = 0; k < s.count; ++k) {
        const int w = s.features[k], b = flip(w);
        us[k] = s.black_to_move ? b : w;
        them[k] = s.black_to_move ? w : b;
    }
}

std::uint64_t game_hash(std::uint64_t game) { return SplitMix64(game ^ 0x6a09e667f3bcc909ull).next(); }

// Held out: a game of the data's own validation part, or one the hash of its id picks.
bool is_validation(const Sample& s, double fraction) {
    return s.held_out || double(game_hash(s.game) % 1000000) < fraction * 1e6;
}

struct Gradient {
    std::vector<float> g = std::vector<float>(FloatNet::SIZE);
    double loss = 0;
};

}  // namespace

double backprop(const FloatNet& net, const Sample& s, const Options& o, std::vector<float>& grad) {
    const float* p = net.p.data();
    int in[2][MAX_ACTIVE];
    perspectives(s, in[0], in[1]);
    alignas(64) float acc[2][H], act[2][H];
    for (int side = 0; side < 2; ++side) {
        std::memcpy(acc[side], p + FloatNet::FT_B, sizeof acc[side]);
        for (int k = 0; k < s.count; ++k) {
            const float* w = p + FloatNet::FT_W + std::size_t(in[side][k]) * H;
            for (int i = 0; i < H; ++i) acc[side][i] += w[i];
        }
    }
    float out = p[FloatNet::OUT_B];
    for (int side = 0; side < 2; ++side) {
        const float* ow = p + FloatNet::OUT_W + side * H;
        float sum = 0;
        for (int i = 0; i < H; ++i) {
            const float x = std::clamp(acc[side][i], 0.0f, 1.0f);
            act[side][i] = x * x;
            sum += act[side][i] * ow[i];
        }
        out += sum;
    }
    const double k = SCALE / o.scale;  // net output units -> sigmoid argument
    const double pred = sigmoid(out * k);
    const double teacher = s.black_to_move ? -s.teacher : s.teacher;
    const double result = s.black_to_move ? 1.0 - s.result : s.result;
    const double target = (1.0 - o.lambda) * sigmoid(teacher / o.scale) + o.lambda * result;
    const double err = pred - target;
    const float g = float(2.0 * err * pred * (1.0 - pred) * k);

    float* gp = grad.data();
    gp[FloatNet::OUT_B] += g;
    for (int side = 0; side < 2; ++side) {
        const float* ow = p + FloatNet::OUT_W + side * H;
        float* gow = gp + FloatNet::OUT_W + side * H;
        float* gb = gp + FloatNet::FT_B;
        alignas(64) float d[H];
        for (int i = 0; i < H; ++i) {
            gow[i] += g * act[side][i];
            const float a = acc[side][i];
            d[i] = (a > 0.0f && a < 1.0f) ? g * ow[i] * 2.0f * a : 0.0f;
            gb[i] += d[i];
        }
        for (int kf = 0; kf < s.count; ++kf) {
            float* gw = gp + FloatNet::FT_W + std::size_t(in[side][kf]) * H;
            for (int i = 0; i < H; ++i) gw[i] += d[i];
        }
    }
    return err * err;
}

namespace {

double loss_of(const FloatNet& net, const Sample& s, const Options& o) {
    const double pred = sigmoid(net.evaluate(s) / o.scale);
    const double teacher = s.black_to_move ? -s.teacher : s.teacher;
    const double result = s.black_to_move ? 1.0 - s.result : s.result;
    const double target = (1.0 - o.lambda) * sigmoid(teacher / o.scale) + o.lambda * result;
    return (pred - target) * (pred - target);
}

// Runs f(slice) for slice 0..n-1 on `threads` threads (slice i on thread i % threads).
template <class F>
void for_slices(int n, int threads, F&& f) {
    threads = std::max(1, std::min(threads, n));
    if (threads == 1) {
        for (int i = 0; i < n; ++i) f(i);
        return;
    }
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (int i = t; i < n; i += threads) f(i);
        });
    for (auto& th : pool) th.join();
}

// Checkpoint: magic, epochs done, Adam's step count, the parameters and Adam's two moments (host byte
// order: a checkpoint resumes on the machine family that wrote it), FNV-1a of everything before it.
constexpr char CKPT_MAGIC[8] = {'Q', 'N', 'N', 'C', 'K', 'P', 'T', '1'};

struct Adam {
    std::vector<float> m = std::vector<float>(FloatNet::SIZE), v = std::vector<float>(FloatNet::SIZE);
    std::uint64_t step = 0;
};

bool write_checkpoint(const std::string& path, int epochs_done, const FloatNet& net, const Adam& adam,
                      std::string* error) {
    std::string s(CKPT_MAGIC, 8);
    auto put = [&s](const void* d, std::size_t n) { s.append(static_cast<const char*>(d), n); };
    const std::uint32_t e = std::uint32_t(epochs_done);
    const std::uint64_t size = FloatNet::SIZE;
    put(&e, 4);
    put(&adam.step, 8);
    put(&size, 8);
    put(net.p.data(), size * 4);
    put(adam.m.data(), size * 4);
    put(adam.v.data(), size * 4);
    const std::uint64_t h = fnv1a64(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
    put(&h, 8);
    // Written beside and renamed over: an interrupted write never destroys the previous checkpoint.
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(s.data(), std::streamsize(s.size()));
        if (!out.flush()) {
            if (error) *error = "cannot write checkpoint '" + tmp + "'";
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        if (error) *error = "cannot rename '" + tmp + "' to '" + path + "'";
        return false;
    }
    return true;
}

bool read_checkpoint(const std::string& path, int& epochs_done, FloatNet& net, Adam& adam, std::string* error) {
    std::ifstream in(path, std::ios::binary);
    auto fail = [&](const std::string& what) {
        if (error) *error = "checkpoint '" + path + "': " + what;
        return false;
    };
    if (!in) return fail("cannot open");
    const std::size_t expected = 8 + 4 + 8 + 8 + 3 * FloatNet::SIZE * 4 + 8;
    std::string s(expected + 1, '\0');
    in.read(s.data(), std::streamsize(s.size()));
    s.resize(std::size_t(in.gcount()));
    if (s.size() < 8 || std::memcmp(s.data(), CKPT_MAGIC, 8) != 0) return fail("not a train-nnue checkpoint");
    if (s.size() != expected)
        return fail(std::to_string(s.size()) + " bytes, a checkpoint of this architecture has " +
                    std::to_string(expected));
    std::uint64_t h, size;
    std::memcpy(&h, s.data() + expected - 8, 8);
    if (h != fnv1a64(reinterpret_cast<const std::uint8_t*>(s.data()), expected - 8)) return fail("checksum mismatch");
    std::uint32_t e;
    const char* p = s.data() + 8;
    std::memcpy(&e, p, 4);
    std::memcpy(&adam.step, p + 4, 8);
    std::memcpy(&size, p + 12, 8);
    if (size != FloatNet::SIZE) return fail("another architecture");
    p += 20;
    net.p.resize(FloatNet::SIZE);
    std::memcpy(net.p.data(), p, size * 4);
    std::memcpy(adam.m.data(), p + size * 4, size * 4);
    std::memcpy(adam.v.data(), p + 2 * size * 4, size * 4);
    epochs_done = int(e);
    return true;
}

}  // namespace

bool read_text_positions(const std::string& path, const PositionSink& sink, std::string* error,
                         bool own_scores) {
    std::ifstream in(path);
    if (!in) {
        if (error) *error = "cannot open training file '" + path + "'";
        return false;
    }
    std::string line;
    long line_no = 0;
    std::uint64_t game = 0;
    int prev_ply = 0, prev_pieces = 0;
    double prev_result = -1;
    // Game ids of different files differ by the hash of the file's first line, not of its name: a file's
    // validation split is the same wherever it is read from.
    std::uint64_t file_id = 0;
    Position pos;
    while (std::getline(in, line)) {
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        if (game == 0) file_id = fnv1a64(reinterpret_cast<const std::uint8_t*>(line.data()), line.size());
        training::Sample s;
        std::string why;
        if (!training::parse_sample(line, s, &why) || !pos.set_fen(s.fen, false, &why)) {
            if (error) *error = path + ":" + std::to_string(line_no) + ": " + why;
            return false;
        }
        const int ply = pos.game_ply(), pieces = popcount(pos.pieces());
        // A new game: the move number does not grow, pieces appear or the result changes.
        if (ply <= prev_ply || pieces > prev_pieces || s.result != prev_result) ++game;
        prev_ply = ply, prev_pieces = pieces, prev_result = s.result;
        const bool teacher = s.teacher && !own_scores;
        sink(pos, teacher ? *s.teacher : s.score, s.result, file_id ^ (game * 0x9E3779B97F4A7C15ull), teacher);
    }
    if (in.bad()) {
        if (error) *error = "cannot read training file '" + path + "'";
        return false;
    }
    return true;
}

bool read_qtd_positions(const std::vector<std::string>& paths, Dataset& data, std::string* error,
                        const QtdRead& how) {
    std::vector<training::ShardFile> shards;
    if (!training::find_shards(paths, &shards, error)) return false;
    return training::for_each_position(
        shards,
        [&data, &how](const training::LabeledPosition& lp) {
            if (lp.ply < lp.opening_plies + how.skip_plies) return true;
            if (how.min_pieces > 0 && popcount(lp.pos->pieces()) < how.min_pieces) return true;
            const bool teacher = lp.has_teacher && !how.own_scores;
            const int target = teacher ? int(std::lround(lp.teacher * how.teacher_scale)) : lp.score;
            data.add(*lp.pos, target, lp.result, std::uint64_t(lp.game), lp.validation, teacher);
            return true;
        },
        error, how.plies);
}

bool Dataset::add(const Position& pos, int teacher_cp, double result, std::uint64_t game, bool held_out,
                  bool from_teacher) {
    Sample s{};
    Bitboard b = pos.pieces();
    if (popcount(b) > MAX_ACTIVE) {
        ++skipped_;
        return false;
    }
    while (b) {
        const Square sq = pop_lsb(b);
        const Piece pc = pos.piece_on(sq);
        s.features[s.count++] = std::uint16_t(feature_index(WHITE, color_of(pc), type_of(pc), sq));
    }
    s.black_to_move = pos.side_to_move() == BLACK;
    s.teacher = float(teacher_cp);
    s.result = float(result);
    s.game = game;
    s.held_out = held_out;
    samples_.push_back(s);
    teacher_targets_ += from_teacher;
    return true;
}

void Dataset::add_mirrored() {
    const std::size_t n = samples_.size();
    samples_.reserve(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
        Sample s = samples_[i];
        for (int k = 0; k < s.count; ++k) s.features[k] = std::uint16_t(s.features[k] ^ 7);  // file h - file
        samples_.push_back(s);
    }
}

void FloatNet::init(std::uint64_t seed) {
    p.assign(SIZE, 0.0f);
    SplitMix64 rng(seed);
    auto uniform = [&rng](float r) { return float((double(rng.next() >> 11) / 9007199254740992.0 * 2 - 1) * r); };
    // Inputs: about 32 are active, so a hidden sum starts with a spread of about 0.17, inside SCReLU's range
    // and small enough that the quantised output of a young net stays within 2 cp of the float one (the
    // output weights' 1/64 steps weigh with the square of the activations); outputs: 1 / sqrt(fan-in).
    for (std::size_t i = FT_W; i < FT_B; ++i) p[i] = uniform(0.05f);
    for (std::size_t i = OUT_W; i < OUT_B; ++i) p[i] = uniform(1.0f / std::sqrt(2.0f * HIDDEN));
}

double FloatNet::evaluate(const Sample& s) const {
    int in[2][MAX_ACTIVE];
    perspectives(s, in[0], in[1]);
    double out = p[OUT_B];
    for (int side = 0; side < 2; ++side) {
        float acc[H];
        std::memcpy(acc, p.data() + FT_B, sizeof acc);
        for (int k = 0; k < s.count; ++k) {
            const float* w = p.data() + FT_W + std::size_t(in[side][k]) * H;
            for (int i = 0; i < H; ++i) acc[i] += w[i];
        }
        for (int i = 0; i < H; ++i) {
            const double x = std::clamp(acc[i], 0.0f, 1.0f);
            out += x * x * p[OUT_W + side * H + i];
        }
    }
    return out * SCALE;
}

std::vector<std::size_t> validation_indices(const Dataset& data, const Options& options) {
    std::vector<std::size_t> v;
    for (std::size_t i = 0; i < data.samples().size(); ++i)
        if (is_validation(data.samples()[i], options.validation)) v.push_back(i);
    return v;
}

bool train(const Dataset& data, const Options& o, Result& result, std::ostream* log, std::string* error) {
    const auto& samples = data.samples();
    std::vector<std::size_t> train_idx, val_idx;
    for (std::size_t i = 0; i < samples.size(); ++i)
        (is_validation(samples[i], o.validation) ? val_idx : train_idx).push_back(i);
    if (train_idx.empty()) {
        if (error) *error = "no training positions (" + std::to_string(samples.size()) + " read, " +
                            std::to_string(val_idx.size()) + " held out for validation)";
        return false;
    }
    result.train_positions = train_idx.size();
    result.validation_positions = val_idx.size();
    FloatNet& net = result.net;
    Adam adam;
    int first_epoch = 0;
    if (!o.resume.empty()) {
        if (!read_checkpoint(o.resume, first_epoch, net, adam, error)) return false;
        if (log) *log << "resumed from " << o.resume << " after epoch " << first_epoch << "\n";
    } else {
        net.init(o.seed);
    }
    std::vector<Gradient> slices(SLICES);
    std::vector<float> grad(FloatNet::SIZE);
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    for (int epoch = first_epoch; epoch < o.epochs; ++epoch) {
        const auto start = std::chrono::steady_clock::now();
        // The order of an epoch depends on the seed and the epoch only (a resumed run repeats it): a fresh
        // shuffle of the positions in file order.
        std::sort(train_idx.begin(), train_idx.end());
        SplitMix64 rng(o.seed * 0x9E3779B97F4A7C15ull + std::uint64_t(epoch) + 1);
        for (std::size_t i = train_idx.size(); i > 1; --i) std::swap(train_idx[i - 1], train_idx[rng.below(i)]);
        const double lr = o.lr * std::pow(o.lr_decay, epoch);
        double loss_sum = 0;
        for (std::size_t begin = 0; begin < train_idx.size(); begin += std::size_t(o.batch)) {
            const std::size_t end = std::min(train_idx.size(), begin + std::size_t(o.batch));
            const std::size_t n = end - begin;
            for_slices(SLICES, o.threads, [&](int sl) {
                Gradient& g = slices[std::size_t(sl)];
                std::fill(g.g.begin(), g.g.end(), 0.0f);
                g.loss = 0;
                const std::size_t b = begin + n * std::size_t(sl) / SLICES, e = begin + n * std::size_t(sl + 1) / SLICES;
                for (std::size_t i = b; i < e; ++i) g.loss += backprop(net, samples[train_idx[i]], o, g.g);
            });
            // Sum the slices in order, then one Adam step on the batch's mean gradient.
            std::fill(grad.begin(), grad.end(), 0.0f);
            for (const Gradient& g : slices) {
                loss_sum += g.loss;
                for (std::size_t i = 0; i < FloatNet::SIZE; ++i) grad[i] += g.g[i];
            }
            ++adam.step;
            const float inv_n = float(1.0 / double(n));
            const float c1 = float(1.0 / (1.0 - std::pow(beta1, double(adam.step))));
            const float c2 = float(1.0 / (1.0 - std::pow(beta2, double(adam.step))));
            for (std::size_t i = 0; i < FloatNet::SIZE; ++i) {
                const float gi = grad[i] * inv_n;
                adam.m[i] = float(beta1) * adam.m[i] + float(1 - beta1) * gi;
                adam.v[i] = float(beta2) * adam.v[i] + float(1 - beta2) * gi * gi;
                float w = net.p[i] - float(lr) * (adam.m[i] * c1) / (std::sqrt(adam.v[i] * c2) + float(eps));
                if (i < FloatNet::OUT_B) w = std::clamp(w, -FloatNet::CLIP, FloatNet::CLIP);
                net.p[i] = w;
            }
        }
        // Validation loss, in slices too (a sum in a fixed order).
        std::vector<double> vloss(SLICES, 0.0);
        for_slices(SLICES, o.threads, [&](int sl) {
            const std::size_t b = val_idx.size() * std::size_t(sl) / SLICES, e = val_idx.size() * std::size_t(sl + 1) / SLICES;
            for (std::size_t i = b; i < e; ++i) vloss[std::size_t(sl)] += loss_of(net, samples[val_idx[i]], o);
        });
        double vsum = 0;
        for (double v : vloss) vsum += v;
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EpochReport r{epoch + 1, loss_sum / double(train_idx.size()), val_idx.empty() ? 0.0 : vsum / double(val_idx.size()),
                      secs, double(train_idx.size()) / std::max(secs, 1e-9)};
        result.epochs.push_back(r);
        if (log)
            *log << "epoch " << r.epoch << "/" << o.epochs << ": train loss " << std::setprecision(6) << r.train_loss
                 << ", validation loss " << r.validation_loss << ", " << std::setprecision(3) << secs << " s, "
                 << std::llround(r.positions_per_second) << " positions/s, lr " << lr << std::endl;
        if (!o.checkpoint.empty() && !write_checkpoint(o.checkpoint, epoch + 1, net, adam, error)) return false;
    }
    return true;
}

std::vector<std::size_t> calibration_indices(const Dataset& data, const Options& options, std::size_t most) {
    std::vector<std::size_t> train;
    for (std::size_t i = 0; i < data.samples().size(); ++i)
        if (!is_validation(data.samples()[i], options.validation)) train.push_back(i);
    if (train.size() <= most) return train;
    std::vector<std::size_t> v;
    for (std::size_t k = 0; k < most; ++k) v.push_back(train[k * train.size() / most]);
    return v;
}

namespace {

// The integer accumulators of both perspectives (side to move's first) of a sample, and their activations
// clamp(acc, 0, QA)^2.
void activations(const Network& qnet, const Sample& s, std::int16_t* accs, std::int32_t* act) {
    int in[2][MAX_ACTIVE];
    perspectives(s, in[0], in[1]);
    Accumulator acc;
    for (Color c : {WHITE, BLACK}) std::memcpy(acc.v[c], qnet.ft_bias, sizeof qnet.ft_bias);
    const Color us = s.black_to_move ? BLACK : WHITE;
    update(qnet, acc, acc, us == WHITE ? in[0] : in[1], us == WHITE ? in[1] : in[0], s.count, nullptr, nullptr, 0);
    for (int side = 0; side < 2; ++side) {
        const std::int16_t* a = acc.v[side == 0 ? us : ~us];
        for (int i = 0; i < HIDDEN; ++i) {
            const std::int32_t x = std::clamp<int>(a[i], 0, QA);
            accs[side * HIDDEN + i] = a[i];
            act[side * HIDDEN + i] = x * x;
        }
    }
}

// The output weights (units 1/QB) and bias (units 1/(QA*QB)) that best fit `target` (units of the integer sum
// S + QA * bias) from the integer activations `act` (512 columns of n, act[j * n + p]), in the least-squares
// sense: the normal equations with a small ridge, solved by Cholesky in double precision. Unchanged if the
// system is singular.
void refit_output(const std::vector<std::int32_t>& act, const std::vector<double>& target, std::size_t n,
                  std::vector<std::int16_t>& out_w, std::int32_t& out_b) {
    const std::size_t m = 2 * HIDDEN, k = m + 1;  // the weights, then the bias column (QA per unit of bias)
    std::vector<double> a(k * k, 0.0), r(k, 0.0), row(k);
    for (std::size_t p = 0; p < n; ++p) {
        std::size_t nz = 0;
        std::vector<std::size_t> idx;
        idx.reserve(k);
        for (std::size_t j = 0; j < m; ++j)
            if (act[j * n + p]) idx.push_back(j), row[j] = act[j * n + p];
        idx.push_back(m), row[m] = QA;
        nz = idx.size();
        for (std::size_t u = 0; u < nz; ++u) {
            const std::size_t i = idx[u];
            r[i] += row[i] * target[p];
            double* ai = &a[i * k];
            for (std::size_t v = 0; v <= u; ++v) ai[idx[v]] += row[i] * row[idx[v]];
        }
    }
    double trace = 0;
    for (std::size_t i = 0; i < k; ++i) trace += a[i * k + i];
    for (std::size_t i = 0; i < k; ++i) a[i * k + i] += 1e-9 * trace / double(k) + 1e-12;
    // Cholesky of the lower triangle, in place.
    for (std::size_t j = 0; j < k; ++j) {
        double d = a[j * k + j];
        for (std::size_t q = 0; q < j; ++q) d -= a[j * k + q] * a[j * k + q];
        if (!(d > 0)) return;
        d = std::sqrt(d);
        a[j * k + j] = d;
        for (std::size_t i = j + 1; i < k; ++i) {
            double x = a[i * k + j];
            for (std::size_t q = 0; q < j; ++q) x -= a[i * k + q] * a[j * k + q];
            a[i * k + j] = x / d;
        }
    }
    std::vector<double> y(k);
    for (std::size_t i = 0; i < k; ++i) {
        double x = r[i];
        for (std::size_t q = 0; q < i; ++q) x -= a[i * k + q] * y[q];
        y[i] = x / a[i * k + i];
    }
    for (std::size_t i = k; i-- > 0;) {
        double x = y[i];
        for (std::size_t q = i + 1; q < k; ++q) x -= a[q * k + i] * y[q];
        y[i] = x / a[i * k + i];
    }
    for (double v : y)
        if (!std::isfinite(v)) return;
    for (std::size_t j = 0; j < m; ++j)
        out_w[j] = std::int16_t(std::clamp<long long>(std::llround(y[j]), -MAX_OUT_WEIGHT, MAX_OUT_WEIGHT));
    const double bias_limit = double(QA) * QB * 64;
    out_b = std::int32_t(std::llround(std::clamp(y[m], -bias_limit, bias_limit)));
}

}  // namespace

std::string describe_files(const std::vector<std::string>& files) {
    // "DIR/shard-NNNNN.EXT" -> (DIR/shard-, number, .EXT); false for any other name.
    auto split = [](const std::string& f, std::string& head, long& number, std::string& ext) {
        std::size_t end = 0;
        const int n = training::shard_index(f, &end);
        if (n < 0) return false;
        head = f.substr(0, f.rfind("shard-", end) + 6), number = n, ext = f.substr(end);
        return true;
    };
    std::string out;
    for (std::size_t i = 0; i < files.size();) {
        std::string head, ext;
        long first = 0;
        std::size_t j = i + 1;
        if (split(files[i], head, first, ext)) {
            for (std::string h, e; j < files.size(); ++j) {
                long n = 0;
                if (!split(files[j], h, n, e) || h != head || e != ext || n != first + long(j - i)) break;
            }
        }
        if (!out.empty()) out += ' ';
        if (j - i < 3) {
            for (std::size_t k = i; k < j; ++k) out += (k > i ? " " : "") + files[k];
        } else {
            const std::string last = files[j - 1].substr(files[j - 1].find_last_of('/') + 1);
            out += files[i].substr(0, files[i].size() - ext.size()) + " .. " + last;
        }
        i = j;
    }
    return out;
}

bool quantise(const FloatNet& net, const Dataset& data, const std::vector<std::size_t>& calibration,
              const std::vector<std::size_t>& check, const std::string& description, std::string& bytes,
              QuantiseCheck& report, std::string* error) {
    for (float x : net.p)
        if (!std::isfinite(x)) {
            if (error) *error = "the float net has a weight that is not a finite number (training diverged: a lower --lr?)";
            return false;
        }
    auto q = [](float x, double mul, double lim) {
        return std::clamp(std::llround(std::clamp(double(x) * mul, -lim, lim)), (long long)(-lim), (long long)(lim));
    };
    std::vector<std::int16_t> ft_w(FloatNet::FT_B - FloatNet::FT_W), ft_b(HIDDEN), out_w(2 * HIDDEN);
    for (std::size_t i = 0; i < ft_w.size(); ++i) ft_w[i] = std::int16_t(q(net.p[FloatNet::FT_W + i], QA, 32767));
    for (int i = 0; i < HIDDEN; ++i) ft_b[std::size_t(i)] = std::int16_t(q(net.p[FloatNet::FT_B + std::size_t(i)], QA, 32767));
    for (int i = 0; i < 2 * HIDDEN; ++i)
        out_w[std::size_t(i)] = std::int16_t(q(net.p[FloatNet::OUT_W + std::size_t(i)], QB, MAX_OUT_WEIGHT));
    auto out_b = std::int32_t(q(net.p[FloatNet::OUT_B], double(QA) * QB, 2e9));
    std::string why;
    bytes = serialise_network(ft_w.data(), ft_b.data(), out_w.data(), out_b, description);
    auto qnet = parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), &why);
    if (!qnet) {
        if (error) *error = "the quantised net does not load: " + why;
        return false;
    }
    // Output weights rounded to the nearest 1/64 err by up to 1/128 each, and over 512 hidden units that
    // adds up to several centipawns. So they are rounded adaptively: starting from the nearest values, a
    // weight moves by one step when that lowers the summed |engine - float| over training positions
    // (calibration; never the validation positions the check below uses), the bias re-centred after each pass.
    if (!calibration.empty()) {
        // Accumulators and activations are stored by hidden unit (column j holds every position's value,
        // [j * n + p]): the passes below walk one unit over many positions, and a row-major table made
        // every access a cache miss (tens of minutes for 300,000 positions).
        const std::size_t n = calibration.size(), m = 2 * HIDDEN;
        std::vector<std::int32_t> act(n * m);
        std::vector<double> resid(n);  // float - integer output, in units of 1 / (QA * QA * QB)
        const double unit = double(QA) * QA * QB / SCALE;  // per centipawn
        auto integer_sum = [&](std::size_t p) {
            std::int64_t sum = 0;
            for (std::size_t j = 0; j < m; ++j) sum += std::int64_t(act[j * n + p]) * out_w[j];
            return double(sum) + double(out_b) * QA;
        };
        std::vector<double> target(n);  // the float net's output, in units of the integer sum
        std::vector<std::int16_t> accs(n * m);
        // Which calibration positions have input f, and on which side: (position << 1 | side).
        std::vector<std::vector<std::uint32_t>> users(INPUTS);
        std::vector<std::int16_t> row_accs(m);
        std::vector<std::int32_t> row_act(m);
        for (std::size_t p = 0; p < n; ++p) {
            const Sample& s = data.samples()[calibration[p]];
            activations(*qnet, s, row_accs.data(), row_act.data());
            for (std::size_t j = 0; j < m; ++j) accs[j * n + p] = row_accs[j], act[j * n + p] = row_act[j];
            target[p] = net.evaluate(s) * unit;
            int in[2][MAX_ACTIVE];
            perspectives(s, in[0], in[1]);
            for (int side = 0; side < 2; ++side)
                for (int k = 0; k < s.count; ++k) users[std::size_t(in[side][k])].push_back(std::uint32_t(p << 1 | std::size_t(side)));
        }
        // First the output layer is refitted (least squares) to the quantised activations, which absorbs most of
        // what rounding the input weights changed; then rounded to the nearest.
        refit_output(act, target, n, out_w, out_b);
        for (std::size_t p = 0; p < n; ++p) resid[p] = target[p] - integer_sum(p);
        auto recentre = [&] {  // the bias step (QA units of the sum) that best centres the residuals
            std::vector<double> r(resid);
            std::nth_element(r.begin(), r.begin() + std::ptrdiff_t(n / 2), r.end());
            const auto shift = std::int32_t(std::llround(r[n / 2] / QA));
            out_b += shift;
            for (double& x : resid) x -= double(shift) * QA;
        };
        recentre();
        // Input weights, the same way: a step of one (1/QA) where it lowers the summed |residual| of the positions
        // with that input, at most ±1000 so that the loader's bound holds (32 * 1000 + |bias| <= 32767).
        for (int pass = 0; pass < 2; ++pass) {
            for (int f = 0; f < INPUTS; ++f) {
                const auto& list = users[std::size_t(f)];
                if (list.empty()) continue;
                for (int h = 0; h < HIDDEN; ++h) {
                    std::int16_t& w = ft_w[std::size_t(f) * HIDDEN + std::size_t(h)];
                    for (int step : {1, -1}) {
                        if (std::abs(w + step) > 1000) continue;
                        double before = 0, after = 0;
                        for (std::uint32_t e : list) {
                            const std::size_t p = e >> 1, j = (e & 1) * HIDDEN + std::size_t(h);
                            const int a = accs[j * n + p];
                            const int x = std::clamp(a, 0, QA), x2 = std::clamp(a + step, 0, QA);
                            if (x == x2) continue;
                            before += std::abs(resid[p]);
                            after += std::abs(resid[p] - double(out_w[j]) * (x2 * x2 - x * x));
                        }
                        if (after < before * (1 - 1e-9)) {
                            w = std::int16_t(w + step);
                            for (std::uint32_t e : list) {
                                const std::size_t p = e >> 1, j = (e & 1) * HIDDEN + std::size_t(h);
                                const int a = accs[j * n + p], x = std::clamp(a, 0, QA), x2 = std::clamp(a + step, 0, QA);
                                resid[p] -= double(out_w[j]) * (x2 * x2 - x * x);
                                accs[j * n + p] = std::int16_t(a + step);
                                act[j * n + p] = x2 * x2;
                            }
                            break;
                        }
                    }
                }
            }
            recentre();
        }
        for (int pass = 0; pass < 4; ++pass) {
            bool changed = false;
            for (std::size_t j = 0; j < m; ++j) {
                for (int step : {1, -1}) {
                    if (std::abs(out_w[j] + step) > MAX_OUT_WEIGHT) continue;
                    double before = 0, after = 0;
                    for (std::size_t p = 0; p < n; ++p) {
                        const double a = act[j * n + p];
                        if (a == 0) continue;
                        before += std::abs(resid[p]);
                        after += std::abs(resid[p] - step * a);
                    }
                    if (after < before * (1 - 1e-9)) {
                        out_w[j] = std::int16_t(out_w[j] + step);
                        for (std::size_t p = 0; p < n; ++p) resid[p] -= step * double(act[j * n + p]);
                        changed = true;
                        break;
                    }
                }
            }
            recentre();
            if (!changed) break;
        }
        bytes = serialise_network(ft_w.data(), ft_b.data(), out_w.data(), out_b, description);
        qnet = parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), &why);
        if (!qnet) {
            if (error) *error = "the quantised net does not load: " + why;
            return false;
        }
    }
    report = QuantiseCheck{};
    for (std::size_t idx : check) {
        const Sample& s = data.samples()[idx];
        int in[2][MAX_ACTIVE];
        perspectives(s, in[0], in[1]);
        // The engine's own code: bias, the inputs' columns, the output layer.
        Accumulator acc;
        for (Color c : {WHITE, BLACK}) std::memcpy(acc.v[c], qnet->ft_bias, sizeof qnet->ft_bias);
        const Color us = s.black_to_move ? BLACK : WHITE;
        const int* white = us == WHITE ? in[0] : in[1];
        const int* black = us == WHITE ? in[1] : in[0];
        update(*qnet, acc, acc, white, black, s.count, nullptr, nullptr, 0);
        const double diff = std::abs(double(output(*qnet, acc, us)) - net.evaluate(s));
        report.mean_abs_diff_cp += diff;
        report.max_abs_diff_cp = std::max(report.max_abs_diff_cp, diff);
        ++report.positions;
    }
    if (report.positions) report.mean_abs_diff_cp /= double(report.positions);
    if (report.mean_abs_diff_cp > 2.0) {
        std::ostringstream os;
        os << "the quantised net differs from the float net by " << report.mean_abs_diff_cp
           << " cp on average over " << report.positions
           << " validation positions (at most 2 allowed; fitting it to more positions, --calibration, may help)";
        if (error) *error = os.str();
        return false;
    }
    return true;
}

}  // namespace quince::nnue_train
