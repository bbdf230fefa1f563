# SPDX-License-Identifier: GPL-2.0
#
# Common settings for the build and test scripts; sourced, not run.
# Every tool is named by absolute path so that a rustup toolchain earlier on
# PATH never mixes with Debian's rustc-web, which built the test kernel.

REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE_DIR=${UNCORE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rust-uncore}
TOOLS_DIR=$CACHE_DIR/tools
BINDGEN_VERSION=0.70.1
BINDGEN=$TOOLS_DIR/bin/bindgen
KERNEL_SRC_TARBALL=/usr/src/linux-source-6.12.tar.xz

export RUSTC=/usr/bin/rustc
export HOSTRUSTC=/usr/bin/rustc
export RUSTDOC=/usr/bin/rustdoc
export CLIPPY_DRIVER=/usr/bin/clippy-driver
# The host lint runs the same clippy; cargo honours RUSTC, so a rustup
# cargo-clippy here would mix two compilers in one target directory.
CARGO_CLIPPY=/usr/bin/cargo-clippy
export LIBCLANG_PATH=/usr/lib/llvm-19/lib
export BINDGEN

# Make flags shared by the kernel build and the module build.
KMAKE_FLAGS=(LLVM=-19 "RUSTC=$RUSTC" "HOSTRUSTC=$HOSTRUSTC" "RUSTDOC=$RUSTDOC"
	"BINDGEN=$BINDGEN" "CLIPPY_DRIVER=$CLIPPY_DRIVER")
