// hang.S -- NEGATIVE test of the runner: never writes tohost, so cp-run must stop at
// --max-cycles with an error (exit 255) instead of running forever.
#include "cp_test.h"

RVTEST_CODE_BEGIN
1:addi x5, x5, 1
  j 1b
RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
