//go:build !linux

package guard

// Entries lists the directory, sorted by name. This system's listing is not decoded
// for kinds here, so every entry is KindUnknown and the caller reads its metadata.
func (d *Dir) Entries() ([]DirEntry, error) {
	names, err := d.Names()
	if err != nil {
		return nil, err
	}
	out := make([]DirEntry, len(names))
	for i, n := range names {
		out[i] = DirEntry{Name: n, Kind: KindUnknown}
	}
	return out, nil
}
