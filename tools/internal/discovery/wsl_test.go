package discovery

import (
	"fmt"
	"testing"
)

func tri(t *bool) string {
	if t == nil {
		return "null"
	}
	return fmt.Sprint(*t)
}

var T, F, N = True(), False(), (*bool)(nil)

func TestImplementationPresence(t *testing.T) {
	// docs/discovery.md, "WSL facts", implementations: true if any evidence is true;
	// false if both are false; otherwise null.
	cases := []struct{ a, b, want *bool }{
		{T, N, T}, {N, T, T}, {F, T, T}, {F, F, F}, {F, N, N}, {N, F, N}, {N, N, N}, {T, T, T},
	}
	for _, c := range cases {
		f := WSLFacts{StorePackage: c.a, StoreService: c.b, InboxFeature: c.a, InboxService: c.b}
		if got := f.storeImpl(); tri(got) != tri(c.want) {
			t.Errorf("storeImpl(pkg=%s, svc=%s) = %s, want %s", tri(c.a), tri(c.b), tri(got), tri(c.want))
		}
		if got := f.inboxImpl(); tri(got) != tri(c.want) {
			t.Errorf("inboxImpl(feature=%s, svc=%s) = %s, want %s", tri(c.a), tri(c.b), tri(got), tri(c.want))
		}
	}
}

func TestWSLInstalled(t *testing.T) {
	// wsl_installed (docs/discovery.md, "WSL facts") over (exe, storeImpl via service,
	// inboxImpl via service).
	cases := []struct{ exe, store, inbox, want *bool }{
		{F, T, T, F},
		{F, N, N, F},
		{T, T, F, T},
		{T, F, T, T},
		{T, T, N, T},
		{T, F, F, F},
		{T, N, F, N},
		{T, F, N, N},
		{N, T, T, N},
		{N, F, F, N},
	}
	for _, c := range cases {
		f := WSLFacts{Exe: c.exe, StoreService: c.store, StorePackage: c.store, InboxService: c.inbox, InboxFeature: c.inbox}
		if got := f.Installed(); tri(got) != tri(c.want) {
			t.Errorf("Installed(exe=%s, store=%s, inbox=%s) = %s, want %s", tri(c.exe), tri(c.store), tri(c.inbox), tri(got), tri(c.want))
		}
	}
}

func TestRouteImplementationAllowedTruthTable(t *testing.T) {
	// The route-implementation table of docs/discovery.md, "WSL facts": (storeService,
	// inboxService, inbox policy allowed).
	cases := []struct{ store, inbox, allowed, want *bool }{
		{T, F, F, T}, // AllowInboxWSL does not restrict Store WSL
		{F, T, F, F},
		{F, T, T, T},
		{F, F, T, F},
		{N, T, T, N},
		{F, N, T, N},
		{F, T, N, N},
		{T, N, N, T},
		{N, F, F, N},
	}
	for _, c := range cases {
		if got := routeImplementationAllowed(c.store, c.inbox, c.allowed); tri(got) != tri(c.want) {
			t.Errorf("(%s,%s,%s) = %s, want %s", tri(c.store), tri(c.inbox), tri(c.allowed), tri(got), tri(c.want))
		}
	}
}

func TestStorePackageIsNeverRouteEvidence(t *testing.T) {
	// docs/discovery.md, "WSL facts": a Store package without a registered service
	// installs WSL but does not make it routable.
	f := WSLFacts{Exe: T, StorePackage: T, StoreService: F, InboxService: F, InboxFeature: F,
		AllowWSL: allowed(), AllowInbox: allowed(), AllowWSL1: allowed(),
		Inventory: Inventory{Established: true, Distros: []string{"Ubuntu"}, Default: "Ubuntu", DefaultVersion: 2}}
	if got := f.Installed(); !IsTrue(got) {
		t.Fatalf("Installed = %s, want true", tri(got))
	}
	if got := f.Available(); !IsFalse(got) {
		t.Fatalf("Available = %s, want false (package is not route evidence)", tri(got))
	}
}

