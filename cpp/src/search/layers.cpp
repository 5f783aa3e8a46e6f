// Nodes and layers: the covering of runs (a bipartite matching), and dominance between the nodes of a layer.
#include <type_traits>

#include "programme.h"

namespace rummikub::search {

// Returns true when a colour's runs a can do whatever its runs b can (see layers.h).
bool runs_cover(uint64_t a, uint64_t b, const Mode& m) {
  uint8_t da[8], db[8];
  const int ka = unpack_runs(a, da), kb = unpack_runs(b, db);
  if (ka < kb) return false;
  uint32_t to_a[8] = {}, to_b[8] = {};  // to_a[j]: the runs of a that cover run j of b; to_b[i]: the b's a[i] covers
  for (int j = 0; j < kb; ++j) {
    for (int i = 0; i < ka; ++i) {
      if (run_covers(da[i], db[j])) {
        to_a[j] |= 1U << i;
        to_b[i] |= 1U << j;
      }
    }
  }
  // Kuhn's augmenting paths, from the vertices of one side that must be matched (`must`, a bit each).
  auto saturates = [](const uint32_t* adj, int k, uint32_t must) {
    int partner[8];
    std::fill(partner, partner + 8, -1);
    auto augment = [&](auto&& self, int v, uint32_t& seen) -> bool {
      for (uint32_t e = adj[v] & ~seen; e != 0; e &= e - 1) {
        const int u = __builtin_ctz(e);
        seen |= 1U << u;
        if (partner[u] < 0 || self(self, partner[u], seen)) {
          partner[u] = v;
          return true;
        }
      }
      return false;
    };
    for (int v = 0; v < k; ++v) {
      uint32_t seen = 0;
      if ((must >> v & 1) != 0 && !augment(augment, v, seen)) return false;
    }
    return true;
  };
  uint32_t must_a = 0;
  for (int i = 0; i < ka; ++i) {
    if (!can_end_now(da[i], m) || run_uncovered(da[i]) != 0) must_a |= 1U << i;
  }
  return saturates(to_a, kb, (1U << kb) - 1) && saturates(to_b, ka, must_a);
}

// The summary prune_dominated keeps for a dead node (every bit set: a node's summary leaves the top 4 bits clear):
// the walks over a bucket tell the dead nodes by their summaries, read anyway, and reach the nodes only for the
// pairs whose summaries cover.
constexpr uint64_t kDeadSummary = ~uint64_t{0};

// Marks dead the nodes of a layer (at least 2) that another node of the layer dominates.
void Programme::prune_dominated(Layer& layer) const {
  // A node is dead when another node of its layer, with a score as high, the same counts, groups and rack tiles
  // used, has runs that can do whatever its runs can in every colour (runs_cover): whatever the weaker node can
  // still reach, the stronger reaches with as high a score. Only pairs with a node that is new or improved
  // since the layer was last expanded (Node::ceiling) can have changed.
  const size_t K = layer.nodes.size();
  LanesMemo& lanes = scratch_->lanes_memo;
  const size_t added = layer.bucket_new(in_.p.colours, in_.mode.min_len, lanes);
  Node* const nodes = layer.nodes.data();
  int32_t* const head = layer.bucket_head.data();
  int32_t* const next = layer.bucket_next.data();
  RunsSummary* const summary = layer.summary.data();
  const int colours = in_.p.colours;
  const Mode& mode = in_.mode;
  const uint32_t id = CoverMemo::id_of(mode);
  CoverMemo& memo = scratch_->cover_memo;
  // A dead node that an improvement revived (Layer::offer) has its summary back before any walk meets it.
  for (size_t i = layer.unchanged; i < added; ++i) {
    if (summary[i].w == kDeadSummary && !nodes[i].dead) {
      summary[i] = RunsSummary(nodes[i].s, colours, mode.min_len, lanes);
    }
  }
  // Returns true when node a can do whatever node b can (given the same counts, groups and mask).
  auto dominates = [&](const Node& a, const Node& b) {
    for (int c = 0; c < colours; ++c) {
      const uint64_t x = a.s.runs[c], y = b.s.runs[c];
      if (x != y && !memo.covers(x, y, id, mode)) return false;
    }
    return true;
  };
  // Each bucket is a chain through `next`, from its last node down. Each new node is compared with the others of
  // its bucket (a pair of new nodes once, from the later one): a node added since the last call with those below
  // it in its chain (all before it), one improved since with the whole chain. Dead nodes met on the way leave the
  // chain (one that an improvement revives is then compared as a new node, from its side only).
  // (None is before Layer::unchanged.)
  auto walk = [&](size_t i, int32_t* link, auto whole) {
    Node& x = nodes[i];
    // (x's score and summary in locals: after a call to the cover memo the compiler would read them again)
    const int64_t score = x.score;
    const RunsSummary sx = summary[i];
    for (int32_t j = *link; j >= 0; j = *link) {
      const RunsSummary sj = summary[j];
      if (sj.w == kDeadSummary) {  // (o.dead)
        *link = next[j];
        continue;
      }
      link = &next[j];
      Node& o = nodes[j];
      // (Walking the whole chain: not x itself, nor a new node after it, whose pair is compared from j.)
      if (whole && static_cast<size_t>(j) >= i && (static_cast<size_t>(j) == i || o.ceiling == INT64_MAX)) continue;
      const bool o_covers = sj.covers(sx), x_covers = sx.covers(sj);
      if (!(o_covers | x_covers)) continue;  // (most pairs: neither node's runs can cover the other's)
      if (o_covers && o.score >= score && dominates(o, x)) {
        x.dead = true;
        summary[i].w = kDeadSummary;
        return;
      }
      if (x_covers && score >= o.score && dominates(x, o)) {
        o.dead = true;
        summary[j].w = kDeadSummary;
      }
    }
  };
  for (size_t i = layer.unchanged; i < K; ++i) {
    const Node& x = nodes[i];
    if (x.dead || x.ceiling != INT64_MAX) continue;
    if (i >= added) {
      walk(i, &next[i], std::false_type());
    } else {
      walk(i, &head[layer.bucket_of[i]], std::true_type());
    }
  }
}

}  // namespace rummikub::search
