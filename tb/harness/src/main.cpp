// main() for harness benches: link tessera_harness_main.
#include "tb/test.hpp"

int main(int argc, char** argv) { return tb::run_main(argc, argv); }
