# SPDX-License-Identifier: GPL-2.0
#
# Top-level make targets. `make` builds rust_uncore.ko, in this directory,
# against the kernel build tree KDIR; the test targets use the project's own
# cached test kernels (debug, nodebug, rt, distro, distro-rt, and the
# distribution kernels stock, stock-rt, unstable: scripts/build-kernel.sh),
# each with its own build of the module in
# build/<variant>/ (scripts/build-module.sh), so that neither overwrites the
# other's rust_uncore.ko.
#
#   make                 build rust_uncore.ko against KDIR (CLIPPY=1: clippy)
#   make install         install it into KDIR's kernel, then depmod
#   make stock           prepare Debian 13's kernel tree and build against it
#   make stock-install   the same, then install it into kernel KVER
#   make deb             the Debian package rust-uncore-dkms, in build/deb/
#   make clean           remove the build products
#   make demo            boot a simulated Sandy Bridge-EP in QEMU, run perf
#   make check           all tests (host, module builds, guest matrix)
#   make host-test       the host tests (cargo test)
#   make selftest        the selftests on this machine (REPORT=FILE, AB=1)
#   make guest ...       run one SCRIPT in a guest (KERNEL, CPU, SMP, MODARGS)
#   make repeat TEST=... boot one guest test RUNS times, count the failures
#   make stress          long fuzz, load/unload and hotplug runs in guests
#   make bench           benchmarks: host, and the module's costs in guests
#   make rfc             the patch series "rust: perf: add a PMU abstraction"
#   make rfc-check       apply, checkpatch, build and boot that series
#   make test-kernel     build (or reuse) a cached test kernel (VARIANT=...)
#   make help            this list (details: the Makefile's header)
#
# In more detail:
#
#   make, CLIPPY=1       build the module against KDIR and say which kernel
#                        the .ko is for; with clippy's lints
#   install              modules_install (lib/modules/<release>/updates/),
#                        then depmod; signed with SIGN_KEY and SIGN_CERT if
#                        given, else as KDIR's configuration says when it
#                        has the key
#   stock                for a distribution's Rust-enabled kernel (Debian
#                        13's trixie-backports kernel): prepare a tree for
#                        kernel KVER (default: the running one) in STOCK_KDIR
#                        (scripts/stock-kdir.sh; minutes, once per kernel),
#                        then build the module against it
#   deb                  built and checked with lintian in a Debian 13
#                        root (scripts/deb.sh)
#   clean                Kbuild's products need KDIR
#   repeat TEST=...      RUNS default 10, in each of the test's
#                        configurations with every word of MATCH, two at
#                        a time
#   guest ...            build the module for the test kernel (KERNEL=debug,
#                        nodebug, rt or stock) and run one script in a guest
#                        (Documentation/developer.rst)
#   selftest             root, module loaded; REPORT=FILE also writes the
#                        report to attach to an issue, AB=1 compares with
#                        intel_uncore
#   bench                benchmarks of the core (host) and the module's
#                        footprint and costs (guests)
#   rfc                  (rfc/) into build/rfc/, against Debian 13's
#                        linux-source-7.3 (in the Debian 13 root, made first)
#   rfc-check            apply it to that tree, checkpatch, build (CLIPPY=1,
#                        rustfmtcheck, rustdoc) and boot it: KUnit doctests
#                        and the sample PMU (scripts/rfc-check.sh)
#   test-kernel          VARIANT=debug, nodebug, rt, distro, distro-rt,
#                        stock, stock-rt or unstable; default debug
#
# KDIR is the tree the kernel was built in (CONFIG_RUST=y; a linux-headers
# package lacks the Rust artifacts a module build needs); by default the
# running kernel's, /lib/modules/$(uname -r)/build. The toolchain must be the
# one that built that kernel. Each of these has a default, and the same
# variable on make's command line replaces it:
#   LLVM           from KDIR's .config: a kernel built with clang N gets
#                  LLVM=-N when clang-N is installed (Debian's clang-19:
#                  LLVM=-19), else LLVM=1; a GCC-built kernel gets none
#                  (an LLVM in the environment is left to Kbuild)
#   RUSTC          /usr/bin/rustc (Debian's rustc-web) when it exists, else
#                  Kbuild's default (rustc on PATH)
#   HOSTRUSTC      the RUSTC given on the command line, else /usr/bin/rustc
#   RUSTDOC, CLIPPY_DRIVER
#                  rustdoc and clippy-driver next to that rustc, if there
#   BINDGEN        Kbuild's default (bindgen on PATH)
#   CARGO          (host-test) /usr/bin/cargo when it exists, with
#                  RUSTC=/usr/bin/rustc, else cargo on PATH

