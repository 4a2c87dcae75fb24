# CMake toolchain file: Windows x86-64 executables from Linux with Debian's mingw-w64, the POSIX threads
# variant (std::thread needs it; the win32 variant has no C++11 threads). Used by scripts/build-windows.sh.
# Programs built here run on the build machine through wine (bench signature at build time, the tests).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# One self-contained .exe: libstdc++, libgcc and winpthreads linked in (no DLL beside it to ship).
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")
find_program(QUINCE_WINE wine)
if(QUINCE_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${QUINCE_WINE})
endif()
