package proc

import "errors"

// errUnsupported is what platform refusals unwrap to, so callers can use
// errors.Is(err, errors.ErrUnsupported) instead of matching text.
var errUnsupported = errors.ErrUnsupported
