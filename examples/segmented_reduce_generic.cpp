// Generic segmented reduce and scan: a caller's type and operator. Each segment is a chain of
// 1-D affine maps x -> scale * x + shift applied left to right; folding a segment composes its
// chain into one map (associative, not commutative: the order matters, and no identity is
// needed). This file is compiled by the host compiler, so it runs on a CPU context; from a .cu
// file compiled by nvcc the same calls run on a CUDA context too.
#include <parprim/parprim.hpp>

#include <cstdio>
#include <vector>

struct affine {
  float scale, shift;
};

// f, then g: x -> g.scale * (f.scale * x + f.shift) + g.shift.
struct then {
  PARPRIM_HD affine operator()(const affine& f, const affine& g) const {
    return affine{g.scale * f.scale, g.scale * f.shift + g.shift};
  }
};

int main() {
  parprim::context ctx = parprim::context::cpu();
  // Three chains: [x2, +1] [+3, x10, -4] [] (the empty one gets init, the identity map).
  std::vector<affine> steps{{2, 0}, {1, 1}, {1, 3}, {10, 0}, {1, -4}};
  std::vector<std::int64_t> chain_offsets{0, 2, 5, 5};
  auto in = parprim::buffer<affine>::from_host(ctx, steps);
  auto offsets = parprim::buffer<std::int64_t>::from_host(ctx, chain_offsets);
  parprim::buffer<affine> chains(ctx, 3), partial(ctx, in.size());

  const affine identity{1, 0};
  parprim::segmented_reduce(ctx, parprim::span<const affine>(in),
                            parprim::span<const std::int64_t>(offsets),
                            parprim::span<affine>(chains), identity, then{});
  parprim::segmented_inclusive_scan(ctx, parprim::span<const affine>(in),
                                    parprim::span<const std::int64_t>(offsets),
                                    parprim::span<affine>(partial), then{});
  std::vector<affine> c = chains.to_host(), p = partial.to_host();
  for (int s = 0; s < 3; ++s)
    std::printf("chain %d: x -> %g x + %g (maps 1 to %g)\n", s, c[s].scale, c[s].shift,
                c[s].scale * 1 + c[s].shift);
  // Chain 1 maps x to 10 (x + 3) - 4 = 10 x + 26; after its first two steps, 10 x + 30.
  bool ok = c[0].scale == 2 && c[0].shift == 1 && c[1].scale == 10 && c[1].shift == 26 &&
            c[2].scale == 1 && c[2].shift == 0 && p[3].scale == 10 && p[3].shift == 30;
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
