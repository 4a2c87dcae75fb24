// Evaluation trace output: text table, JSON and the `quince eval` command (declared in evaluate.h).
#pragma once

#include "eval/evaluate.h"
#include "eval/terms.h"
