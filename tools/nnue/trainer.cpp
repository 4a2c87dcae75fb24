// The trainer (trainer.h). One float forward pass per architecture (forward<A>), used for training and for
// evaluating; it mirrors the engine's quantised one (eval/nnue/accumulator.h) as eval/nnue/architecture.h
// describes it: same inputs, same perspective order, same output bucket, SCReLU = clamp(x, 0, 1)^2.
#include "nnue/trainer.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>
#include <thread>

#include "core/random.h"
#include "eval/nnue/accumulator.h"
#include "training/game_format.h"
#include "training/reader.h"

namespace quince::nnue_train {

using namespace eval::nnue;

namespace {

// A batch is cut into this many slices, each with its own gradient, summed in order: the result does not
// depend on how many threads share the slices.
constexpr int SLICES = 16;

// FloatNet::p's blocks for architecture A: the factoriser's shared input weights (architecture.h, FACTORS;
// none for most inputs) after the input weights.
template <class A>
struct Layout {
    static constexpr std::size_t FT_W = 0, FACTOR = A::FT_WEIGHTS,
                                 FT_B = FACTOR + std::size_t(A::Inputs::FACTORS) * A::HIDDEN, OUT_W = FT_B + A::HIDDEN,
                                 OUT_B = OUT_W + A::OUT_WEIGHTS, SIZE = OUT_B + A::BUCKETS;
};

inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// The inputs of the side to move (us) and of the other side (them), each in the view its king gives it.
template <class A>
inline void perspectives(const Sample& s, int* us, int* them) {
    const Color side = s.black_to_move ? BLACK : WHITE;
    const int view_us = A::Inputs::view(side, Square(s.king[side])), view_them = A::Inputs::view(~side, Square(s.king[~side]));
    for (int k = 0; k < s.count; ++k) {
        us[k] = A::Inputs::from_white(side, view_us, s.features[k]);
        them[k] = A::Inputs::from_white(~side, view_them, s.features[k]);
    }
}

// Partial sums of a dot product (forward): 16 lanes, two AVX2 vectors. Every hidden width is a multiple of
// 16 (architecture.h).
constexpr int LANES = 16;

// The partial sums added pairwise, always in this order.
inline float sum_lanes(float* lanes) {
    for (int width = LANES / 2; width > 0; width /= 2)
        for (int j = 0; j < width; ++j) lanes[j] += lanes[j + width];
    return lanes[0];
}

// The forward pass of one sample: both perspectives' inputs, hidden sums and activations (the side to
// move's first), the output bucket and the output (units of SCALE centipawns).
template <class A>
struct Forward {
    int in[2][A::MAX_ACTIVE];
    alignas(64) float acc[2][A::HIDDEN];
    alignas(64) float act[2][A::HIDDEN];
    int bucket;
    float out;
};

template <class A>
void forward(const float* p, const Sample& s, Forward<A>& f) {
    using L = Layout<A>;
    constexpr int H = A::HIDDEN;
    perspectives<A>(s, f.in[0], f.in[1]);
    f.bucket = A::bucket(s.count);
    for (int side = 0; side < 2; ++side) {
        std::memcpy(f.acc[side], p + L::FT_B, sizeof f.acc[side]);
        for (int k = 0; k < s.count; ++k) {
            const float* w = p + L::FT_W + std::size_t(f.in[side][k]) * H;
            for (int i = 0; i < H; ++i) f.acc[side][i] += w[i];
            if constexpr (A::Inputs::FACTORS > 0) {
                const float* fw = p + L::FACTOR + std::size_t(A::Inputs::factor(f.in[side][k])) * H;
                for (int i = 0; i < H; ++i) f.acc[side][i] += fw[i];
            }
        }
    }
    // The output's sum in LANES interleaved partial sums, added up in a fixed order at the end: written so
    // that the compiler keeps them in vector registers (one sum would be a chain of scalar additions), and
    // the same on every machine and thread count.
    float lanes[LANES] = {};
    for (int side = 0; side < 2; ++side) {
        const float* ow = p + L::OUT_W + (std::size_t(f.bucket) * 2 + std::size_t(side)) * H;
        for (int i = 0; i < H; i += LANES)
            for (int j = 0; j < LANES; ++j) {
                // Selects of values rather than std::clamp's of references, which the compiler keeps as branches.
                float x = f.acc[side][i + j];
                x = x > 0.0f ? x : 0.0f;
                x = x < 1.0f ? x : 1.0f;
                f.act[side][i + j] = x * x;
                lanes[j] += f.act[side][i + j] * ow[i + j];
            }
    }
    f.out = p[L::OUT_B + std::size_t(f.bucket)] + sum_lanes(lanes);
}

// The target of a sample, from the side to move's view: (1 - lambda) * sigmoid(teacher / scale) + lambda * result.
double target_of(const Sample& s, const Options& o) {
    const double teacher = s.black_to_move ? -s.teacher : s.teacher;
    const double result = s.black_to_move ? 1.0 - s.result : s.result;
    return (1.0 - o.lambda) * sigmoid(teacher / o.scale) + o.lambda * result;
}

template <class A>
double backprop_one(const float* p, const Sample& s, const Options& o, float* gp) {
    using L = Layout<A>;
    constexpr int H = A::HIDDEN;
    Forward<A> f;
    forward<A>(p, s, f);
    const double k = A::SCALE / o.scale;  // net output units -> sigmoid argument
    const double pred = sigmoid(f.out * k);
    const double err = pred - target_of(s, o);
    const float g = float(2.0 * err * pred * (1.0 - pred) * k);

    gp[L::OUT_B + std::size_t(f.bucket)] += g;
    for (int side = 0; side < 2; ++side) {
        const std::size_t out_w = L::OUT_W + (std::size_t(f.bucket) * 2 + std::size_t(side)) * H;
        const float* ow = p + out_w;
        float* gow = gp + out_w;
        float* gb = gp + L::FT_B;
        alignas(64) float d[H];
        for (int i = 0; i < H; ++i) {
            gow[i] += g * f.act[side][i];
            const float a = f.acc[side][i];
            // Computed whatever a is, then selected: a select vectorises, a branch does not.
            const float slope = g * ow[i] * 2.0f * a;
            d[i] = ((a > 0.0f) & (a < 1.0f)) ? slope : 0.0f;
            gb[i] += d[i];
        }
        for (int kf = 0; kf < s.count; ++kf) {
            float* gw = gp + L::FT_W + std::size_t(f.in[side][kf]) * H;
            for (int i = 0; i < H; ++i) gw[i] += d[i];
            if constexpr (A::Inputs::FACTORS > 0) {
                float* gf = gp + L::FACTOR + std::size_t(A::Inputs::factor(f.in[side][kf])) * H;
                for (int i = 0; i < H; ++i) gf[i] += d[i];
            }
        }
    }
    return err * err;
}

std::uint64_t game_hash(std::uint64_t game) { return SplitMix64(game ^ 0x6a09e667f3bcc909ull).next(); }

// Held out: a game of the data's own validation part, or one the hash of its id picks.
bool is_validation(const Sample& s, double fraction) {
    return s.held_out || double(game_hash(s.game) % 1000000) < fraction * 1e6;
}

struct Gradient {
    std::vector<float> g;
    double loss = 0;
};

}  // namespace

FloatLayout FloatLayout::of(int arch) {
    return with_architecture(arch, [](auto a) {
        using L = Layout<decltype(a)>;
        return FloatLayout{L::FT_W, L::FACTOR, L::FT_B, L::OUT_W, L::OUT_B, L::SIZE};
    });
}

double backprop(const FloatNet& net, const Sample& s, const Options& o, std::vector<float>& grad) {
    return with_architecture(net.arch, [&](auto a) { return backprop_one<decltype(a)>(net.p.data(), s, o, grad.data()); });
}

namespace {

double loss_of(const FloatNet& net, const Sample& s, const Options& o) {
    const double pred = sigmoid(net.evaluate(s) / o.scale);
    const double target = target_of(s, o);
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
    std::vector<float> m, v;
    std::uint64_t step = 0;
    explicit Adam(std::size_t size) : m(size), v(size) {}
};

bool write_checkpoint(const std::string& path, int epochs_done, const FloatNet& net, const Adam& adam,
                      std::string* error) {
    std::string s(CKPT_MAGIC, 8);
    auto put = [&s](const void* d, std::size_t n) { s.append(static_cast<const char*>(d), n); };
    const std::uint32_t e = std::uint32_t(epochs_done);
    const std::uint64_t size = net.at.size;
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
    // The checkpoint holds no architecture: its parameter count must be net's (the options' architecture).
    const std::size_t expected = 8 + 4 + 8 + 8 + 3 * net.at.size * 4 + 8;
    std::string s(expected + 1, '\0');
    in.read(s.data(), std::streamsize(s.size()));
    s.resize(std::size_t(in.gcount()));
    if (s.size() < 8 || std::memcmp(s.data(), CKPT_MAGIC, 8) != 0) return fail("not a train-nnue checkpoint");
    if (s.size() != expected)
        return fail(std::to_string(s.size()) + " bytes, a checkpoint of architecture " +
                    std::string(architecture_name(net.arch)) + " has " + std::to_string(expected));
    std::uint64_t h, size;
    std::memcpy(&h, s.data() + expected - 8, 8);
    if (h != fnv1a64(reinterpret_cast<const std::uint8_t*>(s.data()), expected - 8)) return fail("checksum mismatch");
    std::uint32_t e;
    const char* p = s.data() + 8;
    std::memcpy(&e, p, 4);
    std::memcpy(&adam.step, p + 4, 8);
    std::memcpy(&size, p + 12, 8);
    if (size != net.at.size) return fail("another architecture");
    p += 20;
    net.p.resize(net.at.size);
    std::memcpy(net.p.data(), p, size * 4);
    std::memcpy(adam.m.data(), p + size * 4, size * 4);
    std::memcpy(adam.v.data(), p + 2 * size * 4, size * 4);
    epochs_done = int(e);
    return true;
}

}  // namespace

bool read_text_positions(const std::string& path, const PositionSink& sink, std::string* error,
                         bool own_scores) {
    return training::for_each_sample(
        {path},
        [&](const training::TrainingSample& ts) {
            const bool teacher = ts.teacher && !own_scores;
            sink(*ts.pos, teacher ? *ts.teacher : ts.score, ts.result, ts.game, teacher);
            return true;
        },
        error);
}

bool read_qtd_positions(const std::vector<std::string>& paths, Dataset& data, std::string* error,
                        const QtdRead& how) {
    std::vector<training::ShardFile> shards;
    if (!training::find_shards(paths, &shards, error)) return false;
    std::vector<std::string> files;
    for (const training::ShardFile& f : shards) files.push_back(f.path);
    return training::for_each_sample(
        files,
        [&data, &how](const training::TrainingSample& ts) {
            if (ts.ply < ts.opening_plies + how.skip_plies) return true;
            if (how.min_pieces > 0 && popcount(ts.pos->pieces()) < how.min_pieces) return true;
            const bool teacher = ts.teacher && !how.own_scores;
            const int target = teacher ? int(std::lround(*ts.teacher * how.teacher_scale)) : ts.score;
            data.add(*ts.pos, target, ts.result, ts.game, ts.validation, teacher);
            return true;
        },
        error, how.plies);
}

bool Dataset::add(const Position& pos, int teacher_cp, double result, std::uint64_t game, bool held_out,
                  bool from_teacher) {
    Sample s{};
    Bitboard b = pos.pieces();
    if (popcount(b) > PieceSquareInputs::MAX_ACTIVE) {
        ++skipped_;
        return false;
    }
    while (b) {
        const Square sq = pop_lsb(b);
        const Piece pc = pos.piece_on(sq);
        s.features[s.count++] = std::uint16_t(PieceSquareInputs::index(WHITE, color_of(pc), type_of(pc), sq));
    }
    for (Color c : {WHITE, BLACK}) s.king[c] = std::uint8_t(pos.king_square(c));
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
        // The position mirrored, kings included (king-bucketed inputs follow from their squares).
        for (int k = 0; k < s.count; ++k) s.features[k] = std::uint16_t(PieceSquareInputs::mirrored(s.features[k]));
        for (std::uint8_t& k : s.king) k = std::uint8_t(k ^ 7);
        samples_.push_back(s);
    }
}

