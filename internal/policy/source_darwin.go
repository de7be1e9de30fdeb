package policy

func systemSources() Sources {
	return Sources{File: "/Library/Application Support/WindowsDevAgent/policy.json"}
}
