//go:build !linux && !darwin && !windows

package main

// Elsewhere wda never prompts and never draws a progress line.
func isTerminal(uintptr) bool   { return false }
func terminalWidth(uintptr) int { return 0 }
