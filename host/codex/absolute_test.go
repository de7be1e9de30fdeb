package codex

import "testing"

func TestMessagesAreTheSharedAbsoluteChecks(t *testing.T) {
	for got, want := range map[string]string{
		MsgRequired: absolute.MsgRequired(), MsgNotString: absolute.MsgNotString(),
		MsgNotAbsolute: absolute.MsgNotAbsolute(), ProjectArgDescription: absolute.ArgDescription(),
	} {
		if got != want {
			t.Errorf("constant %q differs from the shared check's %q", got, want)
		}
	}
}
