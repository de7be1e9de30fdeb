#!/usr/bin/env bash
# Runs this module's windows/amd64 tests under Debian's Wine 8 (../shared/spec/wine.md).
# usage: .ci/wine-test.sh [go test arguments]   e.g. .ci/wine-test.sh -count=1 ./internal/...
#
# Wine 8 needs three things before a Go 1.26 test binary runs cleanly:
#  1. a bcryptprimitives.dll that forwards ProcessPrng to advapi32!SystemFunction036,
#  2. an -overlay of internal/syscall/windows/at_windows.go so os.RemoveAll falls back
#     on STATUS_NOT_IMPLEMENTED (t.TempDir cleanup fails otherwise),
#  3. one persistent wineserver started with stdio on /dev/null, so Wine's services do
#     not inherit a test binary's pipes and stall `go test`.
# Tests that Wine cannot host (junctions, symlinks, taskkill /T, PowerShell) skip
# themselves after detecting Wine (ntdll!wine_get_version).
set -euo pipefail
work=${WDA_WINE_WORK:-${TMPDIR:-/tmp}/wda-wine}
mkdir -p "$work/bin"

if ! command -v wine >/dev/null || ! command -v x86_64-w64-mingw32-ld >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq wine64 wine binutils-mingw-w64-x86-64 >/dev/null
fi

dll=$work/bcryptprimitives.dll
if [ ! -f "$dll" ]; then
  cat >"$work/prng.s" <<'ASM'
        .text
        .globl DllMain
DllMain:
        movl $1, %eax
        ret
        .globl ProcessPrng
ProcessPrng:
        subq $40, %rsp
        call *__imp_SystemFunction036(%rip)
        movzbl %al, %eax
        addq $40, %rsp
        ret
ASM
  printf 'LIBRARY bcryptprimitives.dll\nEXPORTS\nProcessPrng\n' >"$work/prng.def"
  printf 'LIBRARY advapi32.dll\nEXPORTS\nSystemFunction036\n' >"$work/advapi32.def"
  x86_64-w64-mingw32-dlltool -d "$work/advapi32.def" -l "$work/libadvapi32.a"
  x86_64-w64-mingw32-as -o "$work/prng.o" "$work/prng.s"
  x86_64-w64-mingw32-ld --dll -e DllMain --subsystem windows -o "$dll" "$work/prng.o" "$work/prng.def" "$work/libadvapi32.a"
fi

at=$(go env GOROOT)/src/internal/syscall/windows/at_windows.go
sed 's/^\(\s*\)STATUS_NOT_SUPPORTED: /\1STATUS_NOT_SUPPORTED, NTStatus(0xC0000002): /' "$at" >"$work/at_windows.go"
if ! grep -q 'NTStatus(0xC0000002)' "$work/at_windows.go"; then
  echo "wine-test: the os.RemoveAll overlay no longer applies to $at (new Go?)" >&2
  exit 1
fi
printf '{"Replace":{"%s":"%s"}}\n' "$at" "$work/at_windows.go" >"$work/overlay.json"

export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEARCH=win64
if [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
  wineboot -i </dev/null >/dev/null 2>&1 || true
  wineserver -w || true
fi
cp "$dll" "$WINEPREFIX/drive_c/windows/system32/"
wine reg add 'HKCU\Software\Wine' /v Version /d win10 /f </dev/null >/dev/null 2>&1 || true
wineserver -w || true

/usr/lib/wine/wineserver64 -f -p </dev/null >/dev/null 2>&1 &
server=$!
cleanup() { wineserver -k 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
trap cleanup EXIT
wine cmd /c exit </dev/null >/dev/null 2>&1 || true

printf '#!/bin/sh\nexec wine "$@"\n' >"$work/bin/go_windows_amd64_exec"
chmod +x "$work/bin/go_windows_amd64_exec"
PATH=$work/bin:$PATH GOOS=windows GOARCH=amd64 GOFLAGS="${GOFLAGS:+$GOFLAGS }-overlay=$work/overlay.json" go test "$@"
