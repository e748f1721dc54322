// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The view types the primitives take, for vendor code in backends/: that code sees
// strix/primitives/ and strix/error.hpp only, never core/ or an algorithm. The types
// themselves are strix's vocabulary, defined in core/.
#include <strix/core/device_view.hpp>
