// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The working memory of the distributed constructions on one rank, kept from call to call (a
// libcubwt-style workspace): strix::distributed::reserve sizes it for a text before the clock
// starts, and every suffix_array call given it takes its arrays from it instead of allocating
// and freeing device memory inside the construction (on GPUs about 2 ms a GB each way,
// bench/RESULTS.md §46). A call that needs more than was reserved grows it. Without a
// workspace, a call makes its own and frees it at the end.
//
// Not thread-safe; one workspace serves one construction at a time, on one communicator.
// Where it holds shared ranks' rank array (memory the node's ranks map from each other), its
// release is collective: release it, or let it go out of scope, on every rank together, before
// MPI_Finalize and Kokkos::finalize.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <utility>

#include <strix/core/memory.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::distributed {

namespace detail {

// Device arrays kept by name: take<T>(label, count) hands out count elements of the buffer
// called `label` (an unmanaged view: the buffer stays here), reallocating it first when it is
// smaller or in another memory space. A label serves one live array at a time.
class named_buffers {
 public:
  template <class T, class MemorySpace>
  Kokkos::View<T*, MemorySpace> take(const std::string& label, std::uint64_t count) {
    const std::size_t need = std::max<std::size_t>(std::size_t(count) * sizeof(T), 1);
    auto at = held_.find(label);
    if (at == held_.end() || at->second.bytes < need || at->second.space != std::type_index(typeid(MemorySpace))) {
      if (at != held_.end()) held_.erase(at);  // the old one goes first: growing needs no room for both
      auto view = strix::detail::allocate<unsigned char, MemorySpace>(label, need);
      held one{need, view.data(), std::type_index(typeid(MemorySpace)),
               std::make_shared<Kokkos::View<unsigned char*, MemorySpace>>(std::move(view))};
      at = held_.emplace(label, std::move(one)).first;
      ++allocations_;
    }
    return Kokkos::View<T*, MemorySpace>(static_cast<T*>(at->second.data), count);
  }

  // The primitives' scratch (sorts, scans), one per execution space.
  template <class ExecSpace>
  primitives::workspace<ExecSpace>& scratch() {
    const std::type_index key(typeid(ExecSpace));
    auto at = scratch_.find(key);
    if (at == scratch_.end())
      at = scratch_.emplace(key, std::make_shared<primitives::workspace<ExecSpace>>()).first;
    return *static_cast<primitives::workspace<ExecSpace>*>(at->second.get());
  }
  template <class ExecSpace>
  std::size_t scratch_bytes() const {
    const auto at = scratch_.find(std::type_index(typeid(ExecSpace)));
    return at == scratch_.end() ? 0 : static_cast<const primitives::workspace<ExecSpace>*>(at->second.get())->size();
  }

  // The bytes the buffer called `label` holds in MemorySpace (0: none).
  template <class MemorySpace>
  std::size_t capacity_bytes(const std::string& label) const {
    const auto at = held_.find(label);
    return at == held_.end() || at->second.space != std::type_index(typeid(MemorySpace)) ? 0 : at->second.bytes;
  }

  template <class MemorySpace>
  std::size_t buffer_bytes() const {
    std::size_t sum = 0;
    for (const auto& h : held_)
      if (h.second.space == std::type_index(typeid(MemorySpace))) sum += h.second.bytes;
    if (object_ && object_space_ == std::type_index(typeid(MemorySpace))) sum += object_bytes_;
    return sum;
  }

  // One object kept beside the buffers, of any type: shared ranks' rank array, mapped between
  // the node's ranks (detail/shared_ranks.hpp), whose making and mapping cost more than its
  // allocation. `bytes` of MemorySpace are counted with the buffers. Its release is collective
  // over the ranks that made it (drop_object, release, or the workspace's end).
  template <class T>
  T* object() const {
    return object_ && object_type_ == std::type_index(typeid(T)) ? static_cast<T*>(object_.get()) : nullptr;
  }
  template <class T, class MemorySpace>
  T& keep_object(std::shared_ptr<T> kept, std::size_t bytes) {
    ++objects_made_;
    object_ = std::move(kept);
    object_type_ = std::type_index(typeid(T));
    object_space_ = std::type_index(typeid(MemorySpace));
    object_bytes_ = bytes;
    return *static_cast<T*>(object_.get());
  }
  bool holds_object() const { return object_ != nullptr; }
  // How many objects were kept so far (tests: a reserved workspace makes none in a build).
  std::uint64_t objects_made() const { return objects_made_; }
  void drop_object() {
    object_.reset();
    object_bytes_ = 0;
  }
  // Frees every buffer but those named (what the construction about to run takes).
  void keep_only(std::initializer_list<const char*> labels) {
    for (auto at = held_.begin(); at != held_.end();) {
      const bool kept = std::any_of(labels.begin(), labels.end(), [&](const char* l) { return at->first == l; });
      at = kept ? std::next(at) : held_.erase(at);
    }
  }
  // How many buffers were allocated (tests: a reserved workspace allocates none in a build).
  std::uint64_t allocations() const { return allocations_; }
  void release() {
    held_.clear();
    scratch_.clear();
    drop_object();
    cover_period_ = 0;
  }
  // The difference cover's period the buffers were reserved for (0: none): a build takes no
  // larger one, so that it chooses the pieces reserve chose and fits what reserve sized.
  unsigned reserved_cover_period() const { return cover_period_; }
  void reserved_cover_period(unsigned period) { cover_period_ = period; }

 private:
  struct held {
    std::size_t bytes;
    void* data;
    std::type_index space;
    std::shared_ptr<void> owner;  // the Kokkos view
  };
  std::map<std::string, held> held_;
  std::map<std::type_index, std::shared_ptr<void>> scratch_;
  std::uint64_t allocations_ = 0;
  std::shared_ptr<void> object_;
  std::type_index object_type_{typeid(void)}, object_space_{typeid(void)};
  std::size_t object_bytes_ = 0;
  std::uint64_t objects_made_ = 0;
  unsigned cover_period_ = 0;
};

}  // namespace detail

class workspace {
 public:
  workspace() = default;
  // One owner: copies would share (and overwrite) the same buffers.
  workspace(const workspace&) = delete;
  workspace& operator=(const workspace&) = delete;
  workspace(workspace&&) = default;
  workspace& operator=(workspace&&) = default;

  // Bytes held in ExecutionSpace's memory for its constructions: buffers and scratch.
  template <class ExecutionSpace>
  std::size_t bytes() const {
    return buffers_.buffer_bytes<typename ExecutionSpace::memory_space>() + buffers_.scratch_bytes<ExecutionSpace>();
  }
  // Frees everything; the next call allocates again.
  void release() { buffers_.release(); }

  detail::named_buffers& buffers() { return buffers_; }
  const detail::named_buffers& buffers() const { return buffers_; }

 private:
  detail::named_buffers buffers_;
};

}  // namespace strix::distributed
