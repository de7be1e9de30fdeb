package auditexport

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Protocols the export speaks (docs/telemetry.md, "Configuration").
const (
	ProtocolHTTP = "http/protobuf"
	ProtocolGRPC = "grpc"
)

// DefaultTimeout is how long one export may take when nothing says otherwise (the
// OpenTelemetry default).
const DefaultTimeout = 10 * time.Second

// Config is where and how the audit log is exported. The zero Config (no Endpoint) is
// export switched off, the default.
type Config struct {
	// Endpoint is the URL requests go to: for http/protobuf the full URL of the logs
	// path, for grpc the collector's address as a URL (http:// means no TLS).
	Endpoint string
	Protocol string
	// Headers are sent with every request (an Authorization header, typically). They
	// are secrets: never printed, never in an error.
	Headers map[string]string
	Timeout time.Duration
	// Source says where the endpoint came from: "policy" or "environment".
	Source string
}

// Enabled reports whether the export is switched on.
func (c Config) Enabled() bool { return c.Endpoint != "" }

// Policy is the managed policy's audit.otlp section (docs/telemetry.md, "Configuration"): a field left at
// its zero value is not set by the policy. It mirrors the policy package's type so the
// export does not depend on how the policy is read.
type Policy struct {
	Endpoint string
	Protocol string
	Headers  map[string]string
	Timeout  time.Duration
}

// Resolve is the export's configuration: the environment's OTEL_EXPORTER_OTLP_*
// variables, overridden by the policy. When the policy names an endpoint the
// environment is not read at all, so it can neither redirect nor switch off nor add
// headers to a managed export; the policy's other fields override the environment's
// one by one (docs/telemetry.md, "Configuration"). OTEL_SDK_DISABLED=true switches off
// only an export the environment configured.
func Resolve(getenv func(string) string, pol *Policy) (Config, error) {
	if pol != nil && pol.Endpoint != "" {
		u, err := endpointURL("policy audit.otlp.endpoint", pol.Endpoint)
		if err != nil {
			return Config{}, err
		}
		c := Config{Protocol: ProtocolHTTP, Timeout: DefaultTimeout, Source: "policy"}
		applyPolicy(&c, pol)
		if c.Protocol == ProtocolHTTP && (u.Path == "" || u.Path == "/") {
			u.Path = "/v1/logs"
		}
		c.Endpoint = u.String()
		return c, nil
	}
	c, err := FromEnv(getenv)
	if err != nil || !c.Enabled() {
		return c, err
	}
	if pol != nil {
		applyPolicy(&c, pol)
		if pol.Protocol != "" {
			// The endpoint's meaning depends on the protocol: read it again for the
			// policy's.
			c2, err := fromEnv(getenv, pol.Protocol)
			if err != nil {
				return Config{}, err
			}
			c.Endpoint = c2.Endpoint
		}
	}
	return c, nil
}

func applyPolicy(c *Config, pol *Policy) {
	if pol.Protocol != "" {
		c.Protocol = pol.Protocol
	}
	if pol.Headers != nil {
		c.Headers = pol.Headers
	}
	if pol.Timeout > 0 {
		c.Timeout = pol.Timeout
	}
}

// FromEnv reads the OpenTelemetry exporter variables, the logs-specific spelling
// (OTEL_EXPORTER_OTLP_LOGS_*) first. No endpoint is export switched off.
func FromEnv(getenv func(string) string) (Config, error) {
	return fromEnv(getenv, "")
}

