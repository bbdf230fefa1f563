#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Permissions: the simulation's debugfs files are root's alone (mode 0600,
# owner root): an unprivileged user can neither read nor write them, even
# with debugfs itself opened up (mounted mode 0755), and an injection it
# tries is not counted. The PMUs' sysfs descriptions are readable by
# everyone. kernel.perf_event_paranoid applies to the uncore PMUs: as the
# user, a system-wide uncore event is refused with EACCES at 3, 2 and 1,
# opens at 0 and -1 (and then counts exactly through perf stat -a); root
# opens it at 2.
#
# The guest has only root in /etc/passwd: the test adds a user (uid 4242)
# and switches to it with busybox su.
#
# guest: kernel=nodebug sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
. /tests/lib.sh
. /tests/hardening.sh

U=uncoretest
UID_=4242
grep -q "^$U:" /etc/passwd || echo "$U:x:$UID_:$UID_:uncore test:/tmp:/bin/sh" >>/etc/passwd
grep -q "^$U:" /etc/group 2>/dev/null || echo "$U:x:$UID_:" >>/etc/group
# as_user CMD: runs CMD (a shell command line) as the user.
as_user() {
	su -s /bin/sh "$U" -c "$1"
}
check_eq "the test user exists and su works" "$(as_user 'id -u')" "$UID_"

# The files: mode 0600, owner root:root.
FILES="clock devices glitch inject nmi plug pmi regs selftest stall stats unplug workload"
for f in $FILES; do
	check_eq "$DBG/$f: mode 600, owner 0:0" "$(stat -c '%a %u:%g' "$DBG/$f" 2>&1)" "600 0:0"
done
check_eq "nothing else in $DBG" "$(ls "$DBG" | tr '\n' ' ')" "$FILES "

# Open debugfs itself up, so that only the files' own modes stand in the
# way; the user can then list the directory (the control).
mode0=$(stat -c '%a' /sys/kernel/debug)
mount -o remount,mode=0755 /sys/kernel/debug 2>/dev/null || chmod 0755 /sys/kernel/debug
check_eq "debugfs opened up (mode 755)" "$(stat -c '%a' /sys/kernel/debug)" "755"
check_eq "the user can list $DBG" "$(as_user "ls $DBG" 2>&1 | tr '\n' ' ')" "$FILES "
for f in regs stats; do
	out=$(as_user "cat $DBG/$f" 2>&1)
	case "$out" in
	*"Permission denied"*) ok "the user cannot read $f (EACCES)" ;;
	*) not_ok "the user cannot read $f (EACCES)"; echo "$out" | head -3 | sed 's/^/# /' ;;
	esac
done
for f in inject unplug plug clock workload selftest stall nmi; do
	out=$(as_user "echo 'pmu=uncore_ubox event=0x14' > $DBG/$f" 2>&1)
	case "$out" in
	*"Permission denied"*) ok "the user cannot open $f for writing (EACCES)" ;;
	*) not_ok "the user cannot open $f for writing (EACCES)"; echo "$out" | head -3 | sed 's/^/# /' ;;
	esac
done
# An injection the user tries while root counts is not counted.
first=$(pmus | cut -d' ' -f1)
spec=$(sample "$first")
got=$(total "$first/${spec%%|*}/" su -s /bin/sh "$U" -c "echo 'pmu=$first ${spec#*|} count=777' > $DBG/inject" 2>/dev/null)
check_eq "the user's injection is not counted" "$got" "0"
got=$(total "$first/${spec%%|*}/" sh -c "echo 'pmu=$first ${spec#*|} count=777' > $DBG/inject")
check_eq "root's is (the control)" "$got" "777"
# debugfs back to its mode.
mount -o remount,mode=0$mode0 /sys/kernel/debug 2>/dev/null || chmod "$mode0" /sys/kernel/debug
check_eq "debugfs back to mode $mode0" "$(stat -c '%a' /sys/kernel/debug)" "$mode0"

# The PMUs' sysfs files are readable by everyone (perf needs them).
unread=""
for pmu in $(pmus); do
	for f in "$DEV/$pmu/type" "$DEV/$pmu/cpumask" "$DEV/$pmu"/format/* "$DEV/$pmu"/events/*; do
		[ -e "$f" ] || continue
		case "$(stat -c '%A' "$f")" in -r??r??r??) ;; *) unread="$unread $f" ;; esac
	done
done
check_eq "every PMU's type, cpumask, format/ and events/ file is world-readable" "$unread" ""

# perf_event_paranoid.
P=/proc/sys/kernel/perf_event_paranoid
par0=$(cat $P)
echo "# perf_event_paranoid was $par0"
ev="$first/${spec%%|*}/"
for lvl in 3 2 1 0 -1; do
	if ! echo "$lvl" >$P; then
		not_ok "perf_event_paranoid can be set to $lvl"
		continue
	fi
	got=$(as_user "/tests/uncore_fuzz -e '$ev' -c 0" 2>&1 | head -1)
	case "$lvl" in
	3 | 2 | 1) want=EACCES ;;
	*) want=ok ;;
	esac
	check_eq "paranoid $lvl: the user's system-wide $first event: $want" "$got" "$want"
done
echo 2 >$P
check_eq "paranoid 2: root's event opens" "$(/tests/uncore_fuzz -e "$ev" -c 0 2>&1 | head -1)" "ok"
check_eq "paranoid 2: the user's per-task uncore event is refused (EACCES or EINVAL)" \
	"$(as_user "/tests/uncore_fuzz -e '$ev' -c -1 -p 0" 2>&1 | head -1 | sed 's/EACCES\|EINVAL/refused/')" "refused"
# The user's perf stat -a counts exactly at -1, root injecting while it runs.
echo -1 >$P
rm -f /tmp/perm.go /tmp/perm.stat
su -s /bin/sh "$U" -c "perf stat -a -x, -o /tmp/perm.stat -e '$ev' -- sh -c 'while [ ! -e /tmp/perm.go ]; do sleep 0.05; done'" >/dev/null 2>&1 &
h=$!
if wait_modref "$(sockets)" 60; then
	echo "pmu=$first ${spec#*|} count=4242" >$DBG/inject
fi
touch /tmp/perm.go
wait $h
check_eq "paranoid -1: the user's perf stat -a counts root's injection exactly" "$(stat_field /tmp/perm.stat "$first")" "4242"
echo "$par0" >$P
check_eq "perf_event_paranoid restored" "$(cat $P)" "$par0"
check "rmmod" unload
done_testing
