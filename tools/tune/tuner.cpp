#include "tuner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <random>
#include <stdexcept>
#include <sstream>
#include <thread>

#include "core/text.h"
#include "eval/evaluate.h"
#include "eval/phase.h"
#include "eval/scaling.h"
#include "eval/terms.h"
#include "training/inputs.h"
#include "training/game_format.h"
#include "training/reader.h"
#include "training/sample.h"

namespace quince::tune {

using namespace quince::eval;

namespace {

double sigmoid(double s, double K) { return 1.0 / (1.0 + std::exp(-K * s / 400.0)); }

// Splits [0, n) over `threads` workers, each calling f(begin, end, worker).
void parallel_for(std::size_t n, int threads, const std::function<void(std::size_t, std::size_t, int)>& f) {
    threads = std::max(1, std::min<int>(threads, int(n / 256) + 1));
    if (threads == 1) {
        f(0, n, 0);
        return;
    }
    std::vector<std::thread> pool;
    const std::size_t chunk = (n + std::size_t(threads) - 1) / std::size_t(threads);
    for (int t = 0; t < threads; ++t) {
        const std::size_t b = std::min(n, std::size_t(t) * chunk), e = std::min(n, b + chunk);
        pool.emplace_back([&f, b, e, t] { f(b, e, t); });
    }
    for (auto& th : pool) th.join();
}

// The label's own sigmoid scale: a teacher engine's centipawns need not be Quince's (fitted, see run_tune).
thread_local double label_K = 0;

double target_of(const PositionHead& p, double K, double lambda, bool teacher) {
    if (lambda >= 1.0) return p.result;
    const double label = teacher && p.has_teacher ? p.teacher : p.score;
    return lambda * p.result + (1.0 - lambda) * sigmoid(label, label_K > 0 ? label_K : K);
}

// K for the teacher's scores: the scale at which they best predict the game results.
double fit_teacher_K(const TuneSet& set, const std::vector<std::uint32_t>& idx) {
    auto err = [&](double k) {
        double sum = 0;
        for (const std::uint32_t i : idx) {
            const PositionHead& p = set.head(i);
            const double d = p.result - sigmoid(p.has_teacher ? p.teacher : p.score, k);
            sum += d * d;
        }
        return sum / double(idx.size());
    };
    double a = 0.05, b = 5.0;
    const double g = (std::sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 40; ++it) {
        const double c = b - g * (b - a), d = a + g * (b - a);
        if (err(c) < err(d)) b = d;
        else a = c;
    }
    return (a + b) / 2;
}

}  // namespace

void make_non_decreasing(double* v, int n) {
    // Pool adjacent violators: blocks of equal value (their mean), merged while a block's mean exceeds
    // the next one's.
    std::vector<double> mean;
    std::vector<int> size;
    for (int i = 0; i < n; ++i) {
        mean.push_back(v[i]);
        size.push_back(1);
        while (mean.size() > 1 && mean[mean.size() - 2] > mean.back()) {
            const std::size_t k = mean.size() - 1;
            mean[k - 1] = (mean[k - 1] * size[k - 1] + mean[k] * size[k]) / (size[k - 1] + size[k]);
            size[k - 1] += size[k];
            mean.pop_back();
            size.pop_back();
        }
    }
    int i = 0;
    for (std::size_t b = 0; b < mean.size(); ++b)
        for (int k = 0; k < size[b]; ++k) v[i++] = mean[b];
}

std::vector<double> weights_vector(const Weights& w) {
    std::vector<double> x(static_cast<std::size_t>(weight_count()));
    for (int i = 0; i < weight_count(); ++i) x[std::size_t(i)] = get_weight(w, i);
    return x;
}

Weights weights_from_vector(const Weights& base, const std::vector<double>& x) {
    Weights w = base;
    for (int i = 0; i < weight_count(); ++i) {
        const WeightDesc& d = weight_of_index(i);
        const double v = std::clamp(std::round(x[std::size_t(i)]), double(d.lo), double(d.hi));
        set_weight(w, i, int(v));
    }
    return w;
}

// ---------------------------------------------------------------------------------------------
// Tracing

bool trace_position(const Profile& profile, const Position& pos, TunePosition& out, int* static_white_cp) {
    if (profile.simple) return false;
    thread_local Evaluator ev;
    thread_local CoefTrace coef;
    thread_local Trace trace;
    thread_local const Profile* current = nullptr;
    if (current != &profile) {
        // A non-owning handle: the caller keeps the profile alive while tracing.
        ev.set_profile(std::shared_ptr<const Profile>(std::shared_ptr<const Profile>{}, &profile));
        ev.set_lazy(false);
        current = &profile;
    }
    trace.coef = &coef;
    const Value v = ev.evaluate_traced(pos, trace);
    const bool white = pos.side_to_move() == WHITE;
    if (static_white_cp) *static_white_cp = white ? v : -v;
    out.coefs.clear();
    for (int i = 0; i < weight_count(); ++i) {
        const double k = coef.c[WHITE][std::size_t(i)] - coef.c[BLACK][std::size_t(i)];
        if (k == 0.0) continue;
        const double halves = 2.0 * k;
        if (halves != std::round(halves) || std::abs(halves) > 32767)
            throw std::runtime_error("the coefficient " + std::to_string(k) + " of " + weight_label(i) +
                                     " is not a multiple of 1/2 within +-16383 (the tuner's Coef)");
        out.coefs.push_back(Coef{std::uint16_t(i), std::int16_t(halves)});
    }
    for (Color c : {WHITE, BLACK}) {
        const CoefTrace::KingAttack& ka = coef.king_attack[c];
        out.king_attack[c].on = ka.on;
        out.king_attack[c].count = std::uint8_t(std::min(ka.count, 127) & 127);
        for (int t = 0; t < eval::KING_ATTACK_UNITS; ++t) out.king_attack[c].n[t] = std::int8_t(ka.n[t]);
        out.drawish[c] = std::uint8_t(coef.drawish[c]);
    }
    out.phase = trace.mat.phase;
    out.white_to_move = white;
    out.ocb = trace.ocb;
    out.ocb_after = trace.ocb_after;
    out.known_draw = trace.known_draw;
    const CoefTrace::Scaling& sc = coef.scaling;
    out.cx_on = sc.complexity;
    out.cx_pawns = std::uint8_t(sc.n[0] & 31);
    out.cx_flanks = std::uint8_t(sc.n[1] & 1);
    out.cx_pawn_ending = std::uint8_t(sc.n[2] & 1);
    for (int c = 0; c < 2; ++c) out.scale[c] = std::uint8_t(sc.scaled ? std::clamp(sc.factor[c], 0, 255) : 128);
    return true;
}

// ---------------------------------------------------------------------------------------------
// The model

Model::Model(const Weights& fixed) : fixed_(fixed) {
    role_.resize(std::size_t(weight_count()));
    for (int i = 0; i < weight_count(); ++i) role_[std::size_t(i)] = weight_of_index(i).role;
    int W[65][2];
    build_interpolation(fixed, W);
    for (int p = 0; p <= 64; ++p) interp_eg_[p] = W[p][1];
    phase_tuned_ = fixed.phase_curve == PhaseCurve::Table;
    // The runs the model walks by offset, from the list's handles (their order: static_asserts of
    // eval/terms.h and eval/scaling.h, and below).
    static_assert(eval::WI::phase_table_eg.size == 65 && eval::WI::king_attack_weight.size == 16);
    phase_base_ = eval::WI::phase_table_eg.index;
    ka_weight_base_ = eval::WI::king_attack_weight.index;
    ka_unit_base_ = eval::KING_ATTACK_UNIT_RUN[0].index;
    cx_base_ = eval::COMPLEXITY_RUN[0].index;
    for (int b = 0; b < 256; ++b) drawish_k_[b] = std::uint8_t(std::min(255, b * fixed.drawish_mul / fixed.drawish_div));
}

Model::Parts Model::parts(const PositionHead& p, const Coef* begin, const Coef* end, const std::vector<double>& x) const {
    Parts r{};
    for (const Coef* c = begin; c != end; ++c) {
        const std::size_t i = c->index;
        const double v = c->value() * x[i];
        switch (role_[i]) {
        case Role::Op: r.op += v; break;
        case Role::Eg: r.eg += v; break;
        case Role::Both: r.op += v, r.eg += v; break;
        case Role::Cp: r.cp += v; break;
        default: break;  // fixed weights and the non-linear ones carry no linear coefficient
        }
    }
    for (int c = 0; c < 2; ++c) {
        const auto& ka = p.king_attack[c];
        r.ka_sum[c] = 0;
        if (!ka.on) continue;
        for (int t = 0; t < eval::KING_ATTACK_UNITS; ++t) r.ka_sum[c] += ka.n[t] * x[std::size_t(ka_unit_base_ + t)];
        const double v = x[std::size_t(ka_weight_base_ + ka.count)] * r.ka_sum[c] / 32.0;
        r.op += c == 0 ? v : -v;
    }
    // Endgame scaling: eg += sign(eg) * max(c, -|eg|), then eg * scale[stronger side] / 128.
    r.eg_slope = 1.0;
    r.cx_slope = 0.0;
    if (p.cx_on) {
        const std::size_t b = std::size_t(cx_base_);
        const double c = p.cx_pawns * x[b] + p.cx_flanks * x[b + 1] + p.cx_pawn_ending * x[b + 2] + x[b + 3];
        const double a = std::abs(r.eg), sgn = r.eg > 0 ? 1.0 : r.eg < 0 ? -1.0 : 0.0;
        if (c > -a) {
            r.eg += sgn * c;
            r.cx_slope = sgn;
        } else {
            r.eg = 0;
            r.eg_slope = 0;
        }
    }
    if (p.scale[0] != 128 || p.scale[1] != 128) {
        const double f = (r.eg >= 0 ? p.scale[0] : p.scale[1]) / 128.0;
        r.eg *= f;
        r.eg_slope *= f;
        r.cx_slope *= f;
    }
    r.w1 = phase_tuned_ ? x[std::size_t(phase_base_ + p.phase)] : interp_eg_[p.phase];
    r.scale_before = p.ocb && !p.ocb_after ? 0.5 : 1.0;
    r.scale_after = p.ocb && p.ocb_after ? 0.5 : 1.0;
    r.sign = p.white_to_move ? 1 : -1;
    r.drawish_factor = 1.0;
    return r;
}

double Model::evaluate(const PositionHead& p, const Coef* begin, const Coef* end, const std::vector<double>& x) const {
    if (p.known_draw) return 0;
    Parts r = parts(p, begin, end, x);
    double s = r.scale_before * (r.op * (256.0 - r.w1) + r.eg * r.w1) / 8192.0 * r.scale_after;
    if (p.drawish[0] | p.drawish[1]) {
        // §13.2 in the side to move's view: the side ahead loses min(|s|, cap) * k / 256.
        const double stm = r.sign * s;
        const int k = stm > 0 ? drawish_k_[p.drawish[p.white_to_move ? 0 : 1]] : drawish_k_[p.drawish[p.white_to_move ? 1 : 0]];
        const double a = std::min(std::abs(stm), double(fixed_.drawish_cap));
        s -= (stm > 0 ? 1 : -1) * r.sign * a * k / 256.0;
    }
    return s + r.cp;
}

void Model::add_gradient(const PositionHead& p, const Coef* begin, const Coef* end, const std::vector<double>& x,
                         double factor, std::vector<double>& g) const {
    if (p.known_draw) return;
    Parts r = parts(p, begin, end, x);
    double f = factor;
    if (p.drawish[0] | p.drawish[1]) {
        const double s = r.scale_before * (r.op * (256.0 - r.w1) + r.eg * r.w1) / 8192.0 * r.scale_after;
        const double stm = r.sign * s;
        const int k = stm > 0 ? drawish_k_[p.drawish[p.white_to_move ? 0 : 1]] : drawish_k_[p.drawish[p.white_to_move ? 1 : 0]];
        if (std::abs(stm) < fixed_.drawish_cap) f *= 1.0 - k / 256.0;
    }
    const double k_common = r.scale_before * r.scale_after / 8192.0;
    const double g_op = f * k_common * (256.0 - r.w1), g_eg = f * k_common * r.w1 * r.eg_slope;
    if (p.cx_on && r.cx_slope != 0.0) {
        const double d = f * k_common * r.w1 * r.cx_slope;
        const std::size_t b = std::size_t(cx_base_);
        g[b] += p.cx_pawns * d, g[b + 1] += p.cx_flanks * d, g[b + 2] += p.cx_pawn_ending * d, g[b + 3] += d;
    }
    for (const Coef* c = begin; c != end; ++c) {
        const std::size_t i = c->index;
        const double k = c->value();
        switch (role_[i]) {
        case Role::Op: g[i] += k * g_op; break;
        case Role::Eg: g[i] += k * g_eg; break;
        case Role::Both: g[i] += k * (g_op + g_eg); break;
        case Role::Cp: g[i] += k * factor; break;
        default: break;
        }
    }
    for (int c = 0; c < 2; ++c) {
        const auto& ka = p.king_attack[c];
        if (!ka.on) continue;
        const double sgn = c == 0 ? 1.0 : -1.0;
        g[std::size_t(ka_weight_base_ + ka.count)] += sgn * r.ka_sum[c] / 32.0 * g_op;
        const double kaw = x[std::size_t(ka_weight_base_ + ka.count)];
        for (int t = 0; t < eval::KING_ATTACK_UNITS; ++t) g[std::size_t(ka_unit_base_ + t)] += sgn * kaw * ka.n[t] / 32.0 * g_op;
    }
    if (phase_tuned_) g[std::size_t(phase_base_ + p.phase)] += f * k_common * (r.eg - r.op);
}

// ---------------------------------------------------------------------------------------------
// The position arena

void TuneSet::reserve(std::size_t positions) {
    heads_.reserve(positions);
    where_.reserve(positions);
}

void TuneSet::push(const PositionHead& head, const Coef* begin, const Coef* end) {
    const std::size_t n = std::size_t(end - begin);
    if (n > 0xFFFF) throw std::logic_error("tuner: more than 65535 coefficients in one position");
    if (used_ + n > BLOCK) {
        blocks_.push_back(std::make_unique<Coef[]>(BLOCK));  // value-initialised: pages are touched as used
        used_ = 0;
    }
    const std::uint64_t offset = (std::uint64_t(blocks_.size() - 1) << BLOCK_BITS) + used_;
    std::copy(begin, end, blocks_.back().get() + used_);
    used_ += n;
    coef_count_ += n;
    heads_.push_back(head);
    where_.push_back(offset << 16 | n);
}

std::size_t TuneSet::bytes() const {
    return heads_.capacity() * sizeof(PositionHead) + where_.capacity() * sizeof(std::uint64_t) +
           blocks_.size() * BLOCK * sizeof(Coef);
}

// ---------------------------------------------------------------------------------------------
// Data

namespace {

namespace fs = std::filesystem;

std::string base_name(const std::string& path) {
    std::string p = path;
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    const auto slash = p.find_last_of('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::string folder_of(const std::string& file) {
    const fs::path parent = fs::path(file).parent_path();
    return parent.empty() ? "." : parent.string();
}

// A manifest line with every path cut to its base name (the provenance names no machine's folders).
std::string without_paths(const std::string& line) {
    std::istringstream in(line);
    std::string out;
    for (std::string tok; in >> tok;) {
        const auto eq = tok.find('=');
        const std::size_t from = tok.rfind("--", 0) == 0 || eq == std::string::npos ? 0 : eq + 1;
        std::string value = tok.substr(from);
        std::string quote;
        if (!value.empty() && (value.front() == '\'' || value.front() == '"')) quote = value.substr(0, 1), value = value.substr(1);
        if (!quote.empty() && !value.empty() && value.back() == quote[0]) value.pop_back();
        if (value.find('/') != std::string::npos) value = base_name(value);
        if (!out.empty()) out += ' ';
        out.append(tok, 0, from).append(quote).append(value).append(quote);
    }
    return out;
}

// One position of a training file (training/reader.h) and its trace (made on another thread, maybe).
struct ParsedLine {
    training::Sample sample;  // its FEN as read, scores and result
    std::uint64_t game = 0;   // the reader's game id
    long line = 0;            // text: the line's number; QTD: 0
    TunePosition p;
    std::string error;  // "" when good
};

void trace_sample(ParsedLine& out, const Profile& profile) {
    const training::Sample& sample = out.sample;
    std::string err;
    Position pos;
    if (!pos.set_fen(sample.fen, false, &err)) {
        out.error = err.empty() ? "malformed FEN" : err;
        return;
    }
    try {
        trace_position(profile, pos, out.p);
    } catch (const std::exception& e) {
        out.error = e.what();
        return;
    }
    out.p.result = float(sample.result);
    out.p.score = std::int16_t(sample.score);  // |score| <= MAX_SAMPLE_SCORE (parse_sample)
    out.p.teacher = std::int16_t(sample.teacher.value_or(0));
    out.p.has_teacher = sample.teacher.has_value();
}

}  // namespace

bool load_training_data(const std::vector<std::string>& files, const Profile& profile, int shard_games,
                        std::size_t limit, int threads, TrainingData& out, std::string* error,
                        const std::function<void(const std::string&)>& log) {
    TrainingData d;
    auto fail = [&](const std::string& e) {
        if (error) *error = e;
        return false;
    };
    // Count the lines first: the position arrays are reserved once (no reallocation peak).
    std::size_t lines = 0;
    for (const std::string& f : files) {
        if (training::is_shard_file(f)) {
            lines += 6400;  // a 200-game shard's labels, about
            continue;
        }
        std::ifstream in(f, std::ios::binary);
        if (!in) return fail("cannot open training file '" + f + "'");
        char buf[1 << 16];
        while (in.read(buf, sizeof buf) || in.gcount() > 0) lines += std::size_t(std::count(buf, buf + in.gcount(), '\n'));
        ++lines;  // a last line without its newline
    }
    d.set.reserve(limit ? std::min(limit, lines) : lines);
    const std::size_t CHUNK = 1 << 15;  // positions traced together by the threads
    for (std::size_t fi = 0; fi < files.size() && !(limit && d.set.size() >= limit); ++fi) {
        const std::string& path = files[fi];
        const std::string folder = folder_of(path);
        int folder_index = -1;
        for (std::size_t k = 0; k < d.folders.size(); ++k)
            if (d.folders[k].files.size() && folder_of(d.folders[k].files[0]) == folder) folder_index = int(k);
        if (folder_index < 0) {
            TrainingData::Folder f;
            f.name = base_name(fs::absolute(folder).lexically_normal().string());
            std::ifstream man(fs::path(folder) / "manifest.txt");
            for (std::string line; std::getline(man, line);) {
                if (line.rfind("command:", 0) == 0) f.command = without_paths(trim(line.substr(8)));
                if (line.rfind("settings:", 0) == 0) f.settings = without_paths(trim(line.substr(9)));
                // A relabelled copy (datagen --relabel) also names the folder its positions came from.
                if (line.rfind("source command:", 0) == 0) f.source_command = without_paths(trim(line.substr(15)));
                if (line.rfind("source settings:", 0) == 0) f.source_settings = without_paths(trim(line.substr(16)));
            }
            d.folders.push_back(f);
            folder_index = int(d.folders.size() - 1);
        }
        TrainingData::Folder& folder_info = d.folders[std::size_t(folder_index)];
        folder_info.files.push_back(path);
        d.files.push_back(path);
        d.file_folder.push_back(folder_index);
        // Every file through the training reader, traced CHUNK positions at a time by the threads. A QTD shard
        // (whole games) is one tuner shard, held out or not as the set decides (every twentieth shard), not
        // the tuner; a text file is cut into shards of shard_games games.
        const bool qtd = training::is_shard_file(path);
        const std::size_t file_begin = d.set.size();
        TrainingData::Shard shard{d.set.size(), d.set.size(), 0, int(fi), qtd ? 0 : -1};
        std::uint64_t prev_game = 0;
        std::vector<ParsedLine> chunk;
        std::string trace_error;
        // Traces the chunk and adds its positions; false (trace_error) on a position that cannot be traced.
        auto flush = [&] {
            parallel_for(chunk.size(), threads, [&](std::size_t b, std::size_t e, int) {
                for (std::size_t i = b; i < e; ++i) trace_sample(chunk[i], profile);
            });
            for (ParsedLine& pl : chunk) {
                if (!pl.error.empty()) {
                    trace_error = pl.line ? path + ":" + std::to_string(pl.line) + ": " + pl.error
                                          : path + ": " + pl.sample.fen + ": " + pl.error;
                    return false;
                }
                // A new game starts a new shard once this one has shard_games games (never inside a game).
                const bool new_game = shard.games == 0 || pl.game != prev_game;
                if (new_game) {
                    if (!qtd && shard.games == shard_games) {
                        shard.end = d.set.size();
                        d.shards.push_back(shard);
                        shard = TrainingData::Shard{d.set.size(), d.set.size(), 0, int(fi)};
                    }
                    ++shard.games;
                }
                prev_game = pl.game;
                d.set.push(pl.p);
            }
            chunk.clear();
            return true;
        };
        std::string why;
        const bool read = training::for_each_sample(
            {path},
            [&](const training::TrainingSample& ts) {
                if (limit && d.set.size() + chunk.size() >= limit) return false;
                if (qtd) shard.fixed = ts.validation ? 1 : 0;
                ParsedLine pl;
                pl.sample = {ts.fen(), ts.score, ts.result, ts.teacher};
                pl.game = ts.game, pl.line = ts.line;
                chunk.push_back(std::move(pl));
                return chunk.size() < CHUNK || flush();
            },
            &why);
        if (!read) return fail(why);
        if (!trace_error.empty() || !flush()) return fail(trace_error);
        if (d.set.size() > shard.begin) {
            shard.end = d.set.size();
            d.shards.push_back(shard);
        }
        long games = 0;
        for (std::size_t k = d.shards.size(); k-- > 0 && d.shards[k].file == int(fi);) games += d.shards[k].games;
        folder_info.games += games;
        folder_info.positions += long(d.set.size() - file_begin);
        d.games += games;
        if (log && (files.size() < 20 || fi + 1 == files.size() || (fi + 1) % 50 == 0))
            log("loaded " + std::to_string(d.set.size()) + " positions (" + std::to_string(d.games) + " games) of " +
                std::to_string(fi + 1) + " of " + std::to_string(files.size()) + " files");
    }
    out = std::move(d);
    return true;
}

long load_training_file(const std::string& path, const Profile& profile, TuneSet& out, std::size_t limit,
                        std::string* error) {
    TrainingData d;
    if (!load_training_data({path}, profile, 200, limit, 1, d, error)) return -1;
    for (std::size_t i = 0; i < d.set.size(); ++i) out.push(d.set.head(i), d.set.coefs_begin(i), d.set.coefs_end(i));
    return long(d.set.size());
}

std::vector<bool> validation_shards(std::size_t shards, const Options& o) {
    std::size_t n = 0;
    if (o.validation_shards > 0) n = std::min(shards > 0 ? shards - 1 : 0, std::size_t(o.validation_shards));
    else if (o.validation > 0 && shards >= 2)
        n = std::clamp<std::size_t>(std::size_t(std::llround(double(shards) * std::min(o.validation, 0.5))), 1, shards - 1);
    std::vector<std::size_t> order(shards);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::mt19937_64 rng(o.seed ^ 0x9E3779B97F4A7C15ull);  // its own stream: the epochs' shuffles stay as they were
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<bool> held(shards, false);
    for (std::size_t k = 0; k < n; ++k) held[order[k]] = true;
    return held;
}

// ---------------------------------------------------------------------------------------------
// Optimisation

double error_of(const Model& m, const TuneSet& set, const std::vector<std::uint32_t>& idx, const std::vector<double>& x,
                double K, double lambda, bool teacher, int threads) {
    if (idx.empty()) return 0;
    std::vector<double> part(std::size_t(std::max(1, threads)), 0.0);
    const double shared_label_K = label_K;
    parallel_for(idx.size(), threads, [&](std::size_t b, std::size_t e, int t) {
        double sum = 0;
        label_K = shared_label_K;
        for (std::size_t i = b; i < e; ++i) {
            const std::size_t p = idx[i];
            const double d = target_of(set.head(p), K, lambda, teacher) - sigmoid(m.evaluate(set, p, x), K);
            sum += d * d;
        }
        part[std::size_t(t)] = sum;
    });
    return std::accumulate(part.begin(), part.end(), 0.0) / double(idx.size());
}

double fit_K(const Model& m, const TuneSet& set, const std::vector<std::uint32_t>& idx, const std::vector<double>& x,
             int threads) {
    // Golden-section search of the error against the game results (unimodal in K).
    double a = 0.05, b = 5.0;
    const double g = (std::sqrt(5.0) - 1) / 2;
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = error_of(m, set, idx, x, c, 1.0, false, threads), fd = error_of(m, set, idx, x, d, 1.0, false, threads);
    for (int it = 0; it < 40; ++it) {
        if (fc < fd) b = d, d = c, fd = fc, c = b - g * (b - a), fc = error_of(m, set, idx, x, c, 1.0, false, threads);
        else a = c, c = d, fc = fd, d = a + g * (b - a), fd = error_of(m, set, idx, x, d, 1.0, false, threads);
    }
    return (a + b) / 2;
}

std::vector<bool> tunable_mask(const Weights& w, const Options& o, std::string* error) {
    std::vector<bool> mask(std::size_t(weight_count()), false);
    std::vector<std::string> groups;
    for (const WeightDesc& d : weight_descs())
        if (std::find(groups.begin(), groups.end(), d.group) == groups.end()) groups.push_back(d.group);
    auto known = [&](const std::string& g) {
        return std::find(groups.begin(), groups.end(), g) != groups.end() || find_weight(g) != nullptr;
    };
    for (const auto* list : {&o.tune_groups, &o.freeze_groups})
        for (const std::string& g : *list)
            if (!known(g)) {
                if (error) {
                    *error = "unknown group or weight '" + g + "' (groups:";
                    for (const auto& n : groups) *error += " " + n;
                    *error += ")";
                }
                return {};
            }
    for (int i = 0; i < weight_count(); ++i) {
        const WeightDesc& d = weight_of_index(i);
        const auto listed = [&](const std::vector<std::string>& l) {
            return std::find(l.begin(), l.end(), d.group) != l.end() || std::find(l.begin(), l.end(), d.name) != l.end();
        };
        bool on = d.role != Role::Fixed && d.used(w);
        if (!o.tune_groups.empty() && !listed(o.tune_groups)) on = false;
        if (listed(o.freeze_groups)) on = false;
        if (d.role == Role::PhaseEg && w.phase_curve != PhaseCurve::Table) on = false;
        mask[std::size_t(i)] = on;
    }
    return mask;
}

bool run_tune(const Options& o, const Weights& start_in, std::vector<TunePosition> positions, Report& report,
              std::string* error, const std::function<void(const std::string&)>& log) {
    Weights start = start_in;
    auto say = [&](const std::string& s) {
        if (log && !o.quiet) log(s);
    };
    std::shared_ptr<const Profile> prof = build_profile(start);
    if (o.pst_tables && start.pst_source == PstSource::Generator) {
        for (int pt = PAWN; pt <= KING; ++pt)
            for (int sq = 0; sq < 64; ++sq)
                start.pst_table_op[std::size_t(pt)][std::size_t(sq)] = prof->pst_op[pt][sq],
                start.pst_table_eg[std::size_t(pt)][std::size_t(sq)] = prof->pst_eg[pt][sq];
        start.pst_source = PstSource::Table;
    }
    if (o.phase_table && start.phase_curve != PhaseCurve::Table) {
        for (int p = 0; p <= 64; ++p) start.phase_table_eg[std::size_t(p)] = prof->interp[p][1];
        start.phase_curve = PhaseCurve::Table;
    }
    prof = build_profile(start);  // the traced coefficients must belong to the converted profile
    // Data from files: traced here with the starting profile (coefficients do not depend on the
    // weights, except through the piecewise choices made at trace time: see the README).
    const auto t_load = std::chrono::steady_clock::now();
    TrainingData data;
    if (!o.data.empty()) {
        std::vector<std::string> files;
        if (!training::expand_data_args(o.data, files, error)) return false;
        if (!load_training_data(files, *prof, std::max(1, o.shard_games), o.max_positions, o.threads, data, error, say))
            return false;
        char buf[160];
        std::snprintf(buf, sizeof buf, "%zu positions, %ld games, %zu shards; %.1f MB held, %.1f s",
                      data.set.size(), data.games, data.shards.size(), double(data.set.bytes()) / 1e6,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_load).count());
        say(buf);
    }
    // In-memory positions (tests): each its own game and shard, after the files' positions.
    for (TunePosition& p : positions) {
        data.shards.push_back(TrainingData::Shard{data.set.size(), data.set.size() + 1, 1, -1});
        data.set.push(p);
        ++data.games;
    }
    positions = {};
    if (data.set.size() < 2) {
        if (error) *error = "no training positions";
        return false;
    }
    if (data.set.size() > std::size_t(UINT32_MAX)) {
        if (error) *error = "more than 2^32 training positions";
        return false;
    }
    const std::vector<bool> mask = tunable_mask(start, o, error);
    if (mask.empty()) return false;
    const int free_count = int(std::count(mask.begin(), mask.end(), true));

