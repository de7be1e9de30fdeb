package proc

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// markerValue is stored once in the test binary's read-only data. Copies of the binary
// that differ only in its last markerLen bytes (patched by markedCopies) tell a child
// which bytes it is running: the value printed comes from the code actually mapped.
var markerValue = "wda-proc-identity-marker:AAAAAAAAAAAAAAAA"

const markerLen = 16

// helperEnv switches the test binary into a helper program (see runHelper).
const helperEnv = "PROC_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// runHelper is a small program: each mode is one behaviour a test needs from a child.
func runHelper(mode string, args []string) int {
	switch mode {
	case "args": // echo the argv it received, JSON-encoded
		b, _ := json.Marshal(args)
		os.Stdout.Write(b)
		return 0
	case "argshex": // echo the argv it received, each argument hex-encoded (byte-exact)
		hexed := make([]string, len(args))
		for i, a := range args {
			hexed[i] = fmt.Sprintf("%x", a)
		}
		b, _ := json.Marshal(hexed)
		os.Stdout.Write(b)
		return 0
	case "out": // out N M: N bytes on stdout, M bytes on stderr
		n, _ := strconv.Atoi(args[0])
		m, _ := strconv.Atoi(args[1])
		os.Stdout.WriteString(strings.Repeat("o", n))
		os.Stderr.WriteString(strings.Repeat("e", m))
		return 0
	case "raw": // raw HEX: write the decoded bytes to stdout
		var b []byte
		fmt.Sscanf(args[0], "%x", &b)
		os.Stdout.Write(b)
		return 0
	case "marker": // print which copy of the test binary this is (see markerValue)
		fmt.Print(markerValue[len(markerValue)-markerLen:])
		return 0
	case "exit":
		n, _ := strconv.Atoi(args[0])
		return n
	case "stdin": // report how many bytes stdin yielded before EOF
		n, err := io.Copy(io.Discard, os.Stdin)
		fmt.Printf("read %d bytes, err=%v", n, err)
		return 0
	case "cwd":
		wd, _ := os.Getwd()
		fmt.Print(wd)
		return 0
	case "env":
		fmt.Print(os.Getenv(args[0]))
		return 0
	case "nullcheck": // nullcheck FILE: write n/x per stdin, stdout, stderr being the null device
		null, err := os.Stat(os.DevNull)
		var b strings.Builder
		for _, f := range []*os.File{os.Stdin, os.Stdout, os.Stderr} {
			fi, ferr := f.Stat()
			if err == nil && ferr == nil && os.SameFile(fi, null) {
				b.WriteByte('n')
			} else {
				b.WriteByte('x')
			}
		}
		os.WriteFile(args[0], []byte(b.String()), 0o644)
		return 0
	case "hang": // hang [ADDR]: optionally tell the test it is running, then sleep
		if len(args) > 0 {
			notify(args[0])
		}
		time.Sleep(30 * time.Second)
		return 0
	case "hanglong": // hanglong ADDR: tell the test it is running, then sleep ten minutes
		notify(args[0])
		time.Sleep(10 * time.Minute)
		return 0
	case "grandchild": // grandchild [ADDR]: start a grandchild holding our stdout/stderr
		// (telling ADDR its pid when it runs), print its pid, hang
		pid, err := spawnGrandchild(false, args...)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Println(pid)
		time.Sleep(30 * time.Second)
		return 0
	case "escapehang": // escapehang ADDR: start a grandchild outside our process group
		// holding our pipes (it tells ADDR its pid), then hang
		if _, err := spawnGrandchild(true, args...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		time.Sleep(30 * time.Second)
		return 0
	case "server": // server ADDR [MODE]: a stand-in MCP server running one long child
		// (hang by default) through Run
		mode := "hang"
		if len(args) > 1 {
			mode = args[1]
		}
		r := Run(context.Background(), Request{
			Argv: []string{os.Args[0], args[0]}, Dir: os.TempDir(), Env: helperEnvFor(mode), Timeout: 20 * time.Minute,
		})
		fmt.Printf("%+v\n", r)
		return 0
	case "cwdinfo": // print the working directory, PWD and the identity of "."
		wd, _ := os.Getwd()
		fi, err := os.Stat(".")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Printf("%s\n%s\n%s", wd, os.Getenv("PWD"), fileKey(fi))
		return 0
	case "self": // print argv[0] and the executable the kernel started
		exe, _ := os.Executable()
		fmt.Printf("%s\n%s", os.Args[0], exe)
		return 0
	case "progress": // progress ADDR: output in two steps, each released by a line from ADDR
		c, err := net.Dial("tcp", args[0])
		if err != nil {
			return 2
		}
		defer c.Close()
		in := bufio.NewReader(c)
		os.Stderr.WriteString("warning: \x1b[33mcareful\x1b[0m\n")
		in.ReadString('\n')
		os.Stdout.WriteString("line one\nline two\rpartial\tthree")
		in.ReadString('\n')
		return 0
	case "orphan": // start a grandchild holding our pipes, print its pid, exit at once
		pid, err := spawnGrandchild(false)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Println(pid)
		return 0
	case "escape": // start a grandchild outside our process group holding our pipes, exit
		pid, err := spawnGrandchild(true)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Println(pid)
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
	return 100
}

// spawnGrandchild starts the helper in hang mode (with args) with inherited
// stdout/stderr.
func spawnGrandchild(escape bool, args ...string) (int, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, err
	}
	c := exec.Command(self, args...)
	c.Env = helperEnvFor("hang")
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	if escape {
		c.SysProcAttr = escapeAttr()
	}
	if err := c.Start(); err != nil {
		return 0, err
	}
	return c.Process.Pid, nil
}

// notify tells the test at addr that this process runs, and its pid.
func notify(addr string) {
	c, err := net.Dial("tcp", addr)
	if err == nil {
		fmt.Fprintf(c, "started %d\n", os.Getpid())
		c.Close()
	}
}

// notifications listens for helpers' notify calls; each received pid is sent on the
// returned channel.
func notifications(t *testing.T) (addr string, pids <-chan int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener:", err)
	}
	t.Cleanup(func() { ln.Close() })
	ch := make(chan int, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			var pid int
			if _, err := fmt.Fscanf(c, "started %d\n", &pid); err == nil {
				ch <- pid
			}
			c.Close()
		}
	}()
	return ln.Addr().String(), ch
}

// helperPath is the test binary, absolute.
func helperPath(t testing.TB) string {
	t.Helper()
	p, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// helperRequest builds a Request running the helper in mode with args.
func helperRequest(t testing.TB, mode string, args ...string) Request {
	t.Helper()
	return Request{
		Argv:    append([]string{helperPath(t)}, args...),
		Dir:     t.TempDir(),
		Env:     helperEnvFor(mode),
		Timeout: time.Minute,
	}
}

// helperEnvFor is the environment of a helper child. GORACE stops a -race helper from
// sleeping a second at exit, which would only make the tests slow.
func helperEnvFor(mode string) []string {
	return append(os.Environ(), helperEnv+"="+mode, "GORACE=atexit_sleep_ms=0")
}
