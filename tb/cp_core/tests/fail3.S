// fail3.S -- NEGATIVE test of the runner: tests 1 and 2 pass, test 3 fails on purpose, so
// cp-run must report "test 3" and exit with status 3 (registered with an exit-code check).
#include "cp_test.h"

RVTEST_CODE_BEGIN
  TEST_RR_OP(2, add, 5, 2, 3)
  TEST_RR_OP(3, add, 6, 2, 3)      // wrong on purpose: 2 + 3 is not 6
  TEST_RR_OP(4, add, 7, 3, 4)
  j pass
RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
