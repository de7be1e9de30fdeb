//go:build !windows && !linux

package proc

// sealExecutable hashes the executable from an opened descriptor and starts it by path.
// Without a descriptor-based exec in os/exec here, the path is opened again by the
// kernel: between the hash and the exec a rename or write can still substitute other
// bytes. This residual window is documented in docs/process-runner.md §3.3.
func sealExecutable(p *prepared, exe string, expected *Identity) *Receipt {
	s, err := openSeal(exe)
	if err != nil {
		return sealFailure(p.args, expected, err)
	}
	p.seals = append(p.seals, s)
	if expected != nil && !s.id.Equal(*expected) {
		return identityChanged(p.args, exe)
	}
	return nil
}
