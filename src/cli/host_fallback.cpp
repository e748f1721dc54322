// SPDX-License-Identifier: BSD-3-Clause
#include "host_fallback.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include <strix/error.hpp>

namespace strix::cli {
namespace {

// The folder of this program's file, from /proc/self/exe (argv[0] may be a bare name).
std::string own_folder() {
  std::vector<char> buf(4096);
  const ssize_t len = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (len <= 0) return {};
  std::string path(buf.data(), static_cast<std::size_t>(len));
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// The path of the executable strix-host beside this program, or "" when there is none.
std::string host_beside() {
  const std::string folder = own_folder();
  const std::string host = folder + "/strix-host";
  return !folder.empty() && ::access(host.c_str(), X_OK) == 0 ? host : std::string();
}

// strix-host beside this program; `head` says why it is needed when it is missing.
std::string host_program(const std::string& head) {
  const std::string host = host_beside();
  if (host.empty())
    throw error(error_code::device_error,
                head + ", and its host fallback strix-host is not beside it; use a host build (STRIX_VARIANT=openmp)");
  return host;
}

[[noreturn]] void exec_host(char** argv, const std::string& host, const std::string& head) {
  std::fflush(nullptr);
  ::execv(host.c_str(), argv);
  throw error(error_code::device_error, head + ", and its host fallback " + host + " does not start: " + std::strerror(errno));
}

}  // namespace

bool host_fallback_present() { return !host_beside().empty(); }

void exec_host_fallback(char** argv, const std::string& why_no_gpu, bool announce) {
  const std::string head = "this strix is built for CUDA and finds no usable GPU (" + why_no_gpu + ")";
  const std::string host = host_program(head);
  if (announce)
    std::fprintf(stderr, "strix: note: no usable GPU (%s); running on the host backend (%s)\n",
                 why_no_gpu.c_str(), host.c_str());
  exec_host(argv, host, head);
}

void exec_host_backend(char** argv, const std::string& backend) {
  const std::string head = "this strix is compiled for CUDA; its " + backend + " backend is strix-host's";
  exec_host(argv, host_program(head), head);
}

}  // namespace strix::cli
