package discovery

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// DockerTimeout bounds the Docker engine probe: connecting and, on a socket, the
// /_ping answer (docs/discovery.md, "Docker engine").
const DockerTimeout = 2 * time.Second

// dockerConfigMax bounds each Docker client file read (config.json, a context's
// meta.json).
const dockerConfigMax = 1 << 20

// dockerEngine probes whether a Docker engine answers on this machine
// (docs/discovery.md, "Docker engine"). It never starts the docker CLI (discovery
// launches no developer tool) and never contacts another host: it connects only to a
// local Unix socket or a local named pipe.
type dockerEngine struct {
	getenv func(string) string
	// defaultHost is the engine address when neither DOCKER_HOST nor a context names
	// one: the Unix socket /var/run/docker.sock, or the pipe //./pipe/docker_engine on
	// Windows.
	defaultHost string
	timeout     time.Duration
	// openPipe connects to a local named pipe (Windows only; nil elsewhere).
	openPipe func(name string) (*bool, error)
}

// errDockerUnknown wraps the causes that make the engine state not established.
var errDockerUnknown = errors.New("Docker engine state was not established") //nolint:staticcheck // ST1005: "Docker" is a name, and docs/discovery.md quotes this text

// running answers the docker_running tri-state. A nil answer with a nil error is a
// deliberate unknown (a remote or unsupported address); with an error it is a probe
// that failed, and the error is one line of the snapshot's errors.
func (d dockerEngine) running(ctx context.Context) (*bool, error) {
	host, err := d.host()
	if err != nil {
		return nil, err
	}
	scheme, addr, _ := strings.Cut(host, "://")
	switch scheme {
	case "unix":
		if !filepath.IsAbs(addr) {
			return nil, nil
		}
		return d.ping(ctx, addr)
	case "npipe":
		name, ok := localPipe(addr)
		if !ok || d.openPipe == nil {
			return nil, nil
		}
		return d.openPipe(name)
	}
	// tcp://, ssh://, fd:// and anything else: another host or a transport this probe
	// does not speak. Contacting it would make env_inspect open-world.
	return nil, nil
}

// host is the engine address the docker CLI would use: DOCKER_HOST, else the endpoint
// of the selected context (DOCKER_CONTEXT, else config.json's currentContext), else the
// default. Only the address is used; none of these values is ever emitted.
func (d dockerEngine) host() (string, error) {
	if h := strings.TrimSpace(d.getenv("DOCKER_HOST")); h != "" {
		return h, nil
	}
	dir := d.configDir()
	name := strings.TrimSpace(d.getenv("DOCKER_CONTEXT"))
	if name == "" && dir != "" {
		var cfg struct {
			CurrentContext string `json:"currentContext"`
		}
		b, err := readBounded(filepath.Join(dir, "config.json"))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return "", fmt.Errorf("%w: the Docker client configuration could not be read: %s", errDockerUnknown, cause(err))
		case json.Unmarshal(b, &cfg) != nil:
			return "", fmt.Errorf("%w: the Docker client configuration is not valid JSON", errDockerUnknown)
		default:
			name = strings.TrimSpace(cfg.CurrentContext)
		}
	}
	if name == "" || name == "default" {
		return d.defaultHost, nil
	}
	if dir == "" {
		return "", fmt.Errorf("%w: a Docker context is selected and the Docker client configuration directory is unknown", errDockerUnknown)
	}
	// The CLI stores a context's metadata under the SHA-256 of its name.
	sum := sha256.Sum256([]byte(name))
	b, err := readBounded(filepath.Join(dir, "contexts", "meta", hex.EncodeToString(sum[:]), "meta.json"))
	if err != nil {
		return "", fmt.Errorf("%w: the selected Docker context could not be read: %s", errDockerUnknown, cause(err))
	}
	var meta struct {
		Endpoints struct {
			Docker struct {
				Host string `json:"Host"`
			} `json:"docker"`
		} `json:"Endpoints"`
	}
	if json.Unmarshal(b, &meta) != nil || strings.TrimSpace(meta.Endpoints.Docker.Host) == "" {
		return "", fmt.Errorf("%w: the selected Docker context has no engine address", errDockerUnknown)
	}
	return strings.TrimSpace(meta.Endpoints.Docker.Host), nil
}

// configDir is DOCKER_CONFIG, else .docker in the home directory (HOME, else
// USERPROFILE), or "" when neither is known.
func (d dockerEngine) configDir() string {
	if c := strings.TrimSpace(d.getenv("DOCKER_CONFIG")); c != "" && filepath.IsAbs(c) {
		return c
	}
	for _, k := range []string{"HOME", "USERPROFILE"} {
		if h := strings.TrimSpace(d.getenv(k)); h != "" && filepath.IsAbs(h) {
			return filepath.Join(h, ".docker")
		}
	}
	return ""
}

func readBounded(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, dockerConfigMax+1))
	if err == nil && len(b) > dockerConfigMax {
		err = fmt.Errorf("larger than %d bytes", dockerConfigMax)
	}
	return b, err
}

// localPipe maps an npipe address ("//./pipe/docker_engine", slashes either way) to the
// pipe's Win32 name; a pipe on another host (//server/pipe/x) is not local.
func localPipe(addr string) (string, bool) {
	name := strings.ReplaceAll(addr, "/", `\`)
	rest, ok := strings.CutPrefix(name, `\\.\pipe\`)
	if !ok || rest == "" || strings.Contains(rest, `\`) {
		return "", false
	}
	return name, true
}

// ping connects to the engine's Unix socket and asks GET /_ping: true when it answers
// 200. No socket file, or a socket nobody listens on, is an established false (the
// engine is not running); every other failure is not established.
func (d dockerEngine) ping(ctx context.Context, path string) (*bool, error) {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, "unix", path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
			return False(), nil
		}
		return nil, fmt.Errorf("%w: %s", errDockerUnknown, cause(err))
	}
	defer func() { _ = conn.Close() }()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl) // a socket always takes a deadline; a failure shows as a read error
	}
	if _, err := io.WriteString(conn, "GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n"); err != nil {
		return nil, fmt.Errorf("%w: %s", errDockerUnknown, cause(err))
	}
	status, err := bufio.NewReaderSize(io.LimitReader(conn, 512), 512).ReadString('\n')
	if err != nil && status == "" {
		return nil, fmt.Errorf("%w: the engine socket accepted a connection but did not answer: %s", errDockerUnknown, cause(err))
	}
	proto, code, _ := strings.Cut(strings.TrimSpace(status), " ")
	if !strings.HasPrefix(proto, "HTTP/1.") {
		return nil, fmt.Errorf("%w: the engine socket did not answer in HTTP", errDockerUnknown)
	}
	if code, _, _ = strings.Cut(code, " "); code != "200" {
		return nil, fmt.Errorf("%w: the engine answered /_ping with status %s", errDockerUnknown, quoteShort(code))
	}
	return True(), nil
}

// cause is an error's innermost system message without the paths and addresses its
// wrappers add (a path can carry the user name, which is never collected).
func cause(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	if errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return "timed out"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err.Error()
	}
	return err.Error()
}

func quoteShort(s string) string {
	if len(s) > 16 {
		s = s[:16]
	}
	return fmt.Sprintf("%q", s)
}
