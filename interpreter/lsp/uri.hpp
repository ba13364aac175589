// file: URIs <-> paths (RFC 8089 as editors write them: file:///abs/path,
// percent-encoded). Documents with other schemes (untitled:) have no path.
#pragma once

#include <optional>
#include <string>

namespace humus::lsp {

std::optional<std::string> path_of_uri(const std::string& uri);
std::string uri_of_path(const std::string& path);

}  // namespace humus::lsp
