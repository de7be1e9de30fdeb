package discovery

import "strings"

// Root is a registry hive.
type Root uint8

// The two hives discovery reads.
const (
	LocalMachine Root = iota + 1
	CurrentUser
)

func (r Root) String() string {
	if r == CurrentUser {
		return "HKCU"
	}
	return "HKLM"
}

// Registry is the read-only registry access discovery and route planning need. The
// Windows implementation opens every key with the 64-bit view (KEY_WOW64_64KEY) so
// a 32-bit build sees the real hive; tests use a map-backed fake. "found" is false
// for a missing key or value, which is an established absence, not an error.
type Registry interface {
	KeyExists(root Root, path string) (bool, error)
	DWORD(root Root, path, name string) (value uint32, found bool, err error)
	String(root Root, path, name string) (value string, found bool, err error)
	SubKeys(root Root, path string) (names []string, found bool, err error)
}

// Registry locations (docs/discovery.md, "WSL facts" and "WSL route state").
const (
	keyWSLPolicy     = `SOFTWARE\Policies\WSL`
	keyStoreService  = `SYSTEM\CurrentControlSet\Services\WslService`
	keyInboxService  = `SYSTEM\CurrentControlSet\Services\LxssManager`
	keyLxss          = `Software\Microsoft\Windows\CurrentVersion\Lxss`
	keyAppxPackages  = `Software\Classes\Local Settings\Software\Microsoft\Windows\CurrentVersion\AppModel\Repository\Packages`
	keyCPU0          = `HARDWARE\DESCRIPTION\System\CentralProcessor\0`
	keyCurrentVer    = `SOFTWARE\Microsoft\Windows NT\CurrentVersion`
	storePackageName = "MicrosoftCorporationII.WindowsSubsystemForLinux_"
)

// Policy is one WSL policy read: a missing key or value is established and not
// configured; a read error is not established.
type Policy struct {
	Established bool
	Configured  bool
	Value       uint32
}

// Allowed is true unless the policy is configured to 0; nil when not established.
func (p Policy) Allowed() *bool {
	if !p.Established {
		return nil
	}
	return Bool(!p.Configured || p.Value != 0)
}

func readPolicy(reg Registry, name string) (Policy, error) {
	v, found, err := reg.DWORD(LocalMachine, keyWSLPolicy, name)
	if err != nil {
		return Policy{}, err
	}
	return Policy{Established: true, Configured: found, Value: v}, nil
}

// keyPresence reads whether an HKLM key exists as a tri-state.
func keyPresence(reg Registry, path string) (*bool, error) {
	ok, err := reg.KeyExists(LocalMachine, path)
	if err != nil {
		return nil, err
	}
	return Bool(ok), nil
}

// Inventory is the current user's registered WSL distributions (docs/discovery.md,
// "WSL facts").
type Inventory struct {
	Established    bool
	Distros        []string
	Default        string // name of the default distribution; "" when none
	DefaultVersion uint32 // 1 or 2; 0 when unknown
}

func readInventory(reg Registry) (Inventory, error) {
	subs, found, err := reg.SubKeys(CurrentUser, keyLxss)
	if err != nil {
		return Inventory{}, err
	}
	inv := Inventory{Established: true, Distros: []string{}}
	if !found {
		return inv, nil
	}
	def, _, err := reg.String(CurrentUser, keyLxss, "DefaultDistribution")
	if err != nil {
		return Inventory{}, err
	}
	for _, sub := range subs {
		path := keyLxss + `\` + sub
		name, _, err := reg.String(CurrentUser, path, "DistributionName")
		if err != nil {
			return Inventory{}, err
		}
		if name == "" {
			continue
		}
		inv.Distros = append(inv.Distros, name)
		if def != "" && strings.EqualFold(sub, def) {
			inv.Default = name
			v, _, err := reg.DWORD(CurrentUser, path, "Version")
			if err != nil {
				return Inventory{}, err
			}
			inv.DefaultVersion = v
		}
	}
	return inv, nil
}

// readStorePackage looks for the Store WSL package in the current user's AppModel package
// repository. A missing repository key leaves the fact unknown without an error
// (docs/discovery.md, "WSL facts"); a read error is an error.
func readStorePackage(reg Registry) (*bool, error) {
	subs, found, err := reg.SubKeys(CurrentUser, keyAppxPackages)
	if err != nil || !found {
		return nil, err
	}
	for _, s := range subs {
		if len(s) >= len(storePackageName) && strings.EqualFold(s[:len(storePackageName)], storePackageName) {
			return True(), nil
		}
	}
	return False(), nil
}
