// Package inforce is the machine's managed policy for the long-lived commands (the
// server's pipeline and instructions, env_inspect, wda doctor): policy.System() read
// once per process and hashed with SHA-256 (docs/policy.md, "Hash").
//
// The hooks read the policy through internal/policy alone, without a hash they never
// show, so they do not link crypto/sha256 and its package initialisation on every
// host tool call. This package must never decide anything: internal/policy does.
package inforce

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"github.com/windows-dev-agent/wda/internal/policy"
)

// SHA256 is the hex SHA-256 of b.
func SHA256(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Current is the policy in force for this process, read once.
var Current = sync.OnceValue(func() *policy.State {
	src := policy.System()
	src.Hash = SHA256
	st := policy.Load(src)
	return &st
})
