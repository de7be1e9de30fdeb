package discovery

import "math"

// gib converts bytes to GiB rounded to 2 decimals.
func gib(b uint64) float64 { return math.Round(float64(b)/(1<<30)*100) / 100 }