KDIR ?= /lib/modules/$(shell uname -r)/build
# The distribution kernel of `make stock`, and where its tree is prepared.
KVER ?= $(shell uname -r)
STOCK_KDIR ?= /usr/src/linux-rust-$(KVER)

# ru_cmdline VAR: non-empty when VAR was given on make's command line (it
# then reaches Kbuild through MAKEFLAGS, and no default is passed).
ru_cmdline = $(filter command line,$(origin $(1)))

KBUILD_FLAGS :=
ifeq ($(call ru_cmdline,RUSTC),)
ru_rustc := $(if $(wildcard /usr/bin/rustc),/usr/bin/rustc)
KBUILD_FLAGS += $(if $(ru_rustc),RUSTC=$(ru_rustc))
ru_tooldir := /usr/bin/
else
ru_rustc := $(RUSTC)
ru_tooldir := $(dir $(RUSTC))
endif
ifeq ($(call ru_cmdline,HOSTRUSTC),)
KBUILD_FLAGS += $(if $(ru_rustc),HOSTRUSTC=$(ru_rustc))
endif
ifeq ($(call ru_cmdline,RUSTDOC),)
KBUILD_FLAGS += $(if $(wildcard $(ru_tooldir)rustdoc),RUSTDOC=$(ru_tooldir)rustdoc)
endif
ifeq ($(call ru_cmdline,CLIPPY_DRIVER),)
KBUILD_FLAGS += $(if $(wildcard $(ru_tooldir)clippy-driver),CLIPPY_DRIVER=$(ru_tooldir)clippy-driver)
endif

# KDIR's configuration: .config, or in a tree without it (a headers
# package) the copy Kbuild keeps.
ru_config := $(firstword $(wildcard $(KDIR)/.config $(KDIR)/include/config/auto.conf))

# LLVM: what KDIR's kernel was built with.
ifeq ($(filter command line environment,$(origin LLVM)),)
ifneq ($(and $(ru_config),$(shell grep -sx 'CONFIG_CC_IS_CLANG=y' $(ru_config))),)
ru_clang_major := $(shell sed -n 's/^CONFIG_CLANG_VERSION=\([0-9]*\)[0-9]\{4\}$$/\1/p' $(ru_config))
KBUILD_FLAGS += LLVM=$(if $(and $(ru_clang_major),$(wildcard /usr/bin/clang-$(ru_clang_major))),-$(ru_clang_major),1)
endif
endif

ifdef CLIPPY
KBUILD_FLAGS += CLIPPY=$(CLIPPY)
endif

ifeq ($(call ru_cmdline,CARGO),)
CARGO := $(if $(wildcard /usr/bin/cargo),/usr/bin/cargo,cargo)
endif
ru_cargo_env := $(if $(wildcard /usr/bin/cargo),RUSTC=$(or $(ru_rustc),rustc))

# The kernel release of KDIR (empty when it is not a built tree).
ru_release = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)

.PHONY: all modules install stock stock-install deb clean ru-kdir check stress selftest demo guest repeat bench test-kernel host-test help \
	rfc rfc-check

all modules: ru-kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_FLAGS) modules
	@echo "rust_uncore.ko is for kernel $(ru_release) (KDIR=$(KDIR))"

