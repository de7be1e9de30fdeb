package policy

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"
)

// WindowsRegistry reads keys of the Windows registry (roots "HKLM" and "HKCU"), the
// 64-bit view, read-only.
type WindowsRegistry struct{}

func (WindowsRegistry) Read(k Key, subkeys []string) (KeyValues, bool, error) {
	var root registry.Key
	switch k.Root {
	case "HKLM":
		root = registry.LOCAL_MACHINE
	case "HKCU":
		root = registry.CURRENT_USER
	default:
		return KeyValues{}, false, fmt.Errorf("unknown registry root %q", k.Root)
	}
	key, err := registry.OpenKey(root, k.Path, registry.QUERY_VALUE|registry.ENUMERATE_SUB_KEYS|registry.WOW64_64KEY)
	if errors.Is(err, registry.ErrNotExist) {
		return KeyValues{}, false, nil
	}
	if err != nil {
		return KeyValues{}, false, err
	}
	defer func() { _ = key.Close() }()
	kv := KeyValues{Subkeys: map[string][]Value{}}
	if kv.Values, err = readValues(key); err != nil {
		return KeyValues{}, false, err
	}
	for _, name := range subkeys {
		sub, err := registry.OpenKey(key, name, registry.QUERY_VALUE|registry.WOW64_64KEY)
		if errors.Is(err, registry.ErrNotExist) {
			continue
		}
		if err != nil {
			return KeyValues{}, false, fmt.Errorf(`%s: %w`, name, err)
		}
		vals, err := readValues(sub)
		_ = sub.Close()
		if err != nil {
			return KeyValues{}, false, fmt.Errorf(`%s: %w`, name, err)
		}
		kv.Subkeys[name] = vals
	}
	return kv, true, nil
}

func readValues(key registry.Key) ([]Value, error) {
	names, err := key.ReadValueNames(-1)
	if err != nil {
		return nil, err
	}
	vals := make([]Value, 0, len(names))
	for _, name := range names {
		v := Value{Name: name, Type: Other}
		_, typ, err := key.GetValue(name, nil)
		if err != nil {
			return nil, fmt.Errorf("value %s: %w", name, err)
		}
		switch typ {
		case registry.SZ:
			if v.String, _, err = key.GetStringValue(name); err != nil {
				return nil, fmt.Errorf("value %s: %w", name, err)
			}
			v.Type = String
		case registry.DWORD:
			if v.Number, _, err = key.GetIntegerValue(name); err != nil {
				return nil, fmt.Errorf("value %s: %w", name, err)
			}
			v.Type = DWord
		}
		vals = append(vals, v)
	}
	return vals, nil
}

// systemSources: HKLM\SOFTWARE\Policies\WindowsDevAgent, the ProgramData known
// folder's WindowsDevAgent\policy.json (the folder from the shell, never from the
// ProgramData variable a user can change), HKCU\SOFTWARE\Policies\WindowsDevAgent.
func systemSources() Sources {
	src := Sources{Registry: WindowsRegistry{}, Machine: Key{"HKLM", RegistryPath}, User: Key{"HKCU", RegistryPath}}
	if dir, err := windows.KnownFolderPath(windows.FOLDERID_ProgramData, 0); err == nil && dir != "" {
		src.File = dir + `\WindowsDevAgent\policy.json`
	} else {
		// Fail closed rather than skip: a source that cannot be located is checked at
		// its usual place.
		src.File = `C:\ProgramData\WindowsDevAgent\policy.json`
	}
	return src
}
