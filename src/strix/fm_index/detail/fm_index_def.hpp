// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definitions of the FM-index, included by libstrix's instantiation files only;
// STRIX_FM_INDEX_INSTANTIATE(SPACE, I) instantiates them.
#include <strix/fm_index/detail/fm_build_def.hpp>
#include <strix/fm_index/detail/fm_load_def.hpp>
#include <strix/fm_index/detail/fm_query_def.hpp>

#define STRIX_FM_INDEX_INSTANTIATE(SPACE, I) STRIX_FM_INDEX_DECLARE(, SPACE, I)