void FloatNet::init(std::uint64_t seed, int architecture) {
    arch = architecture;
    at = FloatLayout::of(arch);
    p.assign(at.size, 0.0f);
    SplitMix64 rng(seed);
    auto uniform = [&rng](float r) { return float((double(rng.next() >> 11) / 9007199254740992.0 * 2 - 1) * r); };
    // Inputs: about 32 are active, so a hidden sum starts with a spread of about 0.17, inside SCReLU's range
    // and small enough that the quantised output of a young net stays within 2 cp of the float one (the
    // output weights' 1/64 steps weigh with the square of the activations); outputs: 1 / sqrt(fan-in).
    // A factoriser's shared weights start at 0: the inputs' sums start as an unfactorised net's.
    const int hidden = int(at.out_w - at.ft_b);
    for (std::size_t i = at.ft_w; i < at.factor; ++i) p[i] = uniform(0.05f);
    for (std::size_t i = at.out_w; i < at.out_b; ++i) p[i] = uniform(1.0f / std::sqrt(2.0f * float(hidden)));
}

double FloatNet::evaluate(const Sample& s) const {
    return with_architecture(arch, [&](auto a) {
        using A = decltype(a);
        Forward<A> f;
        forward<A>(p.data(), s, f);
        return double(f.out) * A::SCALE;
    });
}

