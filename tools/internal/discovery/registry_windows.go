package discovery

import (
	"errors"
	"fmt"
	"math"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"
)

// winRegistry reads the real registry with the 64-bit view, so a 32-bit build sees
// the same policy and service keys as a native one.
type winRegistry struct{}

func (winRegistry) open(root Root, path string, access uint32) (registry.Key, bool, error) {
	hive := registry.LOCAL_MACHINE
	if root == CurrentUser {
		hive = registry.CURRENT_USER
	}
	k, err := registry.OpenKey(hive, path, access|registry.WOW64_64KEY)
	if absent(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return k, true, nil
}

// absent is a missing key or value: an established absence.
func absent(err error) bool {
	return errors.Is(err, registry.ErrNotExist) || errors.Is(err, windows.ERROR_PATH_NOT_FOUND)
}

func (r winRegistry) KeyExists(root Root, path string) (bool, error) {
	k, found, err := r.open(root, path, registry.QUERY_VALUE)
	if found {
		k.Close()
	}
	return found, err
}

func (r winRegistry) DWORD(root Root, path, name string) (uint32, bool, error) {
	k, found, err := r.open(root, path, registry.QUERY_VALUE)
	if !found || err != nil {
		return 0, false, err
	}
	defer k.Close()
	v, _, err := k.GetIntegerValue(name)
	if absent(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	if v > math.MaxUint32 {
		// A QWORD where a DWORD belongs: not a value Windows would honour as this policy.
		return 0, false, fmt.Errorf("registry value %s\\%s is not a DWORD (%d)", path, name, v)
	}
	return uint32(v), true, nil
}

func (r winRegistry) String(root Root, path, name string) (string, bool, error) {
	k, found, err := r.open(root, path, registry.QUERY_VALUE)
	if !found || err != nil {
		return "", false, err
	}
	defer k.Close()
	v, _, err := k.GetStringValue(name)
	if absent(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return v, true, nil
}

func (r winRegistry) SubKeys(root Root, path string) ([]string, bool, error) {
	k, found, err := r.open(root, path, registry.ENUMERATE_SUB_KEYS|registry.QUERY_VALUE)
	if !found || err != nil {
		return nil, false, err
	}
	defer k.Close()
	names, err := k.ReadSubKeyNames(-1)
	if err != nil {
		return nil, false, err
	}
	return names, true, nil
}
