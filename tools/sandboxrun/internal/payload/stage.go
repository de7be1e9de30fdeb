package payload

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/internal/platform/contain"
)

// Bundle layout (docs/tools/sandbox_run.md, staging).
const (
	// RunsDir is the folder under the data dir that holds every bundle.
	RunsDir = "sandbox-runs"
	// BundlePrefix starts every bundle's folder name.
	BundlePrefix = "run-"
	// MarkerFile marks a folder as a bundle this runtime created; cleanup never deletes
	// a folder without it.
	MarkerFile = ".windows-dev-agent-bundle"
	// ConfigFile is the Sandbox configuration, at the bundle root, outside the share.
	ConfigFile = "run.wsb"
	// ShareDir is the only host folder mapped into the Sandbox.
	ShareDir = "share"
	// ScriptFile is the logon script inside the share.
	ScriptFile = "run.cmd"
	// PayloadDir holds the staged copies inside the share.
	PayloadDir = "payload"
)

// Bundle is a staged Windows Sandbox run.
type Bundle struct {
	// Dir is the bundle root: the cleanup path.
	Dir string
	// Config is the absolute path of run.wsb, the Sandbox argument.
	Config string
	// Share is the folder mapped read-only as C:\WDAShare.
	Share string
}

// Stage builds a fresh bundle under <dataDir>/sandbox-runs for command and the payload
// sel selected, re-validating every node while copying it from the workspace the call
// bound. On any error nothing is left behind: the partial bundle is removed before
// Stage returns.
func Stage(dataDir string, sel *Selection, command string) (*Bundle, error) {
	return stage(dataDir, sel, command, defaultLimits, nil)
}

// stage is Stage with its seams: the budgets, and beforeOpen, which (when set, in
// tests) runs after a node's no-follow metadata was read and before it is opened — the
// window in which a swap must be caught.
func stage(dataDir string, sel *Selection, command string, lim limits, beforeOpen func(path string)) (_ *Bundle, err error) {
	if sel == nil || len(sel.roots) == 0 || sel.project == nil {
		return nil, errors.New("payload_paths is required to stage a Sandbox bundle")
	}
	runs, err := runsDir(dataDir)
	if err != nil {
		return nil, err
	}
	for _, comps := range sel.roots {
		if within(filepath.Join(append([]string{sel.Workspace}, comps...)...), runs) {
			return nil, fmt.Errorf("payload could not be staged safely: %s contains the Sandbox staging folder", relString(comps))
		}
	}
	dir, err := os.MkdirTemp(runs, BundlePrefix)
	if err != nil {
		return nil, fmt.Errorf("Sandbox bundle could not be created: %v", err)
	}
	defer func() {
		if err != nil {
			if rerr := os.RemoveAll(dir); rerr != nil {
				err = fmt.Errorf("%w (and the partial bundle could not be removed: %v)", err, rerr)
			}
		}
	}()
	// The marker goes first so a bundle abandoned by a crash is still sweepable.
	if err := writeNew(filepath.Join(dir, MarkerFile), []byte("1")); err != nil {
		return nil, err
	}
	b := &Bundle{Dir: dir, Config: filepath.Join(dir, ConfigFile), Share: filepath.Join(dir, ShareDir)}
	if err := os.Mkdir(b.Share, 0o700); err != nil {
		return nil, err
	}
	if err := writeNew(filepath.Join(b.Share, ScriptFile), RunCmd(command)); err != nil {
		return nil, err
	}
	if err := copyRoots(sel, filepath.Join(b.Share, PayloadDir), lim, beforeOpen); err != nil {
		return nil, err
	}
	wsb, err := WSB(b.Share)
	if err != nil {
		return nil, err
	}
	if err := writeNew(b.Config, wsb); err != nil {
		return nil, err
	}
	return b, nil
}

// runsDir creates <dataDir>/sandbox-runs, insists it is a real directory (a link
// there could point bundle writes, and later deletions, somewhere else) and returns
// its final path.
func runsDir(dataDir string) (string, error) {
	if dataDir == "" {
		return "", errors.New("Sandbox bundle could not be created: no data directory")
	}
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return "", fmt.Errorf("Sandbox bundle could not be created: %v", err)
	}
	runs := filepath.Join(abs, RunsDir)
	if err := os.MkdirAll(runs, 0o700); err != nil {
		return "", fmt.Errorf("Sandbox bundle could not be created: %v", err)
	}
	k, _, err := lstatKind(runs)
	if err != nil {
		return "", fmt.Errorf("Sandbox bundle could not be created: %v", err)
	}
	if k != guard.KindDir {
		return "", fmt.Errorf("Sandbox bundle could not be created: %s is not a real directory", runs)
	}
	// The containment check in stage compares runs with the workspace's final path, so
	// runs must be a final path too, resolved the way every directory is
	// (docs/platform.md, "Which directory a path leads to"): filepath.EvalSymlinks
	// skips Windows junctions, and a data directory reached through one that leads into
	// the workspace would escape the check. A failure refuses rather than compare an
	// unresolved name.
	real, err := contain.ResolveDir(runs)
	if err != nil {
		return "", fmt.Errorf("Sandbox bundle could not be created: %v", err)
	}
	return real, nil
}

