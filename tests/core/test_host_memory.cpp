// SPDX-License-Identifier: BSD-3-Clause
// The host memory `auto` assumes a run may take: what the system reports, capped by
// STRIX_HOST_MEMORY_BYTES when that is a number.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include <strix/core/host_memory.hpp>

TEST_SUITE_BEGIN("core");

namespace {

// Sets STRIX_HOST_MEMORY_BYTES for one scope, restoring what was there.
class memory_limit {
 public:
  explicit memory_limit(const char* value) {
    if (const char* old = std::getenv(name)) saved_ = old, had_ = true;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~memory_limit() {
    if (had_) setenv(name, saved_.c_str(), 1);
    else unsetenv(name);
  }

 private:
  static constexpr const char* name = "STRIX_HOST_MEMORY_BYTES";
  std::string saved_;
  bool had_ = false;
};

}  // namespace

TEST_CASE("host memory: the system's figure, capped by STRIX_HOST_MEMORY_BYTES") {
  std::uint64_t reported = 0;
  {
    memory_limit none(nullptr);
    reported = strix::host_memory_available();
    CHECK(reported > (std::uint64_t(1) << 20));  // a machine that runs the tests has a MiB free
  }
  {
    memory_limit cap("12345");
    CHECK(strix::host_memory_available() == 12345);
  }
  {
    memory_limit above(std::to_string(reported * 4 + 1000).c_str());  // a cap above it does not raise it
    CHECK(strix::host_memory_available() <= reported * 2);
  }
  for (const char* junk : {"", "12x", "-5", "lots"}) {
    CAPTURE(junk);
    memory_limit ignored(junk);
    CHECK(strix::host_memory_available() > 12345);  // not a number: ignored
  }
}
