package discovery

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Dev Drive identity (docs/discovery.md, "Dev Drive"): the persistent DEV_VOLUME flag
// returned by FSCTL_QUERY_PERSISTENT_VOLUME_STATE. The volume label is never identity.
const (
	fsctlQueryPersistentVolumeState = 0x0009023C
	persistentVolumeStateDevVolume  = 0x2000
)

// persistentVolumeInfo is FILE_FS_PERSISTENT_VOLUME_INFORMATION.
type persistentVolumeInfo struct {
	VolumeFlags, FlagMask, Version, Reserved uint32
}

var procGetDeveloperDriveEnablementState = windows.NewLazySystemDLL("api-ms-win-core-sysinfo-l1-2-6.dll").NewProc("GetDeveloperDriveEnablementState")

// devDriveFacts enumerates volumes; ReFS volumes are asked for the persistent flag.
// One failing volume makes the inventory "unknown" (with an error naming it) while
// the others are still checked, so the list may be partial.
func devDriveFacts() (DevDriveFacts, []string) {
	var errs []string
	f := DevDriveFacts{InventoryState: StateAvailable, Drives: []DevDrive{}}
	f.Enabled, f.State, errs = devDriveEnablement()
	buf := make([]uint16, windows.MAX_PATH+1)
	h, err := windows.FindFirstVolume(&buf[0], uint32(len(buf)))
	if err != nil {
		f.InventoryState = StateUnknown
		return f, append(errs, "Dev Drive inventory was not established: "+err.Error())
	}
	defer windows.FindVolumeClose(h)
	for {
		vol := windows.UTF16ToString(buf)
		if d, isDev, err := queryVolume(vol); err != nil {
			f.InventoryState = StateUnknown
			errs = append(errs, fmt.Sprintf("Dev Drive state of volume %s was not established: %s", vol, win32(err)))
		} else if isDev {
			f.Drives = append(f.Drives, d)
		}
		if err := windows.FindNextVolume(h, &buf[0], uint32(len(buf))); err != nil {
			if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
				f.InventoryState = StateUnknown
				errs = append(errs, "Dev Drive inventory was not established: "+err.Error())
			}
			break
		}
	}
	return f, errs
}

// queryVolume returns whether a volume (GUID path with trailing backslash) is a Dev
// Drive. Non-ReFS volumes and volumes without media are not candidates.
func queryVolume(vol string) (DevDrive, bool, error) {
	if vol == "" {
		return DevDrive{}, false, nil
	}
	root, err := windows.UTF16PtrFromString(vol)
	if err != nil {
		return DevDrive{}, false, err
	}
	label := make([]uint16, windows.MAX_PATH+1)
	fsName := make([]uint16, windows.MAX_PATH+1)
	if err := windows.GetVolumeInformation(root, &label[0], uint32(len(label)), nil, nil, nil, &fsName[0], uint32(len(fsName))); err != nil {
		if errors.Is(err, windows.ERROR_NOT_READY) || errors.Is(err, windows.ERROR_UNRECOGNIZED_VOLUME) {
			return DevDrive{}, false, nil // no media or no file system: not a ReFS volume
		}
		return DevDrive{}, false, err
	}
	if !strings.EqualFold(windows.UTF16ToString(fsName), "ReFS") {
		return DevDrive{}, false, nil
	}
	isDev, err := devVolumeFlag(strings.TrimSuffix(vol, `\`))
	if err != nil || !isDev {
		return DevDrive{}, false, err
	}
	d := DevDrive{Label: windows.UTF16ToString(label), DriveLetter: driveLetter(root)}
	var avail, total, free uint64
	if err := windows.GetDiskFreeSpaceEx(root, &avail, &total, &free); err != nil {
		return DevDrive{}, false, err
	}
	d.SizeGB, d.FreeSpaceGB = gib(total), gib(free)
	return d, true, nil
}

// devVolumeFlag opens the volume for attributes only and asks for its persistent state.
func devVolumeFlag(path string) (bool, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return false, err
	}
	h, err := windows.CreateFile(p, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return false, err
	}
	defer windows.CloseHandle(h)
	in := persistentVolumeInfo{FlagMask: persistentVolumeStateDevVolume, Version: 1}
	var out persistentVolumeInfo
	var n uint32
	if err := windows.DeviceIoControl(h, fsctlQueryPersistentVolumeState,
		(*byte)(unsafe.Pointer(&in)), uint32(unsafe.Sizeof(in)),
		(*byte)(unsafe.Pointer(&out)), uint32(unsafe.Sizeof(out)), &n, nil); err != nil {
		return false, err
	}
	return out.VolumeFlags&persistentVolumeStateDevVolume != 0, nil
}

// driveLetter is the first drive-letter mount point of a volume, without the colon.
func driveLetter(vol *uint16) string {
	buf := make([]uint16, 1024)
	var n uint32
	if windows.GetVolumePathNamesForVolumeName(vol, &buf[0], uint32(len(buf)), &n) != nil {
		return ""
	}
	for i := 0; i < int(n) && i < len(buf); {
		s := windows.UTF16ToString(buf[i:])
		if len(s) >= 2 && s[1] == ':' {
			return strings.ToUpper(s[:1])
		}
		if s == "" {
			break
		}
		i += len(s) + 1
	}
	return ""
}

// devDriveEnablement is GetDeveloperDriveEnablementState (docs/discovery.md,
// "Dev Drive"). A missing API is an older Windows, not a failure: state unsupported_api,
// enablement unknown.
func devDriveEnablement() (*bool, string, []string) {
	if procGetDeveloperDriveEnablementState.Find() != nil {
		return nil, "unsupported_api", nil
	}
	r, _, _ := procGetDeveloperDriveEnablementState.Call()
	switch r {
	case 1:
		return True(), "enabled", nil
	case 2:
		return False(), "disabled_by_system_policy", nil
	case 3:
		return False(), "disabled_by_group_policy", nil
	}
	return nil, StateUnknown, []string{fmt.Sprintf("Dev Drive enablement was not established: GetDeveloperDriveEnablementState returned %d", r)}
}

// win32 formats an error with its Win32 code when it has one.
func win32(err error) string {
	var errno windows.Errno
	if errors.As(err, &errno) {
		return fmt.Sprintf("%v (Win32 error %d)", err, uint32(errno))
	}
	return err.Error()
}