// within reports whether p is root or below it.
func within(root, p string) bool { return contain.Within(root, p) }

// writeNew creates path exclusively (it must not exist) and writes data to it. The
// bundle lives in the data directory, so its files and folders are the owner's only.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

var (
	errSwappedLink = errors.New("symbolic link or reparse point")
	errChanged     = errors.New("node changed after it was examined")
	errHardLinked  = errors.New("more than one hard link")
)

// copier recounts the budgets from zero while staging.
type copier struct {
	lim        limits
	entries    int
	bytes      int64
	beforeOpen func(path string)
	cp         fileCopier
}

func copyRoots(sel *Selection, payload string, lim limits, beforeOpen func(string)) error {
	root, err := guard.OpenRoot(sel.project, guard.Frozen)
	if err != nil {
		return fmt.Errorf("workspace could not be opened: %v", err)
	}
	defer root.Close()
	if err := os.Mkdir(payload, 0o700); err != nil {
		return err
	}
	dst, err := openSink(payload)
	if err != nil {
		return err
	}
	defer dst.Close()
	c := &copier{lim: lim, beforeOpen: beforeOpen}
	if len(sel.roots) == 1 && len(sel.roots[0]) == 0 {
		// "." stages the workspace itself as share/payload.
		if err := c.count(); err != nil {
			return err
		}
		return c.copyDir(root, ".", dst)
	}
	for _, comps := range sel.roots {
		if err := c.copyRoot(root, comps, dst); err != nil {
			return err
		}
	}
	return nil
}

// copyRoot descends from the workspace to one selected root through held, verified
// directories (and the same path of destination folders), then stages the root.
func (c *copier) copyRoot(root *guard.Dir, comps []string, dst sink) error {
	if len(comps) == 0 {
		return errors.New("payload paths overlap or duplicate one another")
	}
	cur, out := root, dst
	var held []io.Closer
	defer func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i].Close()
		}
	}()
	for i, comp := range comps[:len(comps)-1] {
		rel := relString(comps[:i+1])
		info, err := cur.Stat(comp)
		if err := parentErr(info, err, rel, comps); err != nil {
			return err
		}
		next, err := c.openDir(cur, comp, info)
		if err != nil {
			return openErr(rel, err, true)
		}
		held = append(held, next)
		// Two roots may share folders on the way (a/b and a/c): the second finds it made.
		nextOut, err := out.Mkdir(comp, true)
		if err != nil {
			return fmt.Errorf("payload could not be staged safely: %s: %v", rel, unwrapPath(err))
		}
		held = append(held, nextOut)
		cur, out = next, nextOut
	}
	last := comps[len(comps)-1]
	rel := relString(comps)
	info, err := cur.Stat(last)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("payload path does not exist: %s", rel)
	case err != nil:
		return fmt.Errorf("payload metadata could not be established for %s: %v", rel, unwrapPath(err))
	}
	return c.copyNode(cur, last, relPath{relString(comps[:len(comps)-1]), last}, info, out)
}

func (c *copier) count() error {
	c.entries++
	if c.entries > c.lim.entries {
		return fmt.Errorf("payload exceeds the Sandbox staging entry budget of %d entries", c.lim.entries)
	}
	return nil
}

func (c *copier) budgetErr() error {
	return fmt.Errorf("payload exceeds the Sandbox staging byte budget of %d bytes", c.lim.bytes)
}

// openDir opens the directory seen by Stat as want, proving from the handle that it is
// that very directory.
func (c *copier) openDir(parent *guard.Dir, name string, want guard.Info) (*guard.Dir, error) {
	if c.beforeOpen != nil {
		c.beforeOpen(filepath.Join(parent.Path(), name))
	}
	d, got, err := parent.OpenDir(name)
	if err != nil {
		return nil, err
	}
	if got.ID != want.ID {
		d.Close()
		return nil, errChanged
	}
	return d, nil
}

