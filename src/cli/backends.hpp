#pragma once
// Runs a generic callable on the execution space the user picked with --backend.
#include <Kokkos_Core.hpp>
#include <fstream>
#include <string>
#include <thread>

#include <strix/error.hpp>

namespace strix::cli {

template <class F>
auto with_backend(const std::string& name, F&& f) {
  const std::string pick = name == "default" ? std::string(Kokkos::DefaultExecutionSpace::name()) : name;
  auto is = [&pick](const char* n) {
    std::string a = pick, b = n;
    for (auto& c : a) c = static_cast<char>(std::tolower(c));
    for (auto& c : b) c = static_cast<char>(std::tolower(c));
    return a == b;
  };
#ifdef KOKKOS_ENABLE_CUDA
  if (is("cuda")) return f(Kokkos::Cuda());
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  if (is("openmp")) return f(Kokkos::OpenMP());
#endif
#ifdef KOKKOS_ENABLE_SERIAL
  if (is("serial")) return f(Kokkos::Serial());
#endif
  throw error(error_code::invalid_input, "backend '" + name + "' is not enabled in this build");
}

inline std::string host_cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  return "unknown CPU";
}

template <class ExecSpace>
std::string device_name(const ExecSpace& space) {
  return host_cpu_name() + " (" + std::to_string(space.concurrency()) + " threads)";
}
#ifdef KOKKOS_ENABLE_CUDA
inline std::string device_name(const Kokkos::Cuda& space) { return space.cuda_device_prop().name; }
#endif

}  // namespace strix::cli
