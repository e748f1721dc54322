// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A CUDA build of strix on a machine without a usable GPU: Kokkos would abort while
// starting, so the run goes to strix-host, the same tool built for the host backends and
// installed beside strix (cmake/StrixHostFallback.cmake).
#include <string>

namespace strix::cli {

// Replaces this process with strix-host and the same arguments, saying why on stderr when
// `announce` (the user did not pick a backend). Throws strix::error(device_error) when
// there is no strix-host beside this program or it cannot be started.
[[noreturn]] void exec_host_fallback(char** argv, const std::string& why_no_gpu, bool announce);

// Replaces this process with strix-host for a host backend this CUDA build is not compiled
// for (host_backend_elsewhere in session.hpp), silently; throws as above.
[[noreturn]] void exec_host_backend(char** argv, const std::string& backend);

// Whether strix-host is beside this program (the fallback is opt-in at build time).
bool host_fallback_present();

}  // namespace strix::cli
