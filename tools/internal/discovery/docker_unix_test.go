//go:build !windows

package discovery

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// engine is a Unix socket server standing in for a Docker engine: it answers every
// connection with reply (nothing when reply is ""; the connection is then held open
// until the test ends, like an engine that hangs).
func engine(t *testing.T, path, reply string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			if reply == "" {
				mu.Lock()
				held = append(held, c)
				mu.Unlock()
				continue
			}
			go func() {
				defer c.Close()
				if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
					_, _ = c.Write([]byte(reply))
				}
			}()
		}
	}()
}

// staleSocket leaves a socket file nobody listens on, as a stopped engine does.
func staleSocket(t *testing.T, path string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
}

// context writes a Docker client context whose engine is host, as the CLI stores it.
func dockerContext(t *testing.T, configDir, name, host string) {
	t.Helper()
	sum := sha256.Sum256([]byte(name))
	dir := filepath.Join(configDir, "contexts", "meta", hex.EncodeToString(sum[:]))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	meta := `{"Name":"` + name + `","Metadata":{},"Endpoints":{"docker":{"Host":"` + host + `","SkipTLSVerify":false}}}`
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(meta), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDockerEngineState: docker_running is true only when an engine answers, false
// when its socket is absent or nobody listens, and null (never false) when the probe
// cannot tell or would have to contact another host (issue 22 §6).
func TestDockerEngineState(t *testing.T) {
	t.Parallel()
	const ok = "HTTP/1.1 200 OK\r\nApi-Version: 1.47\r\nContent-Length: 2\r\n\r\nOK"
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string) map[string]string
		want    *bool
		wantErr string // substring; "" means no error
	}{
		{"no socket", func(t *testing.T, dir string) map[string]string {
			return map[string]string{"DOCKER_HOST": "unix://" + filepath.Join(dir, "docker.sock")}
		}, F, ""},
		{"default address, no socket", func(t *testing.T, dir string) map[string]string {
			return map[string]string{"HOME": dir} // the default is the test's own absent socket
		}, F, ""},
		{"engine answers", func(t *testing.T, dir string) map[string]string {
			engine(t, filepath.Join(dir, "docker.sock"), ok)
			return map[string]string{"DOCKER_HOST": "unix://" + filepath.Join(dir, "docker.sock")}
		}, T, ""},
		{"stale socket", func(t *testing.T, dir string) map[string]string {
			staleSocket(t, filepath.Join(dir, "docker.sock"))
			return map[string]string{"DOCKER_HOST": "unix://" + filepath.Join(dir, "docker.sock")}
		}, F, ""},
		{"engine not ready", func(t *testing.T, dir string) map[string]string {
			engine(t, filepath.Join(dir, "docker.sock"), "HTTP/1.1 500 Internal Server Error\r\n\r\n")
			return map[string]string{"DOCKER_HOST": "unix://" + filepath.Join(dir, "docker.sock")}
		}, N, `answered /_ping with status "500"`},
		{"not an engine", func(t *testing.T, dir string) map[string]string {
			engine(t, filepath.Join(dir, "docker.sock"), "SSH-2.0-OpenSSH_9.6\r\n")
			return map[string]string{"DOCKER_HOST": "unix://" + filepath.Join(dir, "docker.sock")}
		}, N, "did not answer in HTTP"},
		{"silent listener", func(t *testing.T, dir string) map[string]string {
			engine(t, filepath.Join(dir, "docker.sock"), "")
			return map[string]string{"DOCKER_HOST": "unix://" + filepath.Join(dir, "docker.sock")}
		}, N, "did not answer: timed out"},
		{"remote engine", func(t *testing.T, dir string) map[string]string {
			return map[string]string{"DOCKER_HOST": "tcp://192.0.2.1:2376"}
		}, N, ""},
		{"ssh engine", func(t *testing.T, dir string) map[string]string {
			return map[string]string{"DOCKER_HOST": "ssh://user@example.invalid"}
		}, N, ""},
		{"relative socket", func(t *testing.T, dir string) map[string]string {
			return map[string]string{"DOCKER_HOST": "unix://docker.sock"}
		}, N, ""},
		{"pipe off Windows", func(t *testing.T, dir string) map[string]string {
			return map[string]string{"DOCKER_HOST": "npipe:////./pipe/docker_engine"}
		}, N, ""},
		{"context from DOCKER_CONTEXT", func(t *testing.T, dir string) map[string]string {
			dockerContext(t, filepath.Join(dir, "cfg"), "remote", "tcp://192.0.2.1:2376")
			return map[string]string{"DOCKER_CONFIG": filepath.Join(dir, "cfg"), "DOCKER_CONTEXT": "remote"}
		}, N, ""},
		{"current context with a local engine", func(t *testing.T, dir string) map[string]string {
			cfg := filepath.Join(dir, ".docker")
			dockerContext(t, cfg, "desktop-linux", "unix://"+filepath.Join(dir, "desktop.sock"))
			if err := os.WriteFile(filepath.Join(cfg, "config.json"), []byte(`{"auths":{},"currentContext":"desktop-linux"}`), 0o600); err != nil {
				t.Fatal(err)
			}
			engine(t, filepath.Join(dir, "desktop.sock"), ok)
			return map[string]string{"HOME": dir}
		}, T, ""},
		{"default context named", func(t *testing.T, dir string) map[string]string {
			return map[string]string{"HOME": dir, "DOCKER_CONTEXT": "default"}
		}, F, ""},
		{"missing context", func(t *testing.T, dir string) map[string]string {
			return map[string]string{"HOME": dir, "DOCKER_CONTEXT": "gone"}
		}, N, "the selected Docker context could not be read: no such file or directory"},
		{"broken config", func(t *testing.T, dir string) map[string]string {
			if err := os.MkdirAll(filepath.Join(dir, ".docker"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".docker", "config.json"), []byte(`{"currentContext":`), 0o600); err != nil {
				t.Fatal(err)
			}
			return map[string]string{"HOME": dir}
		}, N, "configuration is not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Socket paths are limited to about 100 bytes: a short directory of our own.
			dir, err := os.MkdirTemp("", "wda-dk")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			vars := tt.setup(t, dir)
			d := dockerEngine{getenv: envOf(vars), defaultHost: "unix://" + filepath.Join(dir, "docker.sock"),
				timeout: 200 * time.Millisecond, openPipe: dockerPipe}
			got, err := d.running(t.Context())
			if tri(got) != tri(tt.want) {
				t.Errorf("running = %s, want %s (err %v)", tri(got), tri(tt.want), err)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			case err != nil && (strings.Contains(err.Error(), dir) || !strings.HasPrefix(err.Error(), "Docker engine state was not established: ")):
				t.Errorf("error %q names a path or lacks the prefix", err)
			}
		})
	}
}

