# SPDX-License-Identifier: GPL-2.0
#
# Top-level make targets. `make` builds rust_uncore.ko against KDIR (by
# default the running kernel's build tree, which must have CONFIG_RUST=y).
# The test targets build and use the project's own cached test kernels
# (debug, nodebug, distro, distro-rt: scripts/build-kernel.sh), each with its own build
# of the module in build/<variant>/ (scripts/build-module.sh).
#
#   make                 build the module against KDIR
#   make CLIPPY=1        build with clippy lints
#   make check           all tests (host, module builds, guest matrix)
#   make stress          long fuzz, load/unload and hotplug runs in guests
#   make demo            boot a simulated platform in QEMU and run perf
#   make guest ...       build the module for the test kernel (KERNEL=debug
#                        or nodebug) and run one script in a guest (README.md)
#   make selftest        the selftests on this machine (root, module loaded)
#   make bench           host benchmarks of the core
#   make test-kernel     build (or reuse) a cached test kernel
#                        (VARIANT=debug, nodebug, distro or distro-rt;
#                        default debug)

KDIR ?= /lib/modules/$(shell uname -r)/build
# Debian's rustc-web is the compiler the test kernel was built with; a kernel
# built with another compiler needs `make RUSTC=... ` to match.
LLVM ?= -19
KBUILD_FLAGS := LLVM=$(LLVM)
ifneq ($(wildcard /usr/bin/rustc),)
KBUILD_FLAGS += RUSTC=/usr/bin/rustc HOSTRUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc
endif
ifneq ($(wildcard /usr/bin/clippy-driver),)
KBUILD_FLAGS += CLIPPY_DRIVER=/usr/bin/clippy-driver
endif
ifdef CLIPPY
KBUILD_FLAGS += CLIPPY=$(CLIPPY)
endif

.PHONY: all modules clean check stress selftest demo guest bench test-kernel host-test

all modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_FLAGS) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -rf target build

test-kernel:
	scripts/install-deps.sh
	scripts/build-kernel.sh --variant $(or $(VARIANT),debug)

check:
	scripts/check.sh

stress:
	scripts/stress.sh

# The selftests, on this machine, against the loaded module (as root).
selftest:
	tests/selftests/uncore/run_tests.sh

demo:
	scripts/demo.sh

guest:
	scripts/build-module.sh $(or $(KERNEL),debug) >/dev/null
	scripts/guest.sh --kernel $(or $(KERNEL),debug) $(if $(CPU),--cpu "$(CPU)") $(if $(SMP),--smp "$(SMP)") \
		$(if $(MODARGS),--modargs "$(MODARGS)") $(if $(SCRIPT),--script "$(SCRIPT)")

host-test:
	cargo test --offline --quiet 2>/dev/null || cargo test --quiet

bench:
	cargo run --release --quiet --bin uncore-bench
