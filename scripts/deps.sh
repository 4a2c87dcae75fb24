#!/usr/bin/env bash
# Installs the Debian packages a task needs, when they are missing. Groups (any number; default `build`):
#   build    what building and running the engine needs: cmake, g++, make, pkg-config, liblzma-dev,
#            libzstd-dev and nettle-dev (the training data's xz and zstd compression and SHA-256 checksums),
#            and libfathom-dev (Syzygy tablebases; optional: when it cannot be installed the engine builds
#            without tablebases)
#   test     build, plus the test and fuzzing tool chain of scripts/test.sh (GoogleTest, the tablebase and
#            opening-book oracles, clang with libFuzzer and the sanitizers)
#   web      emscripten and chromium (the WebAssembly page and its browser test), and the GoogleTest
#            sources (the network's tests compiled to WebAssembly)
#   clients  xboard, Xvfb, ImageMagick and the npm packages of tests/clients (the real clients)
#   release  dpkg-dev, binutils and xz-utils (scripts/build-linux.sh's Fathom from Debian's source, and
#            scripts/package.sh's checks and archives)
#   windows  mingw-w64 (POSIX threads), wine and dpkg-dev (scripts/build-windows.sh and its tests)
#   arm64    the aarch64 cross tool chain, qemu-user (runs its programs here) and the GoogleTest sources
#            (scripts/build-arm64.sh and its tests)
#   libcxx   clang with LLVM's libc++ and the GoogleTest sources (the ASan+UBSan test build, the libcxx step)
set -euo pipefail
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(build)
need=()
optional=()
has() { local g; for g in "${groups[@]}"; do [ "$g" = "$1" ] && return 0; done; return 1; }
for g in "${groups[@]}"; do
  case $g in build|test|web|clients|release|windows|arm64|libcxx) ;; *) echo "deps.sh: unknown group '$g'" >&2; exit 2 ;; esac
done
command -v cmake >/dev/null || need+=(cmake)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
# The training data's compression and checksums (tools/training/CMakeLists.txt finds them with pkg-config).
command -v pkg-config >/dev/null || need+=(pkg-config)
[ -f /usr/include/lzma.h ] || need+=(liblzma-dev)
[ -f /usr/include/zstd.h ] || need+=(libzstd-dev)
[ -f /usr/include/nettle/sha2.h ] || need+=(nettle-dev)
if has test; then
  [ -f /usr/include/tbprobe.h ] || need+=(libfathom-dev)  # the tests cover the tablebase code
else
  [ -f /usr/include/tbprobe.h ] || optional+=(libfathom-dev)  # Syzygy tablebase prober (Fathom)
fi
if has test; then
  [ -f /usr/include/gtest/gtest.h ] || need+=(libgtest-dev)
  command -v xz >/dev/null || need+=(xz-utils)  # quince-match reads .xz opening books (tested)
  command -v python3 >/dev/null || need+=(python3)  # independent evaluation references run as tests
  command -v fathom >/dev/null || [ -x /usr/games/fathom ] || need+=(fathom)  # tablebase tests' oracle
  command -v polyglot >/dev/null || [ -x /usr/games/polyglot ] || need+=(polyglot)  # builds the opening-book test's book
  command -v rsvg-convert >/dev/null || need+=(librsvg2-bin)  # renders the evaluation pictures (SVG) in a test
  command -v ccache >/dev/null || need+=(ccache)  # OpenBench test: the tuning build reuses the first build's objects
  command -v ninja >/dev/null || need+=(ninja-build)  # scripts/test.sh's builds: both cores busy where make waits
  # Fuzzing (scripts/fuzz.sh, and the short fuzz runs of scripts/test.sh): clang with libFuzzer and the
  # sanitizer runtimes, llvm-symbolizer for readable reports.
  command -v clang++ >/dev/null || need+=(clang)
  ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 || need+=(libclang-rt-dev)
  command -v llvm-symbolizer >/dev/null || need+=(llvm)
