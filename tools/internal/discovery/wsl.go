package discovery

// WSLFacts are the raw WSL facts of docs/discovery.md, "WSL facts", each its own
// tri-state. InboxFeature comes from the optional-feature probe; the rest from the
// registry and the file system.
type WSLFacts struct {
	Exe          *bool
	StoreService *bool
	InboxService *bool
	StorePackage *bool
	InboxFeature *bool
	AllowWSL     Policy
	AllowInbox   Policy
	AllowWSL1    Policy
	Inventory    Inventory
}

// storeImpl and inboxImpl are the implementations of docs/discovery.md, "WSL facts": true
// if any evidence is true, false if all is false, otherwise unknown.
func (f WSLFacts) storeImpl() *bool { return anyOf(f.StorePackage, f.StoreService) }
func (f WSLFacts) inboxImpl() *bool { return anyOf(f.InboxFeature, f.InboxService) }

// Installed is wsl_installed (docs/discovery.md, "WSL facts").
func (f WSLFacts) Installed() *bool {
	store, inbox := f.storeImpl(), f.inboxImpl()
	switch {
	case IsFalse(f.Exe):
		return False()
	case IsTrue(f.Exe) && (IsTrue(store) || IsTrue(inbox)):
		return True()
	case IsTrue(f.Exe) && IsFalse(store) && IsFalse(inbox):
		return False()
	}
	return nil
}

// routeImplementationAllowed is "Route implementation allowed" of docs/discovery.md,
// "WSL facts": service registration only; the Store package is never route evidence, and
// AllowInboxWSL restricts only inbox WSL.
func routeImplementationAllowed(storeService, inboxService, inboxAllowed *bool) *bool {
	switch {
	case storeService == nil:
		return nil
	case *storeService:
		return True()
	case inboxService == nil:
		return nil
	case !*inboxService:
		return False()
	}
	return clone(inboxAllowed)
}

// Available is wsl_available (docs/discovery.md, "WSL facts"): can WDA target the
// registered default distribution under policy?
func (f WSLFacts) Available() *bool {
	installed := f.Installed()
	global := f.AllowWSL.Allowed()
	impl := routeImplementationAllowed(f.StoreService, f.InboxService, f.AllowInbox.Allowed())
	if IsFalse(installed) || IsFalse(global) || IsFalse(impl) {
		return False()
	}
	if !IsTrue(installed) || !IsTrue(global) || !IsTrue(impl) || !f.Inventory.Established {
		return nil
	}
	wsl1 := f.AllowWSL1.Allowed()
	inv := f.Inventory
	switch {
	case inv.Default == "":
		return False()
	case inv.DefaultVersion == 1 && IsFalse(wsl1):
		return False()
	case inv.DefaultVersion == 1 && wsl1 == nil:
		return nil
	case inv.DefaultVersion == 0 && IsFalse(wsl1):
		return nil // the default might be WSL 1
	}
	return True()
}
