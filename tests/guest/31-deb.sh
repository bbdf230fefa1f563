#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# README.md's stock-load block, run as written on Debian's own kernel with
# the module the Debian package installed: tests/host/deb.sh installed
# rust-uncore-dkms_*.deb in a copy of the Debian 13 root, where DKMS built
# and installed the module for this kernel. The guest carries that copy's
# /lib/modules/<release> at /deb/lib/modules/<release>; it takes the place
# of /lib/modules/<release> (make stock-install's) for this test, which
# puts the other one back at the end.
#
# guest: kernel=stock noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

rel=$(uname -r)
mods=/lib/modules/$rel
if [ ! -d "/deb$mods" ]; then
	not_ok "the Debian package's install is carried (/deb$mods; tests/host/deb.sh)"
	done_testing
fi
rm -rf /tmp/modules.readme
[ ! -d "$mods" ] || mv "$mods" /tmp/modules.readme
cp -a "/deb$mods" "$mods"
check "DKMS's module is installed for $rel" sh -c "ls $mods/updates/dkms/rust_uncore.ko* >/dev/null"
check_eq "depmod's index names that one and no other rust_uncore" \
	"$(grep -o '^[^:]*rust_uncore[^:]*' "$mods/modules.dep")" \
	"$(cd "$mods" && ls updates/dkms/rust_uncore.ko*)"
stock_load
rm -rf "$mods"
[ ! -d /tmp/modules.readme ] || mv /tmp/modules.readme "$mods"
done_testing
