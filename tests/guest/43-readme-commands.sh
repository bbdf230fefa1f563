#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every perf stat command of README.md, run as written under the
# simulation of each CPU it is for: while the command's own sleep runs,
# traffic its events select is injected (each count must be the amount
# injected) and traffic they must not count (0); readme_sets in
# tests/guest/lib.sh has each command's platforms and traffic, and a README
# command it does not know fails here. The old headline,
# uncore_cbox_0/event=0x34,umask=0x8f/, counts 0 on Sandy Bridge-EP for
# the lookups llc_lookup.data_read counts (no filter_state: the event's
# precondition), which this test shows too. Commands may carry a "$ "
# prompt; every such command is a perf stat or a perf list one, and on
# sim=snbep:2 (whose output the README shows) each line the README shows
# under a perf list command is in its output.
#
# guest: kernel=nodebug sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=ivbep:2 cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=nhmex:2 cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
. /tests/lib.sh

p=$(platform)
readme_commands >/tmp/readme.commands
check "README.md has perf stat commands" [ -s /tmp/readme.commands ]
ran=0
# Every command is some platform's (else it has no traffic here).
while IFS= read -r cmd; do
	known=""
	for q in snbep ivbep nhmex wsmex skl xeon7100 xeon7400; do
		readme_sets "$q" "$cmd" >/dev/null && known="$known $q"
	done
	if [ -z "$known" ]; then
		not_ok "README command with traffic in readme_sets (tests/guest/lib.sh): $cmd"
		continue
	fi
	case " $known " in
	*" $p "*)
		echo "# $cmd (for$known)"
		readme_run "$p" "$cmd"
		ran=$((ran + 1)) ;;
	esac
done </tmp/readme.commands
check "README.md has a command for $p (ran $ran)" [ "$ran" -gt 0 ]

# The README's "$ " commands are its perf stat commands (above) and its
# perf list commands, whose output it shows from sim=snbep:2: each line it
# shows is in the command's output here.
check_eq "every \$ command of README.md is perf stat or perf list" \
	"$(sed -n 's/^ *\$ //p' "$TESTS_DIR/README.md" | grep -v '^perf stat \|^perf list')" ""
if [ "$p" = snbep ]; then
	readme_lists >/tmp/readme.lists
	check "README.md shows a perf list command" grep -q '^cmd ' /tmp/readme.lists
	while read -r k rest; do
		case $k in
		cmd)
			lc=$rest
			sh -c "$lc" >/tmp/list.raw 2>&1
			check_eq "$lc: exit status" "$?" 0
			sed 's/  */ /g; s/^ //; s/ $//' /tmp/list.raw >/tmp/list.out ;;
		out) check "$lc prints: $rest" grep -qxF "$rest" /tmp/list.out ;;
		esac
	done </tmp/readme.lists
fi

if [ "$p" = snbep ]; then
	# The old headline, under the traffic of the new one's first set, on
	# a fresh load: the C-box filter register keeps the filter_state an
	# earlier event wrote (as on the hardware, where the C driver leaves
	# it too), and the old event counts the states it selects.
	unload
	load "$MODARGS" || not_ok "insmod $MODARGS"
	old="uncore_cbox_0/event=0x34,umask=0x8f/"
	readme_sets snbep "perf stat -a -e uncore_cbox_0/llc_lookup.data_read/ -- sleep 1" |
		sed -n '/^inject/{s/^inject //p}' | head -3 >/tmp/old.inject
	got=$(total "$old" sh -c 'while read -r l; do echo "$l" >'"$DBG"'/inject; done </tmp/old.inject')
	check_eq "the old headline $old counts none of those 700 data read lookups" "$got" 0
	check "... and no README command uses it" sh -c "! grep -qF '$old' /tmp/readme.commands"
fi
check "rmmod" unload
done_testing
