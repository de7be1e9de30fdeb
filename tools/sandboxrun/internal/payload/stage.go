package payload

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
)

// Bundle layout (tools.md §5.2).
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

var (
	errSwappedLink = errors.New("symbolic link or reparse point")
	errChanged     = errors.New("node changed after it was examined")
)

// Stage builds a fresh bundle under <dataDir>/sandbox-runs for command and the payload
// sel selected, re-validating every node while copying. On any error nothing is left
// behind: the partial bundle is removed before Stage returns.
func Stage(dataDir string, sel *Selection, command string) (*Bundle, error) {
	return stage(dataDir, sel, command, defaultLimits)
}

func stage(dataDir string, sel *Selection, command string, lim limits) (_ *Bundle, err error) {
	if sel == nil || len(sel.roots) == 0 {
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
	if err := copyRoots(sel, filepath.Join(b.Share, PayloadDir), lim); err != nil {
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

// runsDir creates <dataDir>/sandbox-runs and insists it is a real directory: a link
// there could point bundle writes (and later deletions) somewhere else.
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
	info, err := lstatNode(runs)
	if err != nil {
		return "", fmt.Errorf("Sandbox bundle could not be created: %v", err)
	}
	if info.kind != kindDir {
		return "", fmt.Errorf("Sandbox bundle could not be created: %s is not a real directory", runs)
	}
	if real, err := filepath.EvalSymlinks(runs); err == nil {
		runs = real
	}
	return runs, nil
}

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

// copier recounts the budgets from zero while staging.
type copier struct {
	lim     limits
	entries int
	bytes   int64
	buf     []byte // copy buffer where the OS has no kernel copy path
}

func copyRoots(sel *Selection, payload string, lim limits) error {
	root, err := openRoot(sel.Workspace)
	if err != nil {
		return err
	}
	defer root.Close()
	c := &copier{lim: lim}
	if len(sel.roots) == 1 && len(sel.roots[0]) == 0 {
		// "." stages the workspace itself as share/payload.
		if err := c.count(); err != nil {
			return err
		}
		if err := os.Mkdir(payload, 0o700); err != nil {
			return err
		}
		return c.copyDir(root, ".", payload)
	}
	if err := os.Mkdir(payload, 0o700); err != nil {
		return err
	}
	for _, comps := range sel.roots {
		if err := c.copyRoot(root, comps, payload); err != nil {
			return err
		}
	}
	return nil
}

// copyRoot descends from the workspace to one selected root through held, verified
// directories, then stages the root.
func (c *copier) copyRoot(root srcDir, comps []string, payload string) error {
	if len(comps) == 0 {
		return errors.New("payload paths overlap or duplicate one another")
	}
	cur := root
	var held []srcDir
	defer func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i].Close()
		}
	}()
	for i, comp := range comps[:len(comps)-1] {
		rel := relString(comps[:i+1])
		info, err := cur.Stat(comp)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("payload path does not exist: %s", relString(comps))
		case err != nil:
			return fmt.Errorf("payload metadata could not be established for %s: %v", rel, unwrapPath(err))
		case info.kind == kindLink:
			return fmt.Errorf("payload path crosses a symbolic link or reparse point: %s", rel)
		case info.kind != kindDir:
			return fmt.Errorf("payload path does not exist: %s", relString(comps))
		}
		next, err := cur.OpenDir(comp, info)
		if err != nil {
			return openErr(rel, err, true)
		}
		held = append(held, next)
		cur = next
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
	dst := filepath.Join(append([]string{payload}, comps...)...)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	return c.copyNode(cur, last, rel, info, dst)
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

// copyNode stages one node seen by parent.Stat as info: counted and checked before it
// is opened, opened once, and copied from that handle.
func (c *copier) copyNode(parent srcDir, name, rel string, info nodeInfo, dst string) error {
	if err := c.count(); err != nil {
		return err
	}
	switch info.kind {
	case kindLink:
		return fmt.Errorf("payload contains a symbolic link or reparse point: %s", rel)
	case kindOther:
		return fmt.Errorf("payload contains something that is neither a regular file nor a directory: %s", rel)
	case kindDir:
		sub, err := parent.OpenDir(name, info)
		if err != nil {
			return openErr(rel, err, false)
		}
		defer sub.Close()
		if err := os.Mkdir(dst, 0o700); err != nil {
			return fmt.Errorf("payload could not be staged safely: %s: %v", rel, unwrapPath(err))
		}
		return c.copyDir(sub, rel, dst)
	}
	f, size, err := parent.OpenFile(name, info)
	if err != nil {
		return openErr(rel, err, false)
	}
	defer f.Close()
	// A file that grew past the budget since nomination is refused before copying.
	if size > c.lim.bytes-c.bytes {
		return c.budgetErr()
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("payload could not be staged safely: %s: %v", rel, unwrapPath(err))
	}
	// Counted during the copy too: the file may still be growing.
	n, err := c.copyAtMost(out, f, c.lim.bytes-c.bytes+1)
	c.bytes += n
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if c.bytes > c.lim.bytes {
		return c.budgetErr()
	}
	if err != nil {
		return fmt.Errorf("payload could not be staged safely: %s: %v", rel, unwrapPath(err))
	}
	return nil
}

func (c *copier) copyDir(d srcDir, rel, dst string) error {
	names, err := d.Names()
	if err != nil {
		return fmt.Errorf("payload could not be enumerated safely: %s: %v", rel, unwrapPath(err))
	}
	for _, name := range names {
		childRel := joinRel(rel, name)
		info, err := d.Stat(name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("payload could not be staged safely: %s vanished during staging", childRel)
			}
			return fmt.Errorf("payload metadata could not be established for %s: %v", childRel, unwrapPath(err))
		}
		if err := c.copyNode(d, name, childRel, info, filepath.Join(dst, name)); err != nil {
			return err
		}
	}
	return nil
}

// openErr words a failed verified open. crossing is true for a parent component.
func openErr(rel string, err error, crossing bool) error {
	switch {
	case errors.Is(err, errSwappedLink) && crossing:
		return fmt.Errorf("payload path crosses a symbolic link or reparse point: %s", rel)
	case errors.Is(err, errSwappedLink):
		return fmt.Errorf("payload contains a symbolic link or reparse point: %s", rel)
	case errors.Is(err, errChanged):
		return fmt.Errorf("payload changed during staging and could not be staged safely: %s", rel)
	case errors.Is(err, errNotItself):
		return fmt.Errorf("payload path does not open as itself (a link, short name or mount point on the way) and could not be staged safely: %s", rel)
	}
	return fmt.Errorf("payload could not be staged safely: %s: %v", rel, unwrapPath(err))
}

// copyAtMost copies at most limit bytes. On Unix io.Copy hands *os.File pairs to
// copy_file_range/sendfile; Windows has no such path, so it uses 1 MiB chunks rather
// than io.Copy's 32 KiB.
func (c *copier) copyAtMost(dst *os.File, src *os.File, limit int64) (int64, error) {
	lr := &io.LimitedReader{R: src, N: limit}
	if goruntime.GOOS == "windows" {
		if c.buf == nil {
			c.buf = make([]byte, 1<<20)
		}
		return io.CopyBuffer(struct{ io.Writer }{dst}, lr, c.buf)
	}
	return io.Copy(dst, lr)
}