    // Held-out validation: whole shards (whole games), chosen by a seeded shuffle of the shards.
    std::vector<bool> held = validation_shards(data.shards.size(), o);
    // QTD shards bring their own split: the set's validation shards are never trained on, whatever the seed
    // (a set too small to have one yet is split by the seed like text data).
    if (std::any_of(data.shards.begin(), data.shards.end(), [](const auto& sh) { return sh.fixed == 1; }))
        for (std::size_t k = 0; k < data.shards.size(); ++k)
            if (data.shards[k].fixed >= 0) held[k] = data.shards[k].fixed == 1;
    std::vector<std::uint32_t> train, valid;
    for (std::size_t k = 0; k < data.shards.size(); ++k) {
        auto& side = held[k] ? valid : train;
        for (std::size_t i = data.shards[k].begin; i < data.shards[k].end; ++i) side.push_back(std::uint32_t(i));
        (held[k] ? report.valid_shards : report.train_shards) += 1;
    }
    std::mt19937_64 rng(o.seed);
    std::shuffle(train.begin(), train.end(), rng);
    const TuneSet& set = data.set;

    Model model(start);
    char buf0[128];
    std::vector<double> x = weights_vector(start);
    // --phase-monotone: the tuned phase table starts and stays non-decreasing (the endgame share never
    // falls as material comes off), projected after every step.
    const std::size_t phase_index = std::size_t(eval::WI::phase_table_eg.index);
    const bool monotone_phase = o.phase_monotone && start.phase_curve == PhaseCurve::Table && mask[phase_index];
    if (monotone_phase) make_non_decreasing(&x[phase_index], 65);
    const std::vector<double> x0 = x;
    const double K = o.K > 0 ? o.K : fit_K(model, set, train, x, o.threads);
    report.K = K;
    // The teacher's scale, shared by every thread (each sets its thread_local copy).
    const double teacher_K = o.teacher ? fit_teacher_K(set, train) : 0.0;
    label_K = teacher_K;
    if (o.teacher) {
        std::snprintf(buf0, sizeof buf0, "teacher K = %.4f", teacher_K);
        say(buf0);
    }
    report.positions = set.size();
    report.train_positions = train.size();
    report.valid_positions = valid.size();
    report.games = data.games;
    report.folders = data.folders;
    report.train_error_start = error_of(model, set, train, x, K, o.lambda, o.teacher, o.threads);
    report.valid_error_start = valid.empty() ? 0 : error_of(model, set, valid, x, K, o.lambda, o.teacher, o.threads);
    report.valid_result_error_start = valid.empty() ? 0 : error_of(model, set, valid, x, K, 1.0, false, o.threads);
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "%zu training positions (%zu shards) + %zu validation positions (%zu shards), %d free weights, K = %.4f, "
                  "error %.6f / %.6f (validation against the results %.6f)",
                  train.size(), report.train_shards, valid.size(), report.valid_shards, free_count, K,
                  report.train_error_start, report.valid_error_start, report.valid_result_error_start);
    say(buf);