# Signing at install: Kbuild signs with the kernel's own key when KDIR has
# it (a kernel you built). A distribution's key is not public: then the
# module is installed unsigned, or signed with SIGN_KEY and SIGN_CERT
# (DKMS's /var/lib/dkms/mok.key and mok.pub, say), uncompressed.
ru_conf = $(shell sed -n 's/^$(1)="\{0,1\}\([^"]*\)"\{0,1\}$$/\1/p' $(ru_config) 2>/dev/null)
ru_sig_all = $(call ru_conf,CONFIG_MODULE_SIG_ALL)
ru_sig_key = $(call ru_conf,CONFIG_MODULE_SIG_KEY)
ru_own_key = $(and $(ru_sig_all),$(or $(wildcard $(ru_sig_key)),$(wildcard $(KDIR)/$(ru_sig_key))))
ru_installed = $(INSTALL_MOD_PATH)/lib/modules/$(ru_release)/updates/rust_uncore.ko
install: modules
	@if [ -n "$(SIGN_KEY)" ] && { [ ! -f "$(SIGN_KEY)" ] || [ ! -f "$(SIGN_CERT)" ]; }; then \
		echo "rust_uncore: SIGN_KEY=$(SIGN_KEY) and SIGN_CERT=$(SIGN_CERT) must both be files" >&2; exit 2; \
	fi
	rm -f $(ru_installed) $(ru_installed).gz $(ru_installed).xz $(ru_installed).zst
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_FLAGS) \
		$(if $(or $(SIGN_KEY),$(if $(ru_sig_all),$(if $(ru_own_key),,x))),CONFIG_MODULE_SIG_ALL=) \
		$(if $(SIGN_KEY),CONFIG_MODULE_COMPRESS_GZIP= CONFIG_MODULE_COMPRESS_XZ= CONFIG_MODULE_COMPRESS_ZSTD=) \
		modules_install
ifneq ($(SIGN_KEY),)
	$(KDIR)/scripts/sign-file $(or $(call ru_conf,CONFIG_MODULE_SIG_HASH),sha256) $(SIGN_KEY) $(SIGN_CERT) $(ru_installed)
else
	@if [ -n "$(ru_sig_all)" ] && [ -z "$(ru_own_key)" ]; then \
		echo "rust_uncore: KDIR has not the kernel's signing key: installed unsigned (with Secure Boot, sign it: SIGN_KEY=, SIGN_CERT=)"; \
	fi
endif
	/sbin/depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) -a $(ru_release)

# The toolchain of a distribution kernel is the distribution's: rustc and
# bindgen on PATH (RUSTC and BINDGEN on the command line replace them).
stock:
	RUSTC=$(or $(ru_rustc),rustc) $(CURDIR)/scripts/stock-kdir.sh --release $(KVER) --dir $(STOCK_KDIR)
	$(MAKE) KDIR=$(STOCK_KDIR) modules

stock-install: stock
	$(MAKE) KDIR=$(STOCK_KDIR) install

# The Debian package, built in a Debian 13 root with Debian 13's tools
# (the machine needs only debootstrap, curl and xz to make the root).
deb:
	scripts/deb.sh

# The module's objects here are Kbuild's to remove, from the KDIR they were
# built against: when there are some and KDIR is not a kernel tree, clean
# stops with the reason and removes nothing. Then target/ (cargo) and
# build/ (the test kernels' module builds) go.
ru_objects = $(shell find . \( -path ./target -o -path ./build -o -path ./.git \) -prune -o \
	\( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '.*.cmd' -o -name Module.symvers \
	-o -name modules.order \) -print 2>/dev/null | head -3)
clean:
	@if [ -f "$(KDIR)/Makefile" ]; then \
		echo "$(MAKE) -C $(KDIR) M=$(CURDIR) clean"; \
		$(MAKE) -C $(KDIR) M=$(CURDIR) clean; \
	elif [ -n "$(ru_objects)" ]; then \
		echo "rust_uncore: KDIR=$(KDIR) is not a kernel build tree, and Kbuild's objects are here" >&2; \
		echo "rust_uncore: ($(ru_objects) ...): give the tree they were built against, make clean KDIR=<tree>" >&2; \
		exit 2; \
	fi
	rm -rf target build

