// Reduce and scan: a running total and the grand total of some floats.
#include <parprim/parprim.hpp>

#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();  // cuda:0 if a GPU answers, else cpu
  std::vector<float> host_values(1 << 20, 0.5f);
  auto in = parprim::buffer<float>::from_host(ctx, host_values);
  parprim::buffer<float> out(ctx, in.size());

  parprim::exclusive_scan<float>(ctx, in, out);                     // stream-ordered on CUDA
  float total = parprim::reduce<float>(ctx, in);                    // returns to the host
  std::vector<float> running = out.to_host();
  parprim::inclusive_scan<float>(ctx, in, out, parprim::op::max,    // any op, any variant
                                 parprim::scan_algorithm::blelloch);
  float largest = out.to_host().back();

  std::printf("%s: total %.1f, running total before the last %.1f, max %.1f\n",
              ctx.name().c_str(), total, running.back(), largest);
  return total == 524288.0f && running.back() == 524287.5f && largest == 0.5f ? 0 : 1;
}
