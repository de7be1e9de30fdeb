package policy

func systemSources() Sources { return Sources{File: "/etc/windows-dev-agent/policy.json"} }
