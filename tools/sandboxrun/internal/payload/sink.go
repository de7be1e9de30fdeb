package payload

import "github.com/windows-dev-agent/wda/internal/guard"

// sink is a destination folder of a bundle being staged. Every folder and file it makes
// is new (created exclusively, owner-only: 0700 and 0600) and made inside the folder it
// holds, so staging never writes through anything it did not create itself.
type sink interface {
	// Mkdir creates the child folder name (or, with mayExist, opens the one an earlier
	// root of the same selection made) and returns it.
	Mkdir(name string, mayExist bool) (sink, error)
	// Copy creates the file name and copies at most limit bytes of src into it,
	// returning how many it copied.
	Copy(name string, src *guard.File, limit int64, cp *fileCopier) (int64, error)
	Close() error
}
