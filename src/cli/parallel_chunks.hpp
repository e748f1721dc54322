// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Host threads over the chunks of a range, for the CLI's formatting of answers: work(chunk)
// for chunk = 0 .. chunks - 1, each once, on up to `threads` threads (the caller's among them),
// chunks taken in turn from a shared counter. The first exception a chunk throws is rethrown
// here once every thread has stopped.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace strix::cli {

template <class Work>
void for_each_chunk(std::size_t chunks, int threads, const Work& work) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_lock;
  const auto run = [&] {
    for (std::size_t c; (c = next.fetch_add(1)) < chunks;) {
      try {
        work(c);
      } catch (...) {
        const std::lock_guard<std::mutex> hold(failure_lock);
        if (!failure) failure = std::current_exception();
        next.store(chunks);  // the others stop at their next chunk
      }
    }
  };
  const std::size_t helpers = std::min<std::size_t>(chunks, std::size_t(std::max(threads, 1))) - (chunks > 0 ? 1 : 0);
  std::vector<std::thread> pool;
  pool.reserve(helpers);
  for (std::size_t t = 0; t < helpers; ++t) {
    try {
      pool.emplace_back(run);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: those started and this one take every chunk
    }
  }
  run();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace strix::cli