    const std::size_t P = x.size();
    std::vector<double> m1(P, 0.0), m2(P, 0.0), best = x;
    double best_valid = valid.empty() ? report.train_error_start : report.valid_error_start;
    int since_best = 0, step = 0;
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    const double reg = o.reg / (3399.0 * 3399.0);  // per pawn^2 -> per internal unit^2
    const int threads = std::max(1, o.threads);
    std::vector<std::vector<double>> grads(std::size_t(threads), std::vector<double>(P, 0.0));
    const auto t_start = std::chrono::steady_clock::now();
    std::size_t evaluated = 0;
    int epoch = 0;
    for (epoch = 1; epoch <= o.epochs; ++epoch) {
        std::shuffle(train.begin(), train.end(), rng);
        for (std::size_t b = 0; b < train.size(); b += std::size_t(o.batch)) {
            const std::size_t e = std::min(train.size(), b + std::size_t(o.batch));
            for (auto& g : grads) std::fill(g.begin(), g.end(), 0.0);
            parallel_for(e - b, threads, [&](std::size_t lo, std::size_t hi, int t) {
                label_K = teacher_K;
                std::vector<double>& g = grads[std::size_t(t)];
                for (std::size_t i = b + lo; i < b + hi; ++i) {
                    const std::size_t p = train[i];
                    const PositionHead& h = set.head(p);
                    const Coef *cb = set.coefs_begin(p), *ce = set.coefs_end(p);
                    const double s = sigmoid(model.evaluate(h, cb, ce, x), K);
                    // d/dscore of (target - s)^2
                    const double d = -2.0 * (target_of(h, K, o.lambda, o.teacher) - s) * s * (1 - s) * K / 400.0;
                    model.add_gradient(h, cb, ce, x, d, g);
                }
            });
            evaluated += e - b;
            ++step;
            const double n = double(e - b);
            for (std::size_t j = 0; j < P; ++j) {
                if (!mask[j]) continue;
                double g = 0;
                for (const auto& gr : grads) g += gr[j];
                g = g / n + 2.0 * reg * (x[j] - x0[j]);
                m1[j] = beta1 * m1[j] + (1 - beta1) * g;
                m2[j] = beta2 * m2[j] + (1 - beta2) * g * g;
                const double mh = m1[j] / (1 - std::pow(beta1, step)), vh = m2[j] / (1 - std::pow(beta2, step));
                x[j] -= o.lr * mh / (std::sqrt(vh) + eps);
                const WeightDesc& d = weight_of_index(int(j));
                x[j] = std::clamp(x[j], double(d.lo), double(d.hi));
            }
            if (monotone_phase) make_non_decreasing(&x[phase_index], 65);
        }
        const double tr = error_of(model, set, train, x, K, o.lambda, o.teacher, o.threads);
        const double va = valid.empty() ? tr : error_of(model, set, valid, x, K, o.lambda, o.teacher, o.threads);
        std::snprintf(buf, sizeof buf, "epoch %d: train %.6f, validation %.6f", epoch, tr, va);
        say(buf);
        report.train_error_end = tr;
        if (va < best_valid - 1e-9) {
            best_valid = va;
            best = x;
            since_best = 0;
            report.best_epoch = epoch;
        } else if (++since_best >= o.patience) {
            say("validation error has not improved for " + std::to_string(o.patience) + " epochs: stopping");
            break;
        }
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    report.epochs_run = std::min(epoch, o.epochs);
    report.positions_epochs_per_second = double(evaluated) / std::max(secs, 1e-9);
    report.valid_error_end = best_valid;
    report.valid_result_error_end = valid.empty() ? 0 : error_of(model, set, valid, best, K, 1.0, false, o.threads);
    report.fit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_load).count();
    report.weights = weights_from_vector(start, best);
    return true;
}

}  // namespace quince::tune
