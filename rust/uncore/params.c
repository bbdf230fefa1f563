// SPDX-License-Identifier: GPL-2.0
// The module parameters (6.12's module! has none); RU_PARAM_SIM adds the simulation's.
// Rust's view: rust/uncore/params_generated.rs (Kbuild).
#include <linux/moduleparam.h>

static bool pmi = true;
module_param(pmi, bool, 0444);
MODULE_PARM_DESC(pmi, "Take counter overflow PMIs where the uncore raises them (Nehalem-EX, Westmere-EX); 0: never enable them, the poll timer alone keeps the counts (default 1)");
int ru_param_pmi(void) { return pmi; }

#ifdef RU_PARAM_SIM
static char *sim;
module_param(sim, charp, 0444);
MODULE_PARM_DESC(sim, "Drive a simulated platform instead of the hardware: <platform>[:<sockets>], an unknown platform fails the load with the list of names in the kernel log (pentiumd: a family 15 model 6 part without L3 EMON)");
static char *hide;
module_param(hide, charp, 0444);
MODULE_PARM_DESC(hide, "With sim=: register no PMU for the boxes of these types, e.g. imc (a driver that misses a box the machine has; the selftests must fail)");
static int capid4 = -1;
module_param(capid4, int, 0444);
MODULE_PARM_DESC(capid4, "With sim=: the dword the simulated part's box-count register reads, where the platform has one (Haswell-EP's PCU CAPID4: bits 7:6 at 0 make two S-boxes); default -1: no such function, the table's count stands");
const char *ru_param_sim(void) { return sim; }
const char *ru_param_hide(void) { return hide; }
int ru_param_capid4(void) { return capid4; }
#endif
