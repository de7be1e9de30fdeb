package audit

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fullOutcomeFields is the oracle: a full decode, cut to the keys the rules read.
func fullOutcomeFields(b []byte) map[string]any {
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil || all == nil {
		return nil
	}
	out := map[string]any{}
	for _, k := range outcomeKeys {
		if v, ok := all[k]; ok {
			out[k] = v
		}
	}
	return out
}

var outcomeFieldSeeds = []string{
	`{"status":"completed","execution_started":true,"returncode":0,"stdout":"x"}`,
	`{"status":"failed","error":{"message":"m","nested":[1,2,{"a":null}]},"timed_out":true}`,
	`{"Status":"completed","STATUS":"x"}`,
	`{"status":"a","status":"planned"}`,
	`{"lifecycle_error":"","succeeded":false,"returncode":1.5}`,
	`{}`,
	`null`,
	`[]`,
	`"status"`,
	`{"status":`,
	`{"status":"ok"} trailing`,
}

func TestOutcomeFieldsMatchFullDecode(t *testing.T) {
	t.Parallel()
	for _, in := range outcomeFieldSeeds {
		if d := cmp.Diff(fullOutcomeFields([]byte(in)), outcomeFields([]byte(in))); d != "" {
			t.Errorf("%s (-full +fields):\n%s", in, d)
		}
	}
}

func FuzzOutcomeFields(f *testing.F) {
	for _, s := range outcomeFieldSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if d := cmp.Diff(fullOutcomeFields(b), outcomeFields(b)); d != "" {
			t.Errorf("%q (-full +fields):\n%s", b, d)
		}
	})
}