// TestDockerSocketPermission: a socket this user may not connect to is not
// established, and the error names no path (a path can carry the user name).
func TestDockerSocketPermission(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root connects to any socket")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "s")
	engine(t, sock, "HTTP/1.1 200 OK\r\n\r\n")
	if err := os.Chmod(sock, 0); err != nil {
		t.Fatal(err)
	}
	got, err := dockerEngine{getenv: envOf(nil), defaultHost: "unix://" + sock, timeout: time.Second}.running(t.Context())
	if got != nil || err == nil || strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("running = %s, %v", tri(got), err)
	}
}

// TestPortableProducerReportsDocker: the engine probe reaches the snapshot, and its
// failure is one error line while docker_installed stays the PATH fact.
func TestPortableProducerReportsDocker(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	touch(t, filepath.Join(bin, "docker"), 0o755)
	for _, tt := range []struct {
		probe   func() (*bool, error)
		running *bool
		errs    int
	}{
		{func() (*bool, error) { return False(), nil }, F, 1},
		{func() (*bool, error) { return True(), nil }, T, 1},
		{func() (*bool, error) { return nil, errDockerUnknown }, N, 2},
	} {
		p := portableProducer{goos: "linux", getenv: envOf(map[string]string{"PATH": bin}),
			cwd:    func() (string, error) { return t.TempDir(), nil },
			system: func() (System, error) { return System{OSName: "Test OS"}, nil },
			docker: func(ctx context.Context) (*bool, error) { return tt.probe() }}
		s, _ := Assemble(t0, p.Produce(t.Context()))
		if !IsTrue(s.DevelopmentTools.DockerInstalled) || tri(s.DevelopmentTools.DockerRunning) != tri(tt.running) || len(s.Errors) != tt.errs {
			t.Errorf("installed %s running %s errors %v, want true %s and %d errors", tri(s.DevelopmentTools.DockerInstalled),
				tri(s.DevelopmentTools.DockerRunning), s.Errors, tri(tt.running), tt.errs)
		}
	}
}

// FuzzDockerHost: whatever DOCKER_HOST and DOCKER_CONTEXT hold, the probe never
// panics and never contacts anything but a local socket under the test's directory.
func FuzzDockerHost(f *testing.F) {
	for _, h := range []string{"", "unix:///nonexistent/x.sock", "tcp://127.0.0.1:1", "npipe:////./pipe/x", "unix://", "://", "fd://", "ssh://h"} {
		f.Add(h, "")
	}
	f.Add("", "remote")
	f.Fuzz(func(t *testing.T, host, ctxName string) {
		dir := t.TempDir()
		if scheme, addr, _ := strings.Cut(strings.TrimSpace(host), "://"); scheme == "unix" && filepath.IsAbs(addr) {
			host = "unix://" + filepath.Join(dir, filepath.Base(addr)) // never a real socket
		}
		d := dockerEngine{getenv: envOf(map[string]string{"DOCKER_HOST": host, "DOCKER_CONTEXT": ctxName, "HOME": dir}),
			defaultHost: "unix://" + filepath.Join(dir, "docker.sock"), timeout: 100 * time.Millisecond}
		got, err := d.running(t.Context())
		if IsTrue(got) {
			t.Fatalf("nothing listens, yet running = true (%q, %q)", host, ctxName)
		}
		if err != nil && strings.Contains(err.Error(), dir) {
			t.Fatalf("error names a path: %v", err)
		}
	})
}
