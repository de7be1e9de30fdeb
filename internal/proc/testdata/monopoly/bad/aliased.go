package bad

import run "os/exec"

func aliased() { _ = run.Command("x") }