fi
# The web page (scripts/web.sh, and its browser test in scripts/test.sh): emscripten (the WebAssembly
# build) and chromium (the headless browser of the test).
if has web; then
  command -v emcmake >/dev/null || need+=(emscripten)
  command -v chromium >/dev/null || need+=(chromium)
  command -v npm >/dev/null || need+=(npm)  # the page's board and rules, the test's browser driver (web/package.json)
  [ -f /usr/src/googletest/CMakeLists.txt ] || need+=(googletest)  # tests/web/CMakeLists.txt compiles it with emscripten
fi
# The real clients (tests/clients): xboard under a virtual X server with a screenshot, and node-uci (npm).
if has clients; then
  command -v xboard >/dev/null || [ -x /usr/games/xboard ] || need+=(xboard)
  command -v Xvfb >/dev/null || need+=(xvfb)
  [ -x /usr/bin/import ] || need+=(imagemagick)
  command -v npm >/dev/null || need+=(npm)
fi
# The self-contained Linux release engine and the archives: dpkg-dev for `apt-get source fathom`
# (scripts/fathom.sh), readelf (binutils) for package.sh's check that a Linux engine needs only the C library.
if has release; then
  command -v dpkg-source >/dev/null || need+=(dpkg-dev)
  command -v readelf >/dev/null || need+=(binutils)
  command -v xz >/dev/null || need+=(xz-utils)
  command -v python3 >/dev/null || need+=(python3)
fi
# The Windows build: the cross compiler (POSIX threads variant: std::thread), wine to run the result,
# dpkg-dev for `apt-get source fathom` (unpacking Debian's source package), python3 for its tests.
if has windows; then
  command -v x86_64-w64-mingw32-g++-posix >/dev/null || need+=(g++-mingw-w64-x86-64-posix)
  command -v wine >/dev/null || need+=(wine wine64)
  command -v dpkg-source >/dev/null || need+=(dpkg-dev)
  command -v python3 >/dev/null || need+=(python3)
  command -v xz >/dev/null || need+=(xz-utils)
fi
# The ARM build: Debian's aarch64 cross compiler (its C library and libstdc++ come with it, in
# /usr/aarch64-linux-gnu), qemu-user to run the result (bench, the network's tests), GoogleTest's sources
# (compiled with the cross compiler).
if has arm64; then
  command -v aarch64-linux-gnu-g++ >/dev/null || need+=(g++-aarch64-linux-gnu)
  command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
  [ -f /usr/src/googletest/CMakeLists.txt ] || need+=(googletest)
fi
# The clang + libc++ builds (test.sh's asan and libcxx steps): LLVM's standard library, and GoogleTest's
# sources (Debian's libgtest-dev is built against libstdc++, so those builds compile /usr/src/googletest
# with libc++ themselves).
if has libcxx; then
  command -v clang++ >/dev/null || need+=(clang)
  ls /usr/lib/llvm-*/include/c++/v1/vector >/dev/null 2>&1 || need+=(libc++-dev)
  ls /usr/lib/llvm-*/lib/libc++abi.so >/dev/null 2>&1 || need+=(libc++abi-dev)
  [ -f /usr/src/googletest/CMakeLists.txt ] || need+=(googletest)
fi
if [ ${#need[@]} -gt 0 ] || [ ${#optional[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  if [ ${#need[@]} -gt 0 ]; then
    echo "Installing: ${need[*]}"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
  fi
  if [ ${#optional[@]} -gt 0 ]; then
    echo "Installing (optional): ${optional[*]}"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${optional[@]}" ||
      echo "deps.sh: ${optional[*]} not installed: the engine builds without Syzygy tablebases" >&2
  fi
fi
web_dir="$(cd "$(dirname "$0")/.." && pwd)/web"
if [ "${1:-}" = web ] && ! (cd "$web_dir" && npm ls --depth=0 >/dev/null 2>&1); then
  (cd "$web_dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
clients_dir="$(cd "$(dirname "$0")/.." && pwd)/tests/clients"
if has clients && [ ! -d "$clients_dir/node_modules/node-uci" ]; then
  (cd "$clients_dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
