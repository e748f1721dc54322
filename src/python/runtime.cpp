// SPDX-License-Identifier: BSD-3-Clause
#include "runtime.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace strix::python {

namespace {

int requested_threads = 0;

// The live residents (never destroyed: residents may outlive static objects), under their
// own lock: they are made on the Python side and released on the Kokkos thread.
std::set<resident*>& residents() {
  static auto* live = new std::set<resident*>();
  return *live;
}
std::mutex& residents_mutex() {
  static auto* m = new std::mutex();
  return *m;
}

// Starts Kokkos on the calling thread (the Kokkos thread) when it is not running.
void start_kokkos() {
  if (Kokkos::is_initialized()) return;
#if defined(KOKKOS_ENABLE_CUDA)
  // Kokkos aborts the process when it finds no GPU: an exception instead.
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    throw error(error_code::device_error, "no usable CUDA device: this strix module was built for CUDA");
#endif
#if KOKKOS_VERSION >= 40000
  Kokkos::InitializationSettings settings;
  if (requested_threads > 0) settings.set_num_threads(requested_threads);
  settings.set_disable_warnings(true);
  Kokkos::initialize(settings);
#else
  Kokkos::InitArguments args;
  if (requested_threads > 0) args.num_threads = requested_threads;
  args.disable_warnings = true;
  Kokkos::initialize(args);
#endif
}

// A call after Kokkos stopped at interpreter exit (Python's RuntimeError).
struct kokkos_stopped : std::runtime_error {
  kokkos_stopped() : std::runtime_error("strix has stopped (the interpreter is exiting)") {}
};

// The thread every Kokkos call runs on, and the one task it is given at a time. Never
// destroyed (a joinable std::thread destroyed at process exit would terminate); joined
// when Kokkos stops.
class kokkos_thread {
 public:
  // Runs the task there (Kokkos started first) and waits for it; callers come one at a time.
  void run(const std::function<void()>& task) {
    std::lock_guard<std::mutex> one_caller(callers_);
    if (stopped_) throw kokkos_stopped();
    hand_over(task, true);
  }
  // The last task (Kokkos not started for it), then the thread ends; later calls throw.
  void stop(const std::function<void()>& last) {
    std::lock_guard<std::mutex> one_caller(callers_);
    if (stopped_) return;
    if (thread_.joinable()) hand_over(last, false);
    {
      std::lock_guard<std::mutex> lock(m_);
      stopped_ = true;
      changed_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
  }
  bool stopped() {
    std::lock_guard<std::mutex> lock(m_);
    return stopped_;
  }

 private:
  void hand_over(const std::function<void()>& task, bool start) {
    if (!thread_.joinable()) thread_ = std::thread([this] { serve(); });
    {
      std::lock_guard<std::mutex> lock(m_);
      task_ = &task;
      start_ = start;
      failure_ = nullptr;
      busy_.store(true, std::memory_order_release);
    }
    changed_.notify_all();
    spin_while([&] { return busy_.load(std::memory_order_acquire); });
    std::unique_lock<std::mutex> lock(m_);
    changed_.wait(lock, [&] { return task_ == nullptr; });
    if (failure_) std::rethrow_exception(failure_);
  }

  // Waits up to spin_budget yielding while `pending()`: a hand-over that sleeps on the
  // condition variable costs two wake-ups (about 14 us a call on a 2-core VM); small calls end
  // within the budget.
  template <class Pending>
  static void spin_while(Pending pending) {
    const auto until = std::chrono::steady_clock::now() + spin_budget;
    while (pending() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  }
  static constexpr std::chrono::microseconds spin_budget{100};

  void serve() {
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      if (task_ == nullptr && !stopped_) {  // the next call often comes at once: spin first
        lock.unlock();
        spin_while([&] { return !busy_.load(std::memory_order_acquire); });
        lock.lock();
      }
      changed_.wait(lock, [&] { return task_ != nullptr || stopped_; });
      if (!task_) return;
      const auto* task = task_;
      const bool start = start_;
      lock.unlock();
      std::exception_ptr failure;
      try {
        if (start) start_kokkos();
        (*task)();
      } catch (...) {
        failure = std::current_exception();
      }
      lock.lock();
      failure_ = failure;
      task_ = nullptr;
      busy_.store(false, std::memory_order_release);
      changed_.notify_all();
    }
  }

  std::mutex callers_, m_;
  std::condition_variable changed_;
  const std::function<void()>* task_ = nullptr;
  bool start_ = true;
  std::exception_ptr failure_;
  bool stopped_ = false;
  std::atomic<bool> busy_{false};  // task_ != nullptr, read without the lock while spinning
  std::thread thread_;
};

kokkos_thread& the_kokkos_thread() {
  static auto* t = new kokkos_thread();
  return *t;
}

// At interpreter exit: free what live objects hold, then stop Kokkos (which must outlive
// every array it allocated), both on the Kokkos thread.
void stop_kokkos() {
  py::gil_scoped_release release;
  the_kokkos_thread().stop([] {
    {
      std::lock_guard<std::mutex> live(residents_mutex());
      for (auto* r : residents()) r->release();
    }
    if (Kokkos::is_initialized()) Kokkos::finalize();
  });
}

}  // namespace

void in_kokkos(const std::function<void()>& task) {
  static const bool registered = [] {  // under the GIL, the first call registers the stop
    py::module_::import("atexit").attr("register")(py::cpp_function(&stop_kokkos));
    return true;
  }();
  (void)registered;
  // Whether this is a daemon thread, asked once per thread while it holds the GIL: at exit
  // such a thread must not take the GIL again (below).
  thread_local const bool daemon =
      py::module_::import("threading").attr("current_thread")().attr("daemon").cast<bool>();
  PyThreadState* state = PyEval_SaveThread();
  try {
    the_kokkos_thread().run(task);
  } catch (const kokkos_stopped&) {
    // A daemon thread still calling at exit waits for the process to end without the GIL:
    // taking it while the interpreter finalizes ends the thread by a forced unwind whose
    // destructors would release Python objects without the GIL, beside the collector
    // (Python 3.12 crashed so). Any other caller gets the RuntimeError.
    if (daemon)
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    PyEval_RestoreThread(state);
    throw;
  } catch (...) {
    PyEval_RestoreThread(state);
    throw;
  }
  PyEval_RestoreThread(state);
}

void resident::release_in_destructor() noexcept {
  // Waits with the GIL held: the Kokkos thread never takes it.
  auto& thread = the_kokkos_thread();
  try {
    if (thread.stopped()) release();  // already released at exit; Kokkos is gone
    else thread.run([this] { release(); });
  } catch (...) {  // a destructor does not throw; the arrays are freed with the process
  }
}

void set_threads(int threads) {
  if (threads < 1) throw error(error_code::invalid_input, "set_threads needs at least 1 thread");
  if (Kokkos::is_initialized())
    throw error(error_code::invalid_input, "set_threads must come before strix's first call (Kokkos has started)");
  requested_threads = threads;
}

const char* backend_name(backend_id b) {
  switch (b) {
    case backend_id::cuda: return "cuda";
    case backend_id::openmp: return "openmp";
    case backend_id::serial: return "serial";
  }
  return "?";
}

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
#if STRIX_ETI_HAS_CUDA
  names.push_back("cuda");
#endif
#if STRIX_ETI_HAS_OPENMP
  names.push_back("openmp");
#endif
#if STRIX_ETI_HAS_SERIAL
  names.push_back("serial");
#endif
  return names;
}

backend_id parse_backend(const std::optional<std::string>& name) {
  if (!name) {  // Kokkos' default execution space, when this build has it; else the first
    const std::string first = backend_names().at(0);
#if defined(KOKKOS_ENABLE_CUDA)
    if (STRIX_ETI_HAS_CUDA) return backend_id::cuda;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    if (STRIX_ETI_HAS_OPENMP) return backend_id::openmp;
#endif
    return parse_backend(first);
  }
  for (const auto& [text, id] : {std::pair<const char*, backend_id>{"cuda", backend_id::cuda},
                                 {"openmp", backend_id::openmp},
                                 {"serial", backend_id::serial}}) {
    if (*name != text) continue;
    for (const auto& have : backend_names())
      if (have == text) return id;
  }
  std::string have;
  for (const auto& b : backend_names()) have += (have.empty() ? "" : ", ") + b;
  throw error(error_code::invalid_input, "unknown or absent backend '" + *name + "' (this build has " + have + ")");
}

resident::resident() {
  std::lock_guard<std::mutex> lock(residents_mutex());
  residents().insert(this);
}

resident::~resident() {
  std::lock_guard<std::mutex> lock(residents_mutex());
  residents().erase(this);
}

}  // namespace strix::python
