#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The built module carries the aliases that autoload it: one PCI alias per
# uncore function it binds and one CPU alias per supported CPU model; it
# carries nothing of the simulation (no parameter, no symbol of the model,
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
aliases=$(/sbin/modinfo -F alias "$ko")
t "74 PCI aliases (SNB-EP 12, IVB-EP 20, Skylake to Comet Lake host bridges 42)" "$(echo "$aliases" | grep -c '^pci:v00008086d')" 74
t "12 CPU aliases" "$(echo "$aliases" | grep -c '^cpu:type:x86,ven0000')" 12
t "SNB-EP home agent" "$(echo "$aliases" | grep -c '^pci:v00008086d00003C46sv')" 1
t "IVB-EP third R3QPI link" "$(echo "$aliases" | grep -c '^pci:v00008086d00000E3Esv')" 1
t "Skylake host bridge 0x1904" "$(echo "$aliases" | grep -c '^pci:v00008086d00001904sv')" 1
t "Kaby Lake host bridge 0x5904 (the family's lowest)" "$(echo "$aliases" | grep -c '^pci:v00008086d00005904sv')" 1
t "Comet Lake-S host bridge 0x9b73 (the highest)" "$(echo "$aliases" | grep -c '^pci:v00008086d00009B73sv')" 1
t "Kaby Lake / Coffee Lake CPU (model 0x9e)" "$(echo "$aliases" | grep -c '^cpu:type:x86,ven0000fam0006mod009E:')" 1
t "Comet Lake CPU (model 0xa5)" "$(echo "$aliases" | grep -c '^cpu:type:x86,ven0000fam0006mod00A5:')" 1
t "Westmere-EX CPU" "$(echo "$aliases" | grep -c '^cpu:type:x86,ven0000fam0006mod002F:')" 1
t "Xeon 7100 CPU (family 15)" "$(echo "$aliases" | grep -c '^cpu:type:x86,ven0000fam000Fmod0006:')" 1
t "license GPL" "$(/sbin/modinfo -F license "$ko")" "GPL"
t "one module parameter, pmi" "$(/sbin/modinfo -F parm "$ko" | cut -d: -f1)" pmi
syms=$(nm "$ko" | grep -iE 'sim|debugfs|inject|model')
t "no symbol of the simulation, the model or debugfs (nm)" "$syms" ""
t "the simulation module is rust_uncore_sim" "$(/sbin/modinfo -F name "$sim_ko")" rust_uncore_sim
t "... with the hide, pmi and sim parameters" "$(/sbin/modinfo -F parm "$sim_ko" | cut -d: -f1 | sort | tr '\n' ' ')" "hide pmi sim "
t "... and no alias (it never autoloads)" "$(/sbin/modinfo -F alias "$sim_ko")" ""
echo "1..$tap_n"
exit $failed
