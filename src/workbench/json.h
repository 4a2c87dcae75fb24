// Small JSON writing helpers shared by the workbench's outputs.
#pragma once

#include <cstdio>
#include <string>

namespace quince::workbench {

// A JSON string literal: quotes, backslashes and control characters escaped.
inline std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (unsigned char ch : s) {
        if (ch == '"' || ch == '\\') out += '\\', out += char(ch);
        else if (ch < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", ch);
            out += b;
        } else out += char(ch);
    }
    return out + "\"";
}

// Numbers with the 5 decimals of `eval --json` (so that the two agree digit for digit).
inline std::string json_number(double v) {
    char b[48];
    std::snprintf(b, sizeof b, "%.5f", v);
    return b;
}

}  // namespace quince::workbench
