// MSVC's <intrin.h>: GuiNN uses the SSE/AVX intrinsics of <immintrin.h>.
#pragma once
#include <immintrin.h>
