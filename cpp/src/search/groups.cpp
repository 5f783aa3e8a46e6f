// Groups: the split of promised tiles into valid groups, depth first.
#include "groups.h"

namespace rummikub::search {

// Splits the promised tiles plus `jokers` free jokers into valid groups (distinct colours, max(3, L)..C tiles,
// a numbered tile each). Returns the fewest uncovered jokers a split leaves (with Mode::retrieval_rule; else 0), or
// -1 when there is no split; fills `build` with such a split when asked.
int split_groups(uint64_t g, int jokers, int colours, const Mode& m, std::vector<GroupBuild>* build) {
  int cnt[kMaxColours][3];
  int total = 0;
  for (int c = 0; c < kMaxColours; ++c) {
    for (int s = 0; s < 3; ++s) {
      cnt[c][s] = promised(g, c, s);
      total += cnt[c][s];
    }
  }
  GroupBuild stack[kMaxColours * 3];  // (a group holds a numbered tile: at most one per promised tile, 3 copies)
  int depth = 0;
  int best = -1;
  // Depth first: the group holding a tile of the lowest colour left, then the rest; returns true to stop (a split
  // with no joker uncovered cannot be beaten).
  const int group_min = std::max(3, m.min_len);
  auto rec = [&](auto&& self, int left, int uncovered) -> bool {
    if (best >= 0 && uncovered >= best) return false;
    int lead = -1, tiles = 0, real = 0, most = 0;
    for (int c = 0; c < kMaxColours; ++c) {
      const int k = cnt[c][0] + cnt[c][1] + cnt[c][2];
      if (k > 0 && lead < 0) lead = c;
      tiles += k;
      real += cnt[c][0] + cnt[c][2];
      most = std::max(most, k);
    }
    if (lead >= 0) {
      // The k groups left hold each colour once, a numbered tile each, and group_min..colours members: no split
      // exists unless some k fits all three (a cut of subtrees without a split; the order of the search is kept).
      const int size = tiles + left;
      if (std::max(most, (size + colours - 1) / colours) > std::min(size / group_min, real)) return false;
    } else {
      if (left != 0) return false;
      best = uncovered;
      if (build != nullptr) build->assign(stack, stack + depth);
      return best == 0;
    }
    // The group holding one tile of the lowest colour left: choose its slot kind and its other members.
    GroupBuild grp;
    int numbered = 0, rack = 0;  // grp's numbered tiles and rack tiles
    auto pick = [&](auto&& pself, int c) -> bool {
      if (c == kMaxColours) {
        if (numbered == 0) return false;
        // (the jokers that make a size of group_min..colours, fewest first; the stack only when a split is asked)
        for (int a = std::max(0, group_min - grp.size); a <= left && grp.size + a <= colours; ++a) {
          grp.jokers = a;
          if (build != nullptr) stack[depth++] = grp;
          const int more = m.retrieval_rule ? meld_uncovered(a, rack, m.rack_needed) : 0;
          const bool stop = self(self, left - a, uncovered + more);
          if (build != nullptr) --depth;
          if (stop) return true;
        }
        return false;
      }
      if (c != lead && pself(pself, c + 1)) return true;  // colour c not in this group
      for (int s = 0; s < 3; ++s) {
        if (cnt[c][s] == 0) continue;
        const int slot = s == 0 ? kTableTile : s == 1 ? kStayingJoker : kRackTile;
        const int counts = slot_real(slot) ? 1 : 0, from_rack = slot == kRackTile ? 1 : 0;
        --cnt[c][s];
        grp.members[grp.size++] = GroupMember{c, slot};
        numbered += counts;
        rack += from_rack;
        const bool stop = pself(pself, c + 1);
        numbered -= counts;
        rack -= from_rack;
        --grp.size;
        ++cnt[c][s];
        if (stop) return true;
      }
      return false;
    };
    return pick(pick, lead);
  };
  if (total > 0) {
    rec(rec, jokers, 0);
  } else if (jokers == 0) {
    best = 0;
    if (build != nullptr) build->clear();
  }
  return best;
}

// Returns split_groups(g, jokers, colours, m), put in the memo's slot of its key (see groups.h).
int group_split_into(GroupsMemo::Entry& e, uint64_t key, uint64_t g, int jokers, int colours, const Mode& m) {
  if (e.key != key) e = GroupsMemo::Entry{key, 0};
  const int best = split_groups(g, jokers, colours, m, nullptr);
  e.splits |= static_cast<uint32_t>(best + 2) << (4 * jokers);
  return best;
}

}  // namespace rummikub::search
