#pragma once
// Reached through a SYSTEM include directory (-isystem).
constexpr int saxpy_block_size = 128;
