#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The built module carries no alias: udev never loads it, so that at boot
# it never races the kernel's intel_uncore (which autoloads by CPU alias on
# the same machines) and neither logs an error; users load it by name (its
# PCI driver still binds the functions of its ID table, which the host
# tests check against the platforms). It carries nothing of the simulation (no parameter, no symbol of the model,
# the simulation or debugfs). The simulation module built with it (given,
# or rust_uncore_sim.ko next to it) has the sim parameter and no alias.
# Usage: tests/host/modinfo.sh rust_uncore.ko [rust_uncore_sim.ko]  (TAP)
ko=$1
sim_ko=${2:-$(dirname "$ko")/rust_uncore_sim.ko}
tap_n=0
failed=0
t() {
	tap_n=$((tap_n + 1))
	if [ "$2" = "$3" ]; then echo "ok $tap_n $1"; else echo "not ok $tap_n $1"; echo "# got '$2', want '$3'"; failed=1; fi
}
# The checks of absence below would pass on a missing file.
t "the module and the simulation module exist" "$([ -f "$ko" ] && [ -f "$sim_ko" ] && echo yes)" yes
t "no alias (it never autoloads)" "$(/sbin/modinfo -F alias "$ko")" ""
t "no device table exported for modpost (nm)" "$(nm "$ko" | grep -c '__mod_.*device_table')" 0
t "license GPL" "$(/sbin/modinfo -F license "$ko")" "GPL"
t "one module parameter, pmi" "$(/sbin/modinfo -F parm "$ko" | cut -d: -f1)" pmi
syms=$(nm "$ko" | grep -iE 'sim|debugfs|inject|model')
t "no symbol of the simulation, the model or debugfs (nm)" "$syms" ""
t "the simulation module is rust_uncore_sim" "$(/sbin/modinfo -F name "$sim_ko")" rust_uncore_sim
t "... with the capid4, hide, pmi and sim parameters" "$(/sbin/modinfo -F parm "$sim_ko" | cut -d: -f1 | sort | tr '\n' ' ')" "capid4 hide pmi sim "
t "... and no alias (it never autoloads)" "$(/sbin/modinfo -F alias "$sim_ko")" ""
echo "1..$tap_n"
exit $failed