func allowed() Policy       { return Policy{Established: true} }
func disabled() Policy      { return Policy{Established: true, Configured: true, Value: 0} }
func enabled() Policy       { return Policy{Established: true, Configured: true, Value: 1} }
func unknownPolicy() Policy { return Policy{} }
func inv(def string, v uint32) Inventory {
	i := Inventory{Established: true, Distros: []string{}}
	if def != "" {
		i.Distros = []string{def, "Other"}
		i.Default, i.DefaultVersion = def, v
	}
	return i
}

func TestPolicyAllowed(t *testing.T) {
	cases := []struct {
		p    Policy
		want *bool
	}{{allowed(), T}, {enabled(), T}, {disabled(), F}, {unknownPolicy(), N}, {Policy{Established: true, Configured: true, Value: 7}, T}}
	for _, c := range cases {
		if got := c.p.Allowed(); tri(got) != tri(c.want) {
			t.Errorf("%+v.Allowed() = %s, want %s", c.p, tri(got), tri(c.want))
		}
	}
}

func TestWSLAvailable(t *testing.T) {
	base := func() WSLFacts {
		return WSLFacts{Exe: T, StoreService: T, InboxService: F, StorePackage: T, InboxFeature: F,
			AllowWSL: allowed(), AllowInbox: allowed(), AllowWSL1: allowed(), Inventory: inv("Ubuntu", 2)}
	}
	cases := []struct {
		name string
		mod  func(*WSLFacts)
		want *bool
	}{
		{"store default distro", func(*WSLFacts) {}, T},
		{"inbox default distro", func(f *WSLFacts) { f.StoreService, f.StorePackage, f.InboxService = F, F, T }, T},
		{"not installed", func(f *WSLFacts) { f.Exe = F }, F},
		{"global policy disables", func(f *WSLFacts) { f.AllowWSL = disabled() }, F},
		{"global policy unknown", func(f *WSLFacts) { f.AllowWSL = unknownPolicy() }, N},
		{"inbox-only and inbox disabled", func(f *WSLFacts) { f.StoreService, f.StorePackage, f.InboxService = F, F, T; f.AllowInbox = disabled() }, F},
		{"store ignores inbox policy", func(f *WSLFacts) { f.AllowInbox = disabled() }, T},
		{"implementation unknown", func(f *WSLFacts) { f.StoreService = N }, N},
		{"installed unknown", func(f *WSLFacts) { f.Exe = N }, N},
		{"inventory not established", func(f *WSLFacts) { f.Inventory = Inventory{} }, N},
		{"no default distro", func(f *WSLFacts) { f.Inventory = inv("", 0) }, F},
		{"v1 default, WSL1 disabled", func(f *WSLFacts) { f.Inventory = inv("Old", 1); f.AllowWSL1 = disabled() }, F},
		{"v1 default, WSL1 unknown", func(f *WSLFacts) { f.Inventory = inv("Old", 1); f.AllowWSL1 = unknownPolicy() }, N},
		{"v1 default, WSL1 allowed", func(f *WSLFacts) { f.Inventory = inv("Old", 1) }, T},
		{"unknown version, WSL1 disabled", func(f *WSLFacts) { f.Inventory = inv("Mystery", 0); f.AllowWSL1 = disabled() }, N},
		{"unknown version, WSL1 allowed", func(f *WSLFacts) { f.Inventory = inv("Mystery", 0) }, T},
		{"v2 default, WSL1 disabled", func(f *WSLFacts) { f.AllowWSL1 = disabled() }, T},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := base()
			c.mod(&f)
			got := f.Available()
			if tri(got) != tri(c.want) {
				t.Fatalf("Available = %s, want %s", tri(got), tri(c.want))
			}
			// docs/discovery.md, "WSL facts": available implies a registered default
			// distro.
			if IsTrue(got) && (f.Inventory.Default == "" || len(f.Inventory.Distros) == 0) {
				t.Fatalf("wsl_available true without a default distro")
			}
		})
	}
}
