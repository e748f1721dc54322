// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Files the tests read from the source tree (tests/...). The suite may run where only its
// binary was carried (the device check): STRIX_TEST_DATA_DIR then names the folder that holds
// a copy of tests/, and a missing file fails as "fixture not found: PATH", never as an empty read.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace strix_test {

// The tests/ folder: $STRIX_TEST_DATA_DIR when set, else the source folder compiled in.
inline std::string fixture_root() {
  const char* from_env = std::getenv("STRIX_TEST_DATA_DIR");
  return from_env && *from_env ? std::string(from_env) : std::string(STRIX_TEST_DATA_DIR);
}

// The bytes of tests/<relative>.
inline std::vector<unsigned char> read_fixture(const std::string& relative) {
  const std::string path = fixture_root() + "/" + relative;
  std::ifstream in(path, std::ios::binary);
  if (!in) FAIL("fixture not found: " << path << " (set STRIX_TEST_DATA_DIR to the folder that holds tests/'s files)");
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace strix_test
