package discovery

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// TestDockerPipe: a local pipe with a server behind it is a running engine, an absent
// pipe an established false, and a pipe on another host is never opened (issue 22 §6).
func TestDockerPipe(t *testing.T) {
	t.Parallel()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	name := `\\.\pipe\wda-test-docker-` + hex.EncodeToString(b)
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		t.Fatal(err)
	}
	h, err := windows.CreateNamedPipe(p, windows.PIPE_ACCESS_DUPLEX, windows.PIPE_TYPE_BYTE|windows.PIPE_WAIT, 1, 512, 512, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { windows.CloseHandle(h) })
	pipeHost := "npipe://" + strings.ReplaceAll(name, `\`, "/")
	tests := []struct {
		host string
		want *bool
	}{
		{pipeHost, T},
		{"npipe:////./pipe/wda-test-docker-absent-" + hex.EncodeToString(b), F},
		{"npipe:////server/pipe/docker_engine", N},
		{"tcp://192.0.2.1:2375", N},
	}
	for _, tt := range tests {
		d := dockerEngine{getenv: envOf(map[string]string{"DOCKER_HOST": tt.host}), defaultHost: dockerDefaultHost,
			timeout: time.Second, openPipe: dockerPipe}
		got, err := d.running(t.Context())
		if tri(got) != tri(tt.want) || err != nil {
			t.Errorf("%s: running = %s, %v; want %s", tt.host, tri(got), err, tri(tt.want))
		}
	}
}
