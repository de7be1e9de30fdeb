//go:build race

package stdio_test

// floodScale divides the floods' sizes under the race detector, which makes every
// logs_query of a flood some ten times slower: a smaller flood still queues far past
// the bound and checks the same promises.
const floodScale = 5