std::vector<std::size_t> validation_indices(const Dataset& data, const Options& options) {
    std::vector<std::size_t> v;
    for (std::size_t i = 0; i < data.samples().size(); ++i)
        if (is_validation(data.samples()[i], options.validation)) v.push_back(i);
    return v;
}

double learning_rate(const Options& o, int epoch, std::size_t batch, std::size_t batches) {
    switch (o.lr_schedule) {
    case LrSchedule::Step:
        return o.lr * std::pow(o.lr_decay, epoch / std::max(1, o.lr_step));
    case LrSchedule::Cosine: {
        const double total = double(std::max(1, o.epochs)) * double(std::max<std::size_t>(1, batches));
        const double done = std::min(1.0, (double(epoch) * double(batches) + double(batch)) / total);
        return o.lr_min + 0.5 * (o.lr - o.lr_min) * (1.0 + std::cos(3.14159265358979323846 * done));
    }
    case LrSchedule::Exp:
        break;
    }
    return o.lr * std::pow(o.lr_decay, epoch);
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
    net.arch = o.arch;
    net.at = FloatLayout::of(o.arch);
    const std::size_t size = net.at.size;
    Adam adam(size);
    int first_epoch = 0;
    if (!o.resume.empty()) {
        if (!read_checkpoint(o.resume, first_epoch, net, adam, error)) return false;
        if (log) *log << "resumed from " << o.resume << " after epoch " << first_epoch << "\n";
    } else {
        net.init(o.seed, o.arch);
    }
    std::vector<Gradient> slices(SLICES);
    for (Gradient& g : slices) g.g.resize(size);
    std::vector<float> grad(size);
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    for (int epoch = first_epoch; epoch < o.epochs; ++epoch) {
        const auto start = std::chrono::steady_clock::now();
        // The order of an epoch depends on the seed and the epoch only (a resumed run repeats it): a fresh
        // shuffle of the positions in file order.
        std::sort(train_idx.begin(), train_idx.end());
        SplitMix64 rng(o.seed * 0x9E3779B97F4A7C15ull + std::uint64_t(epoch) + 1);
        for (std::size_t i = train_idx.size(); i > 1; --i) std::swap(train_idx[i - 1], train_idx[rng.below(i)]);
        const std::size_t batches = (train_idx.size() + std::size_t(o.batch) - 1) / std::size_t(o.batch);
        const double first_lr = learning_rate(o, epoch, 0, batches);
        double loss_sum = 0;
        for (std::size_t begin = 0; begin < train_idx.size(); begin += std::size_t(o.batch)) {
            const std::size_t end = std::min(train_idx.size(), begin + std::size_t(o.batch));
            const std::size_t n = end - begin;
            const double lr = learning_rate(o, epoch, begin / std::size_t(o.batch), batches);
            for_slices(SLICES, o.threads, [&](int sl) {
                Gradient& g = slices[std::size_t(sl)];  // zero: the step below clears what it has read
                g.loss = 0;
                const std::size_t b = begin + n * std::size_t(sl) / SLICES, e = begin + n * std::size_t(sl + 1) / SLICES;
                with_architecture(net.arch, [&](auto a) {
                    for (std::size_t i = b; i < e; ++i)
                        g.loss += backprop_one<decltype(a)>(net.p.data(), samples[train_idx[i]], o, g.g.data());
                });
            });
            // Sum the slices in order, then one Adam step on the batch's mean gradient. Element by element, so
            // the parameters are cut into parts that the threads share like the slices, each slice's gradient
            // cleared behind the sum for the next batch.
            for (const Gradient& g : slices) loss_sum += g.loss;
            ++adam.step;
            const float inv_n = float(1.0 / double(n));
            const float c1 = float(1.0 / (1.0 - std::pow(beta1, double(adam.step))));
            const float c2 = float(1.0 / (1.0 - std::pow(beta2, double(adam.step))));
            const float rate = float(lr);
            for_slices(SLICES, o.threads, [&](int part) {
                const std::size_t b = size * std::size_t(part) / SLICES, e = size * std::size_t(part + 1) / SLICES;
                float* sum = grad.data();
                std::fill(sum + b, sum + e, 0.0f);
                for (Gradient& g : slices) {
                    float* gs = g.g.data();
                    for (std::size_t i = b; i < e; ++i) sum[i] += gs[i], gs[i] = 0.0f;
                }
                float *m = adam.m.data(), *v = adam.v.data(), *w = net.p.data();
                // Local copies, captured by value: the compiler cannot tell the captured ones from the arrays
                // written below.
                const float scale = inv_n, bias1 = c1, bias2 = c2, step = rate;
                auto steps = [=](std::size_t from, std::size_t to, float limit) {
                    const float lo = -limit, hi = limit;
                    for (std::size_t i = from; i < to; ++i) {
                        const float gi = sum[i] * scale;
                        m[i] = float(beta1) * m[i] + float(1 - beta1) * gi;
                        v[i] = float(beta2) * v[i] + float(1 - beta2) * gi * gi;
                        const float x = w[i] - step * (m[i] * bias1) / (std::sqrt(v[i] * bias2) + float(eps));
                        w[i] = x < lo ? lo : x > hi ? hi : x;  // std::clamp, as a select
                    }
                };
                // A factorised net's input weights (its own and the shared ones) within half the bound, so
                // that their sum, the engine's weight, is within it; the output biases are not clipped.
                const std::size_t half = net.at.factor < net.at.ft_b ? net.at.ft_b : 0, clipped = net.at.out_b;
                steps(b, std::min(e, half), FloatNet::CLIP / 2);
                steps(std::max(b, half), std::min(e, clipped), FloatNet::CLIP);
                steps(std::max(b, clipped), e, std::numeric_limits<float>::infinity());
            });
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
                 << std::llround(r.positions_per_second) << " positions/s, lr " << first_lr
                 << (o.lr_schedule == LrSchedule::Cosine ? " at its start" : "") << std::endl;
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

// The integer accumulators of both perspectives (side to move's first) of a sample as the engine computes
// them (eval/nnue/accumulator.h), and their activations clamp(acc, 0, QA)^2; 2 * HIDDEN of each.
template <class A>
void activations(const Network& qnet, const Sample& s, std::int16_t* accs, std::int32_t* act) {
    int in[2][A::MAX_ACTIVE];
    perspectives<A>(s, in[0], in[1]);
    AccumulatorOf<A> acc;
    for (Color c : {WHITE, BLACK}) std::memcpy(acc.v[c], qnet.ft_bias.data(), sizeof acc.v[c]);
    const Color us = s.black_to_move ? BLACK : WHITE;
    update<A>(qnet, acc, acc, us == WHITE ? in[0] : in[1], us == WHITE ? in[1] : in[0], s.count, nullptr, nullptr, 0);
    for (int side = 0; side < 2; ++side) {
        const std::int16_t* a = acc.v[side == 0 ? us : ~us];
        for (int i = 0; i < A::HIDDEN; ++i) {
            const std::int32_t x = std::clamp<int>(a[i], 0, A::QA);
            accs[side * A::HIDDEN + i] = a[i];
            act[side * A::HIDDEN + i] = x * x;
        }
    }
}

// One output bucket's weights `out_w` (m of them, units 1/QB) and bias (units 1/(QA*QB)) that best fit
// `target` (units of the integer sum S + QA * bias) from the integer activations `act` (m columns of n,
// act[j * n + p]) of the positions `rows` (the bucket's), in the least-squares sense: the normal equations
// with a small ridge, solved by Cholesky in double precision. Unchanged if the system is singular.
void refit_output(const std::vector<std::int32_t>& act, const std::vector<double>& target, std::size_t n,
                  const std::vector<std::size_t>& rows, std::size_t m, int qa, int max_out_weight,
                  std::int16_t* out_w, std::int32_t& out_b, double bias_limit) {
    const std::size_t k = m + 1;  // the weights, then the bias column (QA per unit of bias)
    std::vector<double> a(k * k, 0.0), r(k, 0.0), row(k);
    for (std::size_t p : rows) {
        std::size_t nz = 0;
        std::vector<std::size_t> idx;
        idx.reserve(k);
        for (std::size_t j = 0; j < m; ++j)
            if (act[j * n + p]) idx.push_back(j), row[j] = act[j * n + p];
        idx.push_back(m), row[m] = qa;
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
        out_w[j] = std::int16_t(std::clamp<long long>(std::llround(y[j]), -max_out_weight, max_out_weight));
    out_b = std::int32_t(std::llround(std::clamp(y[m], -bias_limit, bias_limit)));
}

template <class A>
bool quantise_as(double max_mean_cp, const FloatNet& net, const Dataset& data, const std::vector<std::size_t>& calibration,
                 const std::vector<std::size_t>& check, const std::string& description, std::string& bytes,
                 QuantiseCheck& report, std::string* error) {
    using L = Layout<A>;
    constexpr int H = A::HIDDEN, QA = A::QA, QB = A::QB, MAX_OUT_WEIGHT = A::MAX_OUT_WEIGHT;
    auto q = [](float x, double mul, double lim) {
        return std::clamp(std::llround(std::clamp(double(x) * mul, -lim, lim)), (long long)(-lim), (long long)(lim));
    };
    std::vector<std::int16_t> ft_w(A::FT_WEIGHTS), ft_b(H), out_w(A::OUT_WEIGHTS);
    std::vector<std::int32_t> out_b(A::BUCKETS);
    // A factorised input's weights are its own plus its shared input's (what the float net adds).
    for (int f = 0; f < A::INPUTS; ++f)
        for (int h = 0; h < H; ++h) {
            const std::size_t i = std::size_t(f) * H + std::size_t(h);
            float w = net.p[L::FT_W + i];
            if constexpr (A::Inputs::FACTORS > 0) w += net.p[L::FACTOR + std::size_t(A::Inputs::factor(f)) * H + std::size_t(h)];
            ft_w[i] = std::int16_t(q(w, QA, 32767));
        }
    for (int i = 0; i < H; ++i) ft_b[std::size_t(i)] = std::int16_t(q(net.p[L::FT_B + std::size_t(i)], QA, 32767));
    for (std::size_t i = 0; i < out_w.size(); ++i) out_w[i] = std::int16_t(q(net.p[L::OUT_W + i], QB, MAX_OUT_WEIGHT));
    for (int b = 0; b < A::BUCKETS; ++b) out_b[std::size_t(b)] = std::int32_t(q(net.p[L::OUT_B + std::size_t(b)], double(QA) * QB, 2e9));
    std::string why;
    std::shared_ptr<const Network> qnet;
    auto write = [&] {  // bytes and qnet from the integer parameters, through the engine's writer and loader
        std::shared_ptr<Network> n = Network::blank(net.arch);
        std::copy(ft_w.begin(), ft_w.end(), n->ft_weights.data());
        std::copy(ft_b.begin(), ft_b.end(), n->ft_bias.data());
        std::copy(out_w.begin(), out_w.end(), n->out_weights.data());
        std::copy(out_b.begin(), out_b.end(), n->out_bias);
        n->description = description;
        bytes = serialise_network(*n);
        qnet = parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), &why);
        if (!qnet && error) *error = "the quantised net does not load: " + why;
        return bool(qnet);
    };
    if (!write()) return false;
    // Output weights rounded to the nearest 1/64 err by up to 1/128 each, and over 512 hidden units that
    // adds up to several centipawns. So they are rounded adaptively: starting from the nearest values, a
    // weight moves by one step when that lowers the summed |engine - float| over training positions
    // (calibration; never the validation positions the check below uses), the bias re-centred after each
    // pass. Each output bucket is fitted on the calibration positions of its bucket.
    if (!calibration.empty()) {
        // Accumulators and activations are stored by hidden unit (column j holds every position's value,
        // [j * n + p]): the passes below walk one unit over many positions, and a row-major table made
        // every access a cache miss (tens of minutes for 300,000 positions).
        const std::size_t n = calibration.size(), m = 2 * std::size_t(H);
        std::vector<std::int32_t> act(n * m);
        std::vector<double> resid(n);  // float - integer output, in units of 1 / (QA * QA * QB)
        const double unit = double(QA) * QA * QB / A::SCALE;  // per centipawn
        std::vector<int> bucket(n);                               // of each calibration position
        std::vector<std::vector<std::size_t>> rows(A::BUCKETS);  // the positions of each bucket
        auto integer_sum = [&](std::size_t p) {
            const std::int16_t* w = out_w.data() + std::size_t(bucket[p]) * m;
            std::int64_t sum = 0;
            for (std::size_t j = 0; j < m; ++j) sum += std::int64_t(act[j * n + p]) * w[j];
            return double(sum) + double(out_b[std::size_t(bucket[p])]) * QA;
        };
        std::vector<double> target(n);  // the float net's output, in units of the integer sum
        std::vector<std::int16_t> accs(n * m);
        // Which calibration positions have input f, and on which side: (position << 1 | side).
        std::vector<std::vector<std::uint32_t>> users(A::INPUTS);
        std::vector<std::int16_t> row_accs(m);
        std::vector<std::int32_t> row_act(m);
        for (std::size_t p = 0; p < n; ++p) {
            const Sample& s = data.samples()[calibration[p]];
            activations<A>(*qnet, s, row_accs.data(), row_act.data());
            for (std::size_t j = 0; j < m; ++j) accs[j * n + p] = row_accs[j], act[j * n + p] = row_act[j];
            target[p] = net.evaluate(s) * unit;
            bucket[p] = A::bucket(s.count);
            rows[std::size_t(bucket[p])].push_back(p);
            int in[2][A::MAX_ACTIVE];
            perspectives<A>(s, in[0], in[1]);
            for (int side = 0; side < 2; ++side)
                for (int k = 0; k < s.count; ++k) users[std::size_t(in[side][k])].push_back(std::uint32_t(p << 1 | std::size_t(side)));
        }
        // First the output layer is refitted (least squares) to the quantised activations, which absorbs most of
        // what rounding the input weights changed; then rounded to the nearest. Only a bucket with at least
        // twice as many positions as unknowns (2 * HIDDEN weights and the bias): with fewer, the fit follows
        // its positions' every detail and misses others by more than rounding would (a small calibration
        // set, or one split among several buckets, keeps the nearest values).
        for (int b = 0; b < A::BUCKETS; ++b)
            if (rows[std::size_t(b)].size() >= 2 * (m + 1))
                refit_output(act, target, n, rows[std::size_t(b)], m, QA, MAX_OUT_WEIGHT, out_w.data() + std::size_t(b) * m,
                             out_b[std::size_t(b)], double(QA) * QB * 64);
        for (std::size_t p = 0; p < n; ++p) resid[p] = target[p] - integer_sum(p);
        auto recentre = [&] {  // each bucket's bias step (QA units of the sum) that best centres its residuals
            for (int b = 0; b < A::BUCKETS; ++b) {
                const std::vector<std::size_t>& on = rows[std::size_t(b)];
                if (on.empty()) continue;
                std::vector<double> r;
                r.reserve(on.size());
                for (std::size_t p : on) r.push_back(resid[p]);
                std::nth_element(r.begin(), r.begin() + std::ptrdiff_t(r.size() / 2), r.end());
                const auto shift = std::int32_t(std::llround(r[r.size() / 2] / QA));
                out_b[std::size_t(b)] += shift;
                for (std::size_t p : on) resid[p] -= double(shift) * QA;
            }
        };
        recentre();
        // Input weights, the same way: a step of one (1/QA) where it lowers the summed |residual| of the positions
        // with that input, at most ±1000 so that the loader's bound holds (32 * 1000 + |bias| <= 32767).
        auto out_weight = [&](std::size_t p, std::size_t j) { return double(out_w[std::size_t(bucket[p]) * m + j]); };
        for (int pass = 0; pass < 2; ++pass) {
            for (int f = 0; f < A::INPUTS; ++f) {
                const auto& list = users[std::size_t(f)];
                if (list.empty()) continue;
                for (int h = 0; h < H; ++h) {
                    std::int16_t& w = ft_w[std::size_t(f) * H + std::size_t(h)];
                    for (int step : {1, -1}) {
                        if (std::abs(w + step) > 1000) continue;
                        double before = 0, after = 0;
                        for (std::uint32_t e : list) {
                            const std::size_t p = e >> 1, j = (e & 1) * H + std::size_t(h);
                            const int a = accs[j * n + p];
                            const int x = std::clamp(a, 0, QA), x2 = std::clamp(a + step, 0, QA);
                            if (x == x2) continue;
                            before += std::abs(resid[p]);
                            after += std::abs(resid[p] - out_weight(p, j) * (x2 * x2 - x * x));
                        }
                        if (after < before * (1 - 1e-9)) {
                            w = std::int16_t(w + step);
                            for (std::uint32_t e : list) {
                                const std::size_t p = e >> 1, j = (e & 1) * H + std::size_t(h);
                                const int a = accs[j * n + p], x = std::clamp(a, 0, QA), x2 = std::clamp(a + step, 0, QA);
                                resid[p] -= out_weight(p, j) * (x2 * x2 - x * x);
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
            for (std::size_t jb = 0; jb < out_w.size(); ++jb) {
                const std::size_t j = jb % m;
                const std::vector<std::size_t>& on = rows[jb / m];
                for (int step : {1, -1}) {
                    if (std::abs(out_w[jb] + step) > MAX_OUT_WEIGHT) continue;
                    double before = 0, after = 0;
                    for (std::size_t p : on) {
                        const double a = act[j * n + p];
                        if (a == 0) continue;
                        before += std::abs(resid[p]);
                        after += std::abs(resid[p] - step * a);
                    }
                    if (after < before * (1 - 1e-9)) {
                        out_w[jb] = std::int16_t(out_w[jb] + step);
                        for (std::size_t p : on) resid[p] -= step * double(act[j * n + p]);
                        changed = true;
                        break;
                    }
                }
            }
            recentre();
            if (!changed) break;
        }
        if (!write()) return false;
    }
    report = QuantiseCheck{};
    for (std::size_t idx : check) {
        const Sample& s = data.samples()[idx];
        int in[2][A::MAX_ACTIVE];
        perspectives<A>(s, in[0], in[1]);
        // The engine's own code: bias, the inputs' columns, the output layer of the position's bucket.
        AccumulatorOf<A> acc;
        for (Color c : {WHITE, BLACK}) std::memcpy(acc.v[c], qnet->ft_bias.data(), sizeof acc.v[c]);
        const Color us = s.black_to_move ? BLACK : WHITE;
        const int* white = us == WHITE ? in[0] : in[1];
        const int* black = us == WHITE ? in[1] : in[0];
        update<A>(*qnet, acc, acc, white, black, s.count, nullptr, nullptr, 0);
        const double diff = std::abs(double(output<A>(*qnet, acc, us, A::bucket(s.count))) - net.evaluate(s));
        report.mean_abs_diff_cp += diff;
        report.max_abs_diff_cp = std::max(report.max_abs_diff_cp, diff);
        ++report.positions;
    }
    if (report.positions) report.mean_abs_diff_cp /= double(report.positions);
    if (report.mean_abs_diff_cp > max_mean_cp) {
        std::ostringstream os;
        os << "the quantised net differs from the float net by " << report.mean_abs_diff_cp
           << " cp on average over " << report.positions << " validation positions (at most " << max_mean_cp
           << " allowed, --max-quantisation-error; fitting it to more positions, --calibration, may help)";
        if (error) *error = os.str();
        return false;
    }
    return true;
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
              QuantiseCheck& report, std::string* error, double max_mean_cp) {
    for (float x : net.p)
        if (!std::isfinite(x)) {
            if (error) *error = "the float net has a weight that is not a finite number (training diverged: a lower --lr?)";
            return false;
        }
    return with_architecture(net.arch, [&](auto a) {
        return quantise_as<decltype(a)>(max_mean_cp, net, data, calibration, check, description, bytes, report, error);
    });
}

}  // namespace quince::nnue_train
