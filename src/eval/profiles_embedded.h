// The profile files of src/eval/profiles/ compiled into the binary (generated at build time by
// cmake/embed_profiles.cmake): name = file name without .txt, text = the file.
#pragma once

namespace quince::eval {

struct EmbeddedProfile {
    const char* name;
    const char* text;
};
extern const EmbeddedProfile EMBEDDED_PROFILES[];
extern const int EMBEDDED_PROFILE_COUNT;

}  // namespace quince::eval