func fromEnv(getenv func(string) string, protocol string) (Config, error) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return Config{}, nil
	}
	c := Config{Protocol: ProtocolHTTP, Timeout: DefaultTimeout, Source: "environment"}
	if name, v := pick(getenv, "PROTOCOL"); v != "" {
		switch v {
		case ProtocolHTTP, ProtocolGRPC:
			c.Protocol = v
		default:
			return Config{}, fmt.Errorf("%s: %q is not a protocol the audit export speaks (http/protobuf or grpc)", name, v)
		}
	}
	if protocol != "" {
		c.Protocol = protocol
	}
	if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")); v != "" {
		// The signal-specific endpoint is used as given (OTLP exporter specification).
		u, err := endpointURL("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", v)
		if err != nil {
			return Config{}, err
		}
		c.Endpoint = u.String()
	} else if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")); v != "" {
		u, err := endpointURL("OTEL_EXPORTER_OTLP_ENDPOINT", v)
		if err != nil {
			return Config{}, err
		}
		if c.Protocol == ProtocolHTTP {
			// The shared endpoint is a base: the logs path is appended to it.
			u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/logs"
		}
		c.Endpoint = u.String()
	} else {
		return Config{}, nil
	}
	if name, v := pick(getenv, "HEADERS"); v != "" {
		h, err := ParseHeaders(v)
		if err != nil {
			return Config{}, fmt.Errorf("%s: %w", name, err)
		}
		c.Headers = h
	}
	if name, v := pick(getenv, "TIMEOUT"); v != "" {
		ms, err := strconv.ParseUint(v, 10, 31)
		if err != nil || ms == 0 {
			return Config{}, fmt.Errorf("%s: %q is not a positive whole number of milliseconds", name, v)
		}
		c.Timeout = time.Duration(ms) * time.Millisecond
	}
	return c, nil
}

// pick returns the logs-specific variable when set, else the shared one, and its name.
func pick(getenv func(string) string, what string) (string, string) {
	for _, name := range []string{"OTEL_EXPORTER_OTLP_LOGS_" + what, "OTEL_EXPORTER_OTLP_" + what} {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return name, v
		}
	}
	return "", ""
}

// endpointURL parses an endpoint: an http or https URL with a host, no user
// information, query or fragment.
func endpointURL(field, v string) (*url.URL, error) {
	u, err := url.Parse(v)
	if err != nil {
		return nil, fmt.Errorf("%s: not a URL", field)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%s: the URL must start with http:// or https://", field)
	case u.Host == "" || u.Hostname() == "":
		return nil, fmt.Errorf("%s: the URL has no host", field)
	case u.User != nil:
		// Credentials belong in the headers, which are never printed; a URL is.
		return nil, fmt.Errorf("%s: the URL must not carry user information (use the headers)", field)
	case u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("%s: the URL must not have a query or fragment", field)
	}
	return u, nil
}

// MaxHeaders bounds the number of headers a configuration may give.
const MaxHeaders = 64

// ParseHeaders parses OTEL_EXPORTER_OTLP_HEADERS: comma-separated key=value pairs, each
// value percent-encoded (the W3C Baggage format the specification names), blanks around
// keys and values ignored. A key must be an HTTP header name (token characters), a
// value must decode to printable text without control characters. Errors name the
// entry by position and never repeat a value: header values are secrets.
func ParseHeaders(s string) (map[string]string, error) {
	out := map[string]string{}
	for i, entry := range strings.Split(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		k, v, ok := strings.Cut(entry, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("entry %d is not key=value", i+1)
		}
		if !token(k) {
			return nil, fmt.Errorf("entry %d: the key is not an HTTP header name", i+1)
		}
		dv, err := url.PathUnescape(v)
		if err != nil {
			return nil, fmt.Errorf("entry %d: the value is not percent-encoded correctly", i+1)
		}
		for _, r := range dv {
			if r < 0x20 && r != '\t' || r == 0x7f {
				return nil, fmt.Errorf("entry %d: the value holds a control character", i+1)
			}
		}
		out[strings.ToLower(k)] = dv
		if len(out) > MaxHeaders {
			return nil, errors.New("more than 64 headers")
		}
	}
	return out, nil
}

// token reports whether s is an RFC 9110 token (a header name).
func token(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return s != ""
}
