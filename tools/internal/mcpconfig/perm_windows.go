//go:build windows

package mcpconfig

import (
	"errors"
	"unsafe"

	"golang.org/x/sys/windows"
)

// platformPerms reads the file's owner and DACL from a handle opened for READ_CONTROL
// only: a project file without following a reparse point (the guarded read refused
// links already), a host file through links, as it was read. othersCanWriteACL decides.
type platformPerms struct{}

func (platformPerms) othersCanWrite(path string, project bool) (writable, checked bool) {
	nullDACL, aces, owner, err := fileDACL(path, project)
	if err != nil {
		return false, false
	}
	trusted := []string{owner}
	if u, err := windows.GetCurrentProcessToken().GetTokenUser(); err == nil {
		trusted = append(trusted, u.User.Sid.String())
	}
	return othersCanWriteACL(nullDACL, aces, trusted...), true
}

// fileDACL opens path for its security descriptor and returns its DACL's entries and
// owner. Anything but a regular file is an error, so nothing is checked for it.
func fileDACL(path string, project bool) (nullDACL bool, aces []aceEntry, owner string, err error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return false, nil, "", err
	}
	flags := uint32(windows.FILE_FLAG_BACKUP_SEMANTICS)
	if project {
		flags |= windows.FILE_FLAG_OPEN_REPARSE_POINT
	}
	h, err := windows.CreateFile(p, windows.READ_CONTROL,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil, windows.OPEN_EXISTING, flags, 0)
	if err != nil {
		return false, nil, "", err
	}
	defer windows.CloseHandle(h)
	var fi windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &fi); err != nil {
		return false, nil, "", err
	}
	if fi.FileAttributes&(windows.FILE_ATTRIBUTE_DIRECTORY|windows.FILE_ATTRIBUTE_REPARSE_POINT) != 0 {
		return false, nil, "", errors.New("not a regular file")
	}
	sd, err := windows.GetSecurityInfo(h, windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return false, nil, "", err
	}
	return daclEntries(sd)
}

// daclEntries lists the entries of sd's DACL; an absent or NULL DACL grants everyone
// full access.
func daclEntries(sd *windows.SECURITY_DESCRIPTOR) (nullDACL bool, aces []aceEntry, owner string, err error) {
	if o, _, err := sd.Owner(); err == nil && o != nil {
		owner = o.String()
	}
	dacl, _, err := sd.DACL()
	if errors.Is(err, windows.ERROR_OBJECT_NOT_FOUND) || (err == nil && dacl == nil) {
		return true, nil, owner, nil
	}
	if err != nil {
		return false, nil, "", err
	}
	for i := uint32(0); i < uint32(dacl.AceCount); i++ {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return false, nil, "", err
		}
		e := aceEntry{Type: ace.Header.AceType, Flags: ace.Header.AceFlags, Mask: uint32(ace.Mask)}
		if e.Type == aceAccessAllowed {
			e.SID = (*windows.SID)(unsafe.Pointer(&ace.SidStart)).String()
		}
		aces = append(aces, e)
	}
	return false, aces, owner, nil
}

// writableHow ends the writable_by_others detail: what on this system lets others write.
const writableHow = " (its access control list lets other users write it)"
