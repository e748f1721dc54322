// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device memory of strix::inverse_bwt on an execution space, reserved once (as CUB's
// temporary storage and libcubwt's device storage are): a call given a workspace reserved
// for its length allocates nothing, so that repeated or timed calls pay no allocation (a
// fresh process's first allocations of a few hundred MB cost more than the inverse itself on
// a GPU). A call given a smaller one grows it. One workspace serves one stream of calls at a
// time: a call's work stays in it until the execution space is fenced, so calls on other
// execution space instances or host threads need their own. Free it (release() or its end)
// before Kokkos::finalize. Compiled into libstrix (strix/core/eti.hpp).
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>

#include <strix/core/eti.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix {

template <class ExecSpace>
class inverse_bwt_workspace;

namespace detail {
// How strix's inverse reaches a workspace's memory (strix/bwt/detail/inverse_bwt_def.hpp).
struct inverse_bwt_workspace_access;
}  // namespace detail

template <class ExecSpace>
class inverse_bwt_workspace {
 public:
  using memory_space = typename ExecSpace::memory_space;

  // Room for BWTs of up to n bytes on `space`: the rows' sort (16 bytes a row, 24 from 2^32
  // rows) and its scratch, and the walks' pieces (32 bytes each, a few pieces a GPU thread).
  // Throws strix::error(device_out_of_memory) / (host_out_of_memory).
  void reserve(const ExecSpace& space, std::uint64_t n);
  std::size_t bytes() const { return arrays_.extent(0) + scratch_.size(); }
  void release() {
    arrays_ = {};
    scratch_.release();
  }

 private:
  friend struct detail::inverse_bwt_workspace_access;
  Kokkos::View<unsigned char*, memory_space> arrays_;
  primitives::workspace<ExecSpace> scratch_;
};

}  // namespace strix

#define STRIX_INVERSE_BWT_WORKSPACE_EXTERN(SPACE) extern template class strix::inverse_bwt_workspace<SPACE>;
STRIX_FOR_EACH_ETI_SPACE(STRIX_INVERSE_BWT_WORKSPACE_EXTERN)
#undef STRIX_INVERSE_BWT_WORKSPACE_EXTERN