# KDIR must be a kernel build tree with the Rust artifacts the module
# build links against, among them kernel::ffi, KVec and KBox (which
# mainline v6.12 lacks and Debian's 6.12.117 has as backports): each
# missing piece is named.
ru-kdir:
	@if [ ! -f "$(KDIR)/Makefile" ] || [ -z "$(ru_config)" ]; then \
		echo "rust_uncore: KDIR=$(KDIR) is not a configured kernel build tree." >&2; \
		echo "rust_uncore: give KDIR=<the tree the kernel was built in> (Documentation/admin-guide.rst)" >&2; \
		exit 2; \
	fi
	@if [ ! -f "$(KDIR)/rust/libkernel.rmeta" ]; then \
		echo "rust_uncore: KDIR=$(KDIR) has no Rust build (rust/libkernel.rmeta):" >&2; \
		echo "rust_uncore: its kernel is not built with CONFIG_RUST=y, or KDIR is a linux-headers" >&2; \
		echo "rust_uncore: package, which lacks the Rust artifacts; give KDIR=<the tree the kernel was built in>," >&2; \
		echo "rust_uncore: or for a distribution's Rust-enabled kernel (Debian 13's) run make stock" >&2; \
		exit 2; \
	fi
	@if [ ! -f "$(KDIR)/rust/libffi.rmeta" ]; then \
		echo "rust_uncore: KDIR=$(KDIR) has no kernel::ffi crate (rust/libffi.rmeta), which the module" >&2; \
		echo "rust_uncore: needs, with the kernel crate's KVec and KBox (rust/kernel/alloc/kvec.rs)" >&2; \
		exit 2; \
	fi
	@if [ ! -f "$(KDIR)/rust/kernel/alloc/kvec.rs" ]; then \
		echo "rust_uncore: KDIR=$(KDIR) has no KVec in its kernel crate (rust/kernel/alloc/kvec.rs), which the module needs" >&2; \
		exit 2; \
	fi

test-kernel:
	scripts/install-deps.sh
	scripts/build-kernel.sh --variant $(or $(VARIANT),debug)

# The targets, from the comment above.
help:
	@sed -n '/^#   make  *[a-z]/,/^#$$/{/^#$$/q;s/^# \{0,1\}//;p}' $(firstword $(MAKEFILE_LIST))

check:
	scripts/check.sh

stress:
	scripts/stress.sh

# The selftests, on this machine, against the loaded module (as root).
selftest:
	tests/selftests/uncore/run_tests.sh $(if $(REPORT),--report $(REPORT)) $(if $(AB),--ab)

demo:
	scripts/demo.sh

# guest.sh builds the guest tools (tests/tools/) when they are missing.
guest:
	scripts/build-module.sh $(or $(KERNEL),debug) >/dev/null
	scripts/guest.sh --kernel $(or $(KERNEL),debug) $(if $(CPU),--cpu "$(CPU)") $(if $(SMP),--smp "$(SMP)") \
		$(if $(MODARGS),--modargs "$(MODARGS)") $(if $(SCRIPT),--script "$(SCRIPT)")

# A flake rate: TEST booted RUNS times (default 10) in each of its
# configurations that have every word of MATCH (scripts/check.sh --repeat).
repeat:
	@[ -n "$(TEST)" ] || { echo "make repeat: TEST=tests/guest/<test>.sh is required" >&2; exit 2; }
	scripts/check.sh --guest-only --repeat $(or $(RUNS),10) $(foreach w,$(MATCH),--match $(w)) $(TEST)

host-test:
	$(ru_cargo_env) $(CARGO) test --offline --quiet 2>/dev/null || $(ru_cargo_env) $(CARGO) test --quiet

bench:
	scripts/bench.sh

rfc rfc-check:
	scripts/install-deps.sh
	scripts/stock-kernel.sh --variant stock --root-only
	scripts/$@.sh
