#pragma once
// Names of cuDNN and CUDA driver status codes. cuDNN 8.x and 9.x number their statuses differently
// (8.x: 0-14; 9.x: 0, 1001..5004), so the loaded major decides how a number reads.
#include <string>

namespace cudnnctl {

std::string cudnn_status_name(int status, unsigned major);
std::string cu_result_name(int result);

} // namespace cudnnctl
