#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The selftests a user runs on real hardware (tests/selftests/uncore), run
# here against each simulated platform: the simulation's clock and
# workload hook stand in for the hardware's clocks and traffic. Their TAP
# results are this test's; a skip must give its reason.
#
# guest: kernel=stock sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=ivbep:2 cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=hsx:2 cpu=Haswell-noTSX,model=63,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=bdx:2 cpu=Broadwell-noTSX,model=79,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=bdxde cpu=Broadwell-noTSX,model=86,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=nhmex:2 cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=stock sim=xeon7400:4 cpu=Penryn,model=29,-hypervisor smp=4,sockets=4,cores=1
# guest: kernel=stock append=nopti sim=xeon7100:2 cpu=qemu64,family=15,model=6,vendor=GenuineIntel,-hypervisor smp=2,sockets=2,cores=1
. /tests/lib.sh

# 24-aliases.sh runs alias_check on every platform already.
out=$(SKIP_ALIASES=1 TOOLS=/tests sh /tests/selftests/uncore/uncore_test.sh)
rc=$?
printf '%s\n' "$out" | grep '^#'
printf '%s\n' "$out" | grep -E '^(not )?ok ' | while IFS= read -r l; do
	case "$l" in
	"not ok "*) echo "# selftest failed: ${l#not ok }" ;;
	*"# SKIP "*) echo "# selftest skipped: ${l#*# SKIP }" ;;
	esac
done
nok=$(printf '%s\n' "$out" | grep -c '^not ok ')
nrun=$(printf '%s\n' "$out" | grep -E '^ok ' | grep -vc '# SKIP')
nskip=$(printf '%s\n' "$out" | grep -c '# SKIP')
check_eq "selftests under $(platform): none failed ($nrun passed, $nskip skipped)" "$nok $rc" "0 0"
check "... and each skip gave a reason" sh -c "! printf '%s\n' '$(printf '%s\n' "$out" | grep '# SKIP' | sed "s/'//g")' | grep -qE '# SKIP *$'"
check "rmmod" unload
done_testing
