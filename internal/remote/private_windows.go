package remote

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// readMask are the rights that read the file or let the holder grant itself reading.
const readMask = windows.FILE_READ_DATA | windows.GENERIC_READ | windows.GENERIC_ALL |
	windows.WRITE_DAC | windows.WRITE_OWNER

// private refuses a token file whose DACL lets anyone read it but the server's own
// account, SYSTEM and the Administrators group (docs/remote.md, "The token file"): a
// NULL DACL (everyone), an allow entry for any other SID, or an allow entry of a kind
// this check does not read. It reads the security descriptor of the handle the file
// is read through. Mode bits mean nothing on Windows.
func private(f *os.File, _ os.FileInfo) error {
	sd, err := windows.GetSecurityInfo(windows.Handle(f.Fd()), windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("reading its security descriptor: %v", err)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		return fmt.Errorf("it has no DACL, so everyone can read it: restrict it (icacls FILE /inheritance:r /grant:r ACCOUNT:R)")
	}
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return fmt.Errorf("reading the server's account: %v", err)
	}
	system, err := windows.CreateWellKnownSid(windows.WinLocalSystemSid)
	if err != nil {
		return err
	}
	admins, err := windows.CreateWellKnownSid(windows.WinBuiltinAdministratorsSid)
	if err != nil {
		return err
	}
	allowed := []*windows.SID{tu.User.Sid, system, admins}
	for i := uint32(0); i < uint32(dacl.AceCount); i++ {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return fmt.Errorf("reading its DACL: %v", err)
		}
		if ace.Header.AceFlags&windows.INHERIT_ONLY_ACE != 0 || ace.Mask&readMask == 0 {
			continue
		}
		switch ace.Header.AceType {
		case windows.ACCESS_DENIED_ACE_TYPE:
			continue
		case windows.ACCESS_ALLOWED_ACE_TYPE:
		default:
			return fmt.Errorf("its DACL has an entry of type %d this check cannot read: restrict it to the service account", ace.Header.AceType)
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		ok := false
		for _, a := range allowed {
			ok = ok || sid.Equals(a)
		}
		if !ok {
			return fmt.Errorf("%s may read it: only the service account, SYSTEM and Administrators may (icacls FILE /inheritance:r /grant:r ACCOUNT:R)", sid.String())
		}
	}
	return nil
}
