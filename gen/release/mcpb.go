package release

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/gen"
)

// mcpbFiles are the MCP Bundles and the MCP Registry entry (docs/release.md, "MCPB
// and the MCP Registry"): for each Windows architecture whose wda.exe was built, a
// .mcpb of the source's dist/mcpb with that build as bin/wda.exe, and, once every
// architecture's bundle is there, dist/registry/server.json with each placeholder
// replaced by its bundle's SHA-256. A trial build of fewer targets packs what it can
// and leaves out the registry entry; a release (every target) must fill it.
func mcpbFiles(checkout string, m Manifest, windowsServer map[string][]byte, unix int64, logf func(string, ...any)) ([]file, error) {
	src, err := sourcePayload(checkout, MCPBDir)
	if err != nil {
		return nil, err
	}
	var files []file
	sums := map[string]string{}
	for _, arch := range gen.MCPBArchs {
		exe, ok := windowsServer[arch]
		if !ok {
			logf("skip %s: windows/%s was not built", gen.MCPBAssetName(m.Version, arch), arch)
			continue
		}
		entries := append(slices.Clone(src), file{path: "bin/wda.exe", exec: true, data: exe})
		b, err := packBundle(entries, time.Unix(unix, 0).UTC())
		if err != nil {
			return nil, err
		}
		name := gen.MCPBAssetName(m.Version, arch)
		sum := sha256.Sum256(b)
		sums[name] = hex.EncodeToString(sum[:])
		logf("pack %s (%d bytes, sha256 %s)", path.Join(MCPBDir, name), len(b), sums[name][:12])
		files = append(files, file{path: path.Join(MCPBDir, name), data: b})
	}
	if len(sums) < len(gen.MCPBArchs) {
		logf("skip %s/server.json: not every Windows architecture's bundle was packed", RegistryDir)
		return files, nil
	}
	tmpl, err := sourcePayload(checkout, RegistryDir)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(tmpl, func(f file) bool { return f.path == "server.json" })
	if i < 0 {
		return nil, fmt.Errorf("source commit lacks dist/%s/server.json", RegistryDir)
	}
	filled, err := gen.FillServerJSON(tmpl[i].data, func(asset string) (string, error) {
		if s, ok := sums[asset]; ok {
			return s, nil
		}
		return "", fmt.Errorf("dist/%s/server.json names %s, which the release does not pack", RegistryDir, asset)
	})
	if err != nil {
		return nil, err
	}
	return append(files, file{path: path.Join(RegistryDir, "server.json"), data: filled}), nil
}

// packBundle writes a .mcpb (a zip) of entries whose bytes depend on nothing but the
// entries and the date: paths in byte order, one fixed modification time, Unix modes,
// no extra fields, and every entry stored, not deflated. Stored entries keep the
// bundle's bytes independent of the packing program's compress/flate (verify may run
// under another Go than the build), and git packs a stored wda.exe as a delta of the
// same binary in the plugin folders.
func packBundle(entries []file, modified time.Time) ([]byte, error) {
	slices.SortFunc(entries, func(a, b file) int { return strings.Compare(a.path, b.path) })
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	date, clock := dosTime(modified)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.path, Method: zip.Store, CRC32: crc32.ChecksumIEEE(e.data),
			CompressedSize64: uint64(len(e.data)), UncompressedSize64: uint64(len(e.data)),
			// CreateRaw writes the MS-DOS fields as given: only CreateHeader derives them
			// from Modified, and it would add a data descriptor.
			ModifiedDate: date, ModifiedTime: clock} //nolint:staticcheck // SA1019: see above
		mode := fs.FileMode(0o644)
		if e.exec {
			mode = 0o755
		}
		h.SetMode(mode)
		w, err := zw.CreateRaw(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// dosTime is t in the MS-DOS date and time fields of a zip header (two-second
// resolution, years 1980 to 2107, clamped).
func dosTime(t time.Time) (date, clock uint16) {
	y := min(max(t.Year(), 1980), 2107)
	date = uint16((y-1980)<<9 | int(t.Month())<<5 | t.Day())    //nolint:gosec // G115: 7 bits of year, 4 of month, 5 of day
	clock = uint16(t.Hour()<<11 | t.Minute()<<5 | t.Second()/2) //nolint:gosec // G115: 5 bits of hour, 6 of minute, 5 of seconds/2
	return date, clock
}