// openFile opens the regular file seen by Stat as want, proving from the handle that it
// is that very file, with a single link.
func (c *copier) openFile(parent *guard.Dir, name string, want guard.Info) (*guard.File, error) {
	if c.beforeOpen != nil {
		c.beforeOpen(filepath.Join(parent.Path(), name))
	}
	f, err := parent.OpenFile(name)
	if err != nil {
		return nil, err
	}
	got := f.Info()
	switch {
	case got.ID != want.ID:
		err = errChanged
	case got.Links > 1:
		err = errHardLinked
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// copyNode stages one node seen as info (by parent.Stat, or by the listing for a
// regular file): counted and checked before it is opened, opened once, and copied from
// that handle into a destination created exclusively. rel names it in messages.
func (c *copier) copyNode(parent *guard.Dir, name string, rel relPath, info guard.Info, dst sink) error {
	if err := c.count(); err != nil {
		return err
	}
	if info.Kind != guard.KindFile || info.Links > 1 {
		if err := admit(info, rel.String()); err != nil {
			return err
		}
	}
	if info.Kind == guard.KindDir {
		r := rel.String()
		sub, err := c.openDir(parent, name, info)
		if err != nil {
			return openErr(r, err, false)
		}
		defer sub.Close()
		out, err := dst.Mkdir(name, false)
		if err != nil {
			return fmt.Errorf("payload could not be staged safely: %s: %v", r, unwrapPath(err))
		}
		defer out.Close()
		return c.copyDir(sub, r, out)
	}
	f, err := c.openFile(parent, name, info)
	if err != nil {
		return openErr(rel.String(), err, false)
	}
	defer f.Close()
	// A file that grew past the budget since nomination is refused before copying.
	if f.Info().Size > c.lim.bytes-c.bytes {
		return c.budgetErr()
	}
	n, err := dst.Copy(name, f, c.lim.bytes-c.bytes+1, &c.cp)
	c.bytes += n
	if c.bytes > c.lim.bytes {
		return c.budgetErr()
	}
	if err != nil {
		return fmt.Errorf("payload could not be staged safely: %s: %v", rel.String(), unwrapPath(err))
	}
	return nil
}

// copyDir stages the children of the held directory d. A child the listing reports as
// a regular file (with its inode) is opened without a metadata call first: the open's
// own metadata must then show that very inode, on d's device, as a regular file.
// Anything else is looked at (no-follow metadata) before it is opened.
func (c *copier) copyDir(d *guard.Dir, rel string, dst sink) error {
	entries, err := d.Entries()
	if err != nil {
		return fmt.Errorf("payload could not be enumerated safely: %s: %v", rel, unwrapPath(err))
	}
	for _, e := range entries {
		childRel := relPath{rel, e.Name}
		info := guard.Info{Kind: guard.KindFile, Links: 1, ID: guard.FileID{Dev: d.Info().ID.Dev, Ino: e.Ino}}
		if e.Kind != guard.KindFile || e.Ino == 0 {
			if info, err = d.Stat(e.Name); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("payload could not be staged safely: %s vanished during staging", childRel.String())
				}
				return fmt.Errorf("payload metadata could not be established for %s: %v", childRel.String(), unwrapPath(err))
			}
		}
		if err := c.copyNode(d, e.Name, childRel, info, dst); err != nil {
			return err
		}
	}
	return nil
}

// relPath is a node's workspace-relative display path, joined only when a message
// needs it (a tree of thousands of files would otherwise build a string per file).
type relPath struct{ dir, name string }

func (r relPath) String() string { return joinRel(r.dir, r.name) }

// openErr words a failed verified open. crossing is true for a parent component.
func openErr(rel string, err error, crossing bool) error {
	switch {
	case (errors.Is(err, errSwappedLink) || errors.Is(err, guard.ErrLink)) && crossing:
		return fmt.Errorf("payload path crosses a symbolic link or reparse point: %s", rel)
	case errors.Is(err, errSwappedLink), errors.Is(err, guard.ErrLink):
		return fmt.Errorf("payload contains a symbolic link or reparse point: %s", rel)
	case errors.Is(err, errHardLinked):
		return fmt.Errorf("payload contains a file with more than one hard link, which may be a file outside the workspace: %s", rel)
	case errors.Is(err, errChanged), errors.Is(err, guard.ErrNotDir), errors.Is(err, guard.ErrNotRegular),
		errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("payload changed during staging and could not be staged safely: %s", rel)
	case errors.Is(err, guard.ErrAlias):
		return fmt.Errorf("payload path does not open as itself (a short name on the way) and could not be staged safely: %s", rel)
	}
	return fmt.Errorf("payload could not be staged safely: %s: %v", rel, unwrapPath(err))
}
